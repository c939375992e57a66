// Tests of the YAML scene loader: the shipped scenes, field-by-field values,
// computed mass properties, includes, and every error path (file, line and
// key path in the message).
#include "engine/scene/scene_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/solver_settings.h"
#include "engine/scene/shape_inertia.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;
constexpr double kPi = std::numbers::pi;
constexpr double kTol = 1e-12;

const std::string kSourceDir = STICTION_SOURCE_DIR;
const std::string kScenesDir = kSourceDir + "/assets/scenes";
const std::string kDataDir = kSourceDir + "/tests/scene/data";

SceneDescription Load(const std::string& yaml,
                      const std::vector<std::string>& overrides = {}) {
  return LoadSceneString(yaml, "inline.yaml", kDataDir, overrides);
}

/// Loads `yaml`, expects an InputError whose message starts with
/// `location_and_path` + ": " and contains `reason`.
void ExpectError(const std::string& yaml, const std::string& location_and_path,
                 const std::string& reason) {
  SCOPED_TRACE("scene:\n" + yaml);
  try {
    Load(yaml);
    ADD_FAILURE() << "expected InputError '" << location_and_path << ": " << reason << "'";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(location_and_path + ": ", 0), 0u)
        << "message: " << message << "\nexpected prefix: " << location_and_path;
    EXPECT_NE(message.find(reason), std::string::npos)
        << "message: " << message << "\nexpected reason: " << reason;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

const BodyDescription& Body(const SceneDescription& scene, const std::string& name) {
  const auto it = std::find_if(scene.bodies.begin(), scene.bodies.end(),
                               [&](const BodyDescription& b) { return b.name == name; });
  if (it == scene.bodies.end()) throw std::runtime_error("no body " + name);
  return *it;
}

const JointDescription& Joint(const SceneDescription& scene, const std::string& name) {
  const auto it = std::find_if(scene.joints.begin(), scene.joints.end(),
                               [&](const JointDescription& j) { return j.name == name; });
  if (it == scene.joints.end()) throw std::runtime_error("no joint " + name);
  return *it;
}

const MaterialDescription& Material(const SceneDescription& scene, const std::string& name) {
  const auto it = std::find_if(scene.materials.begin(), scene.materials.end(),
                               [&](const MaterialDescription& m) { return m.name == name; });
  if (it == scene.materials.end()) throw std::runtime_error("no material " + name);
  return *it;
}

void ExpectMatrixNear(const Matrix3& actual, const Matrix3& expected, double tol) {
  EXPECT_TRUE(actual.isApprox(expected, tol) || (actual - expected).norm() < tol)
      << "actual:\n" << actual << "\nexpected:\n" << expected;
}

// ---------------------------------------------------------------------------
// Shipped scenes.
// ---------------------------------------------------------------------------

TEST(SceneLoaderTest, EveryShippedSceneLoads) {
  int count = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(kScenesDir)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    ++count;
    SceneDescription scene;
    ASSERT_NO_THROW(scene = LoadSceneFile(entry.path().string())) << entry.path();
    EXPECT_EQ(scene.file, entry.path().string());
    EXPECT_FALSE(scene.description.empty());
    EXPECT_FALSE(scene.bodies.empty());
    // Every body is some joint's child (explicit or implicit free joint).
    for (const BodyDescription& body : scene.bodies) {
      EXPECT_EQ(std::count_if(scene.joints.begin(), scene.joints.end(),
                              [&](const JointDescription& j) { return j.child == body.name; }),
                1)
          << body.name;
    }
  }
  EXPECT_GE(count, 7);
}

TEST(SceneLoaderTest, PendulumScene) {
  const SceneDescription scene = LoadSceneFile(kScenesDir + "/pendulum.yaml");
  ASSERT_EQ(scene.bodies.size(), 1u);
  ASSERT_EQ(scene.joints.size(), 1u);
  const JointDescription& hinge = scene.joints[0];
  EXPECT_EQ(hinge.type, JointType::kRevolute);
  EXPECT_EQ(hinge.parent, "world");
  EXPECT_TRUE(hinge.axis.isApprox(Vector3::UnitY()));
  ASSERT_EQ(hinge.initial_q.size(), 1u);
  EXPECT_NEAR(hinge.initial_q[0], kPi / 6, 1e-15);
  // The bob centre is 1 m below the pivot.
  EXPECT_NEAR((hinge.X_CM.p - Vector3(0, 0, 1)).norm(), 0, kTol);
  EXPECT_DOUBLE_EQ(scene.bodies[0].mass, 1.0);
  EXPECT_LT(scene.bodies[0].I_Bcm_B.norm(), 1e-3);
}

TEST(SceneLoaderTest, SpringCylinderMatchesSapPaperSetup) {
  const SceneDescription scene = LoadSceneFile(kScenesDir + "/spring_cylinder.yaml");
  EXPECT_DOUBLE_EQ(scene.time_step, 0.02);
  EXPECT_EQ(scene.integrator.name, "midpoint");
  ASSERT_EQ(scene.world_geometries.size(), 1u);
  EXPECT_EQ(scene.world_geometries[0].shape.type, ShapeType::kHalfSpace);
  const BodyDescription& cylinder = Body(scene, "cylinder");
  EXPECT_DOUBLE_EQ(cylinder.mass, 0.5);
  ASSERT_EQ(cylinder.geometries.size(), 1u);
  EXPECT_DOUBLE_EQ(cylinder.geometries[0].shape.radius, 0.05);
  // The cylinder axis (local z) lies along world y.
  const Vector3 axis_B = cylinder.geometries[0].X_BG.R * Vector3::UnitZ();
  EXPECT_NEAR(std::abs(axis_B.y()), 1.0, kTol);
  EXPECT_DOUBLE_EQ(Material(scene, cylinder.geometries[0].material).material.friction, 0.0);
  const JointDescription& slider = Joint(scene, "slider");
  EXPECT_EQ(slider.type, JointType::kPrismatic);
  EXPECT_TRUE(slider.axis.isApprox(Vector3::UnitX()));
  EXPECT_DOUBLE_EQ(slider.spring_stiffness, 100.0);
  EXPECT_DOUBLE_EQ(slider.spring_reference, 0.0);
  EXPECT_EQ(slider.initial_q, std::vector<double>{0.1});
}

TEST(SceneLoaderTest, TumblingBodyInitialState) {
  const SceneDescription scene = LoadSceneFile(kScenesDir + "/tumbling_body.yaml");
  EXPECT_TRUE(scene.gravity.isZero());
  const JointDescription& free = Joint(scene, "box_free");
  EXPECT_EQ(free.type, JointType::kFree);
  // Identity orientation: the body-frame angular velocity equals the world one.
  const std::vector<double> expected_v = {0.3, 3.0, 0.2, 0, 0, 0};
  ASSERT_EQ(free.initial_v.size(), 6u);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(free.initial_v[i], expected_v[i], kTol);
  const BodyDescription& box = Body(scene, "box");
  EXPECT_NEAR(box.I_Bcm_B(0, 0), 2.0 / 12 * (0.04 + 0.16), kTol);
  EXPECT_NEAR(box.I_Bcm_B(1, 1), 2.0 / 12 * (0.01 + 0.16), kTol);
  EXPECT_NEAR(box.I_Bcm_B(2, 2), 2.0 / 12 * (0.01 + 0.04), kTol);
}

TEST(SceneLoaderTest, ThreeLinkArmJointParameters) {
  const SceneDescription scene = LoadSceneFile(kScenesDir + "/three_link_arm.yaml");
  ASSERT_EQ(scene.joints.size(), 3u);
  EXPECT_GT(Joint(scene, "shoulder").rotor_inertia, 0);
  for (const JointDescription& joint : scene.joints) {
    EXPECT_EQ(joint.type, JointType::kRevolute);
    EXPECT_GT(joint.spring_stiffness, 0);
    EXPECT_GT(joint.damping, 0);
  }
  // link3 uses a density: mass = 2700 kg/m³ × capsule volume.
  const double r = 0.02, L = 0.3;
  EXPECT_NEAR(Body(scene, "link3").mass, 2700 * (kPi * r * r * L + 4.0 / 3 * kPi * r * r * r),
              1e-12);
  EXPECT_NEAR((Body(scene, "link1").com_B - Vector3(0.15, 0, 0)).norm(), 0, kTol);
}

TEST(SceneLoaderTest, DemoIncludesGround) {
  const SceneDescription scene = LoadSceneFile(kScenesDir + "/demo.yaml");
  ASSERT_EQ(scene.world_geometries.size(), 1u);
  EXPECT_EQ(scene.world_geometries[0].name, "ground");
  EXPECT_NE(scene.world_geometries[0].where.file.find("includes/ground.yaml"),
            std::string::npos);
  EXPECT_GT(scene.world_geometries[0].where.line, 0);
  // ground.yaml defines "default", so the built-in one is not added.
  EXPECT_EQ(std::count_if(scene.materials.begin(), scene.materials.end(),
                          [](const MaterialDescription& m) { return m.name == "default"; }),
            1);
  EXPECT_NE(Material(scene, "default").where.file.find("ground.yaml"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Values and defaults.
// ---------------------------------------------------------------------------

TEST(SceneLoaderTest, DefaultsForAMinimalScene) {
  const SceneDescription scene = Load("bodies: []\n");
  EXPECT_EQ(scene.file, "inline.yaml");
  EXPECT_TRUE(scene.gravity.isApprox(Vector3(0, 0, -9.81)));
  EXPECT_DOUBLE_EQ(scene.time_step, 0.01);
  EXPECT_DOUBLE_EQ(scene.duration, 5.0);
  EXPECT_EQ(scene.integrator.name, "midpoint");
  EXPECT_DOUBLE_EQ(scene.integrator.theta, 0.5);
  EXPECT_DOUBLE_EQ(scene.integrator.theta_vq, 0.5);
  EXPECT_EQ(scene.contact.model, ContactModel::kSap);
  EXPECT_EQ(scene.scheme, SteppingScheme::kThetaMethod);
  EXPECT_EQ(scene.nmdp.stiffness, NmdpParameters{}.stiffness);
  EXPECT_EQ(scene.nmdp.max_subdivisions, NmdpParameters{}.max_subdivisions);
  EXPECT_EQ(scene.solver.type, SolverType::kSap);
  EXPECT_DOUBLE_EQ(scene.solver.sap.relative_tolerance, 1e-6);
  EXPECT_EQ(scene.solver.sap.max_iterations, 300);
  EXPECT_EQ(scene.solver.sap.line_search, LineSearchKind::kExact);
  EXPECT_EQ(scene.default_material, "default");
  ASSERT_EQ(scene.materials.size(), 1u);
  const MaterialDescription& m = scene.materials[0];
  EXPECT_EQ(m.name, "default");
  EXPECT_DOUBLE_EQ(m.material.friction, 0.5);
  EXPECT_DOUBLE_EQ(m.material.stiffness, 1e6);
  EXPECT_DOUBLE_EQ(m.material.dissipation, 0.01);
  EXPECT_DOUBLE_EQ(m.material.hc_dissipation, 10);
  EXPECT_TRUE(scene.bodies.empty());
  EXPECT_TRUE(scene.joints.empty());
}

TEST(SceneLoaderTest, FieldByField) {
  const SceneDescription scene = Load(R"(description: "a test scene"
gravity: [0, 0, -1.62]
time_step: 2e-3
duration: 1.5
integrator: symplectic_euler
contact_model: lagged
solver: {relative_tolerance: 1e-5, max_iterations: 7, line_search: backtracking, line_search_tolerance: 1e-6, near_rigid_threshold: 0.5, stiction_tolerance: 1e-4, absolute_tolerance: 0}
default_material: steel
materials:
  - {name: steel, friction: 0.3, stiffness: 2e5, dissipation: 0.02, hc_dissipation: 5, contact_model: similar}
world_geometry:
  - shape: {type: half_space}
    pose: {position: [0, 0, -0.1]}
bodies:
  - name: box
    mass: 2
    com: [0.01, 0, 0]
    inertia: {ixx: 0.1, iyy: 0.2, izz: 0.25, ixy: 0.01}
    color: [0.1, 0.2, 0.3]
    geometry:
      - shape: {type: box, size: [0.1, 0.2, 0.3]}
        pose: {position: [1, 2, 3], quaternion: [2, 0, 0, 0]}
        groups: [gripper, left]
        visual: false
      - name: marker
        shape: {type: sphere, radius: 0.01}
        collision: false
        color: [1, 1, 1, 0.5]
)");
  EXPECT_EQ(scene.description, "a test scene");
  EXPECT_TRUE(scene.gravity.isApprox(Vector3(0, 0, -1.62)));
  EXPECT_DOUBLE_EQ(scene.time_step, 0.002);
  EXPECT_DOUBLE_EQ(scene.duration, 1.5);
  EXPECT_EQ(scene.integrator.name, "symplectic_euler");
  EXPECT_DOUBLE_EQ(scene.integrator.theta, 0.0);
  EXPECT_DOUBLE_EQ(scene.integrator.theta_vq, 1.0);
  EXPECT_EQ(scene.contact.model, ContactModel::kLagged);
  EXPECT_DOUBLE_EQ(scene.solver.sap.relative_tolerance, 1e-5);
  EXPECT_DOUBLE_EQ(scene.solver.sap.absolute_tolerance, 0.0);
  EXPECT_EQ(scene.solver.sap.max_iterations, 7);
  EXPECT_EQ(scene.solver.sap.line_search, LineSearchKind::kBacktracking);
  EXPECT_DOUBLE_EQ(scene.solver.sap.exact_line_search_tolerance, 1e-6);
  EXPECT_DOUBLE_EQ(scene.contact.near_rigid_threshold, 0.5);
  EXPECT_DOUBLE_EQ(scene.contact.stiction_tolerance, 1e-4);
  EXPECT_EQ(scene.default_material, "steel");
  ASSERT_EQ(scene.materials.size(), 2u);  // steel + built-in default.
  const MaterialDescription& steel = Material(scene, "steel");
  EXPECT_DOUBLE_EQ(steel.material.friction, 0.3);
  EXPECT_DOUBLE_EQ(steel.material.stiffness, 2e5);
  EXPECT_DOUBLE_EQ(steel.material.dissipation, 0.02);
  EXPECT_DOUBLE_EQ(steel.material.hc_dissipation, 5);
  EXPECT_EQ(steel.material.model, ContactModel::kSimilar);
  EXPECT_EQ(steel.where.ToString(), "inline.yaml:10");
  EXPECT_FALSE(Material(scene, "default").material.model.has_value());

  ASSERT_EQ(scene.world_geometries.size(), 1u);
  const GeometryDescription& ground = scene.world_geometries[0];
  EXPECT_EQ(ground.name, "world_0");
  EXPECT_EQ(ground.material, "steel");  // The scene's default_material.
  EXPECT_NEAR(ground.X_BG.p.z(), -0.1, kTol);
  EXPECT_EQ(ground.where.ToString(), "inline.yaml:12");

  ASSERT_EQ(scene.bodies.size(), 1u);
  const BodyDescription& box = scene.bodies[0];
  EXPECT_EQ(box.where.line, 15);
  EXPECT_DOUBLE_EQ(box.mass, 2);
  EXPECT_TRUE(box.com_B.isApprox(Vector3(0.01, 0, 0)));
  EXPECT_DOUBLE_EQ(box.I_Bcm_B(0, 1), 0.01);
  EXPECT_DOUBLE_EQ(box.I_Bcm_B(1, 0), 0.01);
  EXPECT_DOUBLE_EQ(box.I_Bcm_B(2, 2), 0.25);
  EXPECT_TRUE(box.color.isApprox(Vector4(0.1, 0.2, 0.3, 1.0)));
  ASSERT_EQ(box.geometries.size(), 2u);
  const GeometryDescription& g0 = box.geometries[0];
  EXPECT_EQ(g0.name, "box_0");
  EXPECT_EQ(g0.shape.type, ShapeType::kBox);
  EXPECT_TRUE(g0.shape.size.isApprox(Vector3(0.1, 0.2, 0.3)));
  EXPECT_TRUE(g0.X_BG.p.isApprox(Vector3(1, 2, 3)));
  EXPECT_TRUE(g0.X_BG.R.isApprox(Matrix3::Identity()));  // [2,0,0,0] normalized.
  EXPECT_EQ(g0.groups, (std::vector<std::string>{"gripper", "left"}));
  EXPECT_TRUE(g0.collision);
  EXPECT_FALSE(g0.visual);
  EXPECT_EQ(g0.material, "steel");
  EXPECT_TRUE(g0.color.isApprox(box.color));  // Inherits the body's color.
  EXPECT_EQ(g0.where.ToString(), "inline.yaml:21");
  const GeometryDescription& marker = box.geometries[1];
  EXPECT_EQ(marker.name, "marker");
  EXPECT_FALSE(marker.collision);
  EXPECT_TRUE(marker.color.isApprox(Vector4(1, 1, 1, 0.5)));
  ASSERT_EQ(scene.joints.size(), 1u);
  EXPECT_EQ(scene.joints[0].name, "box_free");
}

TEST(SceneLoaderTest, ImplicitFreeJointConvertsWorldAngularVelocityToBodyFrame) {
  const SceneDescription scene = Load(R"(bodies:
  - name: box
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
    pose: {position: [1, 2, 3], rpy: [0, 0, 1.5707963267948966]}
    velocity: {linear: [4, 5, 6], angular: [1, 2, 3]}
)");
  ASSERT_EQ(scene.joints.size(), 1u);
  const JointDescription& joint = scene.joints[0];
  EXPECT_EQ(joint.name, "box_free");
  EXPECT_EQ(joint.type, JointType::kFree);
  EXPECT_EQ(joint.parent, "world");
  EXPECT_EQ(joint.child, "box");
  EXPECT_EQ(joint.where.ToString(), "inline.yaml:2");
  // A 90° yaw: q = [cos 45°, 0, 0, sin 45°], then the position.
  const double c = std::sqrt(0.5);
  const std::vector<double> expected_q = {c, 0, 0, c, 1, 2, 3};
  ASSERT_EQ(joint.initial_q.size(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(joint.initial_q[i], expected_q[i], kTol) << i;
  // ω_B = R_WBᵀ ω_W with R_WB = Rz(90°): [1, 2, 3] -> [2, -1, 3]. The linear
  // velocity stays in the world frame.
  const std::vector<double> expected_v = {2, -1, 3, 4, 5, 6};
  ASSERT_EQ(joint.initial_v.size(), 6u);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(joint.initial_v[i], expected_v[i], kTol) << i;
}

TEST(SceneLoaderTest, RpyConventionIsExtrinsicXYZ) {
  const SceneDescription scene = Load(R"(bodies:
  - name: b
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
    geometry:
      - shape: {type: sphere, radius: 0.1}
        pose: {rpy: [0.3, -0.2, 1.1]}
)");
  const Matrix3 expected = (Eigen::AngleAxisd(1.1, Vector3::UnitZ()) *
                            Eigen::AngleAxisd(-0.2, Vector3::UnitY()) *
                            Eigen::AngleAxisd(0.3, Vector3::UnitX()))
                               .toRotationMatrix();
  ExpectMatrixNear(scene.bodies[0].geometries[0].X_BG.R, expected, 1e-14);
}

TEST(SceneLoaderTest, JointsOfEveryType) {
  const SceneDescription scene = Load(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: c, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: d, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: e, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - name: hinge
    type: revolute
    parent: world
    child: a
    parent_frame: {position: [0, 0, 1]}
    child_frame: {position: [0, 0, 0.5], rpy: [0, 0, 0]}
    axis: [0, 3, 4]
    limits: {lower: -1, upper: 2}
    spring: {stiffness: 10, reference: 0.1}
    damping: 0.2
    rotor_inertia: 0.03
    initial: {position: 0.5, velocity: -1}
  - {name: slide, type: prismatic, parent: a, child: b, axis: [1, 0, 0], limits: {upper: 0.3}}
  - {name: socket, type: ball, parent: b, child: c, initial: {position: {quaternion: [0, 0, 0, 2]}, velocity: [1, 2, 3]}}
  - {name: weld, type: fixed, parent: c, child: d}
  - name: floating
    type: free
    parent: world
    child: e
    initial:
      position: {position: [1, 2, 3], rpy: [0, 0, 0]}
      velocity: {linear: [4, 5, 6], angular: [7, 8, 9]}
)");
  ASSERT_EQ(scene.joints.size(), 5u);  // No implicit free joints: every body has a parent.
  const JointDescription& hinge = Joint(scene, "hinge");
  EXPECT_EQ(hinge.type, JointType::kRevolute);
  EXPECT_TRUE(hinge.axis.isApprox(Vector3(0, 0.6, 0.8)));
  EXPECT_DOUBLE_EQ(hinge.lower_limit, -1);
  EXPECT_DOUBLE_EQ(hinge.upper_limit, 2);
  EXPECT_DOUBLE_EQ(hinge.spring_stiffness, 10);
  EXPECT_DOUBLE_EQ(hinge.spring_reference, 0.1);
  EXPECT_DOUBLE_EQ(hinge.damping, 0.2);
  EXPECT_DOUBLE_EQ(hinge.rotor_inertia, 0.03);
  EXPECT_EQ(hinge.initial_q, std::vector<double>{0.5});
  EXPECT_EQ(hinge.initial_v, std::vector<double>{-1});
  EXPECT_TRUE(hinge.X_PF.p.isApprox(Vector3(0, 0, 1)));
  EXPECT_TRUE(hinge.X_CM.p.isApprox(Vector3(0, 0, 0.5)));
  EXPECT_EQ(hinge.where.ToString(), "inline.yaml:8");

  const JointDescription& slide = Joint(scene, "slide");
  EXPECT_EQ(slide.type, JointType::kPrismatic);
  EXPECT_TRUE(std::isinf(slide.lower_limit) && slide.lower_limit < 0);
  EXPECT_DOUBLE_EQ(slide.upper_limit, 0.3);
  EXPECT_EQ(slide.initial_q, std::vector<double>{0.0});
  EXPECT_EQ(slide.initial_v, std::vector<double>{0.0});

  const JointDescription& socket = Joint(scene, "socket");
  EXPECT_EQ(socket.type, JointType::kBall);
  EXPECT_EQ(socket.initial_q, (std::vector<double>{0, 0, 0, 1}));
  EXPECT_EQ(socket.initial_v, (std::vector<double>{1, 2, 3}));

  const JointDescription& weld = Joint(scene, "weld");
  EXPECT_EQ(weld.type, JointType::kFixed);
  EXPECT_TRUE(weld.initial_q.empty());
  EXPECT_TRUE(weld.initial_v.empty());

  const JointDescription& floating = Joint(scene, "floating");
  EXPECT_EQ(floating.type, JointType::kFree);
  EXPECT_EQ(floating.initial_q, (std::vector<double>{1, 0, 0, 0, 1, 2, 3}));
  // Explicit free joints take ω in M and v in F as given: [ω, v].
  EXPECT_EQ(floating.initial_v, (std::vector<double>{7, 8, 9, 4, 5, 6}));
}

TEST(SceneLoaderTest, IntegratorPresetsAndCustom) {
  struct Case {
    const char* name;
    double theta, theta_vq;
  };
  // [SAP] Sec. II-C.
  for (const Case& c : {Case{"explicit_euler", 0, 0}, Case{"symplectic_euler", 0, 1},
                        Case{"implicit_euler", 1, 1}, Case{"midpoint", 0.5, 0.5}}) {
    const IntegratorSettings preset = IntegratorPreset(c.name);
    EXPECT_EQ(preset.name, c.name);
    EXPECT_DOUBLE_EQ(preset.theta, c.theta) << c.name;
    EXPECT_DOUBLE_EQ(preset.theta_vq, c.theta_vq) << c.name;
    const SceneDescription scene = Load(std::string("integrator: ") + c.name + "\n");
    EXPECT_EQ(scene.integrator.name, c.name);
    EXPECT_DOUBLE_EQ(scene.integrator.theta, c.theta);
  }
  EXPECT_THROW(IntegratorPreset("rk4"), InputError);
  const SceneDescription custom = Load("integrator: {theta: 1, theta_vq: 0.25}\n");
  EXPECT_EQ(custom.integrator.name, "custom");
  EXPECT_DOUBLE_EQ(custom.integrator.theta, 1.0);
  EXPECT_DOUBLE_EQ(custom.integrator.theta_vq, 0.25);
}

TEST(SceneLoaderTest, SteppingSchemeAndNmdpParameters) {
  // Every scheme of the registry by its name (docs/scene-format.md,
  // "Stepping scheme"); the other settings are kept as written.
  for (const SteppingSchemeInfo& info : SteppingSchemes()) {
    const SceneDescription scene =
        Load("stepping: " + std::string(info.name) + "\nintegrator: implicit_euler\nsolver: {type: canal}\n");
    EXPECT_EQ(scene.scheme, info.scheme) << info.name;
    EXPECT_EQ(scene.integrator.name, "implicit_euler");
    EXPECT_EQ(scene.solver.type, SolverType::kCanal);
  }
  const SceneDescription scene = Load(R"(stepping: nmdp_zopgm
nmdp:
  stiffness: 3.5e4
  activation_length: 2e-3
  pyramid_edges: 12
  max_subdivisions: 0
)");
  EXPECT_EQ(scene.scheme, SteppingScheme::kNmdpZopgm);
  EXPECT_EQ(scene.nmdp.stiffness, 3.5e4);
  EXPECT_EQ(scene.nmdp.activation_length, 2e-3);
  EXPECT_EQ(scene.nmdp.pyramid_edges, 12);
  EXPECT_EQ(scene.nmdp.max_subdivisions, 0);
  // Keys not given keep their defaults.
  EXPECT_EQ(scene.nmdp.projection_tolerance, NmdpParameters{}.projection_tolerance);
  // `nmdp:` is read (and validated) whatever the scheme, so that a switch
  // in the viewer meets the scene's values.
  const SceneDescription theta = Load("nmdp: {stiffness: 7}\n");
  EXPECT_EQ(theta.scheme, SteppingScheme::kThetaMethod);
  EXPECT_EQ(theta.nmdp.stiffness, 7);
}

// ---------------------------------------------------------------------------
// Mass properties.
// ---------------------------------------------------------------------------

/// The body of a one-geometry scene with the given shape and mass 3 kg.
BodyDescription BodyWithShape(const std::string& shape) {
  const SceneDescription scene = Load("bodies:\n  - name: b\n    mass: 3\n    geometry:\n"
                                      "      - shape: " + shape + "\n");
  return scene.bodies.at(0);
}

TEST(SceneLoaderTest, ComputedInertiaMatchesAnalyticFormulas) {
  const double m = 3;
  {
    const double a = 0.1, b = 0.2, c = 0.4;
    const BodyDescription body = BodyWithShape("{type: box, size: [0.1, 0.2, 0.4]}");
    const Matrix3 expected = Vector3(m / 12 * (b * b + c * c), m / 12 * (a * a + c * c),
                                     m / 12 * (a * a + b * b)).asDiagonal();
    ExpectMatrixNear(body.I_Bcm_B, expected, 1e-14);
    EXPECT_TRUE(body.com_B.isZero());
  }
  {
    const double r = 0.25;
    const BodyDescription body = BodyWithShape("{type: sphere, radius: 0.25}");
    ExpectMatrixNear(body.I_Bcm_B, 0.4 * m * r * r * Matrix3::Identity(), 1e-14);
  }
  {
    const double r = 0.1, L = 0.6;
    const BodyDescription body = BodyWithShape("{type: cylinder, radius: 0.1, length: 0.6}");
    const double t = m / 12 * (3 * r * r + L * L);
    ExpectMatrixNear(body.I_Bcm_B, Vector3(t, t, 0.5 * m * r * r).asDiagonal(), 1e-14);
  }
  {
    // Capsule: a cylinder plus two hemispheres, mass split by volume.
    const double r = 0.1, L = 0.5;
    const BodyDescription body = BodyWithShape("{type: capsule, radius: 0.1, length: 0.5}");
    const double v_cyl = kPi * r * r * L, v_sph = 4.0 / 3 * kPi * r * r * r;
    const double m_cyl = m * v_cyl / (v_cyl + v_sph), m_sph = m * v_sph / (v_cyl + v_sph);
    const double axial = m_cyl * r * r / 2 + m_sph * 2 * r * r / 5;
    const double transverse = m_cyl * (L * L / 12 + r * r / 4) +
                              m_sph * (2 * r * r / 5 + L * L / 4 + 3 * L * r / 8);
    ExpectMatrixNear(body.I_Bcm_B, Vector3(transverse, transverse, axial).asDiagonal(), 1e-14);
  }
}

TEST(SceneLoaderTest, CapsuleInertiaAgreesWithNumericalIntegration) {
  // Independent check of the hemisphere terms: integrate ∫(y² + z²) dV over
  // a capsule on a fine grid (midpoint rule), unit density.
  ShapeDescription capsule;
  capsule.type = ShapeType::kCapsule;
  capsule.radius = 0.1;
  capsule.length = 0.2;
  const double r = capsule.radius, half = capsule.length / 2;
  const int n = 160;
  const double h_xy = 2 * r / n, h_z = (2 * half + 2 * r) / n;
  double volume = 0, ixx = 0, izz = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        const double x = -r + (i + 0.5) * h_xy, y = -r + (j + 0.5) * h_xy;
        const double z = -half - r + (k + 0.5) * h_z;
        const double dz = std::max(0.0, std::abs(z) - half);
        if (x * x + y * y + dz * dz > r * r) continue;
        const double dv = h_xy * h_xy * h_z;
        volume += dv;
        ixx += (y * y + z * z) * dv;
        izz += (x * x + y * y) * dv;
      }
    }
  }
  EXPECT_NEAR(CalcShapeVolume(capsule), volume, 2e-3 * volume);
  const Matrix3 I = CalcShapeInertia(capsule, CalcShapeVolume(capsule));
  EXPECT_NEAR(I(0, 0), ixx, 5e-3 * ixx);
  EXPECT_NEAR(I(1, 1), ixx, 5e-3 * ixx);
  EXPECT_NEAR(I(2, 2), izz, 5e-3 * izz);
}

TEST(SceneLoaderTest, DensityGivesMassFromCollisionVolume) {
  const SceneDescription scene = Load(R"(bodies:
  - name: b
    density: 1000
    geometry:
      - shape: {type: box, size: [0.1, 0.2, 0.3]}
      - shape: {type: sphere, radius: 0.05}
        pose: {position: [0, 0, 1]}
      - shape: {type: sphere, radius: 5}
        collision: false
)");
  const double v_box = 0.1 * 0.2 * 0.3, v_sphere = 4.0 / 3 * kPi * 0.05 * 0.05 * 0.05;
  const BodyDescription& body = scene.bodies[0];
  EXPECT_NEAR(body.mass, 1000 * (v_box + v_sphere), 1e-12);
  // COM: the volume-weighted centroid; the visual-only sphere does not count.
  const double z_com = v_sphere * 1.0 / (v_box + v_sphere);
  EXPECT_NEAR((body.com_B - Vector3(0, 0, z_com)).norm(), 0, 1e-12);
  // Parallel-axis theorem about the common COM.
  const double m_box = 1000 * v_box, m_sphere = 1000 * v_sphere;
  const double ixx = m_box / 12 * (0.2 * 0.2 + 0.3 * 0.3) + m_box * z_com * z_com +
                     0.4 * m_sphere * 0.05 * 0.05 + m_sphere * (1 - z_com) * (1 - z_com);
  const double izz = m_box / 12 * (0.1 * 0.1 + 0.2 * 0.2) + 0.4 * m_sphere * 0.05 * 0.05;
  EXPECT_NEAR(body.I_Bcm_B(0, 0), ixx, 1e-12);
  EXPECT_NEAR(body.I_Bcm_B(2, 2), izz, 1e-12);
}

TEST(SceneLoaderTest, RotatedGeometryInertiaIsExpressedInBodyAxes) {
  // A cylinder turned so its axis lies along body x.
  const SceneDescription scene = Load(R"(bodies:
  - name: b
    mass: 2
    geometry:
      - shape: {type: cylinder, radius: 0.1, length: 1}
        pose: {rpy: [0, 1.5707963267948966, 0]}
)");
  const double axial = 0.5 * 2 * 0.01, transverse = 2.0 / 12 * (3 * 0.01 + 1);
  ExpectMatrixNear(scene.bodies[0].I_Bcm_B, Vector3(axial, transverse, transverse).asDiagonal(),
                   1e-12);
}

TEST(SceneLoaderTest, ExplicitComWithComputedInertiaKeepsTheCentroidalInertia) {
  const SceneDescription scene = Load(R"(bodies:
  - name: b
    mass: 3
    com: [0, 0, 0.2]
    geometry:
      - shape: {type: sphere, radius: 0.25}
)");
  EXPECT_TRUE(scene.bodies[0].com_B.isApprox(Vector3(0, 0, 0.2)));
  ExpectMatrixNear(scene.bodies[0].I_Bcm_B, 0.4 * 3 * 0.0625 * Matrix3::Identity(), 1e-14);
}

// ---------------------------------------------------------------------------
// Includes and meshes.
// ---------------------------------------------------------------------------

TEST(SceneLoaderTest, NestedIncludesMergeListsAndLetTheIncluderWin) {
  const SceneDescription scene = Load(R"(include: nested/level1.yaml
time_step: 0.001
materials:
  - {name: top_material}
)");
  // Lists: innermost include first, then level1, then this file.
  std::vector<std::string> names;
  for (const MaterialDescription& m : scene.materials) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"level2_material", "level1_material",
                                             "top_material", "default"}));
  EXPECT_DOUBLE_EQ(scene.time_step, 0.001);          // This file wins.
  EXPECT_DOUBLE_EQ(scene.duration, 3.0);             // Only level2 sets it.
  EXPECT_DOUBLE_EQ(scene.gravity.z(), -1.62);        // Only level2 sets it.
  EXPECT_EQ(Material(scene, "level2_material").where.ToString(),
            kDataDir + "/nested/level2.yaml:6");
  EXPECT_EQ(Material(scene, "top_material").where.ToString(), "inline.yaml:4");
  ASSERT_EQ(scene.world_geometries.size(), 1u);
  EXPECT_EQ(scene.world_geometries[0].material, "level2_material");
  // Mesh paths resolve relative to the file that names them.
  const BodyDescription& body = Body(scene, "level1_body");
  ASSERT_EQ(body.geometries.size(), 1u);
  EXPECT_EQ(body.geometries[0].shape.type, ShapeType::kMesh);
  const fs::path mesh = body.geometries[0].shape.mesh_file;
  EXPECT_TRUE(mesh.is_absolute());
  EXPECT_TRUE(fs::equivalent(mesh, kDataDir + "/meshes/tetra.obj"));
}

TEST(SceneLoaderTest, MeshScale) {
  const SceneDescription scene = Load(R"(bodies:
  - name: b
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
    geometry:
      - shape: {type: mesh, file: meshes/tetra.obj, scale: 2}
      - shape: {type: mesh, file: meshes/tetra.obj, scale: [1, 2, 3]}
)");
  EXPECT_TRUE(scene.bodies[0].geometries[0].shape.mesh_scale.isApprox(Vector3(2, 2, 2)));
  EXPECT_TRUE(scene.bodies[0].geometries[1].shape.mesh_scale.isApprox(Vector3(1, 2, 3)));
}

TEST(SceneLoaderTest, SourceLocationToString) {
  EXPECT_EQ((SourceLocation{"a.yaml", 12}).ToString(), "a.yaml:12");
  EXPECT_EQ((SourceLocation{"a.yaml", 0}).ToString(), "a.yaml");
}

// ---------------------------------------------------------------------------
// Errors: one test per path, each checking file, line and key path.
// ---------------------------------------------------------------------------

TEST(SceneLoaderErrorTest, YamlSyntaxError) {
  ExpectError("time_step: 0.01\nbodies: [\n  {name: a\n", "inline.yaml:4",
              "YAML syntax error");
  ExpectError("a: b: c\n", "inline.yaml:1", "YAML syntax error");
}

TEST(SceneLoaderErrorTest, EmptyFile) {
  ExpectError("", "inline.yaml", "the file is empty");
  ExpectError("# just a comment\n", "inline.yaml", "the file is empty");
}

TEST(SceneLoaderErrorTest, TopLevelNotAMap) {
  ExpectError("- a\n- b\n", "inline.yaml:1", "the top level must be a map");
  ExpectError("just a string\n", "inline.yaml:1", "the top level must be a map");
}

TEST(SceneLoaderErrorTest, UnknownKeys) {
  ExpectError("time_step: 0.1\ntimestep: 0.1\n", "inline.yaml:2",
              "unknown key 'timestep' (expected one of: description, include, gravity");
  ExpectError(R"(bodies:
  - name: b
    mass: 1
    geometry:
      - shape: {type: sphere,
                radiuss: 0.1}
)",
              "inline.yaml:6: bodies[0].geometry[0].shape",
              "unknown key 'radiuss' for a sphere shape (expected one of: type, radius)");
  ExpectError("solver: {tolerance: 1}\n", "inline.yaml:1: solver", "unknown key 'tolerance'");
}

TEST(SceneLoaderErrorTest, DuplicateKey) {
  ExpectError("bodies:\n  - name: a\n    mass: 1\n    mass: 2\n", "inline.yaml:4: bodies[0].mass",
              "duplicate key 'mass' (first given at inline.yaml:3)");
}

TEST(SceneLoaderErrorTest, WrongTypes) {
  ExpectError("time_step: abc\n", "inline.yaml:1: time_step", "expected a number, got 'abc'");
  ExpectError("gravity: [0, 0]\n", "inline.yaml:1: gravity",
              "expected a list of 3 numbers, got a list of 2");
  ExpectError("gravity: -9.81\n", "inline.yaml:1: gravity",
              "expected a list of 3 numbers, got '-9.81'");
  ExpectError("gravity:\n  - 0\n  - x\n  - 0\n", "inline.yaml:3: gravity[1]",
              "expected a number, got 'x'");
  ExpectError("description: [a]\n", "inline.yaml:1: description", "expected a string, got a list");
  ExpectError("bodies: {name: a}\n", "inline.yaml:1: bodies", "expected a list, got a map");
  ExpectError("bodies:\n  - name: a\n    mass:\n    inertia: {ixx: 1, iyy: 1, izz: 1}\n",
              "inline.yaml:3: bodies[0].mass", "expected a number, got nothing");
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    geometry:
      - shape: {type: sphere, radius: 1}
        collision: maybe
)",
              "inline.yaml:6: bodies[0].geometry[0].collision",
              "expected true or false, got 'maybe'");
  ExpectError("solver: {max_iterations: 2.5}\n", "inline.yaml:1: solver.max_iterations",
              "expected an integer");
  ExpectError("integrator: [0.5, 0.5]\n", "inline.yaml:1: integrator", "expected a preset name");
}

TEST(SceneLoaderErrorTest, MissingRequiredKeys) {
  ExpectError("bodies:\n  - mass: 1\n", "inline.yaml:2: bodies[0]",
              "missing required key 'name'");
  ExpectError("bodies:\n  - name: a\n", "inline.yaml:2: bodies[0]",
              "missing required key 'mass' (or 'density')");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: revolute, parent: world}
)",
              "inline.yaml:4: joints[0]", "missing required key 'child'");
  ExpectError("world_geometry:\n  - shape: {type: box}\n", "inline.yaml:2: world_geometry[0].shape",
              "missing required key 'size' for a box shape");
  ExpectError("integrator: {theta: 1}\n", "inline.yaml:1: integrator",
              "missing required key 'theta_vq'");
}

TEST(SceneLoaderErrorTest, NonFiniteNumbers) {
  ExpectError("time_step: .nan\n", "inline.yaml:1: time_step", "must be a finite number, got '.nan'");
  ExpectError("duration: .inf\n", "inline.yaml:1: duration", "must be a finite number, got '.inf'");
  ExpectError("gravity: [0, -.Inf, 0]\n", "inline.yaml:1: gravity[1]", "must be a finite number");
  ExpectError("duration: 1e999\n", "inline.yaml:1: duration", "number out of range");
}

TEST(SceneLoaderErrorTest, OutOfRangeValues) {
  ExpectError("bodies:\n  - name: a\n    mass: -1\n", "inline.yaml:3: bodies[0].mass",
              "must be positive, got -1");
  ExpectError("materials:\n  - {name: m, friction: -0.1}\n", "inline.yaml:2: materials[0].friction",
              "must be >= 0, got -0.1");
  ExpectError("materials:\n  - {name: m, stiffness: 0}\n", "inline.yaml:2: materials[0].stiffness",
              "must be positive, got 0");
  ExpectError("time_step: 0\n", "inline.yaml:1: time_step", "must be in (0, 1] seconds, got 0");
  ExpectError("time_step: 2\n", "inline.yaml:1: time_step", "must be in (0, 1] seconds, got 2");
  ExpectError("duration: -5\n", "inline.yaml:1: duration", "must be positive");
  ExpectError("integrator: {theta: 1.5, theta_vq: 0}\n", "inline.yaml:1: integrator.theta",
              "must be in [0, 1], got 1.5");
  ExpectError("integrator: {theta: 0.5, theta_vq: -0.1}\n", "inline.yaml:1: integrator.theta_vq",
              "must be in [0, 1], got -0.1");
  ExpectError("world_geometry:\n  - shape: {type: sphere, radius: 0}\n",
              "inline.yaml:2: world_geometry[0].shape.radius", "must be positive, got 0");
  ExpectError("world_geometry:\n  - shape: {type: box, size: [1, -1, 1]}\n",
              "inline.yaml:2: world_geometry[0].shape.size[1]", "must be positive, got -1");
  ExpectError("bodies:\n  - name: a\n    mass: 1\n    color: [1, 0.5, 1.2]\n",
              "inline.yaml:4: bodies[0].color[2]", "must be in [0, 1], got 1.2");
  ExpectError("bodies:\n  - name: a\n    mass: 1\n    color: [1, 0.5]\n",
              "inline.yaml:4: bodies[0].color", "expected a list of 3 to 4 numbers");
  ExpectError("solver: {max_iterations: 0}\n", "inline.yaml:1: solver.max_iterations",
              "must be in [1, ");
  ExpectError("solver: {line_search_tolerance: 0}\n", "inline.yaml:1: solver.line_search_tolerance",
              "must be in (0, 1), got 0");
  ExpectError("solver: {line_search_tolerance: 1}\n", "inline.yaml:1: solver.line_search_tolerance",
              "must be in (0, 1), got 1");
  ExpectError("solver: {stiction_tolerance: 0}\n", "inline.yaml:1: solver.stiction_tolerance",
              "must be positive");
}

TEST(SceneLoaderErrorTest, NmdpMapErrorsNameTheKeyAndLine) {
  // Out of range, at the key's own line.
  ExpectError("stepping: nmdp_pgm\nnmdp:\n  stiffness: 3e4\n  pyramid_edges: 2\n", "inline.yaml:4: nmdp.pyramid_edges",
              "must be in [3, 64], got 2");
  ExpectError("nmdp:\n  stiffness: -3e4\n", "inline.yaml:2: nmdp.stiffness", "must be positive, got -3e4");
  ExpectError("nmdp: {max_outer_iterations: 2.5}\n", "inline.yaml:1: nmdp.max_outer_iterations",
              "expected an integer, got '2.5'");
  ExpectError("nmdp: {activation_length: .nan}\n", "inline.yaml:1: nmdp.activation_length",
              "must be a finite number");
  // An unknown key, at its line, naming the valid ones.
  ExpectError("time_step: 0.01\nnmdp:\n  stiffness: 3e4\n  stifness: 1\n", "inline.yaml:4: nmdp",
              "unknown key 'stifness' (expected one of: stiffness, activation_length, pyramid_edges");
  // Not a map.
  ExpectError("nmdp: 3\n", "inline.yaml:1: nmdp", "expected a map");
  ExpectError("nmdp:\n  - stiffness: 1\n", "inline.yaml:2: nmdp", "expected a map, got a list");
}

TEST(SceneLoaderErrorTest, InertiaNotPositiveDefinite) {
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1, ixy: 2}
)",
              "inline.yaml:4: bodies[0].inertia", "must be positive definite");
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    inertia:
      ixx: 0
      iyy: 1
      izz: 1
)",
              "inline.yaml:4: bodies[0].inertia", "must be positive definite");
}

TEST(SceneLoaderErrorTest, InertiaViolatesTriangleInequality) {
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 2.1}
)",
              "inline.yaml:4: bodies[0].inertia", "violate the triangle inequality");
  // Equality (a planar body) is allowed.
  EXPECT_NO_THROW(Load("bodies:\n  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 2}}\n"));
}

TEST(SceneLoaderErrorTest, DuplicateNames) {
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
)",
              "inline.yaml:3: bodies[1].name",
              "duplicate body name 'a' (first defined at inline.yaml:2)");
  ExpectError("materials:\n  - {name: m}\n  - {name: m}\n", "inline.yaml:3: materials[1].name",
              "duplicate material name 'm'");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: fixed, parent: world, child: a}
  - {name: j, type: fixed, parent: world, child: b}
)",
              "inline.yaml:6: joints[1].name", "duplicate joint name 'j'");
  ExpectError(R"(world_geometry:
  - {name: g, shape: {type: half_space}}
bodies:
  - name: a
    mass: 1
    geometry:
      - {name: g, shape: {type: sphere, radius: 1}}
)",
              "inline.yaml:7: bodies[0].geometry[0].name", "duplicate geometry name 'g'");
}

TEST(SceneLoaderErrorTest, ImplicitFreeJointNameClash) {
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: a_free, type: fixed, parent: world, child: b}
)",
              "inline.yaml:2: bodies[0].name", "clashes with the joint defined at inline.yaml:5");
}

TEST(SceneLoaderErrorTest, UnknownReferences) {
  ExpectError(R"(materials:
  - {name: steel}
bodies:
  - name: a
    mass: 1
    geometry:
      - shape: {type: sphere, radius: 1}
        material: stel
)",
              "inline.yaml:8: bodies[0].geometry[0].material",
              "unknown material 'stel' (defined: steel, default)");
  ExpectError("default_material: rubber\n", "inline.yaml:1: default_material",
              "unknown material 'rubber'");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: fixed, parent: base, child: a}
)",
              "inline.yaml:4: joints[0].parent", "unknown body 'base' (expected 'world' or one of: a)");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: fixed, parent: world, child: b}
)",
              "inline.yaml:4: joints[0].child", "unknown body 'b' (bodies: a)");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: fixed, parent: a, child: world}
)",
              "inline.yaml:4: joints[0].child", "the world cannot be a joint's child");
}

TEST(SceneLoaderErrorTest, UnknownEnumerations) {
  ExpectError("integrator: rk4\n", "inline.yaml:1: integrator",
              "unknown integrator 'rk4' (expected one of: explicit_euler, symplectic_euler, "
              "implicit_euler, midpoint");
  ExpectError("contact_model: magic\n", "inline.yaml:1: contact_model",
              "unknown contact model 'magic' (expected one of: sap, lagged, similar, "
              "regularized_lagged)");
  ExpectError("solver: {type: lemke}\n", "inline.yaml:1: solver.type",
              "unknown solver 'lemke' (expected one of: sap, canal, subadmm, pgs)");
  ExpectError("solver: {line_search: wolfe}\n", "inline.yaml:1: solver.line_search",
              "unknown line search 'wolfe'");
  ExpectError("time_step: 0.01\nstepping: nmdp\n", "inline.yaml:2: stepping",
              "unknown stepping scheme 'nmdp' (expected one of: theta_method, nmdp_pgm, nmdp_zopgm, ne_mdp)");
  ExpectError("stepping: [nmdp_pgm]\n", "inline.yaml:1: stepping", "expected a string, got a list");
  ExpectError("world_geometry:\n  - shape: {type: cone}\n",
              "inline.yaml:2: world_geometry[0].shape.type", "unknown shape type 'cone'");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: hinge, parent: world, child: a}
)",
              "inline.yaml:4: joints[0].type", "unknown joint type 'hinge'");
}

TEST(SceneLoaderErrorTest, JointKeysOnTheWrongJointType) {
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - name: j
    type: ball
    parent: world
    child: a
    damping: 0.1
)",
              "inline.yaml:8: joints[0].damping",
              "'damping' is only valid for revolute and prismatic joints, not for a ball joint");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: fixed, parent: world, child: a, axis: [0, 0, 1]}
)",
              "inline.yaml:4: joints[0].axis", "only valid for revolute and prismatic joints");
  ExpectError(R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: j, type: fixed, parent: world, child: a, initial: {position: 1}}
)",
              "inline.yaml:4: joints[0].initial", "a fixed joint has no coordinates");
}

TEST(SceneLoaderErrorTest, JointValueErrors) {
  const std::string bodies = "bodies:\n  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
  ExpectError(bodies + "joints:\n  - {name: j, type: revolute, parent: world, child: a, axis: [0, 0, 0]}\n",
              "inline.yaml:4: joints[0].axis", "must be a nonzero vector");
  ExpectError(bodies + "joints:\n  - {name: j, type: revolute, parent: world, child: a, limits: {lower: 1, upper: -1}}\n",
              "inline.yaml:4: joints[0].limits", "lower (1) must be <= upper (-1)");
  ExpectError(bodies + "joints:\n  - {name: j, type: prismatic, parent: world, child: a, limits: {lower: 0, upper: 1}, initial: {position: 2}}\n",
              "inline.yaml:4: joints[0].initial.position", "outside the limits [0, 1]");
  ExpectError(bodies + "joints:\n  - {name: j, type: revolute, parent: world, child: a, spring: {stiffness: -1}}\n",
              "inline.yaml:4: joints[0].spring.stiffness", "must be >= 0");
  ExpectError(bodies + "joints:\n  - {name: j, type: revolute, parent: world, child: a, rotor_inertia: -1}\n",
              "inline.yaml:4: joints[0].rotor_inertia", "must be >= 0");
  ExpectError(bodies + "joints:\n  - {name: j, type: ball, parent: world, child: a, initial: {position: {quaternion: [0, 0, 0, 0]}}}\n",
              "inline.yaml:4: joints[0].initial.position.quaternion", "must be nonzero");
  ExpectError(bodies + "joints:\n  - {name: j, type: revolute, parent: a, child: a}\n",
              "inline.yaml:4: joints[0].child", "a body cannot be its own parent");
}

TEST(SceneLoaderErrorTest, PoseWithBothRpyAndQuaternion) {
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
    pose:
      rpy: [0, 0, 0]
      quaternion: [1, 0, 0, 0]
)",
              "inline.yaml:7: bodies[0].pose.quaternion", "give either 'rpy' or 'quaternion', not both");
}

TEST(SceneLoaderErrorTest, KinematicTreeErrors) {
  const std::string bodies = R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
)";
  ExpectError(bodies + "  - {name: j1, type: revolute, parent: world, child: a}\n"
                       "  - {name: j2, type: revolute, parent: b, child: a}\n",
              "inline.yaml:6: joints[1].child",
              "body 'a' is already the child of joint 'j1' (inline.yaml:5)");
  ExpectError(bodies + "  - {name: j1, type: revolute, parent: b, child: a}\n"
                       "  - {name: j2, type: revolute, parent: a, child: b}\n",
              "inline.yaml:5: joints[0].parent", "the joints form a loop");
}

TEST(SceneLoaderErrorTest, PoseOrVelocityOnABodyWithAParentJoint) {
  const std::string joint =
      "joints:\n  - {name: hinge, type: revolute, parent: world, child: a}\n";
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
    pose: {position: [0, 0, 1]}
)" + joint,
              "inline.yaml:5: bodies[0].pose",
              "'pose' is only allowed on free bodies, and 'a' is the child of joint 'hinge' "
              "(inline.yaml:7)");
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
    velocity: {linear: [0, 0, 1]}
)" + joint,
              "inline.yaml:5: bodies[0].velocity", "'velocity' is only allowed on free bodies");
}

TEST(SceneLoaderErrorTest, MassAndDensityRules) {
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    density: 1000
    geometry: [{shape: {type: sphere, radius: 1}}]
)",
              "inline.yaml:4: bodies[0].density", "give either 'mass' or 'density', not both");
  ExpectError("bodies:\n  - name: a\n    density: 1000\n", "inline.yaml:3: bodies[0].density",
              "'density' needs collision geometry, and body 'a' has none");
  ExpectError(R"(bodies:
  - name: a
    density: 1000
    geometry: [{shape: {type: mesh, file: meshes/tetra.obj}}]
)",
              "inline.yaml:3: bodies[0].density", "is a mesh");
  ExpectError("bodies:\n  - name: a\n    mass: 1\n", "inline.yaml:2: bodies[0]",
              "computing the inertia needs collision geometry");
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    geometry: [{shape: {type: mesh, file: meshes/tetra.obj}}]
)",
              "inline.yaml:2: bodies[0]", "computing the inertia needs solid primitives");
}

TEST(SceneLoaderErrorTest, ShapeRules) {
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    geometry:
      - shape: {type: half_space}
)",
              "inline.yaml:5: bodies[0].geometry[0].shape.type",
              "a half_space is only allowed in world_geometry");
  ExpectError(R"(bodies:
  - name: a
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
    geometry:
      - shape: {type: mesh, file: meshes/missing.obj}
)",
              "inline.yaml:6: bodies[0].geometry[0].shape.file",
              "mesh file 'meshes/missing.obj' not found (resolved to " + kDataDir +
                  "/meshes/missing.obj)");
  ExpectError("world_geometry:\n  - shape: {type: mesh, file: meshes/tetra.obj, scale: [1, 0, 1]}\n",
              "inline.yaml:2: world_geometry[0].shape.scale[1]", "must be positive");
}

TEST(SceneLoaderErrorTest, ReservedWorldName) {
  ExpectError("bodies:\n  - {name: world, mass: 1}\n", "inline.yaml:2: bodies[0].name",
              "'world' is reserved");
}

TEST(SceneLoaderErrorTest, IncludeMissing) {
  ExpectError("include: [nested/level2.yaml, no_such_file.yaml]\n", "inline.yaml:1: include[1]",
              "include file 'no_such_file.yaml' not found (resolved to " + kDataDir +
                  "/no_such_file.yaml)");
}

TEST(SceneLoaderErrorTest, IncludeCycle) {
  ExpectError("include: cycle_a.yaml\n", kDataDir + "/cycle_b.yaml:2: include[0]",
              "include cycle: " + kDataDir + "/cycle_a.yaml -> " + kDataDir +
                  "/cycle_b.yaml -> " + kDataDir + "/cycle_a.yaml");
  // A file that includes itself, loaded by path.
  try {
    LoadSceneFile(kDataDir + "/cycle_a.yaml");
    ADD_FAILURE() << "expected an include cycle";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("include cycle"), std::string::npos) << e.what();
  }
}

TEST(SceneLoaderErrorTest, ErrorsInsideIncludedFilesNameThatFile) {
  ExpectError("include: nested/bad_body.yaml\n", kDataDir + "/nested/bad_body.yaml:5: bodies[0].mass",
              "must be positive, got -2");
}

TEST(SceneLoaderErrorTest, MissingSceneFile) {
  try {
    LoadSceneFile("/nonexistent/dir/scene.yaml");
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/dir/scene.yaml: scene file", 0), 0u)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos);
  }
}

TEST(SceneLoaderErrorTest, MessagesAreSingleLines) {
  ExpectError("bodies:\n  - name: \"a\\nb\"\n    mass: \"x\\ny\"\n", "inline.yaml:3: bodies[0].mass",
              "expected a number, got 'x\\ny'");
}

// ---------------------------------------------------------------------------
// Actuators and constraints.
// ---------------------------------------------------------------------------

const std::string kTwoBodies = R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: hinge, type: revolute, parent: world, child: a}
  - {name: knob, type: ball, parent: a, child: b}
)";

TEST(SceneLoaderTest, ActuatorsAndConstraints) {
  const SceneDescription scene = Load(kTwoBodies + R"(actuators:
  - {name: m, joint: hinge, kp: 10, kd: 2, effort_limit: 5, target: {position: 0.5, velocity: -1}}
  - {name: d, joint: hinge, kd: 3}
constraints:
  - {name: w, type: weld, body_a: world, body_b: b, frame_a: {position: [1, 2, 3]},
     frame_b: {rpy: [0, 0, 1]}}
  - {name: p, type: ball, body_a: a, body_b: b}
)");
  ASSERT_EQ(scene.actuators.size(), 2u);
  const ActuatorDescription& m = scene.actuators[0];
  EXPECT_EQ(m.joint, "hinge");
  EXPECT_EQ(m.kp, 10);
  EXPECT_EQ(m.kd, 2);
  EXPECT_EQ(m.effort_limit, 5);
  EXPECT_EQ(m.target_position, 0.5);
  EXPECT_EQ(m.target_velocity, -1);
  EXPECT_EQ(scene.actuators[1].kp, 0);
  EXPECT_EQ(scene.actuators[1].effort_limit, 1e9);  // Documented default.
  ASSERT_EQ(scene.constraints.size(), 2u);
  EXPECT_EQ(scene.constraints[0].type, BodyConstraintType::kWeld);
  EXPECT_EQ(scene.constraints[0].body_a, "world");
  EXPECT_TRUE(scene.constraints[0].X_AFa.p.isApprox(Vector3(1, 2, 3)));
  EXPECT_NEAR(scene.constraints[0].X_BFb.R(1, 0), std::sin(1.0), kTol);
  EXPECT_EQ(scene.constraints[1].type, BodyConstraintType::kBall);
  EXPECT_TRUE(scene.constraints[1].X_BFb.p.isZero());
}

TEST(SceneLoaderErrorTest, ActuatorErrors) {
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: nope, kp: 1}\n",
              "inline.yaml:8: actuators[0].joint", "unknown joint 'nope'");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: knob, kp: 1}\n",
              "inline.yaml:8: actuators[0].joint", "is not revolute or prismatic");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: a_free, kp: 1}\n",
              "inline.yaml:8: actuators[0].joint", "unknown joint 'a_free'");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: hinge, kp: -1}\n",
              "inline.yaml:8: actuators[0].kp", "must be >= 0, got -1");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: hinge, kp: 0, kd: 0}\n",
              "inline.yaml:8: actuators[0].kd", "needs kp > 0 or kd > 0");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: hinge, kp: 1, effort_limit: 0}\n",
              "inline.yaml:8: actuators[0].effort_limit", "must be positive, got 0");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: hinge, kp: 1, effort_limit: .inf}\n",
              "inline.yaml:8: actuators[0].effort_limit", "must be a finite number");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: hinge, kp: 1, target: {pos: 1}}\n",
              "inline.yaml:8: actuators[0].target", "unknown key 'pos'");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: hinge, kp: 1, gain: 1}\n",
              "inline.yaml:8: actuators[0]", "unknown key 'gain'");
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, kp: 1}\n", "inline.yaml:8: actuators[0]",
              "missing required key 'joint'");
  ExpectError(kTwoBodies +
                  "actuators:\n  - {name: m, joint: hinge, kp: 1}\n  - {name: m, joint: hinge, kd: 1}\n",
              "inline.yaml:9: actuators[1].name", "duplicate actuator name 'm'");
}

TEST(SceneLoaderTest, Motors) {
  const SceneDescription scene = Load(kTwoBodies + R"(motors:
  - {name: m, joint: hinge, gain: 2.5, ctrl_range: [-1, 2], ctrl: 1.5, effort_limit: 4}
  - {name: n, joints: {hinge: -0.5}, gain: -3}
  - {name: r, joint: hinge, gain: 1, ctrl_range: [0.5, 1]}
)");
  ASSERT_EQ(scene.motors.size(), 3u);
  const MotorDescription& m = scene.motors[0];
  ASSERT_EQ(m.joints.size(), 1u);
  EXPECT_EQ(m.joints[0].joint, "hinge");
  EXPECT_EQ(m.joints[0].coefficient, 1);
  EXPECT_EQ(m.gain, 2.5);
  EXPECT_EQ(m.ctrl_min, -1);
  EXPECT_EQ(m.ctrl_max, 2);
  EXPECT_EQ(m.ctrl, 1.5);
  EXPECT_EQ(m.effort_limit, 4);
  const MotorDescription& n = scene.motors[1];
  EXPECT_EQ(n.joints[0].coefficient, -0.5);
  EXPECT_EQ(n.ctrl, 0);  // Documented defaults: unlimited ctrl starting at 0, no effort limit.
  EXPECT_TRUE(std::isinf(n.ctrl_min) && std::isinf(n.ctrl_max) && std::isinf(n.effort_limit));
  EXPECT_EQ(scene.motors[2].ctrl, 0.5);  // 0 clamped into the range.
}

TEST(SceneLoaderErrorTest, MotorErrors) {
  const std::string at = "inline.yaml:8: motors[0]";
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: nope, gain: 1}\n", at + ".joint", "unknown joint 'nope'");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: knob, gain: 1}\n", at + ".joint",
              "is not revolute or prismatic");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joints: {hinge: 1, nope: 2}, gain: 1}\n", at + ".joints",
              "unknown joint 'nope'");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joints: {hinge: 0}, gain: 1}\n", at + ".joints.hinge",
              "coefficient must not be 0");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge, joints: {hinge: 1}, gain: 1}\n", at,
              "exactly one of 'joint'");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, gain: 1}\n", at, "exactly one of 'joint'");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge}\n", at, "missing required key 'gain'");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge, gain: 0}\n", at + ".gain", "must not be 0");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge, gain: .nan}\n", at + ".gain", "finite");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge, gain: 1, ctrl_range: [1, -1]}\n",
              at + ".ctrl_range", "min < max");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge, gain: 1, ctrl_range: [-1, 1], ctrl: 2}\n",
              at + ".ctrl", "must lie in ctrl_range");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge, gain: 1, effort_limit: -1}\n",
              at + ".effort_limit", "must be positive");
  ExpectError(kTwoBodies + "motors:\n  - {name: m, joint: hinge, gain: 1, kp: 1}\n", at, "unknown key 'kp'");
  // Motors and PD actuators share one namespace (as MuJoCo's actuators do).
  ExpectError(kTwoBodies + "actuators:\n  - {name: m, joint: hinge, kp: 1}\nmotors:\n  - {name: m, joint: hinge, gain: 1}\n",
              "inline.yaml:10: motors[0].name", "duplicate actuator name 'm'");
}

TEST(SceneLoaderErrorTest, ConstraintErrors) {
  ExpectError(kTwoBodies + "constraints:\n  - {name: c, type: glue, body_a: a, body_b: b}\n",
              "inline.yaml:8: constraints[0].type", "unknown constraint type 'glue'");
  ExpectError(kTwoBodies + "constraints:\n  - {name: c, type: weld, body_a: x, body_b: b}\n",
              "inline.yaml:8: constraints[0].body_a", "unknown body 'x'");
  ExpectError(kTwoBodies + "constraints:\n  - {name: c, type: weld, body_a: a, body_b: y}\n",
              "inline.yaml:8: constraints[0].body_b", "unknown body 'y'");
  ExpectError(kTwoBodies + "constraints:\n  - {name: c, type: ball, body_a: b, body_b: b}\n",
              "inline.yaml:8: constraints[0].body_b", "two different bodies");
  ExpectError(kTwoBodies + "constraints:\n  - {name: c, type: ball, body_a: a}\n",
              "inline.yaml:8: constraints[0]", "missing required key 'body_b'");
  ExpectError(kTwoBodies +
                  "constraints:\n  - {name: c, type: ball, body_a: a, body_b: b, frame_a: {pos: 1}}\n",
              "inline.yaml:8: constraints[0].frame_a", "unknown key 'pos'");
  ExpectError(kTwoBodies + "constraints:\n  - {name: c, type: ball, body_a: a, body_b: b, axis: 1}\n",
              "inline.yaml:8: constraints[0]", "unknown key 'axis'");
  ExpectError(kTwoBodies + "constraints: 3\n", "inline.yaml:7: constraints", "expected a list");
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

TEST(SceneLoaderSolverTest, CanalAndSubAdmmParametersLoadAndAreValidatedAtTheirKey) {
  const SceneDescription scene = Load(R"(solver:
  type: canal
  canal: {initial_penalty_ratio: 20, penalty_growth: 5, tolerance: 1.0e-8, max_iterations: 30, warm_start: false}
  subadmm: {num_threads: 2, penalty_balance: 4}
)");
  EXPECT_EQ(scene.solver.type, SolverType::kCanal);
  EXPECT_EQ(scene.solver.canal.initial_penalty_ratio, 20);
  EXPECT_EQ(scene.solver.canal.penalty_growth, 5);
  EXPECT_EQ(scene.solver.canal.tolerance, 1e-8);
  EXPECT_EQ(scene.solver.canal.max_iterations, 30);
  EXPECT_FALSE(scene.solver.canal.warm_start);
  EXPECT_EQ(scene.solver.canal.max_penalty_ratio, CanalSolverParameters{}.max_penalty_ratio);
  EXPECT_EQ(scene.solver.subadmm.num_threads, 2);
  EXPECT_EQ(scene.solver.subadmm.penalty_balance, 4);
  EXPECT_EQ(Load("solver: {type: subadmm}\n").solver.type, SolverType::kSubAdmm);
  ExpectError("solver:\n  canal:\n    penalty_growth: 1\n", "inline.yaml:3: solver.canal.penalty_growth",
              "must be > 1");
  ExpectError("solver:\n  subadmm: {num_threads: 0}\n", "inline.yaml:2: solver.subadmm.num_threads",
              "num_threads");
  ExpectError("solver:\n  canal: {tolerance: -1}\n", "inline.yaml:2: solver.canal.tolerance",
              "must be positive, got -1");
  ExpectError("solver:\n  canal: {beta: 1}\n", "inline.yaml:2: solver.canal", "unknown key 'beta'");
  // The absolute penalty of earlier versions (kg) became a ratio to each
  // constraint's effective mass: the old keys are refused, not reinterpreted.
  ExpectError("solver:\n  canal: {initial_penalty: 1.0e4}\n", "inline.yaml:2: solver.canal",
              "unknown key 'initial_penalty'");
  // Related keys in either order: the cross check ρ_max ≥ ρ0 runs once the
  // whole map is read (a ρ0 above the default ρ_max = 1e4 must be possible).
  for (const char* text : {"solver: {canal: {initial_penalty_ratio: 1.0e7, max_penalty_ratio: 1.0e8}}\n",
                           "solver: {canal: {max_penalty_ratio: 1.0e8, initial_penalty_ratio: 1.0e7}}\n"}) {
    const SceneDescription raised = Load(text);
    EXPECT_EQ(raised.solver.canal.initial_penalty_ratio, 1e7) << text;
    EXPECT_EQ(raised.solver.canal.max_penalty_ratio, 1e8) << text;
  }
  ExpectError("solver:\n  canal: {max_penalty_ratio: 10}\n", "inline.yaml:2: solver.canal",
              "max_penalty_ratio (rho_max) must be >= initial_penalty_ratio");
  ExpectError("solver: {type: lemke}\n", "inline.yaml:1: solver.type", "unknown solver 'lemke'");
  // PGS's map and the budget at the top level, read and range-checked.
  const SceneDescription pgs =
      Load("solver:\n  type: pgs\n  budget_ms: 0.5\n  pgs: {regularized: true, relaxation: 1.3, max_iterations: 7}\n");
  EXPECT_EQ(pgs.solver.type, SolverType::kPgs);
  EXPECT_EQ(pgs.solver.budget.time_ms, 0.5);
  EXPECT_TRUE(pgs.solver.pgs.regularized);
  EXPECT_EQ(pgs.solver.pgs.relaxation, 1.3);
  EXPECT_EQ(pgs.solver.pgs.max_iterations, 7);
  ExpectError("solver:\n  pgs: {relaxation: 2.0}\n", "inline.yaml:2: solver.pgs.relaxation", "must be in (0, 2)");
  ExpectError("solver: {budget_ms: -1}\n", "inline.yaml:1: solver.budget_ms", "must be in [0, 1000000]");
  ExpectError("solver: {budget_ms: 1.0e300}\n", "inline.yaml:1: solver.budget_ms", "must be in [0, 1000000]");
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

// `value` as FormatParameterValue writes a double (shortest round trip),
// which is also how a scene would spell it.
std::string NumberText(double value) {
  double member = value;
  return FormatParameterValue({"", "", "", &member, kAnyNumber});
}

// The bound member's value as a double (a flag as 0 or 1).
double BoundValue(const ParameterBinding& p) {
  return std::visit([](auto* member) { return static_cast<double>(*member); }, p.value);
}

// The scene whose map at the dotted `path` (e.g. "solver.canal") holds
// `key: value` and nothing else.
std::string SceneWithMapKey(const std::string& path, const std::string& key, const std::string& value) {
  std::string open, close;
  std::size_t begin = 0;
  while (true) {
    const std::size_t dot = path.find('.', begin);
    const std::string segment = path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
    // Each segment after the first opens a flow map inside the previous one.
    if (!open.empty()) {
      open += "{";
      close += "}";
    }
    open += segment + ": ";
    if (dot == std::string::npos) break;
    begin = dot + 1;
  }
  return open + "{" + key + ": " + value + "}" + close + "\n";
}

// The map at `path` is read with exactly the keys of `table` (bound to a
// default-constructed settings struct; `bind` binds the same table within a
// loaded scene), each checked against its range and reported at
// `<path>.<key>`, and a key of no table is refused at the map. Returns how
// many out-of-range values were checked.
int ExpectMapReadsEveryKeyOfItsTable(const std::string& path, const ParameterTable& table,
                                     const std::function<ParameterTable(SceneDescription&)>& bind) {
  int out_of_range_checks = 0;
  std::string valid_keys;
  for (const ParameterBinding& p : table) {
    const std::string key(p.key);
    const std::string key_path = path + "." + key;
    SCOPED_TRACE(key_path);
    valid_keys += (valid_keys.empty() ? "" : ", ") + key;
    const auto scene_with = [&](const std::string& text) { return SceneWithMapKey(path, key, text); };
    // The value `key` holds in the settings of a loaded scene (a flag as
    // 0 or 1).
    const auto loaded = [&](const std::string& text) {
      SceneDescription scene;
      try {
        scene = Load(scene_with(text));
      } catch (const InputError& e) {
        ADD_FAILURE() << key << ": " << text << " refused: " << e.what();
        return std::nan("");
      }
      for (const ParameterBinding& q : bind(scene)) {
        if (q.key == p.key) return BoundValue(q);
      }
      return std::nan("");  // Unreachable: the same table as `table`.
    };

    // In range: the default, as `--list` prints it, loads and reads back.
    EXPECT_EQ(loaded(FormatParameterValue(p)), BoundValue(p));

    if (std::holds_alternative<bool*>(p.value)) {
      // A flag: the other value arrives too (the default alone could not
      // tell a read value from an ignored one).
      const bool flipped = !*std::get<bool*>(p.value);
      EXPECT_EQ(loaded(flipped ? "true" : "false"), flipped ? 1 : 0);
      continue;
    }
    // A closed finite end is in range by definition: it loads and arrives.
    const ParameterRange& r = p.range;
    for (const double end : {r.lo_open ? NAN : r.lo, r.hi_open ? NAN : r.hi}) {
      if (std::isfinite(end)) {
        EXPECT_EQ(loaded(NumberText(end)), end);
      }
    }

    // Out of range beyond each finite end: the open end itself, or one
    // past a closed end (an integer for integer keys, so that the range
    // and not the integer check answers).
    std::vector<double> outside;
    if (std::isfinite(r.lo)) outside.push_back(r.lo_open ? r.lo : r.lo - 1);
    if (std::isfinite(r.hi)) outside.push_back(r.hi_open ? r.hi : r.hi + 1);
    for (const double x : outside) {
      EXPECT_FALSE(r.Contains(x)) << x;
      ++out_of_range_checks;
      ExpectError(scene_with(NumberText(x)), "inline.yaml:1: " + key_path,
                  "must be " + r.Describe() + ", got " + NumberText(x));
    }
  }
  // A key of no table: refused at the map, naming the map's keys in
  // table order.
  ExpectError(SceneWithMapKey(path, "no_such_key", "1"), "inline.yaml:1: " + path,
              "unknown key 'no_such_key' (expected one of: " + valid_keys + ")");
  return out_of_range_checks;
}

// The scene format follows the registries: every solver with its own map
// (SolverTypes(), own_map) is read from `solver.<name>:` with exactly the
// keys of its parameter table, each checked against that table's range and
// reported at `solver.<name>.<key>`. Walking the registry and the tables
// (instead of listing keys here) catches a solver or key added to the
// engine but not reachable from a scene, or read with another range.
TEST(SceneLoaderSolverTest, OwnSolverMapsReadEveryKeyOfTheirTableWithItsRange) {
  ASSERT_EQ(SceneWithMapKey("solver.canal", "tolerance", "1"), "solver: {canal: {tolerance: 1}}\n");
  int own_maps = 0, out_of_range_checks = 0;
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (!info.own_map) continue;
    ++own_maps;
    SolverSettings defaults;
    out_of_range_checks += ExpectMapReadsEveryKeyOfItsTable(
        "solver." + std::string(info.name), info.bind(defaults),
        [&](SceneDescription& scene) { return info.bind(scene.solver); });
  }
  // The loops above ran (a registry or tables emptied by mistake would
  // otherwise pass).
  EXPECT_GE(own_maps, 1);
  EXPECT_GE(out_of_range_checks, own_maps);
}

// `nmdp:` (docs/scene-format.md, "Stepping scheme") the same way: every key
// of the NMDP schemes' table, with its range, at `nmdp.<key>`.
TEST(SceneLoaderSolverTest, NmdpMapReadsEveryKeyOfItsTableWithItsRange) {
  ASSERT_EQ(SceneWithMapKey("nmdp", "stiffness", "1"), "nmdp: {stiffness: 1}\n");
  NmdpParameters defaults;
  const ParameterTable table = BindParameters(defaults);
  ASSERT_FALSE(table.empty());
  const int checks = ExpectMapReadsEveryKeyOfItsTable(
      "nmdp", table, [](SceneDescription& scene) { return BindParameters(scene.nmdp); });
  EXPECT_GE(checks, static_cast<int>(table.size()));  // Every key has at least one finite end.
}

// The scene key camera: (docs/scene-format.md, "Camera").
TEST(SceneLoaderCameraTest, ReadsEveryKeyAndDefaults) {
  const std::string body = "bodies:\n  - {name: box, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
  const SceneDescription full = Load(body +
                                     "camera:\n"
                                     "  lookat: [0, 0, 0.2]\n"
                                     "  distance: 1.5\n"
                                     "  azimuth: -400\n"
                                     "  elevation: -89.5\n"
                                     "  fovy: 150\n"
                                     "  track: box\n");
  ASSERT_TRUE(full.camera);
  ASSERT_TRUE(full.camera->lookat);
  EXPECT_EQ(*full.camera->lookat, Vector3(0, 0, 0.2));
  ASSERT_TRUE(full.camera->distance);
  EXPECT_EQ(*full.camera->distance, 1.5);
  EXPECT_EQ(full.camera->azimuth_deg, -400);  // Any heading: not wrapped.
  EXPECT_EQ(full.camera->elevation_deg, -89.5);
  EXPECT_EQ(full.camera->fovy_deg, 150);
  EXPECT_EQ(full.camera->track, "box");
  EXPECT_EQ(full.camera->where.ToString(), "inline.yaml:4");  // Where the map starts, as for gripper:.
  // An empty map (or no value): every default, lookat and distance fitted.
  for (const char* empty : {"camera: {}\n", "camera:\n"}) {
    const SceneDescription scene = Load(body + empty);
    ASSERT_TRUE(scene.camera) << empty;
    EXPECT_FALSE(scene.camera->lookat);
    EXPECT_FALSE(scene.camera->distance);
    EXPECT_EQ(scene.camera->azimuth_deg, 120);
    EXPECT_EQ(scene.camera->elevation_deg, -25);
    EXPECT_EQ(scene.camera->fovy_deg, 45);
    EXPECT_EQ(scene.camera->track, "");
  }
  EXPECT_FALSE(Load(body).camera);
}

TEST(SceneLoaderCameraTest, TrackMayNameARobotsBodyAndOverridesSetTheCamera) {
  const SceneDescription scene = Load(
      "robots:\n  - {file: ../../../assets/robots/iiwa14.urdf, name: arm}\n"
      "camera: {track: arm/iiwa_link_7}\n");
  ASSERT_TRUE(scene.camera);
  EXPECT_EQ(scene.camera->track, "arm/iiwa_link_7");
  const SceneDescription falling = LoadSceneFile(kScenesDir + "/falling_box.yaml", {"camera={distance: 3}"});
  ASSERT_TRUE(falling.camera);
  EXPECT_FALSE(falling.camera->lookat);
  EXPECT_EQ(*falling.camera->distance, 3);
}

TEST(SceneLoaderErrorTest, CameraErrors) {
  const std::string body = "bodies:\n  - {name: box, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
  ExpectError(body + "camera:\n  distance: 0\n", "inline.yaml:4: camera.distance", "must be positive, got 0");
  ExpectError(body + "camera:\n  distance: -1\n", "inline.yaml:4: camera.distance", "must be positive, got -1");
  ExpectError(body + "camera:\n  lookat: [0, .nan, 0]\n", "inline.yaml:4: camera.lookat[1]",
              "must be a finite number, got '.nan'");
  ExpectError(body + "camera:\n  lookat: [0, 0]\n", "inline.yaml:4: camera.lookat",
              "expected a list of 3 numbers, got a list of 2");
  ExpectError(body + "camera:\n  azimuth: .inf\n", "inline.yaml:4: camera.azimuth", "must be a finite number");
  ExpectError(body + "camera:\n  elevation: 90\n", "inline.yaml:4: camera.elevation",
              "must be in (-90, 90) degrees, got 90");
  ExpectError(body + "camera:\n  elevation: -90\n", "inline.yaml:4: camera.elevation",
              "must be in (-90, 90) degrees, got -90");
  ExpectError(body + "camera:\n  fovy: 4.9\n", "inline.yaml:4: camera.fovy", "must be in [5, 150], got 4.9");
  ExpectError(body + "camera:\n  fovy: 151\n", "inline.yaml:4: camera.fovy", "must be in [5, 150], got 151");
  ExpectError(body + "camera:\n  track: boxx\n", "inline.yaml:4: camera.track",
              "unknown body 'boxx' (bodies: box)");
  ExpectError(body + "camera:\n  track: ''\n", "inline.yaml:4: camera.track", "must not be empty");
  ExpectError(body + "camera:\n  zoom: 2\n", "inline.yaml:4: camera",
              "unknown key 'zoom' for the camera (expected one of: lookat, distance, azimuth, elevation, fovy, track)");
  ExpectError(body + "camera: [1, 2]\n", "inline.yaml:3: camera", "expected a map, got a list");
  // The list of bodies in the message is capped (quadrupeds have hundreds).
  std::string many = "bodies:\n";
  for (int i = 0; i < 40; ++i) {
    many += "  - {name: b" + std::to_string(i) + ", mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
  }
  ExpectError(many + "camera: {track: x}\n", "inline.yaml:42: camera.track",
              "unknown body 'x' (bodies: b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, ...)");
}

// ---------------------------------------------------------------------------
// Joint couplers.
// ---------------------------------------------------------------------------

// Two hinges and a slider (each its own body), and the ball of kTwoBodies.
const std::string kCoupledJoints = R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: c, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: d, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: ha, type: revolute, parent: world, child: a}
  - {name: hb, type: revolute, parent: world, child: b}
  - {name: s, type: prismatic, parent: world, child: c}
  - {name: knob, type: ball, parent: world, child: d}
)";

TEST(SceneLoaderTest, Couplers) {
  const SceneDescription scene = Load(kCoupledJoints + R"(couplers:
  - {joint: hb, to: ha, ratio: -2, offset: 0.25}
  - {joint: s, to: ha}
)");
  ASSERT_EQ(scene.couplers.size(), 2u);
  EXPECT_EQ(scene.couplers[0].joint, "hb");
  EXPECT_EQ(scene.couplers[0].to, "ha");
  EXPECT_EQ(scene.couplers[0].ratio, -2);
  EXPECT_EQ(scene.couplers[0].offset, 0.25);
  EXPECT_EQ(scene.couplers[0].where.ToString(), "inline.yaml:12");
  EXPECT_EQ(scene.couplers[1].ratio, 1);  // Documented defaults.
  EXPECT_EQ(scene.couplers[1].offset, 0);
}

TEST(SceneLoaderErrorTest, CouplerErrors) {
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: nope, to: ha}\n", "inline.yaml:12: couplers[0].joint",
              "unknown joint 'nope'");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: nope}\n", "inline.yaml:12: couplers[0].to",
              "unknown joint 'nope'");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: knob, to: ha}\n", "inline.yaml:12: couplers[0].joint",
              "joint 'knob' is not revolute or prismatic");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: knob}\n", "inline.yaml:12: couplers[0].to",
              "joint 'knob' is not revolute or prismatic");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: ha, ratio: .inf}\n",
              "inline.yaml:12: couplers[0].ratio", "must be a finite number");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: ha, ratio: .nan}\n",
              "inline.yaml:12: couplers[0].ratio", "must be a finite number");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: ha, offset: -.inf}\n",
              "inline.yaml:12: couplers[0].offset", "must be a finite number");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: hb}\n", "inline.yaml:12: couplers[0].to",
              "a joint cannot follow itself");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: ha}\n  - {joint: hb, to: s}\n",
              "inline.yaml:13: couplers[1].joint", "joint 'hb' already follows 'ha' (coupler at inline.yaml:12)");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb}\n", "inline.yaml:12: couplers[0]",
              "missing required key 'to'");
  ExpectError(kCoupledJoints + "couplers:\n  - {joint: hb, to: ha, gear: 2}\n", "inline.yaml:12: couplers[0]",
              "unknown key 'gear'");
  ExpectError(kCoupledJoints + "couplers: 3\n", "inline.yaml:11: couplers", "expected a list");
}

}  // namespace
}  // namespace stiction
