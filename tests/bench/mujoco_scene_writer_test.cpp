// The Stiction -> MuJoCo mapping of stiction-bench (issue 8) as text: the
// MJCF that WriteMjcf emits for scenes loaded from YAML, the elements it
// refuses, and the initial state converted to MuJoCo's joint coordinates.
// Expected numbers are formatted like the writer (%.17g), so string matches
// are exact; the conversions are checked against independent closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "bench/side_by_side/mujoco_scene_writer.h"
#include "engine/scene/scene_loader.h"

namespace stiction::bench {
namespace {

std::string Num(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The numbers of attribute `name` of the first element that starts with
// `element` (e.g. "<joint name=\"a\""); empty when absent.
std::vector<double> Numbers(const std::string& mjcf, const std::string& element,
                            const std::string& name) {
  const std::size_t start = mjcf.find(element);
  if (start == std::string::npos) return {};
  const std::size_t end = mjcf.find('>', start);
  const std::size_t at = mjcf.find(" " + name + "=\"", start);
  if (at == std::string::npos || at > end) return {};
  std::istringstream values(mjcf.substr(at + name.size() + 3, mjcf.find('"', at + name.size() + 3) -
                                                                (at + name.size() + 3)));
  std::vector<double> out;
  for (double x; values >> x;) out.push_back(x);
  return out;
}

// A 2 kg box (10 x 20 x 30 cm) 0.5 m above a ground plane, friction 0.3.
constexpr const char* kBoxScene = R"(
gravity: [0, 0, -9.81]
time_step: 0.002
materials:
  - {name: wood, friction: 0.3}
default_material: wood
world_geometry:
  - name: ground
    shape: {type: half_space}
bodies:
  - name: box
    mass: 2.0
    geometry:
      - name: shell
        shape: {type: box, size: [0.1, 0.2, 0.3]}
      - name: ghost
        shape: {type: sphere, radius: 0.01}
        collision: false
    pose: {position: [0, 0, 0.5]}
)";

SceneDescription BoxScene() { return LoadSceneString(kBoxScene, "scene.yaml"); }

std::string Write(const SceneDescription& scene, MujocoConfig config = MujocoConfig::kPyramidalNewton) {
  std::string why_not;
  const std::string mjcf = WriteMjcf(scene, config, &why_not);
  EXPECT_FALSE(mjcf.empty()) << why_not;
  return mjcf;
}

TEST(MujocoSceneWriterTest, OptionsCarryTheTimeStepGravityAndConfig) {
  const SceneDescription scene = BoxScene();
  const std::string pyramidal = Write(scene, MujocoConfig::kPyramidalNewton);
  const std::string elliptic = Write(scene, MujocoConfig::kEllipticNewton);
  const std::string noslip = Write(scene, MujocoConfig::kEllipticNoslip);
  for (const std::string* mjcf : {&pyramidal, &elliptic, &noslip}) {
    EXPECT_TRUE(Contains(*mjcf, "timestep=\"0.002\"")) << *mjcf;
    EXPECT_TRUE(Contains(*mjcf, "gravity=\"0 0 -9.8100000000000005\"")) << *mjcf;
    EXPECT_TRUE(Contains(*mjcf, "solver=\"Newton\"")) << *mjcf;
    EXPECT_TRUE(Contains(*mjcf, "angle=\"radian\"")) << *mjcf;
    // The configuration is stated in a comment at the top.
    EXPECT_EQ(mjcf->rfind("<!--", 0), 0u) << *mjcf;
    // Nothing else is tuned: no integrator, iterations, tolerance, solref,
    // solimp or margin in the file (MuJoCo's defaults apply).
    for (const char* key : {"integrator=", " iterations=", "tolerance=", "solref=", "solimp=",
                            "margin="}) {
      EXPECT_FALSE(Contains(*mjcf, key)) << key;
    }
  }
  EXPECT_TRUE(Contains(pyramidal, "cone=\"pyramidal\""));
  EXPECT_TRUE(Contains(elliptic, "cone=\"elliptic\""));
  EXPECT_TRUE(Contains(noslip, "cone=\"elliptic\""));
  EXPECT_FALSE(Contains(pyramidal, "noslip_iterations"));
  EXPECT_FALSE(Contains(elliptic, "noslip_iterations"));
  EXPECT_TRUE(Contains(noslip, "noslip_iterations=\"10\""));
  EXPECT_TRUE(Contains(pyramidal, "\"pyramidal Newton\""));
  EXPECT_TRUE(Contains(noslip, "\"elliptic Newton + noslip\""));
}

TEST(MujocoSceneWriterTest, GeometryInertiaAndFriction) {
  const SceneDescription scene = BoxScene();
  const std::string mjcf = Write(scene);
  // The half-space is an infinite plane with the ground's name.
  EXPECT_TRUE(Contains(mjcf, "<geom name=\"ground\" type=\"plane\" size=\"0 0 1\"")) << mjcf;
  // Box: half extents.
  EXPECT_TRUE(Contains(mjcf, "<geom name=\"box/shell\" type=\"box\" size=\"" + Num(0.05) + " " +
                                 Num(0.1) + " " + Num(0.15) + "\""))
      << mjcf;
  // The free body at its initial pose, with a named free joint.
  EXPECT_TRUE(Contains(mjcf, "<body name=\"box\" pos=\"0 0 0.5\" quat=\"1 0 0 0\">")) << mjcf;
  EXPECT_TRUE(Contains(mjcf, "<freejoint name=\"box_free\"/>")) << mjcf;
  // Explicit inertia of the solid box about its centre, body axes:
  // m(b² + c²)/12 etc. (the loader's closed form, docs/scene-format.md).
  const Matrix3& I = scene.bodies[0].I_Bcm_B;
  EXPECT_NEAR(I(0, 0), 2.0 * (0.04 + 0.09) / 12, 1e-15);  // Round-off of the loader's sum.
  EXPECT_TRUE(Contains(mjcf, "<inertial pos=\"0 0 0\" mass=\"2\" fullinertia=\"" + Num(I(0, 0)) +
                                 " " + Num(I(1, 1)) + " " + Num(I(2, 2)) + " 0 0 0\"/>"))
      << mjcf;
  // Friction: μ of the material, MuJoCo's default torsional and rolling.
  EXPECT_TRUE(Contains(mjcf, "friction=\"0.29999999999999999 0.005 0.0001\"")) << mjcf;
  // A non-colliding geometry is kept but excluded from contact.
  const std::size_t ghost = mjcf.find("name=\"box/ghost\"");
  ASSERT_NE(ghost, std::string::npos);
  const std::string ghost_line = mjcf.substr(ghost, mjcf.find('\n', ghost) - ghost);
  EXPECT_TRUE(Contains(ghost_line, "contype=\"0\" conaffinity=\"0\"")) << ghost_line;
  const std::size_t shell = mjcf.find("name=\"box/shell\"");
  EXPECT_FALSE(Contains(mjcf.substr(shell, mjcf.find('\n', shell) - shell), "contype"));
}

TEST(MujocoSceneWriterTest, CapsuleAndCylinderTakeHalfLengths) {
  const SceneDescription scene = LoadSceneString(R"(
bodies:
  - name: rod
    mass: 1
    geometry:
      - {name: c, shape: {type: capsule, radius: 0.02, length: 0.3}}
      - {name: y, shape: {type: cylinder, radius: 0.04, length: 0.5}, pose: {position: [0, 0, 1]}}
)",
                                                 "scene.yaml");
  const std::string mjcf = Write(scene);
  EXPECT_TRUE(Contains(mjcf, "type=\"capsule\" size=\"" + Num(0.02) + " " + Num(0.15) + "\"")) << mjcf;
  EXPECT_TRUE(Contains(mjcf, "type=\"cylinder\" size=\"" + Num(0.04) + " 0.25\" pos=\"0 0 1\""))
      << mjcf;
}

// A two-link arm: a hinge to the world with an offset child frame, a slide
// with limits, spring, damping and rotor inertia, a welded tip, one actuator.
constexpr const char* kArmScene = R"(
bodies:
  - {name: upper, mass: 1, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}
  - {name: lower, mass: 1, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}
  - {name: tip, mass: 0.1, inertia: {ixx: 0.001, iyy: 0.001, izz: 0.001}}
joints:
  - name: shoulder
    type: revolute
    parent: world
    child: upper
    parent_frame: {position: [0, 0, 1]}
    child_frame: {position: [0, 0, 0.25], rpy: [0, 0, 1.5707963267948966]}
    axis: [1, 0, 0]
    limits: {lower: -1, upper: 2}
  - name: elbow
    type: prismatic
    parent: upper
    child: lower
    parent_frame: {position: [0, 0, -0.5]}
    axis: [0, 0, 1]
    limits: {lower: -0.1}
    spring: {stiffness: 50, reference: 0.02}
    damping: 3
    rotor_inertia: 0.5
    initial: {position: 0.04, velocity: -0.5}
  - {name: weld, type: fixed, parent: lower, child: tip, parent_frame: {position: [0, 0, -0.3]}}
actuators:
  - {name: motor, joint: shoulder, kp: 100, kd: 10, effort_limit: 7, target: {position: 0.5, velocity: 0.25}}
)";

TEST(MujocoSceneWriterTest, JointsNestBodiesAndMapTheirParameters) {
  const SceneDescription scene = LoadSceneString(kArmScene, "scene.yaml");
  const std::string mjcf = Write(scene);
  // upper in the world at X_PF · X_CM⁻¹: R = Rz(−90°), p = (0, 0, 1) − R (0, 0, 0.25).
  EXPECT_TRUE(Contains(mjcf, "<body name=\"upper\" pos=\"0 0 0.75\"")) << mjcf;
  const std::vector<double> quat = Numbers(mjcf, "<body name=\"upper\"", "quat");
  ASSERT_EQ(quat.size(), 4u) << mjcf;
  const double expected_quat[4] = {std::sqrt(0.5), 0, 0, -std::sqrt(0.5)};
  // Round-off of rpy -> matrix -> quaternion: a few ulp of 1.
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(quat[i], expected_quat[i], 1e-15) << i;
  // The hinge sits at p_CM with axis R_CM x = Rz(90°) x = y (to round-off).
  const std::size_t shoulder = mjcf.find("<joint name=\"shoulder\"");
  ASSERT_NE(shoulder, std::string::npos) << mjcf;
  const std::string line = mjcf.substr(shoulder, mjcf.find('\n', shoulder) - shoulder);
  EXPECT_TRUE(Contains(line, "pos=\"0 0 0.25\" type=\"hinge\" axis=\"")) << line;
  EXPECT_TRUE(Contains(line, "limited=\"true\" range=\"-1 2\"")) << line;
  const std::vector<double> axis = Numbers(mjcf, "<joint name=\"shoulder\"", "axis");
  ASSERT_EQ(axis.size(), 3u) << line;
  // Round-off of Rz(π/2) built from the rpy (cos(π/2) = 6e-17) and of the
  // quaternion-free product R_CM x: a few ulp of 1.
  EXPECT_NEAR(axis[0], 0, 1e-15);
  EXPECT_NEAR(axis[1], 1, 1e-15);
  EXPECT_NEAR(axis[2], 0, 1e-15);
  // Nested bodies: lower inside upper, tip inside lower, without a joint.
  const std::size_t upper = mjcf.find("<body name=\"upper\"");
  const std::size_t lower = mjcf.find("<body name=\"lower\"");
  const std::size_t tip = mjcf.find("<body name=\"tip\"");
  ASSERT_TRUE(upper < lower && lower < tip) << mjcf;
  EXPECT_LT(tip, mjcf.find("</body>")) << mjcf;
  EXPECT_TRUE(Contains(mjcf, "<body name=\"tip\" pos=\"0 0 -0.29999999999999999\" quat=\"1 0 0 "
                             "0\">\n          <inertial"))
      << mjcf;
  // A one-sided limit gets a far stand-in for the missing side.
  EXPECT_TRUE(Contains(mjcf, "<joint name=\"elbow\" pos=\"0 0 0\" type=\"slide\" axis=\"0 0 1\" "
                             "limited=\"true\" range=\"-0.10000000000000001 10000000000\" "
                             "stiffness=\"50\" springref=\"0.02\" damping=\"3\" armature=\"0.5\"/>"))
      << mjcf;
  // PD actuator: force = ctrl − kp q − kd v, clamped to ±7.
  EXPECT_TRUE(Contains(mjcf, "<general name=\"motor\" joint=\"shoulder\" gainprm=\"1\" "
                             "biastype=\"affine\" biasprm=\"0 -100 -10\" ctrllimited=\"false\" "
                             "forcelimited=\"true\" forcerange=\"-7 7\"/>"))
      << mjcf;
  EXPECT_EQ(MujocoControl(scene.actuators[0]), 100 * 0.5 + 10 * 0.25);
  // Axial joints keep their coordinates; the fixed joint has none.
  const MujocoJointState elbow = ToMujocoJointState(scene.joints[1]);
  EXPECT_EQ(elbow.qpos, std::vector<double>{0.04});
  EXPECT_EQ(elbow.qvel, std::vector<double>{-0.5});
  const MujocoJointState weld = ToMujocoJointState(scene.joints[2]);
  EXPECT_TRUE(weld.qpos.empty() && weld.qvel.empty());
}

TEST(MujocoSceneWriterTest, FreeJointStateIsInMujocosConvention) {
  // Body turned 90° about z, spinning about world x at 2 rad/s, moving at
  // (1, 2, 3) m/s. MuJoCo's free joint: qpos = (p, q), qvel = (v_W, ω_B);
  // ω_B = R_WBᵀ ω_W = Rz(−90°)(2, 0, 0) = (0, −2, 0).
  const SceneDescription scene = LoadSceneString(R"(
bodies:
  - name: b
    mass: 1
    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}
    pose: {position: [0.1, 0.2, 0.3], rpy: [0, 0, 1.5707963267948966]}
    velocity: {linear: [1, 2, 3], angular: [2, 0, 0]}
)",
                                                 "scene.yaml");
  const MujocoJointState state = ToMujocoJointState(scene.joints[0]);
  ASSERT_EQ(state.qpos.size(), 7u);
  ASSERT_EQ(state.qvel.size(), 6u);
  // Round-off of one quaternion <-> matrix round trip: a few ulp of 1.
  const double tol = 1e-15;
  const double expected_qpos[7] = {0.1, 0.2, 0.3, std::sqrt(0.5), 0, 0, std::sqrt(0.5)};
  const double expected_qvel[6] = {1, 2, 3, 0, -2, 0};
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(state.qpos[i], expected_qpos[i], tol) << i;
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(state.qvel[i], expected_qvel[i], 2 * tol) << i;
}

TEST(MujocoSceneWriterTest, ExplicitFreeJointFramesMoveToTheBodyOrigin) {
  // M sits 0.1 m along the child's x: the body origin C is at −0.1 x from
  // M. Spinning about z at 1 rad/s with M at rest, C moves at
  // ω × (p_C − p_M) = z × (−0.1 x) = (0, −0.1, 0).
  const SceneDescription scene = LoadSceneString(R"(
bodies:
  - {name: b, mass: 1, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}
joints:
  - name: float
    type: free
    parent: world
    child: b
    child_frame: {position: [0.1, 0, 0]}
    initial: {velocity: {angular: [0, 0, 1]}}
)",
                                                 "scene.yaml");
  const MujocoJointState state = ToMujocoJointState(scene.joints[0]);
  const double expected_qpos[7] = {-0.1, 0, 0, 1, 0, 0, 0};
  const double expected_qvel[6] = {0, -0.1, 0, 0, 0, 1};
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(state.qpos[i], expected_qpos[i], 1e-16) << i;
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(state.qvel[i], expected_qvel[i], 1e-16) << i;
  EXPECT_TRUE(Contains(Write(scene), "<body name=\"b\" pos=\"-0.10000000000000001 0 0\"")) << Write(scene);
}

TEST(MujocoSceneWriterTest, BallJointRotationIsExpressedInTheChildFrame) {
  // R_CM = Rz(90°) maps M's x to C's y: a rotation of 0.3 rad about M's x
  // is, in the child frame, 0.3 rad about y; ω_M = (1, 0, 0) is ω_C = (0, 1, 0).
  const SceneDescription scene = LoadSceneString(R"(
bodies:
  - {name: b, mass: 1, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}
joints:
  - name: socket
    type: ball
    parent: world
    child: b
    child_frame: {rpy: [0, 0, 1.5707963267948966]}
    initial: {position: {rpy: [0.3, 0, 0]}, velocity: [1, 0, 0]}
)",
                                                 "scene.yaml");
  const MujocoJointState state = ToMujocoJointState(scene.joints[0]);
  const double expected_qpos[4] = {std::cos(0.15), 0, std::sin(0.15), 0};
  const double expected_qvel[3] = {0, 1, 0};
  // Round-off of three quaternion products of unit quaternions: a few ulp.
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(state.qpos[i], expected_qpos[i], 1e-15) << i;
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(state.qvel[i], expected_qvel[i], 1e-15) << i;
  EXPECT_TRUE(Contains(Write(scene), "type=\"ball\"/>")) << Write(scene);
}

std::string Refusal(const SceneDescription& scene) {
  std::string why_not;
  const std::string mjcf = WriteMjcf(scene, MujocoConfig::kEllipticNewton, &why_not);
  EXPECT_TRUE(mjcf.empty()) << mjcf;
  return why_not;
}

TEST(MujocoSceneWriterTest, RefusesAMeshNamingIt) {
  SceneDescription scene = BoxScene();
  GeometryDescription& g = scene.bodies[0].geometries[0];
  g.name = "bunny";
  g.shape.type = ShapeType::kMesh;
  g.shape.mesh_file = "bunny.obj";
  g.where = {"scene.yaml", 12};
  EXPECT_EQ(Refusal(scene), "geometry 'bunny' (scene.yaml:12): meshes are not mapped to MuJoCo");
}

TEST(MujocoSceneWriterTest, RefusesAWeldConstraintNamingIt) {
  SceneDescription scene = BoxScene();
  ConstraintDescription weld;
  weld.name = "glue";
  weld.type = BodyConstraintType::kWeld;
  weld.body_b = "box";
  weld.where = {"scene.yaml", 30};
  scene.constraints.push_back(weld);
  const std::string why_not = Refusal(scene);
  EXPECT_EQ(why_not.find("constraint 'glue' (scene.yaml:30): weld"), 0u) << why_not;
  EXPECT_TRUE(Contains(why_not, "not mapped to MuJoCo")) << why_not;
}

TEST(MujocoSceneWriterTest, RefusesGroupsGripperAndBodyHalfSpaces) {
  {
    SceneDescription scene = BoxScene();
    scene.bodies[0].geometries[0].groups = {"fingers"};
    EXPECT_TRUE(Contains(Refusal(scene), "geometry 'shell' (scene.yaml:")) << Refusal(scene);
    EXPECT_TRUE(Contains(Refusal(scene), "collision groups")) << Refusal(scene);
  }
  {
    SceneDescription scene = BoxScene();
    scene.gripper.present = true;
    scene.gripper.where = {"scene.yaml", 40};
    EXPECT_EQ(Refusal(scene).find("gripper (scene.yaml:40)"), 0u) << Refusal(scene);
  }
  {
    SceneDescription scene = BoxScene();
    scene.bodies[0].geometries[0].shape.type = ShapeType::kHalfSpace;
    EXPECT_TRUE(Contains(Refusal(scene), "half-spaces on bodies")) << Refusal(scene);
  }
}

TEST(MujocoSceneWriterTest, CapacityGrowsWithTheScene) {
  // One colliding geometry on a body (the ghost does not collide): MuJoCo's
  // own defaults suffice.
  const MujocoContactCapacity small = MujocoCapacity(BoxScene(), MujocoConfig::kPyramidalNewton);
  EXPECT_EQ(small.nconmax, 100);
  EXPECT_EQ(small.njmax, 500);
  // The clutter: 40 objects -> 6 · 40 contacts, 4 (pyramid) or 3 rows each.
  const SceneDescription clutter =
      LoadSceneFile(std::string(STICTION_SOURCE_DIR) + "/assets/scenes/clutter.yaml");
  EXPECT_EQ(MujocoCapacity(clutter, MujocoConfig::kPyramidalNewton).nconmax, 240);
  EXPECT_EQ(MujocoCapacity(clutter, MujocoConfig::kPyramidalNewton).njmax, 960);
  EXPECT_EQ(MujocoCapacity(clutter, MujocoConfig::kEllipticNewton).njmax, 720);
  EXPECT_TRUE(Contains(Write(clutter), "<size nconmax=\"240\" njmax=\"960\"/>"));
}

TEST(MujocoSceneWriterTest, ConfigNames) {
  EXPECT_EQ(MujocoConfigName(MujocoConfig::kPyramidalNewton), "pyramidal Newton");
  EXPECT_EQ(MujocoConfigName(MujocoConfig::kEllipticNewton), "elliptic Newton");
  EXPECT_EQ(MujocoConfigName(MujocoConfig::kEllipticNoslip), "elliptic Newton + noslip");
}

}  // namespace
}  // namespace stiction::bench
