#include "engine/scene/scene_loader.h"

// The YAML scene loader. Parsing happens in three passes:
//   1. every file is parsed and its top-level keys checked, includes are
//      followed (depth first, cycles rejected) and merged into one tree whose
//      list entries remember the file they came from;
//   2. the --set overrides edit that merged tree (scene_overrides.h), and the
//      nodes they created are remembered so errors can name the override;
//   3. the tree is validated and converted into a SceneDescription.
// Every error is an InputError with a one-line "FILE:LINE: KEY.PATH: reason"
// message. docs/scene-format.md documents the format.

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

#include <Eigen/Eigenvalues>
#include <yaml-cpp/yaml.h>

#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/common/text.h"
#include "engine/scene/mjcf_importer.h"
#include "engine/scene/package_path.h"
#include "engine/scene/robot_placement.h"
#include "engine/scene/scene_overrides.h"
#include "engine/scene/urdf_importer.h"
#include "engine/scene/shape_inertia.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Known names. Solvers, contact models, integrator presets and line searches
// come from their registries (engine/parameters/), their parameters' keys
// from the parameter tables there.
// ---------------------------------------------------------------------------
constexpr std::array<std::string_view, 5> kJointTypes = {"free", "revolute", "prismatic",
                                                         "ball", "fixed"};
constexpr std::array<std::string_view, 6> kShapeTypes = {"sphere", "box",  "capsule",
                                                         "cylinder", "mesh", "half_space"};

/// Top-level keys of a file; the merged scene has the same without "include".
constexpr std::array<std::string_view, 23> kFileKeys = {
    "description", "include",          "gravity",   "time_step",      "duration",
    "stepping",    "integrator",       "contact_model", "solver",     "nmdp",
    "default_material", "materials",   "world_geometry", "bodies",    "joints",
    "robots",      "package_path",     "actuators", "oscillators",    "constraints",
    "gripper",     "commands",         "camera"};
constexpr std::array<std::string_view, 8> kListKeys = {"materials", "world_geometry", "bodies",      "joints",
                                                       "robots",    "actuators",      "oscillators", "constraints"};
/// In the order FlattenSceneFile writes them (docs/scene-format.md's).
constexpr std::array<std::string_view, 22> kSceneKeys = {
    "description", "gravity",   "time_step",      "duration", "stepping", "integrator", "contact_model",
    "solver",      "nmdp",      "default_material", "materials", "world_geometry", "bodies", "joints",
    "robots",      "package_path", "actuators",   "oscillators", "constraints", "gripper", "commands",
    "camera"};
constexpr std::array<std::string_view, 6> kCameraKeys = {"lookat", "distance", "azimuth",
                                                          "elevation", "fovy", "track"};
constexpr std::array<std::string_view, 5> kOscillatorKeys = {"actuator", "amplitude", "period", "phase", "start"};

constexpr std::array<std::string_view, 12> kRobotKeys = {
    "file", "name", "pose", "parent", "fixed_base", "initial", "joint_pd", "groups", "self_collision",
    "material", "use_file_options", "rest_on_ground"};
constexpr std::array<std::string_view, 3> kJointPdKeys = {"kp", "kd", "joints"};

constexpr std::array<std::string_view, 9> kGeometryKeys = {
    "name", "shape", "pose", "material", "color", "collision", "visual", "groups", "compliant"};
constexpr std::array<std::string_view, 1> kCompliantKeys = {"resolution"};
constexpr std::array<std::string_view, 9> kBodyKeys = {
    "name", "mass", "density", "com", "inertia", "color", "geometry", "pose", "velocity"};
constexpr std::array<std::string_view, 12> kJointKeys = {
    "name",   "type",   "parent",  "child",         "parent_frame", "child_frame",
    "axis",   "limits", "spring",  "damping",       "rotor_inertia", "initial"};
constexpr std::array<std::string_view, 5> kAxialJointOnlyKeys = {"axis", "limits", "spring",
                                                                 "damping", "rotor_inertia"};
constexpr std::array<std::string_view, 6> kActuatorKeys = {"name", "joint", "kp", "kd",
                                                           "effort_limit", "target"};
constexpr std::array<std::string_view, 6> kConstraintKeys = {"name",   "type",    "body_a",
                                                             "body_b", "frame_a", "frame_b"};
constexpr std::array<std::string_view, 13> kGripperKeys = {
    "x", "y", "z", "yaw", "left_finger", "right_finger", "finger_open", "finger_closed",
    "fingers", "grip_force", "end_effector", "impedance", "posture"};
constexpr std::array<std::string_view, 4> kFingerKeys = {"name", "actuators", "open", "closed"};
constexpr std::array<std::string_view, 6> kImpedanceKeys = {
    "translational_stiffness", "translational_damping", "rotational_stiffness", "rotational_damping",
    "max_force", "max_torque"};
constexpr std::array<std::string_view, 2> kConstraintTypes = {"weld", "ball"};
constexpr std::array<std::string_view, 6> kInertiaKeys = {"ixx", "iyy", "izz",
                                                          "ixy", "ixz", "iyz"};

constexpr char kBuiltInLabel[] = "(built-in)";
constexpr int kMaxIncludeDepth = 32;
constexpr std::size_t kMaxQuotedChars = 40;

// ---------------------------------------------------------------------------
// Small string helpers.
// ---------------------------------------------------------------------------

std::string Quote(std::string_view s) {
  std::string text = OneLine(s);
  if (text.size() > kMaxQuotedChars) text = text.substr(0, kMaxQuotedChars) + "...";
  return SingleQuoted(text);
}

template <typename Range>
std::string JoinNames(const Range& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += std::string(name);
  }
  return out;
}

template <typename Range>
bool Contains(const Range& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string KeyPath(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string IndexPath(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string Describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing (an empty value)";
  if (node.IsScalar()) return Quote(node.Scalar());
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  return "an unknown node";
}


// ---------------------------------------------------------------------------
// Where a node came from, and errors.
// ---------------------------------------------------------------------------

/// The origin of a YAML node plus the key path that reached it.
struct Ctx {
  std::string label;           ///< File label, or "--set KEY=VALUE".
  std::string dir;             ///< Directory that relative paths are resolved against.
  bool from_override = false;  ///< Overrides have no line numbers.
  std::string path;            ///< e.g. "bodies[0].geometry[1].shape".
  /// 1-based line of the map key that led here (0 if none). Errors about a
  /// value point at its key: a block value or an empty one starts on a later
  /// line than the key the user reads.
  int key_line = 0;
};

int LineOf(const Ctx& ctx, const YAML::Node& node) {
  if (ctx.from_override) return 0;
  if (ctx.key_line > 0) return ctx.key_line;
  const YAML::Mark mark = node.Mark();
  return mark.line < 0 ? 0 : mark.line + 1;
}

SourceLocation WhereOf(const Ctx& ctx, const YAML::Node& node) {
  return SourceLocation{ctx.label, LineOf(ctx, node)};
}

[[noreturn]] void Fail(const Ctx& ctx, const YAML::Node& node, const std::string& reason) {
  std::string message = WhereOf(ctx, node).ToString();
  if (!ctx.path.empty()) message += ": " + ctx.path;
  message += ": " + reason;
  throw InputError(OneLine(message));
}

// ---------------------------------------------------------------------------
// Files.
// ---------------------------------------------------------------------------

/// Reads a whole file; `fail` (which must throw) gets the reason otherwise.
/// `shown` is the name as the user wrote it.
std::string ReadFileText(const fs::path& path, const std::string& what, const std::string& shown,
                         const std::function<void(const std::string&)>& fail) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    fail(what + " " + Quote(shown) + " not found (resolved to " +
         fs::absolute(path, ec).lexically_normal().string() + ")");
  }
  if (fs::is_directory(status)) fail(what + " " + Quote(shown) + " is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open " + what + " " + Quote(shown));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail("cannot read " + what + " " + Quote(shown));
  return text.str();
}

std::string Identity(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec) canonical = fs::absolute(path, ec).lexically_normal();
  return canonical.string();
}

std::string DirOf(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// ---------------------------------------------------------------------------
// The result of pass 1: the merged top-level keys with their origins.
// ---------------------------------------------------------------------------

struct Entry {
  YAML::Node node;
  Ctx ctx;  ///< Origin; path is the key path within its own file.
};

struct MergedFiles {
  std::map<std::string, Entry> scalars;  ///< Non-list top-level keys; the includer wins.
  std::map<std::string, std::vector<Entry>> lists;  ///< Included entries first.
};

struct PoseValue {
  RigidTransform X;
  Quaternion q = Quaternion::Identity();
};

/// A body's pose/velocity keys, checked once the joints are known.
struct PendingFreeState {
  std::optional<std::pair<YAML::Node, Ctx>> pose;
  std::optional<std::pair<YAML::Node, Ctx>> velocity;
};

class Loader;
class NameRegistry;

/// A validated view of a YAML map: scalar, unique keys.
class MapView {
 public:
  MapView(const Loader& loader, const Ctx& ctx, const YAML::Node& node);

  /// Rejects keys not in `allowed`; `what` qualifies the message (e.g. "for a
  /// sphere shape").
  template <typename Range>
  void AllowOnly(const Range& allowed, const std::string& what = "") const;

  bool Has(std::string_view key) const { return Find(key) != nullptr; }
  /// The value under `key`; precondition Has(key).
  const YAML::Node& Get(std::string_view key) const { return Find(key)->value; }
  /// The origin and key path of the value under `key`; precondition Has(key).
  Ctx CtxOf(std::string_view key) const;
  /// Throws "missing required key" unless Has(key).
  void Require(std::string_view key, const std::string& what = "") const;

  const Ctx& ctx() const { return ctx_; }
  const YAML::Node& node() const { return node_; }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const Item& item : items_) out.push_back(item.key);
    return out;
  }

 private:
  struct Item {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
  };
  const Item* Find(std::string_view key) const {
    for (const Item& item : items_) {
      if (item.key == key) return &item;
    }
    return nullptr;
  }

  const Loader& loader_;
  Ctx ctx_;
  YAML::Node node_;
  std::vector<Item> items_;
};

class Loader {
 public:
  SceneDescription Load(const std::string& text, const std::string& label,
                        const std::string& base_dir, const std::string& identity,
                        const std::vector<std::string>& overrides);
  /// Pass 1 and 2 only (files, includes, overrides), then every relative
  /// path rewritten to resolve from `dest_dir`: FlattenSceneFile.
  std::string Flatten(const std::string& text, const std::string& label, const std::string& base_dir,
                      const std::string& identity, const std::vector<std::string>& overrides,
                      const std::string& dest_dir);

  /// The context of `child`, reached from `parent` by `path`: the parent's
  /// origin unless an override put the child there.
  Ctx Enter(const Ctx& parent, const YAML::Node& child, std::string path) const {
    Ctx ctx{parent.label, parent.dir, parent.from_override, std::move(path)};
    // Newest first: a later override of the same key wins.
    for (auto it = override_nodes_.rbegin(); it != override_nodes_.rend(); ++it) {
      if (it->first.is(child)) {
        ctx.label = it->second;
        ctx.dir = top_dir_;
        ctx.from_override = true;
        break;
      }
    }
    return ctx;
  }

 private:
  struct StackEntry {
    std::string identity;
    std::string label;
  };

  // Pass 1.
  MergedFiles ParseFile(const std::string& text, const Ctx& file_ctx,
                        std::vector<StackEntry>& stack);
  void MergeIncludes(const MapView& top, std::vector<StackEntry>& stack, MergedFiles* out);
  static YAML::Node BuildTree(const MergedFiles& merged);

  /// Passes 1 and 2: the merged tree with the overrides applied.
  YAML::Node MergeAndOverride(const std::string& text, const std::string& label, const std::string& base_dir,
                              const std::string& identity, const std::vector<std::string>& overrides,
                              MergedFiles* merged);
  /// A path as written at `ctx` (relative to ctx.dir), rewritten to name
  /// the same file from `dest_dir` (absolute, normal).
  void RebasePath(const Ctx& ctx, YAML::Node node, const fs::path& dest_dir) const;
  /// The mesh file of a geometry entry, when it has one.
  void RebaseGeometry(const Ctx& ctx, const YAML::Node& geometry, const fs::path& dest_dir) const;

  // Pass 3.
  SceneDescription Build(const YAML::Node& root, const MergedFiles& merged);
  std::vector<std::pair<YAML::Node, Ctx>> ListElements(const YAML::Node& root,
                                                        const MergedFiles& merged,
                                                        const std::string& key) const;
  std::vector<std::pair<YAML::Node, Ctx>> Elements(const Ctx& ctx, const YAML::Node& node) const;

  void ParseSolver(const Ctx& ctx, const YAML::Node& node, SolverSettings* solver,
                   ContactModelParameters* contact) const;
  /// Reads the keys of `map` that `table` binds (engine/parameters/), each
  /// checked against its range and reported at its key; then `validate`
  /// (the engine's own check of the whole struct, e.g. β_max ≥ β0) once,
  /// reported at the map, so that related keys may come in any order. Keys
  /// the table does not bind are left alone.
  void ReadParameters(const MapView& map, const ParameterTable& table,
                      const std::function<void()>& validate) const;
  /// When `map` has `key`: a map whose keys are among those of `table`,
  /// read through it (ReadParameterMap).
  void ReadSubMap(const MapView& map, std::string_view key, const ParameterTable& table,
                  const std::function<void()>& validate = [] {}) const;
  /// `node` as a map whose keys are among those of `table`, read through it
  /// (ReadParameters, with `validate`).
  void ReadParameterMap(const Ctx& ctx, const YAML::Node& node, const ParameterTable& table,
                        const std::function<void()>& validate) const;
  /// The registry entry named by a scalar; fails naming the valid names.
  template <typename Entry>
  const Entry& ReadRegistryChoice(const Ctx& ctx, const YAML::Node& node, std::span<const Entry> entries,
                                  const std::string& what) const;
  IntegratorSettings ParseIntegrator(const Ctx& ctx, const YAML::Node& node) const;
  /// A named list element's map: only `keys` allowed, `required` present;
  /// its location and `name` read into *out.
  template <typename Description, typename Keys>
  MapView OpenElement(const Ctx& ctx, const YAML::Node& node, const Keys& keys,
                      std::initializer_list<const char*> required, Description* out) const {
    MapView map(*this, ctx, node);
    map.AllowOnly(keys);
    for (const char* key : required) map.Require(key);
    out->where = WhereOf(ctx, node);
    out->name = ReadName(map.CtxOf("name"), map.Get("name"));
    return map;
  }
  /// Adds a parsed list element's name to `names` (a duplicate fails at the
  /// element's `name` key) and returns the element's map.
  MapView Register(NameRegistry* names, const Ctx& ctx, const YAML::Node& node, const std::string& name,
                   const SourceLocation& where) const;
  MaterialDescription ParseMaterial(const Ctx& ctx, const YAML::Node& node) const;
  GeometryDescription ParseGeometry(const Ctx& ctx, const YAML::Node& node,
                                    const std::string& default_name, bool in_world,
                                    const Vector4& default_color,
                                    const SceneDescription& scene) const;
  ShapeDescription ParseShape(const Ctx& ctx, const YAML::Node& node, bool in_world) const;
  BodyDescription ParseBody(const Ctx& ctx, const YAML::Node& node,
                            const SceneDescription& scene, PendingFreeState* free_state) const;
  void ComputeMassProperties(const MapView& body, BodyDescription* out) const;
  JointDescription ParseJoint(const Ctx& ctx, const YAML::Node& node) const;
  void ParseJointInitial(const MapView& joint_map, JointDescription* joint) const;
  ActuatorDescription ParseActuator(const Ctx& ctx, const YAML::Node& node) const;
  ConstraintDescription ParseConstraint(const Ctx& ctx, const YAML::Node& node) const;
  void ParseRobot(const Ctx& ctx, const YAML::Node& node, const std::vector<std::string>& package_path,
                  SceneDescription* scene) const;
  JointPdGains ReadPdGains(const MapView& map) const;
  GripperDescription ParseGripper(const Ctx& ctx, const YAML::Node& node,
                                  const SceneDescription& scene) const;
  CameraDescription ParseCamera(const Ctx& ctx, const YAML::Node& node,
                                const SceneDescription& scene) const;

  // Values.
  double ReadNumber(const Ctx& ctx, const YAML::Node& node) const;
  double ReadPositive(const Ctx& ctx, const YAML::Node& node) const;
  double ReadNonNegative(const Ctx& ctx, const YAML::Node& node) const;
  double ReadInRange(const Ctx& ctx, const YAML::Node& node, double lo, double hi) const;
  bool ReadBool(const Ctx& ctx, const YAML::Node& node) const;
  std::string ReadString(const Ctx& ctx, const YAML::Node& node) const;
  std::string ReadName(const Ctx& ctx, const YAML::Node& node) const;
  /// A list of non-empty strings; `what` names them in the error.
  std::vector<std::string> ReadNameList(const Ctx& ctx, const YAML::Node& node, const std::string& what) const;
  template <typename Range>
  std::string ReadChoice(const Ctx& ctx, const YAML::Node& node, const Range& choices,
                         const std::string& what) const;
  VectorX ReadNumbers(const Ctx& ctx, const YAML::Node& node, int min_size, int max_size) const;
  Vector3 ReadVector3(const Ctx& ctx, const YAML::Node& node) const;
  Vector4 ReadColor(const Ctx& ctx, const YAML::Node& node) const;
  Quaternion ReadQuaternion(const Ctx& ctx, const YAML::Node& node) const;
  Quaternion ReadRpy(const Ctx& ctx, const YAML::Node& node) const;
  PoseValue ReadPose(const Ctx& ctx, const YAML::Node& node) const;
  Quaternion ReadOrientation(const Ctx& ctx, const YAML::Node& node) const;
  Matrix3 ReadInertia(const Ctx& ctx, const YAML::Node& node) const;

  std::string top_label_;
  std::string top_dir_;
  /// Nodes placed by --set overrides, with their labels.
  std::vector<std::pair<YAML::Node, std::string>> override_nodes_;
};

// ---------------------------------------------------------------------------
// MapView.
// ---------------------------------------------------------------------------

MapView::MapView(const Loader& loader, const Ctx& ctx, const YAML::Node& node)
    : loader_(loader), ctx_(ctx), node_(node) {
  if (!node.IsMap()) Fail(ctx, node, "expected a map, got " + Describe(node));
  for (YAML::const_iterator it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key_node = it->first;
    const YAML::Node value = it->second;
    if (!key_node.IsScalar()) {
      Fail(loader_.Enter(ctx, value, ctx.path), key_node,
           "map keys must be plain names, got " + Describe(key_node));
    }
    const std::string& key = key_node.Scalar();
    if (const Item* previous = Find(key)) {
      const Ctx child = loader_.Enter(ctx, value, KeyPath(ctx.path, key));
      const Ctx first = loader_.Enter(ctx, previous->value, KeyPath(ctx.path, key));
      Fail(child, child.from_override ? value : key_node,
           "duplicate key " + Quote(key) + " (first given at " +
               WhereOf(first, previous->key_node).ToString() + ")");
    }
    items_.push_back(Item{key, key_node, value});
  }
}

template <typename Range>
void MapView::AllowOnly(const Range& allowed, const std::string& what) const {
  for (const Item& item : items_) {
    if (Contains(allowed, item.key)) continue;
    const Ctx child = loader_.Enter(ctx_, item.value, KeyPath(ctx_.path, item.key));
    const bool key_has_mark = !child.from_override && item.key_node.Mark().line >= 0;
    Ctx at = child;
    at.path = ctx_.path;
    Fail(at, key_has_mark ? item.key_node : item.value,
         "unknown key " + Quote(item.key) + (what.empty() ? "" : " " + what) +
             " (expected one of: " + JoinNames(allowed) + ")");
  }
}

Ctx MapView::CtxOf(std::string_view key) const {
  const Item* item = Find(key);
  Ctx ctx = loader_.Enter(ctx_, item->value, KeyPath(ctx_.path, key));
  const YAML::Mark mark = item->key_node.Mark();
  if (!ctx.from_override && mark.line >= 0 && !ctx_.from_override) ctx.key_line = mark.line + 1;
  return ctx;
}

void MapView::Require(std::string_view key, const std::string& what) const {
  if (!Has(key)) {
    Fail(ctx_, node_,
         "missing required key " + Quote(key) + (what.empty() ? "" : " " + what));
  }
}

// ---------------------------------------------------------------------------
// Values.
// ---------------------------------------------------------------------------

double Loader::ReadNumber(const Ctx& ctx, const YAML::Node& node) const {
  if (!node.IsScalar()) Fail(ctx, node, "expected a number, got " + Describe(node));
  std::string_view text = node.Scalar();
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::array<std::string_view, 10> kNonFinite = {
      ".inf", "+.inf", "-.inf", ".nan", "inf", "+inf", "-inf", "nan", "infinity", "-infinity"};
  if (Contains(kNonFinite, lower)) {
    Fail(ctx, node, "must be a finite number, got " + Quote(text));
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    Fail(ctx, node, "number out of range, got " + Quote(node.Scalar()));
  }
  if (ec != std::errc() || ptr != end || text.empty()) {
    Fail(ctx, node, "expected a number, got " + Quote(node.Scalar()));
  }
  if (!std::isfinite(value)) Fail(ctx, node, "must be a finite number, got " + Quote(text));
  return value;
}

double Loader::ReadPositive(const Ctx& ctx, const YAML::Node& node) const {
  const double value = ReadNumber(ctx, node);
  if (!(value > 0)) Fail(ctx, node, "must be positive, got " + OneLine(node.Scalar()));
  return value;
}

double Loader::ReadNonNegative(const Ctx& ctx, const YAML::Node& node) const {
  const double value = ReadNumber(ctx, node);
  if (value < 0) Fail(ctx, node, "must be >= 0, got " + OneLine(node.Scalar()));
  return value;
}

double Loader::ReadInRange(const Ctx& ctx, const YAML::Node& node, double lo,
                           double hi) const {
  const double value = ReadNumber(ctx, node);
  if (value < lo || value > hi) {
    Fail(ctx, node, "must be in [" + FormatNumber(lo) + ", " + FormatNumber(hi) + "], got " +
                        OneLine(node.Scalar()));
  }
  return value;
}

bool Loader::ReadBool(const Ctx& ctx, const YAML::Node& node) const {
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  Fail(ctx, node, "expected true or false, got " + Describe(node));
}

std::string Loader::ReadString(const Ctx& ctx, const YAML::Node& node) const {
  if (!node.IsScalar()) Fail(ctx, node, "expected a string, got " + Describe(node));
  return node.Scalar();
}

std::string Loader::ReadName(const Ctx& ctx, const YAML::Node& node) const {
  std::string name = ReadString(ctx, node);
  if (name.empty()) Fail(ctx, node, "must not be empty");
  return name;
}

std::vector<std::string> Loader::ReadNameList(const Ctx& ctx, const YAML::Node& node, const std::string& what) const {
  if (!node.IsSequence()) Fail(ctx, node, "expected a list of " + what + ", got " + Describe(node));
  std::vector<std::string> out;
  for (const auto& [element, element_ctx] : Elements(ctx, node)) out.push_back(ReadName(element_ctx, element));
  return out;
}

template <typename Range>
std::string Loader::ReadChoice(const Ctx& ctx, const YAML::Node& node, const Range& choices,
                               const std::string& what) const {
  const std::string value = ReadString(ctx, node);
  if (!Contains(choices, value)) {
    Fail(ctx, node,
         "unknown " + what + " " + Quote(value) + " (expected one of: " + JoinNames(choices) +
             ")");
  }
  return value;
}

std::vector<std::pair<YAML::Node, Ctx>> Loader::Elements(const Ctx& ctx,
                                                          const YAML::Node& node) const {
  std::vector<std::pair<YAML::Node, Ctx>> out;
  std::size_t i = 0;
  for (YAML::const_iterator it = node.begin(); it != node.end(); ++it, ++i) {
    const YAML::Node element = *it;
    out.emplace_back(element, Enter(ctx, element, IndexPath(ctx.path, i)));
  }
  return out;
}

VectorX Loader::ReadNumbers(const Ctx& ctx, const YAML::Node& node, int min_size,
                            int max_size) const {
  const std::string expected =
      min_size == max_size
          ? "a list of " + std::to_string(min_size) + " numbers"
          : "a list of " + std::to_string(min_size) + " to " + std::to_string(max_size) +
                " numbers";
  if (!node.IsSequence()) Fail(ctx, node, "expected " + expected + ", got " + Describe(node));
  const int size = static_cast<int>(node.size());
  if (size < min_size || size > max_size) {
    Fail(ctx, node, "expected " + expected + ", got a list of " + std::to_string(size));
  }
  VectorX out(size);
  int i = 0;
  for (const auto& [element, element_ctx] : Elements(ctx, node)) {
    out[i++] = ReadNumber(element_ctx, element);
  }
  return out;
}

Vector3 Loader::ReadVector3(const Ctx& ctx, const YAML::Node& node) const {
  return ReadNumbers(ctx, node, 3, 3);
}

Vector4 Loader::ReadColor(const Ctx& ctx, const YAML::Node& node) const {
  const VectorX rgba = ReadNumbers(ctx, node, 3, 4);
  for (const auto& [element, element_ctx] : Elements(ctx, node)) {
    ReadInRange(element_ctx, element, 0.0, 1.0);
  }
  return Vector4(rgba[0], rgba[1], rgba[2], rgba.size() == 4 ? rgba[3] : 1.0);
}

Quaternion Loader::ReadQuaternion(const Ctx& ctx, const YAML::Node& node) const {
  const VectorX wxyz = ReadNumbers(ctx, node, 4, 4);
  const double norm = wxyz.norm();
  if (!(norm > 1e-12)) Fail(ctx, node, "quaternion [w, x, y, z] must be nonzero");
  return Quaternion(wxyz[0] / norm, wxyz[1] / norm, wxyz[2] / norm, wxyz[3] / norm);
}

Quaternion Loader::ReadRpy(const Ctx& ctx, const YAML::Node& node) const {
  const Vector3 rpy = ReadVector3(ctx, node);
  // Extrinsic roll about x, then pitch about y, then yaw about z (as URDF and
  // Drake): R = Rz(yaw) Ry(pitch) Rx(roll).
  return Quaternion(Eigen::AngleAxisd(rpy.z(), Vector3::UnitZ()) *
                    Eigen::AngleAxisd(rpy.y(), Vector3::UnitY()) *
                    Eigen::AngleAxisd(rpy.x(), Vector3::UnitX()));
}

Quaternion Loader::ReadOrientation(const Ctx& ctx, const YAML::Node& node) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(std::array<std::string_view, 2>{"rpy", "quaternion"});
  if (map.Has("rpy") && map.Has("quaternion")) {
    Fail(map.CtxOf("quaternion"), map.Get("quaternion"),
         "give either 'rpy' or 'quaternion', not both");
  }
  if (map.Has("rpy")) return ReadRpy(map.CtxOf("rpy"), map.Get("rpy"));
  if (map.Has("quaternion")) return ReadQuaternion(map.CtxOf("quaternion"), map.Get("quaternion"));
  return Quaternion::Identity();
}

PoseValue Loader::ReadPose(const Ctx& ctx, const YAML::Node& node) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(std::array<std::string_view, 3>{"position", "rpy", "quaternion"});
  PoseValue pose;
  if (map.Has("rpy") && map.Has("quaternion")) {
    Fail(map.CtxOf("quaternion"), map.Get("quaternion"),
         "give either 'rpy' or 'quaternion', not both");
  }
  if (map.Has("position")) pose.X.p = ReadVector3(map.CtxOf("position"), map.Get("position"));
  if (map.Has("rpy")) pose.q = ReadRpy(map.CtxOf("rpy"), map.Get("rpy"));
  if (map.Has("quaternion")) {
    pose.q = ReadQuaternion(map.CtxOf("quaternion"), map.Get("quaternion"));
  }
  pose.X.R = pose.q.toRotationMatrix();
  return pose;
}

Matrix3 Loader::ReadInertia(const Ctx& ctx, const YAML::Node& node) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(kInertiaKeys);
  for (const char* key : {"ixx", "iyy", "izz"}) map.Require(key);
  auto get = [&](const char* key) {
    return map.Has(key) ? ReadNumber(map.CtxOf(key), map.Get(key)) : 0.0;
  };
  const double ixx = get("ixx"), iyy = get("iyy"), izz = get("izz");
  const double ixy = get("ixy"), ixz = get("ixz"), iyz = get("iyz");
  Matrix3 I;
  I << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
  const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(I, Eigen::EigenvaluesOnly);
  const Vector3 moments = eigen.eigenvalues();  // Ascending.
  const std::string shown = "[" + FormatNumber(moments[0]) + ", " + FormatNumber(moments[1]) +
                            ", " + FormatNumber(moments[2]) + "]";
  if (!(moments[0] > 0)) {
    Fail(ctx, node, "must be positive definite, got principal moments " + shown);
  }
  // A rigid body's principal moments satisfy a + b >= c (with equality only
  // for planar bodies); 1e-9 relative slack absorbs rounding.
  if (moments[0] + moments[1] < moments[2] * (1.0 - 1e-9)) {
    Fail(ctx, node, "principal moments " + shown +
                        " violate the triangle inequality (the two smaller must sum to at least "
                        "the largest); no rigid body has this inertia");
  }
  return I;
}

// ---------------------------------------------------------------------------
// Pass 1: files and includes.
// ---------------------------------------------------------------------------

MergedFiles Loader::ParseFile(const std::string& text, const Ctx& file_ctx,
                              std::vector<StackEntry>& stack) {
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    std::string message = file_ctx.label;
    if (!e.mark.is_null() && e.mark.line >= 0) message += ":" + std::to_string(e.mark.line + 1);
    throw InputError(OneLine(message + ": YAML syntax error: " + e.msg));
  }
  if (!doc.IsDefined() || doc.IsNull()) {
    throw InputError(OneLine(file_ctx.label +
                             ": the file is empty (expected a map of scene keys such as "
                             "'bodies')"));
  }
  if (!doc.IsMap()) {
    Fail(file_ctx, doc,
         "the top level must be a map of scene keys (description, bodies, joints, ...), got " +
             Describe(doc));
  }
  const MapView top(*this, file_ctx, doc);
  top.AllowOnly(kFileKeys);

  MergedFiles out;
  if (top.Has("include")) MergeIncludes(top, stack, &out);

  for (const std::string& key : top.keys()) {
    if (key == "include") continue;
    const YAML::Node& value = top.Get(key);
    const Ctx ctx = top.CtxOf(key);
    if (!Contains(kListKeys, key)) {
      out.scalars[key] = Entry{value, ctx};  // The including file wins.
      continue;
    }
    if (value.IsNull()) continue;  // "bodies:" with nothing is an empty list.
    if (!value.IsSequence()) Fail(ctx, value, "expected a list, got " + Describe(value));
    std::vector<Entry>& list = out.lists[key];
    for (const auto& [element, element_ctx] : Elements(ctx, value)) {
      list.push_back(Entry{element, element_ctx});
    }
  }
  return out;
}

void Loader::MergeIncludes(const MapView& top, std::vector<StackEntry>& stack,
                           MergedFiles* out) {
  const YAML::Node& value = top.Get("include");
  const Ctx ctx = top.CtxOf("include");
  std::vector<std::pair<YAML::Node, Ctx>> names;
  if (value.IsScalar()) {
    names.emplace_back(value, ctx);
  } else if (value.IsSequence()) {
    names = Elements(ctx, value);
  } else {
    Fail(ctx, value, "expected a file name or a list of file names, got " + Describe(value));
  }
  for (const auto& [name_node, name_ctx] : names) {
    const std::string name = ReadName(name_ctx, name_node);
    const fs::path resolved =
        fs::path(name).is_absolute() ? fs::path(name) : (fs::path(name_ctx.dir) / name);
    const fs::path label_path = resolved.lexically_normal();
    const std::string identity = Identity(resolved);
    if (stack.size() >= static_cast<std::size_t>(kMaxIncludeDepth)) {
      Fail(name_ctx, name_node,
           "includes are nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
    }
    for (std::size_t i = 0; i < stack.size(); ++i) {
      if (stack[i].identity != identity) continue;
      std::string chain;
      for (std::size_t j = i; j < stack.size(); ++j) chain += stack[j].label + " -> ";
      Fail(name_ctx, name_node, "include cycle: " + chain + label_path.string());
    }
    const std::string text = ReadFileText(
        resolved, "include file", name,
        // Init-captures: clang 14 cannot capture structured bindings.
        [&ctx = name_ctx, &node = name_node](const std::string& reason) { Fail(ctx, node, reason); });
    const Ctx file_ctx{label_path.string(), DirOf(label_path), false, ""};
    stack.push_back(StackEntry{identity, file_ctx.label});
    MergedFiles included = ParseFile(text, file_ctx, stack);
    stack.pop_back();
    for (auto& [key, entry] : included.scalars) out->scalars[key] = std::move(entry);
    for (auto& [key, list] : included.lists) {
      std::vector<Entry>& dst = out->lists[key];
      dst.insert(dst.end(), list.begin(), list.end());
    }
  }
}

YAML::Node Loader::BuildTree(const MergedFiles& merged) {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& [key, entry] : merged.scalars) root.force_insert(key, entry.node);
  for (const auto& [key, list] : merged.lists) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (const Entry& entry : list) seq.push_back(entry.node);
    root.force_insert(key, seq);
  }
  return root;
}

// ---------------------------------------------------------------------------
// Pass 3: validation.
// ---------------------------------------------------------------------------

std::vector<std::pair<YAML::Node, Ctx>> Loader::ListElements(const YAML::Node& root,
                                                              const MergedFiles& merged,
                                                              const std::string& key) const {
  const Ctx root_ctx{top_label_, top_dir_, false, ""};
  YAML::Node list;
  bool found = false;
  for (YAML::const_iterator it = root.begin(); it != root.end(); ++it) {
    if (it->first.Scalar() == key) {
      list.reset(it->second);
      found = true;
    }
  }
  if (!found) return {};
  const Ctx list_ctx = Enter(root_ctx, list, key);
  if (list.IsNull()) return {};
  if (!list.IsSequence()) Fail(list_ctx, list, "expected a list, got " + Describe(list));
  std::vector<std::pair<YAML::Node, Ctx>> out = Elements(list_ctx, list);
  // Elements of the merged list keep the file (and index) they came from.
  const auto origins = merged.lists.find(key);
  if (list_ctx.from_override || origins == merged.lists.end()) return out;
  for (std::size_t i = 0; i < out.size() && i < origins->second.size(); ++i) {
    out[i].second = Enter(origins->second[i].ctx, out[i].first, origins->second[i].ctx.path);
  }
  return out;
}

IntegratorSettings Loader::ParseIntegrator(const Ctx& ctx, const YAML::Node& node) const {
  const std::string presets = ChoiceNames(IntegratorPresets());
  if (node.IsMap()) {
    const MapView map(*this, ctx, node);
    map.AllowOnly(std::array<std::string_view, 2>{"theta", "theta_vq"});
    map.Require("theta", "(a custom integrator needs both 'theta' and 'theta_vq')");
    map.Require("theta_vq", "(a custom integrator needs both 'theta' and 'theta_vq')");
    IntegratorSettings out;
    out.name = std::string(kCustomIntegrator);
    ReadParameters(map, BindParameters(out), [] {});
    return out;
  }
  if (!node.IsScalar()) {
    Fail(ctx, node,
         "expected a preset name (" + presets + ") or a map {theta, theta_vq}, got " + Describe(node));
  }
  if (FindChoice(IntegratorPresets(), node.Scalar()) == nullptr) {
    Fail(ctx, node,
         "unknown integrator " + Quote(node.Scalar()) + " (expected one of: " + presets +
             ", or a map {theta, theta_vq})");
  }
  return IntegratorPreset(node.Scalar());
}

void Loader::ReadSubMap(const MapView& map, std::string_view key, const ParameterTable& table,
                        const std::function<void()>& validate) const {
  if (!map.Has(key)) return;
  ReadParameterMap(map.CtxOf(key), map.Get(key), table, validate);
}

void Loader::ReadParameterMap(const Ctx& ctx, const YAML::Node& node, const ParameterTable& table,
                              const std::function<void()>& validate) const {
  const MapView map(*this, ctx, node);
  std::vector<std::string_view> keys;
  for (const ParameterBinding& p : table) keys.push_back(p.key);
  map.AllowOnly(keys);
  ReadParameters(map, table, validate);
}

template <typename Entry>
const Entry& Loader::ReadRegistryChoice(const Ctx& ctx, const YAML::Node& node, std::span<const Entry> entries,
                                        const std::string& what) const {
  const std::string value = ReadString(ctx, node);
  const Entry* entry = FindChoice(entries, value);
  if (entry == nullptr) {
    Fail(ctx, node, "unknown " + what + " " + Quote(value) + " (expected one of: " + ChoiceNames(entries) + ")");
  }
  return *entry;
}

void Loader::ParseSolver(const Ctx& ctx, const YAML::Node& node, SolverSettings* solver,
                         ContactModelParameters* contact) const {
  const MapView map(*this, ctx, node);
  // Keys at solver:'s top level: the type, SAP's line search and parameters,
  // the contact regularization β, σ, the time budget of every solver, and
  // one map per solver that has its own.
  const ParameterTable sap_table = BindParameters(solver->sap);
  const ParameterTable contact_table = BindParameters(*contact);
  const ParameterTable budget_table = BindParameters(solver->budget);
  std::vector<std::string_view> keys = {"type", "line_search"};
  for (const ParameterBinding& p : sap_table) keys.push_back(p.key);
  for (const ParameterBinding& p : contact_table) keys.push_back(p.key);
  for (const ParameterBinding& p : budget_table) keys.push_back(p.key);
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (info.own_map) keys.push_back(info.name);
  }
  map.AllowOnly(keys);
  if (map.Has("type")) {
    solver->type = ReadRegistryChoice(map.CtxOf("type"), map.Get("type"), SolverTypes(), "solver").type;
  }
  if (map.Has("line_search")) {
    solver->sap.line_search =
        ReadRegistryChoice(map.CtxOf("line_search"), map.Get("line_search"), LineSearches(), "line search").kind;
  }
  ReadParameters(map, sap_table, [&] { ValidateSapParameters(solver->sap); });
  ReadParameters(map, contact_table, [&] { ValidateContactModelParameters(*contact); });
  ReadParameters(map, budget_table, [&] { CheckParameterRanges("solver", solver->budget); });
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (info.own_map) ReadSubMap(map, info.name, info.bind(*solver), [&] { info.validate(*solver); });
  }
}

void Loader::ReadParameters(const MapView& map, const ParameterTable& table,
                            const std::function<void()>& validate) const {
  for (const ParameterBinding& p : table) {
    if (!map.Has(p.key)) continue;
    const Ctx key_ctx = map.CtxOf(p.key);
    const YAML::Node& value = map.Get(p.key);
    if (bool* const* flag = std::get_if<bool*>(&p.value)) {
      **flag = ReadBool(key_ctx, value);
    } else {
      const double number = ReadNumber(key_ctx, value);
      int* const* integer = std::get_if<int*>(&p.value);
      if (integer != nullptr && number != std::floor(number)) {
        Fail(key_ctx, value, "expected an integer, got " + Quote(value.Scalar()));
      }
      if (!p.range.Contains(number)) {
        Fail(key_ctx, value, "must be " + p.range.Describe() + ", got " + OneLine(value.Scalar()));
      }
      if (integer != nullptr) {
        **integer = static_cast<int>(number);
      } else {
        *std::get<double*>(p.value) = number;
      }
    }
  }
  try {
    validate();
  } catch (const InputError& e) {
    Fail(map.ctx(), map.node(), e.what());
  }
}

MaterialDescription Loader::ParseMaterial(const Ctx& ctx, const YAML::Node& node) const {
  const MapView map(*this, ctx, node);
  MaterialDescription out;
  const ParameterTable table = BindParameters(out.material);
  std::vector<std::string_view> keys = {"name", "contact_model"};
  for (const ParameterBinding& p : table) keys.push_back(p.key);
  map.AllowOnly(keys);
  map.Require("name");
  out.where = WhereOf(ctx, node);
  out.name = ReadName(map.CtxOf("name"), map.Get("name"));
  ReadParameters(map, table, [] {});
  if (map.Has("contact_model")) {
    out.material.model = ReadRegistryChoice(map.CtxOf("contact_model"), map.Get("contact_model"),
                                            ContactModels(), "contact model")
                             .model;
  }
  return out;
}

ShapeDescription Loader::ParseShape(const Ctx& ctx, const YAML::Node& node,
                                    bool in_world) const {
  const MapView map(*this, ctx, node);
  map.Require("type", "(one of: " + JoinNames(kShapeTypes) + ")");
  const Ctx type_ctx = map.CtxOf("type");
  const std::string type = ReadChoice(type_ctx, map.Get("type"), kShapeTypes, "shape type");
  ShapeDescription out;
  auto allow = [&](std::initializer_list<std::string_view> keys) {
    const std::vector<std::string_view> allowed(keys);
    map.AllowOnly(allowed, "for a " + type + " shape");
    for (const std::string_view key : allowed) map.Require(key, "for a " + type + " shape");
  };
  if (type == "sphere") {
    out.type = ShapeType::kSphere;
    allow({"type", "radius"});
    out.radius = ReadPositive(map.CtxOf("radius"), map.Get("radius"));
  } else if (type == "box") {
    out.type = ShapeType::kBox;
    allow({"type", "size"});
    out.size = ReadVector3(map.CtxOf("size"), map.Get("size"));
    for (const auto& [element, element_ctx] : Elements(map.CtxOf("size"), map.Get("size"))) {
      ReadPositive(element_ctx, element);
    }
  } else if (type == "capsule" || type == "cylinder") {
    out.type = type == "capsule" ? ShapeType::kCapsule : ShapeType::kCylinder;
    allow({"type", "radius", "length"});
    out.radius = ReadPositive(map.CtxOf("radius"), map.Get("radius"));
    out.length = ReadPositive(map.CtxOf("length"), map.Get("length"));
  } else if (type == "mesh") {
    out.type = ShapeType::kMesh;
    map.AllowOnly(std::array<std::string_view, 3>{"type", "file", "scale"}, "for a mesh shape");
    map.Require("file", "for a mesh shape");
    const Ctx file_ctx = map.CtxOf("file");
    const std::string file = ReadName(file_ctx, map.Get("file"));
    std::error_code ec;
    const fs::path resolved =
        fs::absolute(fs::path(file).is_absolute() ? fs::path(file)
                                                  : fs::path(file_ctx.dir) / file,
                     ec)
            .lexically_normal();
    if (!fs::is_regular_file(resolved, ec)) {
      Fail(file_ctx, map.Get("file"),
           "mesh file " + Quote(file) + " not found (resolved to " + resolved.string() + ")");
    }
    out.mesh_file = resolved.string();
    if (map.Has("scale")) {
      const Ctx scale_ctx = map.CtxOf("scale");
      const YAML::Node& scale = map.Get("scale");
      if (scale.IsScalar()) {
        out.mesh_scale.setConstant(ReadPositive(scale_ctx, scale));
      } else {
        if (!scale.IsSequence()) {
          Fail(scale_ctx, scale, "expected a number or a list of 3 numbers, got " +
                                     Describe(scale));
        }
        out.mesh_scale = ReadVector3(scale_ctx, scale);
        for (const auto& [element, element_ctx] : Elements(scale_ctx, scale)) {
          ReadPositive(element_ctx, element);
        }
      }
    }
  } else {  // half_space
    out.type = ShapeType::kHalfSpace;
    map.AllowOnly(std::array<std::string_view, 1>{"type"}, "for a half_space shape");
    if (!in_world) {
      Fail(type_ctx, map.Get("type"),
           "a half_space is only allowed in world_geometry (it is infinite, so a body "
           "cannot carry it)");
    }
  }
  return out;
}

GeometryDescription Loader::ParseGeometry(const Ctx& ctx, const YAML::Node& node,
                                          const std::string& default_name, bool in_world,
                                          const Vector4& default_color,
                                          const SceneDescription& scene) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(kGeometryKeys);
  map.Require("shape");
  GeometryDescription out;
  out.where = WhereOf(ctx, node);
  out.name = map.Has("name") ? ReadName(map.CtxOf("name"), map.Get("name")) : default_name;
  out.shape = ParseShape(map.CtxOf("shape"), map.Get("shape"), in_world);
  if (map.Has("pose")) out.X_BG = ReadPose(map.CtxOf("pose"), map.Get("pose")).X;
  out.material = scene.default_material;
  if (map.Has("material")) {
    const Ctx material_ctx = map.CtxOf("material");
    out.material = ReadName(material_ctx, map.Get("material"));
    const bool known = std::any_of(scene.materials.begin(), scene.materials.end(),
                                   [&](const MaterialDescription& m) { return m.name == out.material; });
    if (!known) {
      std::vector<std::string> names;
      for (const MaterialDescription& m : scene.materials) names.push_back(m.name);
      Fail(material_ctx, map.Get("material"),
           "unknown material " + Quote(out.material) + " (defined: " + JoinNames(names) + ")");
    }
  }
  out.color = map.Has("color") ? ReadColor(map.CtxOf("color"), map.Get("color")) : default_color;
  if (map.Has("collision")) out.collision = ReadBool(map.CtxOf("collision"), map.Get("collision"));
  if (map.Has("visual")) out.visual = ReadBool(map.CtxOf("visual"), map.Get("visual"));
  if (map.Has("groups")) out.groups = ReadNameList(map.CtxOf("groups"), map.Get("groups"), "group names");
  if (map.Has("compliant")) {
    // `compliant: true`, or a map of options (docs/scene-format.md).
    const Ctx compliant_ctx = map.CtxOf("compliant");
    const YAML::Node& node = map.Get("compliant");
    bool compliant = true;
    CompliantDescription c;
    if (node.IsMap()) {
      const MapView options(*this, compliant_ctx, node);
      options.AllowOnly(kCompliantKeys);
      if (options.Has("resolution")) c.resolution = ReadNonNegative(options.CtxOf("resolution"), options.Get("resolution"));
    } else {
      compliant = ReadBool(compliant_ctx, node);
    }
    if (compliant) {
      if (out.shape.type == ShapeType::kHalfSpace) {
        Fail(compliant_ctx, node,
             "a half_space cannot be compliant (it has no finite volume to mesh); make the other geometry "
             "compliant, or use a thick box");
      }
      out.compliant = c;
    }
  }
  return out;
}

void Loader::ComputeMassProperties(const MapView& body, BodyDescription* out) const {
  // The collision geometry, as uniform solids of one density.
  std::vector<const GeometryDescription*> solids;
  for (const GeometryDescription& g : out->geometries) {
    if (g.collision) solids.push_back(&g);
  }
  const bool has_density = body.Has("density");
  const bool has_inertia = body.Has("inertia");
  if (has_inertia && !has_density) return;  // Nothing to compute.
  const Ctx& ctx = body.ctx();
  const std::string needs = has_density ? "'density'" : "computing the inertia";
  const YAML::Node& at = has_density ? body.Get("density") : body.node();
  const Ctx at_ctx = has_density ? body.CtxOf("density") : ctx;
  if (solids.empty()) {
    Fail(at_ctx, at,
         needs + " needs collision geometry, and body " + Quote(out->name) +
             " has none; give " + (has_density ? "'mass' and " : "") + "'inertia'");
  }
  for (const GeometryDescription* g : solids) {
    if (!HasClosedFormMassProperties(g->shape.type)) {
      Fail(at_ctx, at,
           needs + " needs solid primitives, but geometry " + Quote(g->name) +
               " is a mesh (its volume is not computed); give " +
               (has_density ? "'mass' and " : "") + "'inertia'");
    }
  }
  double volume = 0;
  Vector3 weighted_centroid = Vector3::Zero();
  for (const GeometryDescription* g : solids) {
    const double v = CalcShapeVolume(g->shape);
    volume += v;
    weighted_centroid += v * g->X_BG.p;  // Every primitive's centroid is its frame origin.
  }
  if (has_density) {
    out->mass = ReadPositive(body.CtxOf("density"), body.Get("density")) * volume;
  }
  if (has_inertia) return;
  const Vector3 centroid = weighted_centroid / volume;
  const double density = out->mass / volume;
  Matrix3 I = Matrix3::Zero();
  for (const GeometryDescription* g : solids) {
    const double m = density * CalcShapeVolume(g->shape);
    const Matrix3& R = g->X_BG.R;
    const Vector3 d = g->X_BG.p - centroid;
    // Rotate into body axes, then shift to the common centroid (parallel axis).
    I += R * CalcShapeInertia(g->shape, m) * R.transpose() +
         m * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
  }
  out->I_Bcm_B = 0.5 * (I + I.transpose());
  if (!body.Has("com")) out->com_B = centroid;
}

BodyDescription Loader::ParseBody(const Ctx& ctx, const YAML::Node& node,
                                  const SceneDescription& scene,
                                  PendingFreeState* free_state) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(kBodyKeys);
  map.Require("name");
  BodyDescription out;
  out.where = WhereOf(ctx, node);
  const Ctx name_ctx = map.CtxOf("name");
  out.name = ReadName(name_ctx, map.Get("name"));
  if (out.name == "world") {
    Fail(name_ctx, map.Get("name"), "'world' is reserved for the fixed world frame");
  }
  if (map.Has("color")) out.color = ReadColor(map.CtxOf("color"), map.Get("color"));
  if (map.Has("geometry")) {
    const Ctx geometry_ctx = map.CtxOf("geometry");
    const YAML::Node& geometry = map.Get("geometry");
    if (!geometry.IsSequence() && !geometry.IsNull()) {
      Fail(geometry_ctx, geometry, "expected a list of geometries, got " + Describe(geometry));
    }
    if (geometry.IsSequence()) {
      std::size_t i = 0;
      for (const auto& [element, element_ctx] : Elements(geometry_ctx, geometry)) {
        out.geometries.push_back(ParseGeometry(element_ctx, element,
                                               out.name + "_" + std::to_string(i++),
                                               /*in_world=*/false, out.color, scene));
      }
    }
  }
  if (map.Has("mass") && map.Has("density")) {
    Fail(map.CtxOf("density"), map.Get("density"), "give either 'mass' or 'density', not both");
  }
  if (!map.Has("mass") && !map.Has("density")) {
    Fail(ctx, node, "missing required key 'mass' (or 'density')");
  }
  if (map.Has("mass")) out.mass = ReadPositive(map.CtxOf("mass"), map.Get("mass"));
  if (map.Has("density")) ReadPositive(map.CtxOf("density"), map.Get("density"));
  if (map.Has("com")) out.com_B = ReadVector3(map.CtxOf("com"), map.Get("com"));
  if (map.Has("inertia")) out.I_Bcm_B = ReadInertia(map.CtxOf("inertia"), map.Get("inertia"));
  ComputeMassProperties(map, &out);
  if (map.Has("pose")) free_state->pose.emplace(map.Get("pose"), map.CtxOf("pose"));
  if (map.Has("velocity")) free_state->velocity.emplace(map.Get("velocity"), map.CtxOf("velocity"));
  return out;
}

JointType JointTypeFromName(const std::string& name) {
  if (name == "free") return JointType::kFree;
  if (name == "revolute") return JointType::kRevolute;
  if (name == "prismatic") return JointType::kPrismatic;
  if (name == "ball") return JointType::kBall;
  return JointType::kFixed;
}

std::vector<double> ToStd(const Quaternion& q) { return {q.w(), q.x(), q.y(), q.z()}; }

void Loader::ParseJointInitial(const MapView& joint_map, JointDescription* joint) const {
  const bool axial = joint->type == JointType::kRevolute || joint->type == JointType::kPrismatic;
  switch (joint->type) {
    case JointType::kRevolute:
    case JointType::kPrismatic:
      joint->initial_q = {0.0};
      joint->initial_v = {0.0};
      break;
    case JointType::kBall:
      joint->initial_q = {1.0, 0.0, 0.0, 0.0};
      joint->initial_v = {0.0, 0.0, 0.0};
      break;
    case JointType::kFree:
      joint->initial_q = {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
      joint->initial_v = std::vector<double>(6, 0.0);
      break;
    case JointType::kFixed:
      break;
  }
  if (!joint_map.Has("initial")) return;
  const Ctx ctx = joint_map.CtxOf("initial");
  const YAML::Node& node = joint_map.Get("initial");
  if (joint->type == JointType::kFixed) {
    Fail(ctx, node, "a fixed joint has no coordinates, so it takes no 'initial'");
  }
  const MapView map(*this, ctx, node);
  map.AllowOnly(std::array<std::string_view, 2>{"position", "velocity"});
  if (axial) {
    if (map.Has("position")) {
      const Ctx position_ctx = map.CtxOf("position");
      const double q = ReadNumber(position_ctx, map.Get("position"));
      if (q < joint->lower_limit || q > joint->upper_limit) {
        Fail(position_ctx, map.Get("position"),
             "initial position " + OneLine(map.Get("position").Scalar()) +
                 " is outside the limits [" + FormatNumber(joint->lower_limit) + ", " +
                 FormatNumber(joint->upper_limit) + "]");
      }
      joint->initial_q = {q};
    }
    if (map.Has("velocity")) {
      joint->initial_v = {ReadNumber(map.CtxOf("velocity"), map.Get("velocity"))};
    }
  } else if (joint->type == JointType::kBall) {
    if (map.Has("position")) {
      joint->initial_q = ToStd(ReadOrientation(map.CtxOf("position"), map.Get("position")));
    }
    if (map.Has("velocity")) {
      const Vector3 w = ReadVector3(map.CtxOf("velocity"), map.Get("velocity"));
      joint->initial_v = {w.x(), w.y(), w.z()};
    }
  } else {  // Free.
    if (map.Has("position")) {
      const PoseValue pose = ReadPose(map.CtxOf("position"), map.Get("position"));
      joint->initial_q = ToStd(pose.q);
      joint->initial_q.insert(joint->initial_q.end(), pose.X.p.data(), pose.X.p.data() + 3);
    }
    if (map.Has("velocity")) {
      const MapView velocity(*this, map.CtxOf("velocity"), map.Get("velocity"));
      velocity.AllowOnly(std::array<std::string_view, 2>{"linear", "angular"});
      if (velocity.Has("angular")) {
        const Vector3 w_M = ReadVector3(velocity.CtxOf("angular"), velocity.Get("angular"));
        std::copy(w_M.data(), w_M.data() + 3, joint->initial_v.begin());
      }
      if (velocity.Has("linear")) {
        const Vector3 v_F = ReadVector3(velocity.CtxOf("linear"), velocity.Get("linear"));
        std::copy(v_F.data(), v_F.data() + 3, joint->initial_v.begin() + 3);
      }
    }
  }
}

JointDescription Loader::ParseJoint(const Ctx& ctx, const YAML::Node& node) const {
  JointDescription out;
  const MapView map = OpenElement(ctx, node, kJointKeys, {"name", "type", "parent", "child"}, &out);
  const std::string type = ReadChoice(map.CtxOf("type"), map.Get("type"), kJointTypes, "joint type");
  out.type = JointTypeFromName(type);
  out.parent = ReadName(map.CtxOf("parent"), map.Get("parent"));
  out.child = ReadName(map.CtxOf("child"), map.Get("child"));
  if (map.Has("parent_frame")) {
    out.X_PF = ReadPose(map.CtxOf("parent_frame"), map.Get("parent_frame")).X;
  }
  if (map.Has("child_frame")) {
    out.X_CM = ReadPose(map.CtxOf("child_frame"), map.Get("child_frame")).X;
  }
  const bool axial = out.type == JointType::kRevolute || out.type == JointType::kPrismatic;
  for (const std::string_view key : kAxialJointOnlyKeys) {
    if (map.Has(key) && !axial) {
      Fail(map.CtxOf(key), map.Get(key),
           Quote(key) + " is only valid for revolute and prismatic joints, not for a " + type +
               " joint");
    }
  }
  if (map.Has("axis")) {
    const Ctx axis_ctx = map.CtxOf("axis");
    const Vector3 axis = ReadVector3(axis_ctx, map.Get("axis"));
    if (!(axis.norm() > 1e-12)) Fail(axis_ctx, map.Get("axis"), "must be a nonzero vector");
    out.axis = axis.normalized();
  }
  if (map.Has("limits")) {
    const MapView limits(*this, map.CtxOf("limits"), map.Get("limits"));
    limits.AllowOnly(std::array<std::string_view, 2>{"lower", "upper"});
    if (limits.Has("lower")) out.lower_limit = ReadNumber(limits.CtxOf("lower"), limits.Get("lower"));
    if (limits.Has("upper")) out.upper_limit = ReadNumber(limits.CtxOf("upper"), limits.Get("upper"));
    if (out.lower_limit > out.upper_limit) {
      Fail(limits.ctx(), limits.node(),
           "lower (" + FormatNumber(out.lower_limit) + ") must be <= upper (" +
               FormatNumber(out.upper_limit) + ")");
    }
  }
  ReadSubMap(map, "spring",
             {{"stiffness", "N m/rad or N/m", "joint spring stiffness K", &out.spring_stiffness, kNonNegative},
              {"reference", "rad or m", "the spring's rest position", &out.spring_reference, kAnyNumber}});
  if (map.Has("damping")) out.damping = ReadNonNegative(map.CtxOf("damping"), map.Get("damping"));
  if (map.Has("rotor_inertia")) {
    out.rotor_inertia = ReadNonNegative(map.CtxOf("rotor_inertia"), map.Get("rotor_inertia"));
  }
  ParseJointInitial(map, &out);
  return out;
}

ActuatorDescription Loader::ParseActuator(const Ctx& ctx, const YAML::Node& node) const {
  ActuatorDescription out;
  const MapView map = OpenElement(ctx, node, kActuatorKeys, {"name", "joint"}, &out);
  out.joint = ReadName(map.CtxOf("joint"), map.Get("joint"));
  if (map.Has("kp")) out.kp = ReadNonNegative(map.CtxOf("kp"), map.Get("kp"));
  if (map.Has("kd")) out.kd = ReadNonNegative(map.CtxOf("kd"), map.Get("kd"));
  if (!(out.kp + out.kd > 0)) {
    const bool has_kd = map.Has("kd");
    Fail(has_kd ? map.CtxOf("kd") : ctx, has_kd ? map.Get("kd") : node,
         "an actuator needs kp > 0 or kd > 0 (both are zero)");
  }
  if (map.Has("effort_limit")) {
    out.effort_limit = ReadPositive(map.CtxOf("effort_limit"), map.Get("effort_limit"));
  }
  ReadSubMap(map, "target",
             {{"position", "rad or m", "target position q_d", &out.target_position, kAnyNumber},
              {"velocity", "rad/s or m/s", "target velocity v_d", &out.target_velocity, kAnyNumber}});
  return out;
}

ConstraintDescription Loader::ParseConstraint(const Ctx& ctx, const YAML::Node& node) const {
  ConstraintDescription out;
  const MapView map = OpenElement(ctx, node, kConstraintKeys, {"name", "type", "body_a", "body_b"}, &out);
  const std::string type =
      ReadChoice(map.CtxOf("type"), map.Get("type"), kConstraintTypes, "constraint type");
  out.type = type == "weld" ? BodyConstraintType::kWeld : BodyConstraintType::kBall;
  out.body_a = ReadName(map.CtxOf("body_a"), map.Get("body_a"));
  out.body_b = ReadName(map.CtxOf("body_b"), map.Get("body_b"));
  if (map.Has("frame_a")) out.X_AFa = ReadPose(map.CtxOf("frame_a"), map.Get("frame_a")).X;
  if (map.Has("frame_b")) out.X_BFb = ReadPose(map.CtxOf("frame_b"), map.Get("frame_b")).X;
  return out;
}

/// Remembers names of one kind and rejects duplicates.
class NameRegistry {
 public:
  explicit NameRegistry(std::string kind) : kind_(std::move(kind)) {}
  void Add(const std::string& name, const SourceLocation& where, const Ctx& ctx,
           const YAML::Node& node) {
    const auto [it, inserted] = first_.emplace(name, where);
    if (!inserted) {
      Fail(ctx, node, "duplicate " + kind_ + " name " + Quote(name) + " (first defined at " +
                          it->second.ToString() + ")");
    }
  }
  bool Has(const std::string& name) const { return first_.count(name) > 0; }
  const SourceLocation& Where(const std::string& name) const { return first_.at(name); }

 private:
  std::string kind_;
  std::map<std::string, SourceLocation> first_;
};

MapView Loader::Register(NameRegistry* names, const Ctx& ctx, const YAML::Node& node, const std::string& name,
                         const SourceLocation& where) const {
  MapView map(*this, ctx, node);
  names->Add(name, where, map.CtxOf("name"), map.Get("name"));
  return map;
}

std::string ShortList(const std::vector<std::string>& names) {
  constexpr std::size_t kMax = 12;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kMax; ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  if (names.size() > kMax) out += ", ...";
  return out.empty() ? std::string("none") : out;
}

JointPdGains Loader::ReadPdGains(const MapView& map) const {
  JointPdGains gains;
  if (map.Has("kp")) gains.kp = ReadNonNegative(map.CtxOf("kp"), map.Get("kp"));
  if (map.Has("kd")) gains.kd = ReadNonNegative(map.CtxOf("kd"), map.Get("kd"));
  if (!(gains.kp + gains.kd > 0)) {
    Fail(map.ctx(), map.node(), "a PD controller needs kp > 0 or kd > 0 (kp [N m/rad or N/m], kd [N m s/rad or N s/m])");
  }
  return gains;
}

bool LooksLikeUrdf(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".urdf" || ext == ".URDF") return true;
  std::ifstream in(path);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const std::size_t robot = head.find("<robot");
  const std::size_t mujoco = head.find("<mujoco");
  return robot != std::string::npos && (mujoco == std::string::npos || robot < mujoco);
}

void Loader::ParseRobot(const Ctx& ctx, const YAML::Node& node, const std::vector<std::string>& package_path,
                        SceneDescription* scene) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(kRobotKeys, "for a robot");
  map.Require("file", "for a robot");
  const Ctx file_ctx = map.CtxOf("file");
  const std::string file = ReadName(file_ctx, map.Get("file"));
  std::error_code ec;
  const fs::path resolved =
      fs::absolute(fs::path(file).is_absolute() ? fs::path(file) : fs::path(file_ctx.dir) / file, ec).lexically_normal();
  if (!fs::is_regular_file(resolved, ec)) {
    Fail(file_ctx, map.Get("file"), "robot file " + Quote(file) + " not found (resolved to " + resolved.string() + ")");
  }
  RobotPlacement placement;
  placement.where = WhereOf(ctx, node);
  if (map.Has("name")) placement.name = ReadName(map.CtxOf("name"), map.Get("name"));
  if (map.Has("parent")) placement.parent = ReadName(map.CtxOf("parent"), map.Get("parent"));
  if (map.Has("pose")) placement.X_PR = ReadPose(map.CtxOf("pose"), map.Get("pose")).X;
  bool fixed_base = true;
  if (map.Has("fixed_base")) fixed_base = ReadBool(map.CtxOf("fixed_base"), map.Get("fixed_base"));
  if (map.Has("self_collision")) placement.self_collision = ReadBool(map.CtxOf("self_collision"), map.Get("self_collision"));
  if (map.Has("material")) placement.material = ReadName(map.CtxOf("material"), map.Get("material"));
  if (map.Has("groups")) placement.groups = ReadNameList(map.CtxOf("groups"), map.Get("groups"), "group names");
  if (map.Has("initial")) {
    const MapView initial(*this, map.CtxOf("initial"), map.Get("initial"));
    for (const std::string& key : initial.keys()) {
      placement.initial[key] = ReadNumber(initial.CtxOf(key), initial.Get(key));
    }
  }
  if (map.Has("joint_pd")) {
    const MapView pd(*this, map.CtxOf("joint_pd"), map.Get("joint_pd"));
    pd.AllowOnly(kJointPdKeys, "for joint_pd");
    if (pd.Has("kp") || pd.Has("kd")) placement.joint_pd = ReadPdGains(pd);
    if (pd.Has("joints")) {
      const MapView joints(*this, pd.CtxOf("joints"), pd.Get("joints"));
      for (const std::string& key : joints.keys()) {
        const MapView gains(*this, joints.CtxOf(key), joints.Get(key));
        gains.AllowOnly(std::array<std::string_view, 2>{"kp", "kd"}, "for a joint's PD gains");
        placement.joint_pd_overrides[key] = ReadPdGains(gains);
      }
    }
  }
  const std::string path = resolved.string();
  RobotDescription robot;
  const bool urdf = LooksLikeUrdf(path);
  if (urdf) {
    UrdfImportOptions options;
    options.fixed_base = fixed_base;
    options.package_path = package_path;
    robot = ImportUrdf(path, options);
  } else {
    if (map.Has("fixed_base")) {
      Fail(map.CtxOf("fixed_base"), map.Get("fixed_base"),
           "an MJCF model says itself whether a body floats (a <freejoint>); fixed_base is for URDF");
    }
    robot = ImportMjcf(path);
  }
  // MJCF only: the file's <option gravity timestep> become the scene's.
  if (map.Has("use_file_options") && ReadBool(map.CtxOf("use_file_options"), map.Get("use_file_options"))) {
    if (urdf) {
      Fail(map.CtxOf("use_file_options"), map.Get("use_file_options"), "a URDF file has no simulation options");
    }
    scene->gravity = robot.gravity;
    if (robot.time_step > 0) scene->time_step = robot.time_step;
  }
  // Raised (or lowered) so that its lowest collision geometry touches z = 0.
  if (map.Has("rest_on_ground") && ReadBool(map.CtxOf("rest_on_ground"), map.Get("rest_on_ground"))) {
    if (placement.parent != "world") {
      Fail(map.CtxOf("rest_on_ground"), map.Get("rest_on_ground"), "a robot mounted on a body cannot rest on the ground");
    }
    const double lowest = CalcLowestCollisionPoint(robot, placement.X_PR);
    if (std::isfinite(lowest)) placement.X_PR.p.z() -= lowest;
  }
  PlaceRobot(robot, placement, scene);
  scene->robots.push_back(RobotSummary{placement.name.empty() ? robot.name : placement.name, path, robot.format,
                                       robot.notes});
}

GripperDescription Loader::ParseGripper(const Ctx& ctx, const YAML::Node& node,
                                        const SceneDescription& scene) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(kGripperKeys);
  GripperDescription out;
  out.present = true;
  out.where = WhereOf(ctx, node);
  // Each named actuator must exist and drive the joint type its role needs
  // (fingers of a hand: either axial type).
  auto check_actuator = [&](const Ctx& actuator_ctx, const YAML::Node& node, std::optional<JointType> type) {
    const std::string name = ReadName(actuator_ctx, node);
    const auto a = std::find_if(scene.actuators.begin(), scene.actuators.end(),
                                [&](const ActuatorDescription& d) { return d.name == name; });
    if (a == scene.actuators.end()) {
      std::vector<std::string> names;
      for (const ActuatorDescription& d : scene.actuators) names.push_back(d.name);
      Fail(actuator_ctx, node, "unknown actuator " + Quote(name) + " (actuators: " + ShortList(names) + ")");
    }
    const auto j = std::find_if(scene.joints.begin(), scene.joints.end(),
                                [&](const JointDescription& d) { return d.name == a->joint; });
    const bool axial = j != scene.joints.end() &&
                       (j->type == JointType::kRevolute || j->type == JointType::kPrismatic);
    if (!axial || (type && j->type != *type)) {
      Fail(actuator_ctx, node,
           "actuator " + Quote(name) + " must drive a " +
               (!type ? "revolute or prismatic" : *type == JointType::kRevolute ? "revolute" : "prismatic") +
               " joint");
    }
    return name;
  };
  auto actuator = [&](const char* key, JointType type) {
    map.Require(key);
    return check_actuator(map.CtxOf(key), map.Get(key), type);
  };
  if (map.Has("end_effector")) {
    // An arm: a Cartesian impedance on the end-effector frame, not gantry axes.
    for (const char* key : {"x", "y", "z", "yaw"}) {
      if (map.Has(key)) {
        Fail(map.CtxOf(key), map.Get(key),
             "an arm gripper (end_effector) is driven in Cartesian space; remove the gantry axis " + Quote(key));
      }
    }
    const MapView ee(*this, map.CtxOf("end_effector"), map.Get("end_effector"));
    ee.AllowOnly(std::array<std::string_view, 2>{"body", "pose"}, "for end_effector");
    ee.Require("body", "for end_effector");
    out.end_effector_body = ReadName(ee.CtxOf("body"), ee.Get("body"));
    if (std::none_of(scene.bodies.begin(), scene.bodies.end(),
                     [&](const BodyDescription& b) { return b.name == out.end_effector_body; })) {
      Fail(ee.CtxOf("body"), ee.Get("body"), "unknown body " + Quote(out.end_effector_body));
    }
    if (ee.Has("pose")) out.X_BE = ReadPose(ee.CtxOf("pose"), ee.Get("pose")).X;
    if (map.Has("impedance")) {
      const MapView imp(*this, map.CtxOf("impedance"), map.Get("impedance"));
      imp.AllowOnly(kImpedanceKeys, "for impedance");
      double* fields[6] = {&out.translational_stiffness, &out.translational_damping, &out.rotational_stiffness,
                           &out.rotational_damping, &out.max_force, &out.max_torque};
      for (int i = 0; i < 6; ++i) {
        const std::string_view key = kImpedanceKeys[i];
        if (!imp.Has(key)) continue;
        *fields[i] = i < 4 ? ReadNonNegative(imp.CtxOf(key), imp.Get(key)) : ReadPositive(imp.CtxOf(key), imp.Get(key));
      }
    }
    if (map.Has("posture")) {
      const MapView posture(*this, map.CtxOf("posture"), map.Get("posture"));
      posture.AllowOnly(std::array<std::string_view, 2>{"stiffness", "damping"}, "for posture");
      if (posture.Has("stiffness")) {
        out.posture_stiffness = ReadNonNegative(posture.CtxOf("stiffness"), posture.Get("stiffness"));
      }
      if (posture.Has("damping")) out.posture_damping = ReadNonNegative(posture.CtxOf("damping"), posture.Get("damping"));
    }
  } else {
    for (const char* key : {"impedance", "posture"}) {
      if (map.Has(key)) Fail(map.CtxOf(key), map.Get(key), Quote(key) + " is for an arm gripper (end_effector)");
    }
    out.x = actuator("x", JointType::kPrismatic);
    out.y = actuator("y", JointType::kPrismatic);
    out.z = actuator("z", JointType::kPrismatic);
    out.yaw = actuator("yaw", JointType::kRevolute);
  }
  if (map.Has("fingers")) {
    // A hand: named fingers of one or more actuators each.
    for (const char* key : {"left_finger", "right_finger", "finger_open", "finger_closed"}) {
      if (map.Has(key)) {
        Fail(map.CtxOf(key), map.Get(key), Quote(key) + " is the two-finger shorthand; with 'fingers' list every finger there");
      }
    }
    const Ctx list_ctx = map.CtxOf("fingers");
    const YAML::Node& list = map.Get("fingers");
    if (!list.IsSequence() || list.size() == 0) Fail(list_ctx, list, "expected a non-empty list of fingers, got " + Describe(list));
    std::vector<std::string> used;  // Actuators already in a finger.
    for (const auto& [element, element_ctx] : Elements(list_ctx, list)) {
      const MapView f(*this, element_ctx, element);
      f.AllowOnly(kFingerKeys, "for a finger");
      for (const char* key : {"name", "actuators", "open", "closed"}) f.Require(key, "for a finger");
      FingerDescription finger;
      finger.name = ReadName(f.CtxOf("name"), f.Get("name"));
      for (const FingerDescription& other : out.fingers) {
        if (other.name == finger.name) Fail(f.CtxOf("name"), f.Get("name"), "duplicate finger name " + Quote(finger.name));
      }
      const YAML::Node& names = f.Get("actuators");
      if (!names.IsSequence() || names.size() == 0) {
        Fail(f.CtxOf("actuators"), names, "expected a non-empty list of actuator names, got " + Describe(names));
      }
      for (const auto& [name_node, name_ctx] : Elements(f.CtxOf("actuators"), names)) {
        const std::string name = check_actuator(name_ctx, name_node, std::nullopt);
        if (Contains(used, name)) Fail(name_ctx, name_node, "actuator " + Quote(name) + " is already in a finger");
        used.push_back(name);
        finger.actuators.push_back(name);
      }
      const int n = static_cast<int>(finger.actuators.size());
      const VectorX open = ReadNumbers(f.CtxOf("open"), f.Get("open"), n, n);
      const VectorX closed = ReadNumbers(f.CtxOf("closed"), f.Get("closed"), n, n);
      if (open == closed) Fail(f.CtxOf("closed"), f.Get("closed"), "open and closed must differ");
      finger.open.assign(open.data(), open.data() + n);
      finger.closed.assign(closed.data(), closed.data() + n);
      out.fingers.push_back(std::move(finger));
    }
  } else {
    // Two prismatic fingers pressing with the grip force.
    double open = 0.05, closed = 0.0;
    if (map.Has("finger_open")) open = ReadNumber(map.CtxOf("finger_open"), map.Get("finger_open"));
    if (map.Has("finger_closed")) closed = ReadNumber(map.CtxOf("finger_closed"), map.Get("finger_closed"));
    if (open == closed) {
      Fail(map.Has("finger_closed") ? map.CtxOf("finger_closed") : ctx,
           map.Has("finger_closed") ? map.Get("finger_closed") : node,
           "finger_open and finger_closed must differ");
    }
    for (const char* side : {"left", "right"}) {
      const std::string key = std::string(side) + "_finger";
      out.fingers.push_back(FingerDescription{side, {actuator(key.c_str(), JointType::kPrismatic)}, {open}, {closed}, true});
    }
  }
  if (map.Has("grip_force")) {
    out.grip_force = ReadInRange(map.CtxOf("grip_force"), map.Get("grip_force"), kMinGripForce,
                                 kMaxGripForce);
  }
  return out;
}

CameraDescription Loader::ParseCamera(const Ctx& ctx, const YAML::Node& node,
                                      const SceneDescription& scene) const {
  CameraDescription out;
  out.where = WhereOf(ctx, node);
  if (node.IsNull()) return out;  // "camera:" alone, as "camera: {}": fit the bodies.
  const MapView map(*this, ctx, node);
  map.AllowOnly(kCameraKeys, "for the camera");
  if (map.Has("lookat")) out.lookat = ReadVector3(map.CtxOf("lookat"), map.Get("lookat"));
  if (map.Has("distance")) out.distance = ReadPositive(map.CtxOf("distance"), map.Get("distance"));
  if (map.Has("azimuth")) out.azimuth_deg = ReadNumber(map.CtxOf("azimuth"), map.Get("azimuth"));
  if (map.Has("elevation")) {
    const Ctx elevation_ctx = map.CtxOf("elevation");
    out.elevation_deg = ReadNumber(elevation_ctx, map.Get("elevation"));
    // ±90° would look along z, parallel to the camera's up vector.
    if (!(std::abs(out.elevation_deg) < kMaxCameraElevationDeg)) {
      Fail(elevation_ctx, map.Get("elevation"),
           "must be in (-90, 90) degrees, got " + OneLine(map.Get("elevation").Scalar()));
    }
  }
  if (map.Has("fovy")) {
    out.fovy_deg = ReadInRange(map.CtxOf("fovy"), map.Get("fovy"), kMinCameraFovyDeg, kMaxCameraFovyDeg);
  }
  if (map.Has("track")) {
    const Ctx track_ctx = map.CtxOf("track");
    out.track = ReadName(track_ctx, map.Get("track"));
    if (std::none_of(scene.bodies.begin(), scene.bodies.end(),
                     [&](const BodyDescription& b) { return b.name == out.track; })) {
      std::vector<std::string> names;
      for (const BodyDescription& b : scene.bodies) names.push_back(b.name);
      Fail(track_ctx, map.Get("track"), "unknown body " + Quote(out.track) + " (bodies: " + ShortList(names) + ")");
    }
  }
  return out;
}

SceneDescription Loader::Build(const YAML::Node& root, const MergedFiles& merged) {
  const Ctx root_ctx{top_label_, top_dir_, false, ""};
  // Per-key context for the top-level scalar keys: the file that set them.
  auto scalar_ctx = [&](const std::string& key, const YAML::Node& value) {
    const auto it = merged.scalars.find(key);
    const Ctx base = it != merged.scalars.end() ? it->second.ctx : root_ctx;
    return Enter(base, value, key);
  };
  const MapView top(*this, root_ctx, root);
  top.AllowOnly(kSceneKeys);

  SceneDescription scene;
  scene.file = top_label_;
  auto has = [&](const char* key) { return top.Has(key); };
  auto get = [&](const char* key) -> const YAML::Node& { return top.Get(key); };
  auto ctx_of = [&](const char* key) { return scalar_ctx(key, top.Get(key)); };

  if (has("description")) scene.description = ReadString(ctx_of("description"), get("description"));
  if (has("gravity")) scene.gravity = ReadVector3(ctx_of("gravity"), get("gravity"));
  if (has("time_step")) {
    const Ctx ctx = ctx_of("time_step");
    scene.time_step = ReadNumber(ctx, get("time_step"));
    if (!(scene.time_step > 0) || scene.time_step > 1) {
      Fail(ctx, get("time_step"), "must be in (0, 1] seconds, got " + OneLine(get("time_step").Scalar()));
    }
  }
  if (has("duration")) scene.duration = ReadPositive(ctx_of("duration"), get("duration"));
  if (has("stepping")) {
    scene.scheme =
        ReadRegistryChoice(ctx_of("stepping"), get("stepping"), SteppingSchemes(), "stepping scheme").scheme;
  }
  if (has("integrator")) scene.integrator = ParseIntegrator(ctx_of("integrator"), get("integrator"));
  if (has("contact_model")) {
    scene.contact.model =
        ReadRegistryChoice(ctx_of("contact_model"), get("contact_model"), ContactModels(), "contact model").model;
  }
  if (has("solver")) ParseSolver(ctx_of("solver"), get("solver"), &scene.solver, &scene.contact);
  if (has("nmdp")) {
    ReadParameterMap(ctx_of("nmdp"), get("nmdp"), BindParameters(scene.nmdp),
                     [&] { ValidateNmdpParameters(scene.nmdp); });
  }

  // Materials, then the default material they are referenced through.
  NameRegistry material_names("material");
  for (const auto& [node, ctx] : ListElements(root, merged, "materials")) {
    MaterialDescription material = ParseMaterial(ctx, node);
    const MapView map = Register(&material_names, ctx, node, material.name, material.where);
    // Every pair of materials may touch; a pair's model is the one its
    // materials name, so two different explicit models are ambiguous.
    if (const std::optional<ContactModel> model = material.material.model) {
      for (const MaterialDescription& other : scene.materials) {
        if (other.material.model && *other.material.model != *model) {
          Fail(map.CtxOf("contact_model"), map.Get("contact_model"),
               "contact model " + Quote(ContactModelName(*model)) + " conflicts with material " +
                   Quote(other.name) + " (" + std::string(ContactModelName(*other.material.model)) + ", " +
                   other.where.ToString() +
                   "): contacts between them would be ambiguous; name the model on one material only "
                   "or set the scene's contact_model");
        }
      }
    }
    scene.materials.push_back(std::move(material));
  }
  if (!material_names.Has("default")) {
    MaterialDescription builtin;
    builtin.name = "default";
    builtin.where = SourceLocation{kBuiltInLabel, 0};
    scene.materials.push_back(builtin);
  }
  if (has("default_material")) {
    const Ctx ctx = ctx_of("default_material");
    scene.default_material = ReadName(ctx, get("default_material"));
    if (std::none_of(scene.materials.begin(), scene.materials.end(),
                     [&](const MaterialDescription& m) { return m.name == scene.default_material; })) {
      std::vector<std::string> names;
      for (const MaterialDescription& m : scene.materials) names.push_back(m.name);
      Fail(ctx, get("default_material"),
           "unknown material " + Quote(scene.default_material) + " (defined: " +
               ShortList(names) + ")");
    }
  }

  NameRegistry geometry_names("geometry");
  auto add_geometry_names = [&](const std::vector<GeometryDescription>& geometries,
                                const Ctx& owner_ctx, const YAML::Node& owner) {
    // Re-walk the list for exact error locations of duplicates.
    std::vector<std::pair<YAML::Node, Ctx>> elements;
    const MapView map(*this, owner_ctx, owner);
    if (map.Has("geometry") && map.Get("geometry").IsSequence()) {
      elements = Elements(map.CtxOf("geometry"), map.Get("geometry"));
    }
    for (std::size_t i = 0; i < geometries.size(); ++i) {
      const MapView g(*this, elements[i].second, elements[i].first);
      const bool named = g.Has("name");
      geometry_names.Add(geometries[i].name, geometries[i].where,
                         named ? g.CtxOf("name") : elements[i].second,
                         named ? g.Get("name") : elements[i].first);
    }
  };

  // World geometry.
  {
    std::size_t i = 0;
    for (const auto& [node, ctx] : ListElements(root, merged, "world_geometry")) {
      GeometryDescription g = ParseGeometry(ctx, node, "world_" + std::to_string(i++),
                                            /*in_world=*/true, Vector4(0.7, 0.7, 0.7, 1.0), scene);
      const MapView map(*this, ctx, node);
      geometry_names.Add(g.name, g.where, map.Has("name") ? map.CtxOf("name") : ctx,
                         map.Has("name") ? map.Get("name") : node);
      scene.world_geometries.push_back(std::move(g));
    }
  }

  // Bodies.
  NameRegistry body_names("body");
  std::vector<PendingFreeState> free_states;
  std::vector<std::pair<YAML::Node, Ctx>> body_nodes = ListElements(root, merged, "bodies");
  for (const auto& [node, ctx] : body_nodes) {
    PendingFreeState free_state;
    BodyDescription body = ParseBody(ctx, node, scene, &free_state);
    const MapView map = Register(&body_names, ctx, node, body.name, body.where);
    add_geometry_names(body.geometries, ctx, node);
    scene.bodies.push_back(std::move(body));
    free_states.push_back(std::move(free_state));
  }
  std::vector<std::string> all_body_names;
  for (const BodyDescription& b : scene.bodies) all_body_names.push_back(b.name);

  // Joints.
  NameRegistry joint_names("joint");
  std::map<std::string, std::size_t> parent_joint_of;  // child body -> joint index
  const std::vector<std::pair<YAML::Node, Ctx>> joint_nodes = ListElements(root, merged, "joints");
  for (const auto& [node, ctx] : joint_nodes) {
    JointDescription joint = ParseJoint(ctx, node);
    const MapView map = Register(&joint_names, ctx, node, joint.name, joint.where);
    const Ctx parent_ctx = map.CtxOf("parent");
    const Ctx child_ctx = map.CtxOf("child");
    if (joint.child == "world") {
      Fail(child_ctx, map.Get("child"), "the world cannot be a joint's child");
    }
    if (!body_names.Has(joint.child)) {
      Fail(child_ctx, map.Get("child"),
           "unknown body " + Quote(joint.child) + " (bodies: " + ShortList(all_body_names) + ")");
    }
    if (joint.parent != "world" && !body_names.Has(joint.parent)) {
      Fail(parent_ctx, map.Get("parent"),
           "unknown body " + Quote(joint.parent) + " (expected 'world' or one of: " +
               ShortList(all_body_names) + ")");
    }
    if (joint.parent == joint.child) {
      Fail(child_ctx, map.Get("child"), "a body cannot be its own parent");
    }
    const auto [it, inserted] = parent_joint_of.emplace(joint.child, scene.joints.size());
    if (!inserted) {
      const JointDescription& other = scene.joints[it->second];
      Fail(child_ctx, map.Get("child"),
           "body " + Quote(joint.child) + " is already the child of joint " + Quote(other.name) +
               " (" + other.where.ToString() + "); a body has at most one parent joint");
    }
    scene.joints.push_back(std::move(joint));
  }
  // Kinematic loops: follow each body's parent chain; it must reach the world.
  for (std::size_t j = 0; j < scene.joints.size(); ++j) {
    std::vector<std::string> chain = {scene.joints[j].child};
    std::string body = scene.joints[j].parent;
    while (body != "world") {
      if (body == scene.joints[j].child) {
        chain.push_back(body);
        std::string text;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
          text += (text.empty() ? "" : " -> ") + *it;
        }
        const auto& [node, ctx] = joint_nodes[j];
        const MapView map(*this, ctx, node);
        Fail(map.CtxOf("parent"), map.Get("parent"),
             "the joints form a loop (parent chain " + text +
                 "); every body must connect to the world through a tree");
      }
      if (chain.size() > scene.joints.size() + 1) break;  // A loop not through this joint.
      chain.push_back(body);
      const auto next = parent_joint_of.find(body);
      if (next == parent_joint_of.end()) break;  // A free body: its chain ends at the world.
      body = scene.joints[next->second].parent;
    }
  }

  // Free bodies get an implicit free joint; pose/velocity belong to them only.
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyDescription& body = scene.bodies[b];
    const PendingFreeState& state = free_states[b];
    const auto parent = parent_joint_of.find(body.name);
    if (parent != parent_joint_of.end()) {
      const JointDescription& joint = scene.joints[parent->second];
      for (const auto* entry : {&state.pose, &state.velocity}) {
        if (!entry->has_value()) continue;
        const auto& [node, ctx] = **entry;
        const std::string key = entry == &state.pose ? "pose" : "velocity";
        Ctx at = ctx;
        Fail(at, node,
             Quote(key) + " is only allowed on free bodies, and " + Quote(body.name) +
                 " is the child of joint " + Quote(joint.name) + " (" + joint.where.ToString() +
                 "); set that joint's 'initial' instead");
      }
      continue;
    }
    JointDescription joint;
    joint.name = body.name + "_free";
    joint.type = JointType::kFree;
    joint.parent = "world";
    joint.child = body.name;
    joint.where = body.where;
    PoseValue X_WB;
    if (state.pose) X_WB = ReadPose(state.pose->second, state.pose->first);
    Vector3 w_WB_W = Vector3::Zero();
    Vector3 v_WB_W = Vector3::Zero();
    if (state.velocity) {
      const MapView velocity(*this, state.velocity->second, state.velocity->first);
      velocity.AllowOnly(std::array<std::string_view, 2>{"linear", "angular"});
      if (velocity.Has("linear")) v_WB_W = ReadVector3(velocity.CtxOf("linear"), velocity.Get("linear"));
      if (velocity.Has("angular")) w_WB_W = ReadVector3(velocity.CtxOf("angular"), velocity.Get("angular"));
    }
    // The free joint's angular velocity is measured in the child frame M = B:
    // ω_M = R_WBᵀ ω_W. Its linear velocity is in F = W.
    const Vector3 w_WB_B = X_WB.X.R.transpose() * w_WB_W;
    joint.initial_q = ToStd(X_WB.q);
    joint.initial_q.insert(joint.initial_q.end(), X_WB.X.p.data(), X_WB.X.p.data() + 3);
    joint.initial_v = {w_WB_B.x(), w_WB_B.y(), w_WB_B.z(), v_WB_W.x(), v_WB_W.y(), v_WB_W.z()};
    if (joint_names.Has(joint.name)) {
      const auto& [node, ctx] = body_nodes[b];
      const MapView map(*this, ctx, node);
      Fail(map.CtxOf("name"), map.Get("name"),
           "body " + Quote(body.name) + " is free, and its implicit free joint " +
               Quote(joint.name) + " clashes with the joint defined at " +
               joint_names.Where(joint.name).ToString());
    }
    joint_names.Add(joint.name, joint.where, root_ctx, root);
    scene.joints.push_back(std::move(joint));
  }

  // Robots from URDF and MJCF files: after the scene's own bodies, so that
  // a robot can be mounted on one; before actuators, constraints and the
  // gripper, so that those can name the robot's joints and bodies.
  {
    std::vector<std::string> package_path;
    if (has("package_path")) {
      const Ctx ctx = ctx_of("package_path");
      for (const std::string& dir : ReadNameList(ctx, get("package_path"), "directories")) {
        package_path.push_back(fs::path(dir).is_absolute() ? dir : (fs::path(ctx.dir) / dir).string());
      }
    }
    for (const std::string& dir : PackagePathFromEnvironment()) package_path.push_back(dir);
    for (const auto& [node, ctx] : ListElements(root, merged, "robots")) {
      ParseRobot(ctx, node, package_path, &scene);
    }
    for (const BodyDescription& b : scene.bodies) {
      if (!body_names.Has(b.name)) body_names.Add(b.name, b.where, root_ctx, root);
    }
    all_body_names.clear();
    for (const BodyDescription& b : scene.bodies) all_body_names.push_back(b.name);
  }

  // Actuators: PD controllers on revolute/prismatic joints.
  NameRegistry actuator_names("actuator");
  for (const ActuatorDescription& a : scene.actuators) actuator_names.Add(a.name, a.where, root_ctx, root);
  for (const auto& [node, ctx] : ListElements(root, merged, "actuators")) {
    ActuatorDescription actuator = ParseActuator(ctx, node);
    const MapView map = Register(&actuator_names, ctx, node, actuator.name, actuator.where);
    const auto joint = std::find_if(scene.joints.begin(), scene.joints.end(),
                                    [&](const JointDescription& j) { return j.name == actuator.joint; });
    if (joint == scene.joints.end()) {
      std::vector<std::string> names;
      for (const JointDescription& j : scene.joints) names.push_back(j.name);
      Fail(map.CtxOf("joint"), map.Get("joint"),
           "unknown joint " + Quote(actuator.joint) + " (joints: " + ShortList(names) + ")");
    }
    if (joint->type != JointType::kRevolute && joint->type != JointType::kPrismatic) {
      Fail(map.CtxOf("joint"), map.Get("joint"),
           "joint " + Quote(actuator.joint) +
               " is not revolute or prismatic; an actuator drives one joint coordinate");
    }
    scene.actuators.push_back(std::move(actuator));
  }

  // Oscillators: periodic targets on actuators (a gait, a shaker).
  for (const auto& [node, ctx] : ListElements(root, merged, "oscillators")) {
    const MapView map(*this, ctx, node);
    map.AllowOnly(kOscillatorKeys, "for an oscillator");
    for (const char* key : {"actuator", "amplitude", "period"}) map.Require(key, "for an oscillator");
    OscillatorDescription o;
    o.where = WhereOf(ctx, node);
    o.actuator = ReadName(map.CtxOf("actuator"), map.Get("actuator"));
    if (!actuator_names.Has(o.actuator)) {
      std::vector<std::string> names;
      for (const ActuatorDescription& a : scene.actuators) names.push_back(a.name);
      Fail(map.CtxOf("actuator"), map.Get("actuator"),
           "unknown actuator " + Quote(o.actuator) + " (actuators: " + ShortList(names) + ")");
    }
    for (const OscillatorDescription& other : scene.oscillators) {
      if (other.actuator == o.actuator) {
        Fail(map.CtxOf("actuator"), map.Get("actuator"),
             "actuator " + Quote(o.actuator) + " already has an oscillator (at " + other.where.ToString() + ")");
      }
    }
    o.amplitude = ReadNumber(map.CtxOf("amplitude"), map.Get("amplitude"));
    o.period = ReadPositive(map.CtxOf("period"), map.Get("period"));
    if (map.Has("phase")) {
      o.phase = ReadNumber(map.CtxOf("phase"), map.Get("phase"));
      if (o.phase < 0 || o.phase >= 1) Fail(map.CtxOf("phase"), map.Get("phase"), "must be in [0, 1) periods");
    }
    if (map.Has("start")) o.start = ReadNonNegative(map.CtxOf("start"), map.Get("start"));
    scene.oscillators.push_back(std::move(o));
  }

  // Constraints: welds and ball constraints between two bodies (or a body and the world).
  NameRegistry constraint_names("constraint");
  for (const ConstraintDescription& c : scene.constraints) constraint_names.Add(c.name, c.where, root_ctx, root);
  for (const auto& [node, ctx] : ListElements(root, merged, "constraints")) {
    ConstraintDescription constraint = ParseConstraint(ctx, node);
    const MapView map = Register(&constraint_names, ctx, node, constraint.name, constraint.where);
    for (const char* key : {"body_a", "body_b"}) {
      const std::string& body = std::string(key) == "body_a" ? constraint.body_a : constraint.body_b;
      if (body != "world" && !body_names.Has(body)) {
        Fail(map.CtxOf(key), map.Get(key),
             "unknown body " + Quote(body) + " (expected 'world' or one of: " +
                 ShortList(all_body_names) + ")");
      }
    }
    if (constraint.body_a == constraint.body_b) {
      Fail(map.CtxOf("body_b"), map.Get("body_b"),
           "a constraint needs two different bodies, got " + Quote(constraint.body_b) + " twice");
    }
    scene.constraints.push_back(std::move(constraint));
  }

  // The teleoperated gripper (needs the actuators) and the scene's command file.
  if (has("gripper")) scene.gripper = ParseGripper(ctx_of("gripper"), get("gripper"), scene);
  if (has("commands")) {
    const Ctx ctx = ctx_of("commands");
    const std::string file = ReadName(ctx, get("commands"));
    std::error_code ec;
    const fs::path resolved =
        fs::absolute(fs::path(file).is_absolute() ? fs::path(file) : fs::path(ctx.dir) / file, ec)
            .lexically_normal();
    if (!fs::is_regular_file(resolved, ec)) {
      Fail(ctx, get("commands"),
           "command file " + Quote(file) + " not found (resolved to " + resolved.string() + ")");
    }
    if (!scene.gripper.present) {
      Fail(ctx, get("commands"), "a command file needs a gripper (scene key 'gripper')");
    }
    scene.commands_file = resolved.string();
  }
  // The camera last: `track` may name any body, a robot's included.
  if (has("camera")) scene.camera = ParseCamera(ctx_of("camera"), get("camera"), scene);
  return scene;
}

SceneDescription Loader::Load(const std::string& text, const std::string& label,
                              const std::string& base_dir, const std::string& identity,
                              const std::vector<std::string>& overrides) {
  MergedFiles merged;
  const YAML::Node root = MergeAndOverride(text, label, base_dir, identity, overrides, &merged);
  return Build(root, merged);
}

YAML::Node Loader::MergeAndOverride(const std::string& text, const std::string& label, const std::string& base_dir,
                                    const std::string& identity, const std::vector<std::string>& overrides,
                                    MergedFiles* merged) {
  top_label_ = label;
  top_dir_ = base_dir.empty() ? std::string(".") : base_dir;
  std::vector<StackEntry> stack;
  if (!identity.empty()) stack.push_back(StackEntry{identity, label});
  *merged = ParseFile(text, Ctx{top_label_, top_dir_, false, ""}, stack);
  YAML::Node root = BuildTree(*merged);
  for (const std::string& assignment : overrides) {
    const YAML::Node value = ApplyOverride(root, assignment);
    override_nodes_.emplace_back(value, OverrideLabel(assignment));
  }
  return root;
}

void Loader::RebasePath(const Ctx& ctx, YAML::Node node, const fs::path& dest_dir) const {
  // Anything but a non-empty relative path is left for the loader to judge.
  if (!node.IsScalar() || node.Scalar().empty() || fs::path(node.Scalar()).is_absolute()) return;
  std::error_code ec;
  // As the loader resolves it: lexically, from the directory of the file
  // (or, for an override, the top-level file) that wrote it.
  const fs::path target = fs::absolute(fs::path(ctx.dir) / node.Scalar(), ec).lexically_normal();
  fs::path relative = target.lexically_relative(dest_dir);
  // Relative only when the operating system agrees it is the same file: a
  // ".." out of a symbolic link would lead elsewhere (package_path
  // directories are not normalized before use).
  const fs::path canonical_target = fs::weakly_canonical(target, ec);
  const bool same = !relative.empty() && !ec &&
                    fs::weakly_canonical(dest_dir / relative, ec) == canonical_target && !ec;
  node = same ? relative.generic_string() : target.string();
}

void Loader::RebaseGeometry(const Ctx& ctx, const YAML::Node& geometry, const fs::path& dest_dir) const {
  if (!geometry.IsMap()) return;
  const YAML::Node shape = geometry["shape"];
  if (!shape.IsDefined() || !shape.IsMap()) return;
  const YAML::Node file = shape["file"];
  if (!file.IsDefined()) return;
  const Ctx shape_ctx = Enter(ctx, shape, KeyPath(ctx.path, "shape"));
  RebasePath(Enter(shape_ctx, file, KeyPath(shape_ctx.path, "file")), file, dest_dir);
}

std::string Loader::Flatten(const std::string& text, const std::string& label, const std::string& base_dir,
                            const std::string& identity, const std::vector<std::string>& overrides,
                            const std::string& dest_dir) {
  MergedFiles merged;
  YAML::Node root = MergeAndOverride(text, label, base_dir, identity, overrides, &merged);
  std::error_code ec;
  const fs::path dest = fs::absolute(dest_dir.empty() ? fs::path(".") : fs::path(dest_dir), ec).lexically_normal();
  const Ctx root_ctx{top_label_, top_dir_, false, ""};
  const MapView top(*this, root_ctx, root);
  top.AllowOnly(kSceneKeys);
  auto scalar_ctx = [&](const std::string& key) {
    const auto it = merged.scalars.find(key);
    return Enter(it != merged.scalars.end() ? it->second.ctx : root_ctx, top.Get(key), key);
  };
  // Every key that names a file or directory (docs/scene-format.md): mesh
  // shapes, robot files, package_path, the command file. Includes are
  // merged, so no `include` is left.
  if (top.Has("commands")) RebasePath(scalar_ctx("commands"), top.Get("commands"), dest);
  if (top.Has("package_path") && top.Get("package_path").IsSequence()) {
    for (const auto& [element, element_ctx] : Elements(scalar_ctx("package_path"), top.Get("package_path"))) {
      RebasePath(element_ctx, element, dest);
    }
  }
  for (const auto& [node, ctx] : ListElements(root, merged, "world_geometry")) RebaseGeometry(ctx, node, dest);
  for (const auto& [node, ctx] : ListElements(root, merged, "bodies")) {
    if (!node.IsMap()) continue;
    const YAML::Node geometry = node["geometry"];
    if (!geometry.IsDefined() || !geometry.IsSequence()) continue;
    for (const auto& [g, g_ctx] : Elements(Enter(ctx, geometry, KeyPath(ctx.path, "geometry")), geometry)) {
      RebaseGeometry(g_ctx, g, dest);
    }
  }
  for (const auto& [node, ctx] : ListElements(root, merged, "robots")) {
    if (!node.IsMap() || !node["file"].IsDefined()) continue;
    const YAML::Node file = node["file"];
    RebasePath(Enter(ctx, file, KeyPath(ctx.path, "file")), file, dest);
  }
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const std::string_view key : kSceneKeys) {
    if (!top.Has(key)) continue;
    out << YAML::Key << std::string(key) << YAML::Value << top.Get(key);
  }
  out << YAML::EndMap;
  if (!out.good()) throw InputError(OneLine(label + ": cannot write the merged scene: " + out.GetLastError()));
  return std::string(out.c_str()) + "\n";
}

template <typename Fn>
SceneDescription GuardedLoad(const std::string& label, Fn&& load) {
  // Only InputError leaves the loader, whatever goes wrong inside.
  try {
    return load();
  } catch (const InputError&) {
    throw;
  } catch (const YAML::Exception& e) {
    std::string message = label;
    if (!e.mark.is_null() && e.mark.line >= 0) message += ":" + std::to_string(e.mark.line + 1);
    throw InputError(OneLine(message + ": YAML error: " + e.msg));
  } catch (const std::exception& e) {
    throw InputError(OneLine(label + ": internal error while loading the scene: " + e.what()));
  } catch (...) {
    throw InputError(OneLine(label + ": unknown internal error while loading the scene"));
  }
}

}  // namespace

namespace {

/// A YAML double-quoted string.
std::string YamlQuoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool IsRobotFile(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".urdf" || ext == ".URDF" || ext == ".xml" || ext == ".XML" || ext == ".mjcf";
}

/// The scene a robot file opens as: the robot resting on a ground plane
/// (URDF), or the model as it is with its own world, gravity and time step
/// (MJCF).
/// A URDF robot gets joint PD controllers holding its zero pose, capped by
/// the file's effort limits, so that it stands instead of collapsing.
std::string RobotFileScene(const std::string& path) {
  const std::string file = fs::absolute(fs::path(path)).lexically_normal().string();
  std::string yaml = "description: " + YamlQuoted("Robot file " + fs::path(path).filename().string() +
                                                  " opened on its own (docs/robots.md).") + "\n";
  if (LooksLikeUrdf(file)) {
    yaml += "world_geometry:\n  - name: ground\n    shape: {type: half_space}\n    color: [0.55, 0.57, 0.6, 1]\n";
    yaml += "robots:\n  - file: " + YamlQuoted(file) + "\n    joint_pd: {kp: 100, kd: 10}\n    rest_on_ground: true\n";
  } else {
    yaml += "robots:\n  - file: " + YamlQuoted(file) + "\n    use_file_options: true\n";
  }
  return yaml;
}

}  // namespace

SceneDescription LoadSceneFile(const std::string& path,
                               const std::vector<std::string>& overrides) {
  if (IsRobotFile(path)) {
    return GuardedLoad(path, [&] {
      std::error_code ec;
      if (!fs::is_regular_file(path, ec)) throw InputError(path + ": no such robot file");
      Loader loader;
      return loader.Load(RobotFileScene(path), path, DirOf(fs::path(path)), Identity(path), overrides);
    });
  }
  return GuardedLoad(path, [&] {
    const std::string text = ReadFileText(path, "scene file", path, [&](const std::string& reason) {
      throw InputError(OneLine(path + ": " + reason));
    });
    Loader loader;
    return loader.Load(text, path, DirOf(fs::path(path)), Identity(path), overrides);
  });
}

std::string FlattenSceneFile(const std::string& path, const std::string& dest_dir,
                             const std::vector<std::string>& overrides) {
  // The same guard as loading: only InputError leaves.
  std::string text;
  GuardedLoad(path, [&] {
    Loader loader;
    if (IsRobotFile(path)) {
      std::error_code ec;
      if (!fs::is_regular_file(path, ec)) throw InputError(path + ": no such robot file");
      text = loader.Flatten(RobotFileScene(path), path, DirOf(fs::path(path)), Identity(path), overrides, dest_dir);
    } else {
      const std::string source = ReadFileText(path, "scene file", path, [&](const std::string& reason) {
        throw InputError(OneLine(path + ": " + reason));
      });
      text = loader.Flatten(source, path, DirOf(fs::path(path)), Identity(path), overrides, dest_dir);
    }
    return SceneDescription{};
  });
  return text;
}

SceneDescription LoadSceneString(const std::string& yaml_text, const std::string& file_label,
                                 const std::string& base_dir,
                                 const std::vector<std::string>& overrides) {
  return GuardedLoad(file_label, [&] {
    Loader loader;
    return loader.Load(yaml_text, file_label, base_dir, "", overrides);
  });
}

}  // namespace stiction
