// Robustness of the robot importers against malformed files: deterministic
// mutations of the shipped URDF robots (assets/robots/*.urdf), of a URDF and
// an MJCF model written here that use every element the importers map or
// skip, must each either import or throw InputError with a one-line message
// that names the file. Nothing else may escape: no crash, no hang, no other
// exception type (scene_fuzz_test.cpp does the same for scene files).
//
// Each mutated text goes through ImportUrdfString / ImportMjcf directly and,
// for every fourth mutation, through LoadSceneString with a `robots:` entry
// naming it; a scene that loads is then built into a Simulation and stepped
// (a malformed robot must not crash the engine behind the loader either).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/scene/mjcf_importer.h"
#include "engine/scene/scene_loader.h"
#include "engine/scene/urdf_importer.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

// Mutations per seed file, by kind.
constexpr int kByteEdits = 200;
constexpr int kLineEdits = 80;
constexpr int kAttributeEdits = 500;
constexpr int kElementEdits = 100;
constexpr int kTruncations = 40;
constexpr int kSceneEvery = 4;  ///< Every n-th mutation is also loaded as a scene.
constexpr double kSlowCaseSeconds = 2.0;

/// A URDF with what the shipped robots lack: continuous, floating and fixed
/// joints, a package:// mesh, a named material, <limit lower=0 upper=0>,
/// mimic, joint friction and a safety controller.
constexpr char kFeaturesUrdf[] = R"(<?xml version="1.0"?>
<robot name="features">
  <material name="red"><color rgba="1 0 0 1"/></material>
  <link name="base">
    <inertial><origin xyz="0 0 0.05" rpy="0 0 0"/><mass value="2"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.1"/></geometry><material name="red"/></visual>
    <collision><origin xyz="0 0 0.05"/><geometry><box size="0.2 0.2 0.1"/></geometry></collision>
  </link>
  <joint name="spin" type="continuous">
    <parent link="base"/><child link="rotor"/>
    <origin xyz="0 0 0.1" rpy="0 0 0.3"/><axis xyz="0 0 1"/>
    <limit effort="5" velocity="2"/>
    <dynamics damping="0.1" friction="0.2"/>
  </joint>
  <link name="rotor">
    <inertial><mass value="0.5"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
    <collision><geometry><cylinder radius="0.05" length="0.1"/></geometry></collision>
    <visual><geometry><mesh filename="package://fuzzpkg/tet.obj" scale="0.1 0.1 0.1"/></geometry>
      <material name="blue"><color rgba="0 0 1 1"/></material></visual>
  </link>
  <joint name="slide" type="prismatic">
    <parent link="rotor"/><child link="slider"/>
    <origin xyz="0.1 0 0.1"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0" effort="20" velocity="1"/>
    <safety_controller soft_lower_limit="-0.1" soft_upper_limit="0.1" k_position="10" k_velocity="1"/>
    <mimic joint="spin" multiplier="2" offset="0.1"/>
  </joint>
  <link name="slider">
    <inertial><mass value="0.2"/><inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0001" iyz="0" izz="0.0001"/></inertial>
    <collision><geometry><sphere radius="0.03"/></geometry></collision>
  </link>
  <joint name="tool_fixed" type="fixed">
    <parent link="slider"/><child link="tool"/><origin xyz="0 0 0.05" rpy="0.1 0.2 0.3"/>
  </joint>
  <link name="tool">
    <inertial><origin xyz="0.01 0 0"/><mass value="0.1"/>
      <inertia ixx="0.0001" ixy="0.00001" ixz="0" iyy="0.0001" iyz="0" izz="0.0001"/></inertial>
    <visual><geometry><sphere radius="0.01"/></geometry><material name="red"/></visual>
  </link>
  <joint name="float" type="floating">
    <parent link="base"/><child link="puck"/><origin xyz="0.5 0 0.2"/>
  </joint>
  <link name="puck">
    <inertial><mass value="0.3"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
    <collision><geometry><box size="0.05 0.05 0.02"/></geometry></collision>
  </link>
  <joint name="arm" type="revolute">
    <parent link="base"/><child link="arm_link"/><origin xyz="-0.1 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="3"/>
  </joint>
  <link name="arm_link">
    <inertial><origin xyz="0 0 0.1"/><mass value="0.4"/>
      <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0002"/></inertial>
    <collision><origin xyz="0 0 0.1"/><geometry><cylinder radius="0.02" length="0.2"/></geometry></collision>
  </link>
</robot>
)";

/// A tetrahedron for the mesh above.
constexpr char kTetrahedronObj[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

/// An MJCF model with what the importer maps (free, ball, hinge and slide
/// joints with limits, springs, damping and armature; plane, box, capsule,
/// cylinder, sphere and mesh geoms, the meshes inline (vertices only: MuJoCo
/// makes the faces) and from an OBJ file, scaled, off-centre (the compiler
/// moves them); friction, contype/conaffinity 0, group 3;
/// connect and weld; position and velocity servos with a force range) and
/// what it skips with a note (ellipsoid, frictionloss, a tendon, a sensor,
/// a motor).
constexpr char kMjcf[] = R"(<mujoco model="fuzz">
  <compiler angle="radian"/>
  <option gravity="0 0 -9.81" timestep="0.005"/>
  <default><geom friction="0.8 0.005 0.0001"/></default>
  <asset>
    <mesh name="wedge" vertex="0.1 0 0  0.2 0 0  0.1 0.1 0  0.2 0.1 0  0.1 0 0.05  0.2 0 0.05"/>
    <mesh name="tet" file="tet.obj" scale="0.05 0.05 0.1"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" rgba="0.5 0.5 0.5 1"/>
    <body name="base" pos="0 0 0.5">
      <freejoint name="base_free"/>
      <geom type="box" size="0.1 0.1 0.05" mass="2"/>
      <geom name="wedge_geom" type="mesh" mesh="wedge" pos="0 0 0.05" euler="0 0 0.5" mass="0.1"/>
      <body name="upper" pos="0.1 0 0" euler="0.1 0.2 0.3">
        <joint name="shoulder" type="ball" armature="0.01" damping="0.1"/>
        <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.03" mass="0.5"/>
        <body name="lower" pos="0.2 0 0">
          <joint name="elbow" type="hinge" axis="0 1 0" ref="0.2" limited="true" range="-2 2" stiffness="1" springref="0.1"/>
          <geom type="cylinder" fromto="0 0 0 0 0 -0.2" size="0.02" mass="0.3" contype="0" conaffinity="0" group="3"/>
          <geom type="sphere" size="0.03" pos="0 0 -0.2" friction="1.2"/>
          <body name="slider" pos="0 0 -0.2">
            <joint name="slide" type="slide" axis="1 0 0" limited="true" range="-0.1 0.1" frictionloss="0.1"/>
            <geom type="sphere" size="0.02" mass="0.1"/>
            <geom type="ellipsoid" size="0.02 0.03 0.04" mass="0.01"/>
          </body>
        </body>
      </body>
    </body>
    <body name="post" pos="1 0 0.5">
      <geom type="box" size="0.02 0.02 0.5"/>
      <geom type="mesh" mesh="tet" pos="0.05 0 0.5"/>
      <body name="flap" pos="0 0 0.5">
        <joint name="flap_hinge" type="hinge" axis="1 0 0" damping="0.05"/>
        <geom type="box" size="0.1 0.01 0.1" mass="0.2"/>
      </body>
    </body>
  </worldbody>
  <equality>
    <connect name="tie" body1="flap" body2="post" anchor="0 0 0.1"/>
    <weld name="glue" body1="slider" body2="lower"/>
  </equality>
  <tendon><fixed name="t"><joint joint="elbow" coef="1"/></fixed></tendon>
  <actuator>
    <position name="elbow_servo" joint="elbow" kp="50" gear="2" forcelimited="true" forcerange="-5 5"/>
    <velocity name="flap_damper" joint="flap_hinge" kv="1"/>
    <motor name="slide_motor" joint="slide" gear="1"/>
  </actuator>
  <sensor><jointpos name="elbow_angle" joint="elbow"/></sensor>
</mujoco>
)";

struct Seed {
  std::string name;  ///< For messages.
  std::string text;
  bool urdf = true;
};

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<Seed> Seeds() {
  std::vector<Seed> out;
  const fs::path dir = fs::path(STICTION_SOURCE_DIR) / "assets" / "robots";
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".urdf") out.push_back({entry.path().filename().string(), ReadText(entry.path())});
  }
  std::sort(out.begin(), out.end(), [](const Seed& a, const Seed& b) { return a.name < b.name; });
  out.push_back({"features.urdf", kFeaturesUrdf, true});
  out.push_back({"fuzz.xml", kMjcf, false});
  return out;
}

// ---------------------------------------------------------------------------
// Mutations. Every one is a pure function of the seed text and the generator,
// so a failure names an input that the same run reproduces.

/// Values that break numbers, vectors, names and XML itself.
const std::vector<std::string>& EdgeValues() {
  static const std::vector<std::string> values = {
      "nan", "NaN", "-nan", "inf", "-inf", "1e308", "-1e308", "1e999", "-1e999", "0", "-0", "-1",
      "1e-320", "4.9e-324", "99999999999999999999999", "", " ", "abc", "1 2", "1 2 3 4 5 6 7 8 9",
      "0 0 0", "0 0 0 0", "nan nan nan", "inf 0 0", "1e308 1e308 1e308", "-1 -1 -1", "0x10", "1,2,3",
      "true", "&amp;", "&bogus;", "<", "\"", "world", "base", "package://", "package://x/", "file://",
      "/", ".", "..", "2147483648", "-2147483649",
  };
  return values;
}

/// One attribute `name="value"` (or with single quotes): byte offsets.
struct Attribute {
  std::size_t begin;        ///< First byte of its name.
  std::size_t value_begin;  ///< First byte of its value.
  std::size_t value_end;    ///< One past its value (the closing quote).
};

std::vector<Attribute> FindAttributes(const std::string& text) {
  std::vector<Attribute> out;
  bool in_tag = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') in_tag = true;
    if (c == '>') in_tag = false;
    if (!in_tag || c != '=' || i + 1 >= text.size()) continue;
    const char quote = text[i + 1];
    if (quote != '"' && quote != '\'') continue;
    const std::size_t close = text.find(quote, i + 2);
    if (close == std::string::npos) break;
    std::size_t name = i;
    while (name > 0 && !std::isspace(static_cast<unsigned char>(text[name - 1]))) --name;
    out.push_back({name, i + 2, close});
    i = close;
  }
  return out;
}

/// One element `<tag ...>...</tag>` or `<tag .../>`: byte offsets.
struct Element {
  std::size_t begin, end;
};

std::vector<Element> FindElements(const std::string& text) {
  std::vector<Element> out;
  for (std::size_t i = text.find('<'); i != std::string::npos; i = text.find('<', i + 1)) {
    if (i + 1 >= text.size() || !std::isalpha(static_cast<unsigned char>(text[i + 1]))) continue;
    std::size_t name_end = i + 1;
    while (name_end < text.size() && (std::isalnum(static_cast<unsigned char>(text[name_end])) || text[name_end] == '_')) {
      ++name_end;
    }
    const std::string tag = text.substr(i + 1, name_end - i - 1);
    const std::size_t tag_end = text.find('>', name_end);
    if (tag_end == std::string::npos) break;
    if (text[tag_end - 1] == '/') {
      out.push_back({i, tag_end + 1});
      continue;
    }
    // The matching close tag, counting nested elements of the same name.
    int depth = 1;
    std::size_t pos = tag_end + 1;
    while (depth > 0) {
      const std::size_t open = text.find("<" + tag, pos);
      const std::size_t close = text.find("</" + tag + ">", pos);
      if (close == std::string::npos) break;
      if (open != std::string::npos && open < close) {
        const char after = text[open + 1 + tag.size()];
        const std::size_t open_end = text.find('>', open);
        if ((after == ' ' || after == '>' || after == '\n') && open_end != std::string::npos &&
            text[open_end - 1] != '/') {
          ++depth;
        }
        pos = open + 1;
      } else {
        --depth;
        pos = close + tag.size() + 3;
      }
    }
    if (depth == 0) out.push_back({i, pos});
  }
  return out;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

class Mutator {
 public:
  Mutator(const std::string& seed, unsigned rng_seed)
      : seed_(seed), attributes_(FindAttributes(seed)), elements_(FindElements(seed)), rng_(rng_seed) {}

  std::size_t Pick(std::size_t n) { return n == 0 ? 0 : rng_() % n; }

  /// 1–4 bytes replaced, inserted or deleted (characters that matter to XML).
  std::string Bytes(std::string* what) {
    static const std::string alphabet = "<>/=\"' \n!?&;-.0123456789eE+abcxyz[]{}\\\t\x01\xff";
    std::string text = seed_;
    const int edits = 1 + static_cast<int>(Pick(4));
    *what = "byte edits:";
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t pos = Pick(text.size());
      const char c = alphabet[Pick(alphabet.size())];
      switch (Pick(3)) {
        case 0: text[pos] = c; *what += " set@" + std::to_string(pos); break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(pos), c); *what += " insert@" + std::to_string(pos); break;
        default: text.erase(pos, 1 + Pick(3)); *what += " erase@" + std::to_string(pos); break;
      }
    }
    return text;
  }

  /// A line deleted, duplicated or swapped with another.
  std::string Lines(std::string* what) {
    std::vector<std::string> lines = SplitLines(seed_);
    const std::size_t a = Pick(lines.size()), b = Pick(lines.size());
    switch (Pick(3)) {
      case 0: lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(a)); *what = "line " + std::to_string(a + 1) + " deleted"; break;
      case 1: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(a), lines[a]); *what = "line " + std::to_string(a + 1) + " duplicated"; break;
      default: std::swap(lines[a], lines[b]); *what = "lines " + std::to_string(a + 1) + " and " + std::to_string(b + 1) + " swapped"; break;
    }
    return JoinLines(lines);
  }

  /// An attribute's value replaced by an edge value or another attribute's
  /// value, or the attribute deleted or duplicated.
  std::string Attributes(std::string* what) {
    if (attributes_.empty()) return Bytes(what);
    const Attribute& a = attributes_[Pick(attributes_.size())];
    const std::string name = seed_.substr(a.begin, a.value_begin - 2 - a.begin);
    std::string text = seed_;
    const std::size_t kind = Pick(10);
    if (kind < 6) {
      const std::string& value = EdgeValues()[Pick(EdgeValues().size())];
      *what = "attribute " + name + "@" + std::to_string(a.begin) + " = [" + value + "]";
      return text.replace(a.value_begin, a.value_end - a.value_begin, value);
    }
    if (kind < 8) {
      const Attribute& other = attributes_[Pick(attributes_.size())];
      const std::string value = seed_.substr(other.value_begin, other.value_end - other.value_begin);
      *what = "attribute " + name + "@" + std::to_string(a.begin) + " = [" + value + "] (another's)";
      return text.replace(a.value_begin, a.value_end - a.value_begin, value);
    }
    const std::string whole = seed_.substr(a.begin, a.value_end + 1 - a.begin);
    if (kind == 8) {
      *what = "attribute " + name + "@" + std::to_string(a.begin) + " deleted";
      return text.erase(a.begin, whole.size());
    }
    *what = "attribute " + name + "@" + std::to_string(a.begin) + " duplicated";
    return text.insert(a.value_end + 1, " " + whole);
  }

  /// An element deleted, duplicated, or cut open (its '>' removed).
  std::string Elements(std::string* what) {
    if (elements_.empty()) return Bytes(what);
    const Element& e = elements_[Pick(elements_.size())];
    const std::string whole = seed_.substr(e.begin, e.end - e.begin);
    const std::string head = whole.substr(0, std::min<std::size_t>(whole.find_first_of(" >/\n"), 40));
    std::string text = seed_;
    switch (Pick(3)) {
      case 0: *what = "element " + head + "@" + std::to_string(e.begin) + " deleted"; return text.erase(e.begin, whole.size());
      case 1: *what = "element " + head + "@" + std::to_string(e.begin) + " duplicated"; return text.insert(e.end, whole);
      default: {
        const std::size_t gt = text.find('>', e.begin);
        *what = "element " + head + "@" + std::to_string(e.begin) + " unterminated";
        return text.erase(gt, 1);
      }
    }
  }

 private:
  const std::string& seed_;
  std::vector<Attribute> attributes_;
  std::vector<Element> elements_;
  std::mt19937 rng_;
};

// ---------------------------------------------------------------------------
// Checking one input.

struct Tally {
  int cases = 0;
  int imported = 0;
  int rejected = 0;
  int scenes = 0;
  int scenes_loaded = 0;
  int simulated = 0;
};

class RobotFuzzTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The directory is named like the package, so that package://fuzzpkg/...
    // resolves beside the robot file (docs/robots.md).
    dir_ = new fs::path(test::TempPath("stiction_robot_fuzz_" + std::to_string(::getpid())) / "fuzzpkg");
    fs::create_directories(*dir_);
    std::ofstream(*dir_ / "tet.obj") << kTetrahedronObj;
  }
  static void TearDownTestSuite() {
    fs::remove_all(dir_->parent_path());
    delete dir_;
  }

  /// Fails unless `message` is one non-empty line starting with one of `labels`.
  static void CheckMessage(const std::string& message, const std::vector<std::string>& labels,
                           const std::string& what, const std::string& text) {
    bool labelled = false;
    for (const std::string& label : labels) labelled = labelled || message.rfind(label + ":", 0) == 0;
    if (message.empty() || message.find('\n') != std::string::npos || message.find('\r') != std::string::npos ||
        !labelled || message.find("internal error") != std::string::npos) {
      ADD_FAILURE() << what << ": bad InputError message: [" << message << "]\ninput:\n" << text;
    }
  }

  /// Imports `text` directly; for every kSceneEvery-th case also loads it
  /// through a scene's `robots:` entry and simulates what loads.
  void Check(const Seed& seed, const std::string& text, const std::string& what, bool fixed_base, bool as_scene,
             Tally* tally) {
    const auto start = std::chrono::steady_clock::now();
    ++tally->cases;
    // To find the input behind a crash: ROBOT_FUZZ_TRACE=1 prints each case first.
    static const bool trace = std::getenv("ROBOT_FUZZ_TRACE") != nullptr;
    if (trace) std::fprintf(stderr, "case %s, %s\n", seed.name.c_str(), what.c_str());
    const fs::path file = *dir_ / (seed.urdf ? "robot.urdf" : "robot.xml");
    if (!seed.urdf || as_scene) std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    try {
      if (seed.urdf) {
        UrdfImportOptions options;
        options.fixed_base = fixed_base;
        ImportUrdfString(text, file.string(), options);
      } else {
        ImportMjcf(file.string());
      }
      ++tally->imported;
    } catch (const InputError& e) {
      ++tally->rejected;
      CheckMessage(e.what(), {file.string()}, seed.name + ", " + what, text);
    } catch (const std::exception& e) {
      ADD_FAILURE() << seed.name << ", " << what << ": import escaped " << typeid(e).name() << ": " << e.what()
                    << "\ninput:\n" << text;
    } catch (...) {
      ADD_FAILURE() << seed.name << ", " << what << ": import escaped a non-std exception\ninput:\n" << text;
    }
    if (as_scene) CheckScene(seed, file, text, what, fixed_base, tally);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (seconds > kSlowCaseSeconds) {
      ADD_FAILURE() << seed.name << ", " << what << ": took " << seconds << " s\ninput:\n" << text;
    }
  }

  void CheckScene(const Seed& seed, const fs::path& file, const std::string& text, const std::string& what,
                  bool fixed_base, Tally* tally) {
    ++tally->scenes;
    const std::string label = (*dir_ / "scene.yaml").string();
    std::string yaml = "world_geometry:\n  - {name: ground, shape: {type: half_space}}\nrobots:\n  - file: " +
                       file.filename().string() + "\n    name: r\n";
    if (seed.urdf) {
      yaml += std::string("    fixed_base: ") + (fixed_base ? "true" : "false") + "\n    joint_pd: {kp: 10, kd: 1}\n";
    } else {
      yaml += "    use_file_options: true\n";
    }
    SceneDescription scene;
    try {
      scene = LoadSceneString(yaml, label, dir_->string());
      ++tally->scenes_loaded;
    } catch (const InputError& e) {
      CheckMessage(e.what(), {label, file.string()}, seed.name + ", " + what + " (scene)", text);
      return;
    } catch (...) {
      ADD_FAILURE() << seed.name << ", " << what << ": LoadSceneString escaped a non-InputError\ninput:\n" << text;
      return;
    }
    scene.time_step = 0.005;
    try {
      Simulation sim(scene);
      for (int k = 0; k < 3; ++k) sim.Step();
      ++tally->simulated;
    } catch (const InputError&) {
      // The model builder may refuse what the loader passed; that is a message, not a crash.
    } catch (const std::exception& e) {
      ADD_FAILURE() << seed.name << ", " << what << ": Simulation escaped " << typeid(e).name() << ": " << e.what()
                    << "\ninput:\n" << text;
    } catch (...) {
      ADD_FAILURE() << seed.name << ", " << what << ": Simulation escaped a non-std exception\ninput:\n" << text;
    }
  }

  void Fuzz(const Seed& seed) {
    SCOPED_TRACE(seed.name);
    Tally tally;
    // The unmutated seed imports, loads as a scene and simulates.
    Check(seed, seed.text, "unmutated", true, true, &tally);
    EXPECT_EQ(tally.imported, 1);
    EXPECT_EQ(tally.simulated, 1);

    Mutator mutator(seed.text, 20261124u);  // Fixed seed: the same inputs every run.
    int n = 0;
    auto run = [&](const std::string& text, const std::string& what) {
      ++n;
      Check(seed, text, what, n % 2 == 0, n % kSceneEvery == 0, &tally);
    };
    std::string what;
    for (int k = 0; k < kTruncations; ++k) {
      const std::size_t offset = seed.text.size() * static_cast<std::size_t>(k) / kTruncations;
      run(seed.text.substr(0, offset), "truncated at byte " + std::to_string(offset));
    }
    for (int k = 0; k < kByteEdits; ++k) run(mutator.Bytes(&what), what);
    for (int k = 0; k < kLineEdits; ++k) run(mutator.Lines(&what), what);
    for (int k = 0; k < kAttributeEdits; ++k) run(mutator.Attributes(&what), what);
    for (int k = 0; k < kElementEdits; ++k) run(mutator.Elements(&what), what);

    std::printf("%-24s %5d cases: %5d imported, %5d rejected; %4d scenes, %4d loaded, %4d simulated\n",
                seed.name.c_str(), tally.cases, tally.imported, tally.rejected, tally.scenes, tally.scenes_loaded,
                tally.simulated);
    // The empty prefix and most damage are caught; some mutations are harmless.
    EXPECT_GT(tally.rejected, tally.cases / 5);
    EXPECT_GT(tally.imported, 1);
  }

  static fs::path* dir_;
};

fs::path* RobotFuzzTest::dir_ = nullptr;

TEST_F(RobotFuzzTest, SeedsAreFound) {
  const std::vector<Seed> seeds = Seeds();
  EXPECT_GE(seeds.size(), 6u);  // The four shipped robots and the two written here.
  for (const Seed& seed : seeds) {
    EXPECT_FALSE(FindAttributes(seed.text).empty()) << seed.name;
    EXPECT_FALSE(FindElements(seed.text).empty()) << seed.name;
  }
}

TEST_F(RobotFuzzTest, MutatedUrdfFilesImportOrThrowInputError) {
  for (const Seed& seed : Seeds()) {
    if (seed.urdf) Fuzz(seed);
  }
}

TEST_F(RobotFuzzTest, MutatedMjcfFilesImportOrThrowInputError) {
  for (const Seed& seed : Seeds()) {
    if (!seed.urdf) Fuzz(seed);
  }
}

}  // namespace
}  // namespace stiction
