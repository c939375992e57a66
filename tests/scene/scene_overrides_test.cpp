// Tests of the --set overrides: selection by key, name and index, leaf
// creation, error messages, and how the loader reports overridden values.
#include "engine/scene/scene_overrides.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"

namespace stiction {
namespace {

const std::string kScenesDir = std::string(STICTION_SOURCE_DIR) + "/assets/scenes";

constexpr char kScene[] = R"(time_step: 0.01
gravity: [0, 0, -9.81]
integrator: midpoint
solver: {max_iterations: 50}
materials:
  - {name: steel, friction: 0.5}
  - {name: rubber, friction: 0.9}
bodies:
  - name: box
    mass: 1
    geometry:
      - shape: {type: box, size: [0.1, 0.1, 0.1]}
  - name: ball
    mass: 2
    geometry:
      - shape: {type: sphere, radius: 0.1}
)";

SceneDescription LoadWith(const std::vector<std::string>& overrides) {
  return LoadSceneString(kScene, "scene.yaml", ".", overrides);
}

/// The InputError message of applying `overrides` to kScene ("" if none).
std::string LoadError(const std::vector<std::string>& overrides) {
  try {
    LoadWith(overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

std::string ApplyError(const std::string& assignment) {
  YAML::Node root = YAML::Load(kScene);
  try {
    ApplyOverride(root, assignment);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError for " << assignment;
  return "";
}

TEST(SceneOverridesTest, ParseSplitsKeyAndValue) {
  const OverrideAssignment a = ParseOverride("bodies.box.mass = 2=3");
  EXPECT_EQ(a.path, (std::vector<std::string>{"bodies", "box", "mass"}));
  EXPECT_EQ(a.value, " 2=3");  // Everything after the first '='.
  EXPECT_EQ(a.text, "bodies.box.mass = 2=3");
  EXPECT_EQ(OverrideLabel("x=1"), "--set x=1");
}

TEST(SceneOverridesTest, SetsTopLevelScalar) {
  YAML::Node root = YAML::Load(kScene);
  const YAML::Node value = ApplyOverride(root, "time_step=0.002");
  EXPECT_EQ(root["time_step"].as<double>(), 0.002);
  EXPECT_TRUE(value.is(root["time_step"]));
  EXPECT_DOUBLE_EQ(LoadWith({"time_step=1e-3"}).time_step, 1e-3);
}

TEST(SceneOverridesTest, SelectsSequenceElementsByName) {
  const SceneDescription scene = LoadWith({"bodies.ball.mass=5", "materials.rubber.friction=0.1"});
  EXPECT_DOUBLE_EQ(scene.bodies[0].mass, 1);
  EXPECT_DOUBLE_EQ(scene.bodies[1].mass, 5);
  EXPECT_DOUBLE_EQ(scene.materials[0].material.friction, 0.5);
  EXPECT_DOUBLE_EQ(scene.materials[1].material.friction, 0.1);
}

TEST(SceneOverridesTest, SelectsSequenceElementsByIndex) {
  const SceneDescription scene =
      LoadWith({"bodies.0.mass=3", "bodies.1.geometry.0.shape.radius=0.2", "gravity.2=-1.62"});
  EXPECT_DOUBLE_EQ(scene.bodies[0].mass, 3);
  EXPECT_DOUBLE_EQ(scene.bodies[1].geometries[0].shape.radius, 0.2);
  EXPECT_DOUBLE_EQ(scene.gravity.z(), -1.62);
}

TEST(SceneOverridesTest, ValuesAreParsedAsYaml) {
  const SceneDescription scene =
      LoadWith({"gravity=[0, 0, -1.62]", "integrator={theta: 1, theta_vq: 1}",
                "solver.max_iterations=7", "bodies.box.geometry.0.shape.size=[1, 2, 3]"});
  EXPECT_TRUE(scene.gravity.isApprox(Vector3(0, 0, -1.62)));
  EXPECT_EQ(scene.integrator.name, "custom");
  EXPECT_DOUBLE_EQ(scene.integrator.theta, 1.0);
  EXPECT_EQ(scene.solver.sap.max_iterations, 7);
  EXPECT_TRUE(scene.bodies[0].geometries[0].shape.size.isApprox(Vector3(1, 2, 3)));
  EXPECT_EQ(LoadWith({"integrator=implicit_euler"}).integrator.name, "implicit_euler");
}

TEST(SceneOverridesTest, CreatesAMissingLeafKey) {
  const SceneDescription scene =
      LoadWith({"duration=12", "bodies.box.com=[0, 0, 0.05]", "solver.line_search=backtracking"});
  EXPECT_DOUBLE_EQ(scene.duration, 12);
  EXPECT_TRUE(scene.bodies[0].com_B.isApprox(Vector3(0, 0, 0.05)));
  EXPECT_EQ(scene.solver.sap.line_search, LineSearchKind::kBacktracking);
}

TEST(SceneOverridesTest, LaterOverridesWin) {
  EXPECT_DOUBLE_EQ(LoadWith({"time_step=0.5", "time_step=0.25"}).time_step, 0.25);
  EXPECT_DOUBLE_EQ(LoadWith({"duration=1", "duration=2"}).duration, 2);
  // The error names the override that put the bad value there.
  EXPECT_EQ(LoadError({"duration=1", "duration=-2"}),
            "--set duration=-2: duration: must be positive, got -2");
}

TEST(SceneOverridesTest, ReachesEntriesOfIncludedFiles) {
  // demo.yaml includes ground.yaml, which defines "default" and "ground".
  const SceneDescription scene = LoadSceneFile(
      kScenesDir + "/demo.yaml",
      {"materials.default.friction=0.2", "world_geometry.ground.pose.position=[0, 0, -1]"});
  bool found = false;
  for (const MaterialDescription& m : scene.materials) {
    if (m.name == "default") {
      EXPECT_DOUBLE_EQ(m.material.friction, 0.2);
      found = true;
    }
  }
  EXPECT_TRUE(found);
  EXPECT_DOUBLE_EQ(scene.world_geometries.at(0).X_BG.p.z(), -1);
}

TEST(SceneOverridesTest, ErrorMissingEquals) {
  EXPECT_EQ(ApplyError("time_step"),
            "--set time_step: expected KEY=VALUE (e.g. time_step=0.002), found no '='");
}

TEST(SceneOverridesTest, ErrorEmptyKeyOrSegment) {
  EXPECT_EQ(ApplyError("=1"), "--set =1: empty key before '='");
  EXPECT_EQ(ApplyError("bodies..mass=1"), "--set bodies..mass=1: empty segment in key 'bodies..mass'");
}

TEST(SceneOverridesTest, ErrorNoElementWithThatName) {
  EXPECT_EQ(ApplyError("bodies.foo.mass=1"),
            "--set bodies.foo.mass=1: no element named 'foo' in 'bodies' (it has 2 elements)");
  EXPECT_EQ(ApplyError("bodies.7.mass=1"),
            "--set bodies.7.mass=1: no element named '7' in 'bodies' (it has 2 elements)");
  EXPECT_EQ(ApplyError("bodies.box.geometry.3.shape.radius=1"),
            "--set bodies.box.geometry.3.shape.radius=1: no element named '3' in "
            "'bodies.box.geometry' (it has 1 elements)");
}

TEST(SceneOverridesTest, MissingIntermediateMapsAreCreatedAndThenValidated) {
  // A scene that relies on the solver defaults still takes --set solver.x=...
  const SceneDescription scene = LoadSceneString(
      "bodies: []\n", "bare.yaml", ".", {"solver.relative_tolerance=1e-3", "solver.type=sap"});
  EXPECT_EQ(scene.solver.sap.relative_tolerance, 1e-3);
  // A made-up map is created too, and the loader rejects it as an unknown key
  // with the --set location.
  const std::string message = LoadError({"contact.model=sap"});
  EXPECT_EQ(message.rfind("--set contact.model=sap: ", 0), 0u) << message;
  EXPECT_NE(message.find("unknown key 'contact'"), std::string::npos) << message;
}

TEST(SceneOverridesTest, SteppingSchemeAndNmdpKeysAreOverridable) {
  // kScene has neither `stepping` nor `nmdp:`: both are created and read
  // like written keys (docs/cli.md: --stepping is --set stepping=NAME).
  const SceneDescription scene = LoadWith({"stepping=nmdp_pgm", "nmdp.stiffness=3e4", "nmdp.pyramid_edges=4"});
  EXPECT_EQ(scene.scheme, SteppingScheme::kNmdpPgm);
  EXPECT_EQ(scene.nmdp.stiffness, 3e4);
  EXPECT_EQ(scene.nmdp.pyramid_edges, 4);
  EXPECT_EQ(scene.nmdp.activation_length, NmdpParameters{}.activation_length);
  EXPECT_EQ(LoadWith({"stepping=ne_mdp", "stepping=theta_method"}).scheme, SteppingScheme::kThetaMethod);
  // Refused values name the override and the key.
  EXPECT_EQ(LoadError({"stepping=rk4"}),
            "--set stepping=rk4: stepping: unknown stepping scheme 'rk4' (expected one of: theta_method, nmdp_pgm, "
            "nmdp_zopgm, ne_mdp)");
  EXPECT_EQ(LoadError({"nmdp.stiffness=-1"}), "--set nmdp.stiffness=-1: nmdp.stiffness: must be positive, got -1");
  const std::string unknown = LoadError({"nmdp.stifness=1"});
  EXPECT_EQ(unknown.rfind("--set nmdp.stifness=1: nmdp: unknown key 'stifness'", 0), 0u) << unknown;
}

TEST(SceneOverridesTest, ErrorPathThroughAScalar) {
  EXPECT_EQ(ApplyError("time_step.value=1"),
            "--set time_step.value=1: 'time_step' is not a map or a list, so 'value' cannot be "
            "selected in it");
}

TEST(SceneOverridesTest, ErrorValueNotYaml) {
  const std::string message = ApplyError("gravity=[0, 0");
  EXPECT_EQ(message.rfind("--set gravity=[0, 0: value is not valid YAML", 0), 0u) << message;
}

TEST(SceneOverridesTest, InvalidOverriddenValueNamesTheOverride) {
  EXPECT_EQ(LoadError({"bodies.box.mass=-1"}),
            "--set bodies.box.mass=-1: bodies[0].mass: must be positive, got -1");
  EXPECT_EQ(LoadError({"time_step=abc"}), "--set time_step=abc: time_step: expected a number, got 'abc'");
  EXPECT_EQ(LoadError({"gravity=[0, 0]"}),
            "--set gravity=[0, 0]: gravity: expected a list of 3 numbers, got a list of 2");
  EXPECT_EQ(LoadError({"integrator={theta: 2, theta_vq: 1}"}),
            "--set integrator={theta: 2, theta_vq: 1}: integrator.theta: must be in [0, 1], got 2");
  EXPECT_EQ(LoadError({"time_step="}),
            "--set time_step=: time_step: expected a number, got nothing (an empty value)");
}

TEST(SceneOverridesTest, UnknownCreatedKeyIsRejectedByTheLoader) {
  EXPECT_EQ(LoadError({"bodies.box.masss=2"}),
            "--set bodies.box.masss=2: bodies[0]: unknown key 'masss' (expected one of: name, "
            "mass, density, com, inertia, color, geometry, pose, velocity)");
  const std::string message = LoadError({"time_stepp=0.1"});
  EXPECT_EQ(message.rfind("--set time_stepp=0.1: unknown key 'time_stepp'", 0), 0u) << message;
}

TEST(SceneOverridesTest, ErrorsElsewhereStillNameTheFile) {
  // An override that is fine does not hide a file error, and the file error
  // keeps its file:line location.
  try {
    LoadSceneString("time_step: 0.01\nduration: -1\n", "scene.yaml", ".", {"time_step=0.02"});
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "scene.yaml:2: duration: must be positive, got -1");
  }
}

}  // namespace
}  // namespace stiction
