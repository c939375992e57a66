// The Stiction -> MuJoCo mapping of stiction-bench (issue 8) as text: the
// MJCF that WriteMjcf emits for scenes loaded from YAML, the elements it
// refuses, and the initial state converted to MuJoCo's joint coordinates;
// the articulated scenes of issue 15 (arm hold, eight quadrupeds), whose
// MJCF is read back by Stiction's MJCF importer and compared with the scene.
// Expected numbers are formatted like the writer (%.17g), so string matches
// are exact; the conversions are checked against independent closed forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/side_by_side/mujoco_scene_writer.h"
#include "engine/common/text.h"
#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction::bench {
namespace {

std::string Num(double x) { return FormatNumber(x, kRoundTripDigits); }

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

TEST(MujocoSceneWriterTest, RefusesGroupsThatSplitABodyPairGripperAndBodyHalfSpaces) {
  {
    // The shell ignores the ground, the ghost sphere does not collide at all:
    // the pair box–world is excluded as a whole.
    SceneDescription scene = BoxScene();
    scene.bodies[0].geometries[0].groups = {"fingers"};
    scene.world_geometries[0].groups = {"fingers"};
    EXPECT_TRUE(Contains(Write(scene), "<exclude body1=\"world\" body2=\"box\"/>")) << Write(scene);
    // A second colliding geometry outside the group: only some pairs share a
    // group, which a body-pair <exclude> cannot say.
    scene.bodies[0].geometries[1].collision = true;
    EXPECT_EQ(Refusal(scene),
              "bodies 'world' and 'box': collision groups exclude only some of their geometry pairs "
              "(MuJoCo's <exclude> takes whole bodies)");
  }
  {
    SceneDescription scene = BoxScene();
    scene.grippers.emplace_back();
    scene.grippers.back().where = {"scene.yaml", 40};
    EXPECT_EQ(Refusal(scene).find("gripper (scene.yaml:40)"), 0u) << Refusal(scene);
  }
  {
    SceneDescription scene = BoxScene();
    scene.bodies[0].geometries[0].shape.type = ShapeType::kHalfSpace;
    EXPECT_TRUE(Contains(Refusal(scene), "half-spaces on bodies")) << Refusal(scene);
  }
}

TEST(MujocoSceneWriterTest, MasslessWeldedBodiesHaveNoInertial) {
  SceneDescription scene = LoadSceneString(kArmScene, "scene.yaml");
  scene.bodies[2].mass = 0;  // tip, on the fixed joint (a URDF tool frame).
  scene.bodies[2].I_Bcm_B.setZero();
  const std::string mjcf = Write(scene);
  const std::size_t tip = mjcf.find("<body name=\"tip\"");
  ASSERT_NE(tip, std::string::npos) << mjcf;
  EXPECT_EQ(mjcf.find("<inertial", tip), std::string::npos) << mjcf;  // Last body: no inertial after it.
  // A massless body on a moving joint is refused, naming it.
  scene.bodies[1].mass = 0;
  EXPECT_EQ(Refusal(scene).find("body 'lower' (scene.yaml:"), 0u) << Refusal(scene);
  EXPECT_TRUE(Contains(Refusal(scene), "massless body on a prismatic joint")) << Refusal(scene);
  // A joint frame whose next joint moves the body at q = 0 is not one the
  // MJCF importer makes (its frames all coincide with the body): refused,
  // naming the joint.
  scene.bodies[1].joint_frame = true;
  EXPECT_EQ(Refusal(scene).find("joint 'weld' (scene.yaml:"), 0u) << Refusal(scene);
  EXPECT_TRUE(Contains(Refusal(scene), "a joint frame that moves its body at q = 0 is not mapped to MuJoCo"))
      << Refusal(scene);
}

std::string ScenePath(const std::string& name) {
  return std::string(STICTION_SOURCE_DIR) + "/assets/scenes/" + name;
}

int Count(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

bool Excluded(const std::vector<ExcludedBodyPair>& pairs, const std::string& a, const std::string& b) {
  return std::any_of(pairs.begin(), pairs.end(), [&](const ExcludedBodyPair& p) {
    return (p.body1 == a && p.body2 == b) || (p.body1 == b && p.body2 == a);
  });
}

TEST(MujocoSceneWriterTest, ArmHoldSceneMapsJointsActuatorsAndFilteredPairs) {
  const SceneDescription scene = LoadSceneFile(ScenePath("bench_arm_hold.yaml"));
  const std::string mjcf = Write(scene);
  // Seven arm hinges, two finger slides, the box's free joint; the welds
  // (arm base to the world, gripper to the flange) are nested bodies.
  EXPECT_EQ(Count(mjcf, "type=\"hinge\""), 7) << mjcf;
  EXPECT_EQ(Count(mjcf, "type=\"slide\""), 2) << mjcf;
  EXPECT_EQ(Count(mjcf, "<freejoint"), 1) << mjcf;
  EXPECT_EQ(Count(mjcf, "<body name="), static_cast<int>(scene.bodies.size())) << mjcf;
  // Joint PD on the arm capped by the URDF's efforts, the fingers at 20 N.
  EXPECT_EQ(Count(mjcf, "<general name="), 9) << mjcf;
  EXPECT_TRUE(Contains(mjcf, "<general name=\"arm/iiwa_joint_1\" joint=\"arm/iiwa_joint_1\" gainprm=\"1\" "
                             "biastype=\"affine\" biasprm=\"0 -1200 -3.6000000000000001\" ctrllimited=\"false\" "
                             "forcelimited=\"true\" forcerange=\"-320 320\"/>"))
      << mjcf;
  EXPECT_TRUE(Contains(mjcf, "<general name=\"grip_left\" joint=\"gripper/gripper_left_joint\" gainprm=\"1\" "
                             "biastype=\"affine\" biasprm=\"0 -500 -2\" ctrllimited=\"false\" "
                             "forcelimited=\"true\" forcerange=\"-20 20\"/>"))
      << mjcf;
  // The URDF's joint damping and limits.
  const std::size_t j1 = mjcf.find("<joint name=\"arm/iiwa_joint_1\"");
  ASSERT_NE(j1, std::string::npos);
  const std::string line = mjcf.substr(j1, mjcf.find('\n', j1) - j1);
  EXPECT_TRUE(Contains(line, "range=\"-2.96706 2.96706\"")) << line;
  EXPECT_TRUE(Contains(line, "damping=\"0.24149999999999999\"")) << line;

  std::vector<ExcludedBodyPair> pairs;
  std::string why_not;
  ASSERT_TRUE(StictionExcludedBodyPairs(scene, &pairs, &why_not)) << why_not;
  // Stiction: the base welded to the world is a rigid group of its own, so
  // link 1 (jointed to it) does not touch it. MuJoCo merges a world-welded
  // body into the world and would let them collide: the <exclude> is needed.
  EXPECT_TRUE(Excluded(pairs, "arm/iiwa_link_0", "arm/iiwa_link_1"));
  EXPECT_TRUE(Contains(mjcf, "<exclude body1=\"arm/iiwa_link_0\" body2=\"arm/iiwa_link_1\"/>")) << mjcf;
  // The gripper base is welded to link 7: one rigid group, so link 6 (the
  // group's parent) and both fingers (its children) do not touch it.
  EXPECT_TRUE(Excluded(pairs, "arm/iiwa_link_6", "gripper/gripper_base"));
  EXPECT_TRUE(Excluded(pairs, "arm/iiwa_link_7", "gripper/gripper_left_finger"));
  EXPECT_TRUE(Excluded(pairs, "gripper/gripper_base", "gripper/gripper_right_finger"));
  // Not filtered: two links apart, the two fingers, anything with the box.
  EXPECT_FALSE(Excluded(pairs, "arm/iiwa_link_5", "arm/iiwa_link_7"));
  EXPECT_FALSE(Excluded(pairs, "gripper/gripper_left_finger", "gripper/gripper_right_finger"));
  for (const ExcludedBodyPair& p : pairs) {
    EXPECT_NE(p.body1, "box");
    EXPECT_NE(p.body2, "box");
  }
  EXPECT_EQ(Count(mjcf, "<exclude "), static_cast<int>(pairs.size()));
}

TEST(MujocoSceneWriterTest, EightQuadrupedsAreEightFreeTreesOf18Dofs) {
  const SceneDescription scene = LoadSceneFile(ScenePath("quadrupeds8_standing.yaml"));
  const std::string mjcf = Write(scene);
  EXPECT_EQ(Count(mjcf, "<freejoint"), 8) << mjcf;
  EXPECT_EQ(Count(mjcf, "type=\"hinge\""), 96) << mjcf;
  EXPECT_EQ(Count(mjcf, "<general name="), 96) << mjcf;
  EXPECT_EQ(Count(mjcf, "forcerange=\"-33.5 33.5\""), 96) << mjcf;
  // Each dog: trunk–hip, hip–thigh, thigh–calf per leg. Only the pairs of
  // bodies with colliding geometry are written.
  std::vector<ExcludedBodyPair> pairs;
  std::string why_not;
  ASSERT_TRUE(StictionExcludedBodyPairs(scene, &pairs, &why_not)) << why_not;
  EXPECT_TRUE(Excluded(pairs, "dog3/FL_thigh", "dog3/FL_calf"));
  EXPECT_FALSE(Excluded(pairs, "dog3/FL_calf", "dog4/FL_calf"));
  EXPECT_FALSE(Excluded(pairs, "dog3/trunk", "dog3/FL_calf"));
}

// The full (block-diagonal) mass matrix of `sim`'s model at its current state.
MatrixX FullMassMatrix(const Simulation& sim) {
  const MultibodyModel& model = sim.model();
  KinematicsCache cache(model);
  CalcKinematics(model, sim.positions(), sim.velocities(), BodyRange::All(model), &cache);
  MatrixX M;
  CalcMassMatrix(model, cache, &M);
  return M;
}

int FindJoint(const MultibodyModel& model, const std::string& name) {
  for (int j = 0; j < model.num_joints(); ++j) {
    if (model.joint(j).name == name) return j;
  }
  return -1;
}

int CollidingGeometries(const SceneDescription& scene) {
  int n = 0;
  for (const GeometryDescription& g : scene.world_geometries) n += g.collision ? 1 : 0;
  for (const BodyDescription& b : scene.bodies) {
    for (const GeometryDescription& g : b.geometries) n += g.collision ? 1 : 0;
  }
  return n;
}

// "Against MuJoCo on the same MJCF": the file the MuJoCo rows load, read back
// by Stiction's own MJCF importer (through a scene's robots: key), is the
// scene Stiction runs: same DOFs, mass, mass matrix at the initial state,
// joint parameters, actuators and colliding geometry.
void ExpectSameModelThroughMjcf(const std::string& scene_file) {
  SCOPED_TRACE(scene_file);
  const SceneDescription scene = LoadSceneFile(ScenePath(scene_file));
  const std::string mjcf = Write(scene);
  const std::filesystem::path dir = test::FreshTempPath("stiction-mjcf-round-trip", "dir");
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "model.xml").string();
  {
    std::ofstream file(path);
    file << mjcf;
    ASSERT_TRUE(file.good());
  }
  const SceneDescription imported =
      LoadSceneString("robots:\n  - file: " + path + "\n", (dir / "scene.yaml").string());
  std::filesystem::remove_all(dir);
  // The writer gives MuJoCo Stiction's collision filter as <contact><exclude>
  // pairs, which the importer reads back as excluded body pairs. Nothing may
  // be skipped.
  for (const RobotSummary& robot : imported.robots) {
    for (const std::string& note : robot.notes) {
      EXPECT_EQ(note.find("skipped"), std::string::npos) << "the importer skipped something: " << note;
    }
  }
  EXPECT_EQ(imported.excluded_body_pairs.size(), static_cast<size_t>(Count(mjcf, "<exclude ")));
  Simulation original(scene);
  Simulation reimported(imported);
  const MultibodyModel& a = original.model();
  const MultibodyModel& b = reimported.model();
  ASSERT_EQ(a.num_velocities(), b.num_velocities());
  ASSERT_EQ(a.num_positions(), b.num_positions());
  // Welded bodies' masses are lumped into their moving parent by the
  // importer, so compare totals. Text at 17 digits is exact; the sums run
  // in a different order: 1e-12 relative is round-off.
  double mass_a = 0, mass_b = 0;
  for (const Body& body : a.bodies()) mass_a += body.mass;
  for (const Body& body : b.bodies()) mass_b += body.mass;
  EXPECT_NEAR(mass_b, mass_a, 1e-12 * mass_a);
  EXPECT_EQ(CollidingGeometries(imported), CollidingGeometries(scene));

  // The imported model at the original's initial state, joint by joint
  // (names survive the round trip; the MJCF's qpos0 is q = 0 for hinges and
  // slides, the initial pose for free bodies).
  VectorX q = reimported.positions();
  std::vector<int> v_map(a.num_velocities(), -1);  // Original velocity index -> imported.
  for (const Joint& ja : a.joints()) {
    if (ja.nv == 0) continue;
    const int j = FindJoint(b, ja.name);
    ASSERT_GE(j, 0) << ja.name;
    const Joint& jb = b.joint(j);
    ASSERT_EQ(jb.type, ja.type) << ja.name;
    q.segment(jb.q_start, jb.nq) = original.positions().segment(ja.q_start, ja.nq);
    for (int k = 0; k < ja.nv; ++k) v_map[ja.v_start + k] = jb.v_start + k;
    EXPECT_EQ(jb.damping, ja.damping) << ja.name;
    EXPECT_EQ(jb.lower_limit, ja.lower_limit) << ja.name;
    EXPECT_EQ(jb.upper_limit, ja.upper_limit) << ja.name;
    EXPECT_EQ(jb.rotor_inertia, ja.rotor_inertia) << ja.name;
  }
  reimported.SetState(q, VectorX::Zero(b.num_velocities()));
  const MatrixX Ma = FullMassMatrix(original);
  const MatrixX Mb = FullMassMatrix(reimported);
  double worst = 0;
  for (int i = 0; i < Ma.rows(); ++i) {
    for (int k = 0; k < Ma.cols(); ++k) worst = std::max(worst, std::abs(Mb(v_map[i], v_map[k]) - Ma(i, k)));
  }
  // MuJoCo's compiler stores every inertia as principal moments and axes
  // from its own iterative eigen-decomposition, which loses up to ~1e-7 of
  // a non-diagonal tensor (iiwa link 4: 1.9e-9 of 0.065 kg m²;
  // tests/multibody/robot_cross_validation_test.cpp measures the same); the
  // importer multiplies them back. Measured here: 4e-10 (arm) and 3e-11
  // (quadrupeds) of the largest entry. Any mapping error (a frame, an axis,
  // a mass in the wrong body) is of the order of the entries themselves.
  std::printf("%s through MJCF: largest |M_mjcf - M| %.1e of the largest entry\n", scene_file.c_str(),
              worst / Ma.cwiseAbs().maxCoeff());
  EXPECT_LE(worst, 1e-7 * Ma.cwiseAbs().maxCoeff()) << "largest |M_mjcf - M| = " << worst;

  // Actuators: gains and effort limits (the MJCF holds no set point: ctrl is
  // MuJoCo data, which the benchmark's adapter sets from the scene).
  ASSERT_EQ(imported.actuators.size(), scene.actuators.size());
  for (const ActuatorDescription& x : scene.actuators) {
    const auto y = std::find_if(imported.actuators.begin(), imported.actuators.end(),
                                [&](const ActuatorDescription& u) { return u.name == x.name; });
    ASSERT_NE(y, imported.actuators.end()) << x.name;
    EXPECT_EQ(y->joint, x.joint);
    EXPECT_EQ(y->kp, x.kp) << x.name;
    EXPECT_EQ(y->kd, x.kd) << x.name;
    EXPECT_EQ(y->effort_limit, x.effort_limit) << x.name;
  }
}

TEST(MujocoSceneWriterTest, ArmHoldMjcfImportsBackAsTheSameModel) {
  ExpectSameModelThroughMjcf("bench_arm_hold.yaml");
}

TEST(MujocoSceneWriterTest, QuadrupedsMjcfImportsBackAsTheSameModel) {
  ExpectSameModelThroughMjcf("quadrupeds8_standing.yaml");
}

// MuJoCo's humanoid: bodies with two and three joints (imported as chains of
// joint frames) become those bodies again, and its hamstring tendons'
// limits are written as fixed tendons.
TEST(MujocoSceneWriterTest, HumanoidMjcfImportsBackAsTheSameModel) {
  ExpectSameModelThroughMjcf("bench_humanoid.yaml");
  const SceneDescription scene = LoadSceneFile(ScenePath("bench_humanoid.yaml"));
  const std::string mjcf = Write(scene);
  const std::size_t thigh = mjcf.find("<body name=\"h0/thigh_right\"");
  ASSERT_NE(thigh, std::string::npos) << mjcf;
  const std::size_t next_body = mjcf.find("<body", thigh + 1);
  EXPECT_EQ(Count(mjcf.substr(thigh, next_body - thigh), "<joint "), 3) << "hip_x, hip_z and hip_y in one body";
  EXPECT_EQ(mjcf.find("[h0/"), std::string::npos) << "a joint frame written as a body";
  EXPECT_EQ(Count(mjcf, "<fixed "), 2);
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
