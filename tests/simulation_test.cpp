#include "engine/simulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/common/error.h"
#include "engine/geometry/collision_world.h"
#include "engine/scene/scene_loader.h"
#include "engine/scene_compiler.h"
#include "engine/solvers/ncp_residual.h"

namespace stiction {
namespace {

constexpr const char* kFreeBox = R"(
gravity: [0, 0, -9.81]
time_step: 0.01
bodies:
  - name: box
    mass: 1
    geometry: [{shape: {type: box, size: [0.1, 0.2, 0.3]}}]
    pose: {position: [0, 0, 1]}
    velocity: {linear: [1, 0, 3], angular: [0, 0, 0]}
)";

TEST(SimulationTest, FreeFlightIsExactlyAParabolaForEveryScheme) {
  // v = [ω_B; ṗ_W] makes translation decouple from rotation; with constant
  // gravity every θ-method reproduces the parabola up to its known bias:
  // q_n = q0 + v0 t + ½ g t² + (θ_vq − ½) g δt t.
  for (const char* integrator : {"explicit_euler", "symplectic_euler", "implicit_euler", "midpoint"}) {
    const SceneDescription scene =
        LoadSceneString(kFreeBox, "box.yaml", ".", {std::string("integrator=") + integrator});
    Simulation sim(scene);
    for (int i = 0; i < 100; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
    const double t = 1.0, dt = 0.01, g = -9.81;
    const double bias = (scene.integrator.theta_vq - 0.5) * g * dt * t;
    const BodyState s = sim.CalcBodyStates()[0];
    EXPECT_NEAR(s.position.z(), 1 + 3 * t + 0.5 * g * t * t + bias, 1e-12) << integrator;
    EXPECT_NEAR(s.position.x(), 1.0, 1e-12) << integrator;
    EXPECT_NEAR(s.linear_velocity.z(), 3 + g * t, 1e-12) << integrator;
    EXPECT_NEAR(sim.time(), 1.0, 1e-12);
  }
}

TEST(SimulationTest, ResetRestoresTheInitialState) {
  Simulation sim(LoadSceneString(kFreeBox, "box.yaml"));
  const VectorX q0 = sim.positions();
  sim.Step();
  EXPECT_NE(sim.positions(), q0);
  sim.Reset();
  EXPECT_EQ(sim.positions(), q0);
  EXPECT_EQ(sim.time(), 0.0);
}

TEST(SimulationTest, ParameterChangesAreValidated) {
  Simulation sim(LoadSceneString(kFreeBox, "box.yaml"));
  EXPECT_THROW(sim.SetTimeStep(-1), InputError);
  EXPECT_THROW(sim.SetTimeStep(std::nan("")), InputError);
  EXPECT_THROW(sim.SetIntegrator({"custom", 1.5, 0.5}), InputError);
  sim.SetTimeStep(0.002);
  sim.Step();
  EXPECT_DOUBLE_EQ(sim.time(), 0.002);
}

TEST(SimulationTest, SteppingSchemeAndNmdpParametersComeFromTheSceneAndAreValidated) {
  // Only set and read back: nothing here steps under an NMDP scheme.
  const Simulation theta(LoadSceneString(kFreeBox, "box.yaml"));
  EXPECT_EQ(theta.stepping_scheme(), SteppingScheme::kThetaMethod);
  EXPECT_EQ(theta.nmdp_parameters().stiffness, NmdpParameters{}.stiffness);

  Simulation sim(LoadSceneString(kFreeBox, "box.yaml", ".", {"stepping=nmdp_pgm", "nmdp.stiffness=3e4"}));
  EXPECT_EQ(sim.stepping_scheme(), SteppingScheme::kNmdpPgm);
  EXPECT_EQ(sim.nmdp_parameters().stiffness, 3e4);
  EXPECT_EQ(sim.scene().scheme, SteppingScheme::kNmdpPgm);

  sim.SetSteppingScheme(SteppingScheme::kNeMdp);
  EXPECT_EQ(sim.stepping_scheme(), SteppingScheme::kNeMdp);
  NmdpParameters p = sim.nmdp_parameters();
  p.max_subdivisions = 2;
  sim.SetNmdpParameters(p);
  EXPECT_EQ(sim.nmdp_parameters().max_subdivisions, 2);
  // Refused: the message names the key; nothing changes.
  p.stiffness = -1;
  try {
    sim.SetNmdpParameters(p);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("nmdp: stiffness must be positive", 0), 0u) << e.what();
  }
  EXPECT_EQ(sim.nmdp_parameters().stiffness, 3e4);
  EXPECT_THROW(sim.SetSteppingScheme(static_cast<SteppingScheme>(99)), InputError);
  EXPECT_EQ(sim.stepping_scheme(), SteppingScheme::kNeMdp);

  // What Save scene as writes, and kept across Reset() (a setting, not state).
  SceneParameters saved = sim.CalcSceneParameters();
  EXPECT_EQ(saved.scheme, SteppingScheme::kNeMdp);
  EXPECT_EQ(saved.nmdp.max_subdivisions, 2);
  sim.Reset();
  EXPECT_EQ(sim.stepping_scheme(), SteppingScheme::kNeMdp);
  EXPECT_EQ(sim.nmdp_parameters().max_subdivisions, 2);
  // The other schemes' settings are kept through a switch.
  sim.SetSteppingScheme(SteppingScheme::kThetaMethod);
  EXPECT_EQ(sim.integrator().name, "midpoint");
  EXPECT_EQ(sim.nmdp_parameters().max_subdivisions, 2);
}

// Two actuators on one hinge, one of them oscillating: the commanded
// position (what a viewer slider shows and sets) is the scene's target, then
// the last SetActuatorTarget, and for the oscillating one the centre while
// its actual target moves about it.
TEST(SimulationTest, ActuatorCommandedPositionIsTheCentreOfAnOscillation) {
  constexpr const char* kHinge = R"(
gravity: [0, 0, 0]
time_step: 0.01
bodies:
  - name: bob
    mass: 1
    geometry: [{shape: {type: sphere, radius: 0.02}}]
joints:
  - {name: hinge, type: revolute, parent: world, child: bob, axis: [0, 1, 0]}
actuators:
  - {name: steady, joint: hinge, kp: 10, kd: 1, target: {position: 0.25}}
  - {name: swinging, joint: hinge, kp: 10, kd: 1, target: {position: -0.5}}
oscillators:
  - {actuator: swinging, amplitude: 0.2, period: 0.4, phase: 0.25, start: 0}
)";
  Simulation sim(LoadSceneString(kHinge, "hinge.yaml", "."));
  EXPECT_EQ(sim.actuator_commanded_position("steady"), 0.25);
  EXPECT_EQ(sim.actuator_commanded_position("swinging"), -0.5);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  // t = 0.05 s: an eighth of a period into the first (enveloped) cycle.
  EXPECT_GT(std::abs(sim.actuator("swinging").target_position + 0.5), 0.01);
  EXPECT_EQ(sim.actuator_commanded_position("swinging"), -0.5);
  EXPECT_EQ(sim.actuator("steady").target_position, sim.actuator_commanded_position("steady"));
  sim.SetActuatorTarget("steady", 1.0, 0.0);
  sim.SetActuatorTarget("swinging", 0.75, 0.0);
  EXPECT_EQ(sim.actuator_commanded_position("steady"), 1.0);
  EXPECT_EQ(sim.actuator_commanded_position("swinging"), 0.75);
  EXPECT_NE(sim.actuator("swinging").target_position, 0.75);
  EXPECT_THROW(sim.actuator_commanded_position("nope"), InputError);
}

TEST(SimulationTest, AFailedStepLeavesTheStateUnchanged) {
  Simulation sim(LoadSceneString(kFreeBox, "box.yaml"));
  VectorX q = sim.positions(), v = sim.velocities();
  v[0] = 1e200;  // The gyroscopic term ω × Iω overflows to Inf.
  v[1] = 2e200;
  sim.SetState(q, v);
  const StepResult r = sim.Step();
  EXPECT_NE(r.status, StepStatus::kSuccess);
  EXPECT_FALSE(r.message.empty());
  EXPECT_EQ(sim.velocities()[0], 1e200);
  EXPECT_EQ(sim.time(), 0.0);
  EXPECT_THROW(sim.SetState(q, VectorX::Zero(2)), InputError);
}

TEST(SimulationTest, TheReportedNcpResidualIsTheStandAloneOne) {
  // A step's ncp_residual solves with A through the factorization the
  // contact assembly formed (ContactProblemBuilder::SolveA); the stand-alone
  // NcpResidual factors A itself. On a standing quadruped (a branching
  // 18-DOF tree: the tree factor's path, with contacts and joint limits)
  // the two agree to round-off.
  Simulation sim = Simulation::FromFile(STICTION_SOURCE_DIR "/assets/scenes/quadruped_stand.yaml");
  NcpResidual stand_alone;
  int compared = 0;
  for (int step = 0; step < 30; ++step) {
    const StepResult r = sim.Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
    if (sim.last_contact_problem().constraints.empty()) continue;
    const double recovery =
        GetSolverTypeInfo(sim.solver_settings().type).penetration_recovery(sim.solver_settings());
    const double expected = stand_alone.Calc(sim.last_contact_problem(), sim.solver_result().gamma, recovery);
    EXPECT_NEAR(r.stats.ncp_residual, expected, 1e-9 * expected + 1e-15) << "step " << step;
    ++compared;
  }
  EXPECT_GT(compared, 20);
}

TEST(SimulationTest, EnergyOfAFallingBodyIsConservedByMidpoint) {
  Simulation sim(LoadSceneString(kFreeBox, "box.yaml"));
  const double e0 = sim.CalcKineticEnergy() + sim.CalcPotentialEnergy();
  for (int i = 0; i < 50; ++i) sim.Step();
  // Linear dynamics under constant gravity: midpoint is exact to round-off.
  EXPECT_NEAR(sim.CalcKineticEnergy() + sim.CalcPotentialEnergy(), e0, 1e-12 * std::abs(e0) + 1e-12);
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

TEST(SimulationTest, ExternalWrenchAcceleratesTheBody) {
  // A 1 kg box in zero gravity pushed by 2 N through its COM: a = 2 m/s²,
  // exactly, for every scheme (the force is constant over the step).
  Simulation sim(LoadSceneString(kFreeBox, "box.yaml", ".", {"gravity=[0,0,0]"}));
  const BodyState s0 = sim.CalcBodyStates()[0];
  sim.SetExternalWrenches({ExternalWrench{1, s0.position, Vector3(2, 0, 0), Vector3::Zero()}});
  for (int i = 0; i < 10; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  EXPECT_NEAR(sim.CalcBodyStates()[0].linear_velocity.x(), 1 + 2 * 0.1, 1e-12);
  // An off-centre force also spins it.
  sim.SetExternalWrenches({ExternalWrench{1, s0.position + Vector3(0, 0.1, 0), Vector3(2, 0, 0), Vector3::Zero()}});
  sim.Step();
  EXPECT_LT(sim.CalcBodyStates()[0].angular_velocity.z(), -1e-3);
  ExternalWrench bad;
  bad.body = 7;
  EXPECT_THROW(sim.SetExternalWrenches({bad}), InputError);
  sim.SetExternalWrenches({});
}

TEST(SimulationTest, CompileSceneBuildsTheModelCollisionWorldWeldsAndActuators) {
  // A hinged arm on a base welded to a free block, and an arm gripper whose
  // end effector is the arm.
  const SceneDescription scene = LoadSceneString(R"(
materials: [{name: rubber, friction: 0.9}]
bodies:
  - {name: base, mass: 1, geometry: [{shape: {type: box, size: [0.2, 0.2, 0.2]}}], pose: {position: [0, 0, 1]}}
  - {name: arm, mass: 1, geometry: [{shape: {type: box, size: [0.4, 0.1, 0.1]}, material: rubber}]}
  - {name: block, mass: 1, geometry: [{shape: {type: sphere, radius: 0.1}}], pose: {position: [1, 0, 1]}}
joints:
  - {name: hinge, type: revolute, parent: base, child: arm, axis: [0, 0, 1], initial: {position: 0.5}}
actuators:
  - {name: motor, joint: hinge, kp: 10}
constraints:
  - {name: glue, type: weld, body_a: base, body_b: block}
gripper:
  end_effector: {body: arm, pose: {position: [0.2, 0, 0]}}
  fingers: [{name: f, actuators: [motor], open: [0], closed: [1]}]
)",
                                                 "compiled.yaml");
  const CompiledScene compiled = CompileScene(scene);
  const MultibodyModel& model = *compiled.multibody.model;
  ASSERT_EQ(model.num_bodies(), 4);
  const int base = model.FindBody("base"), arm = model.FindBody("arm"), block = model.FindBody("block");
  // Jointed and welded bodies do not collide; others do.
  EXPECT_TRUE(compiled.collision->filter().Excludes(base, arm));
  EXPECT_TRUE(compiled.collision->filter().Excludes(base, block));
  EXPECT_FALSE(compiled.collision->filter().Excludes(arm, block));
  ASSERT_EQ(compiled.body_constraints.size(), 1u);
  EXPECT_EQ(compiled.body_constraints[0].body_a, base);
  EXPECT_EQ(compiled.body_constraints[0].body_b, block);
  // Each geometry's material by index: the arm's rubber, the others' default.
  ASSERT_EQ(compiled.materials.of_geometry.size(), 3u);
  EXPECT_EQ(compiled.materials.materials[compiled.materials.of_geometry[1]].friction, 0.9);
  ASSERT_EQ(compiled.actuators.size(), 1u);
  EXPECT_EQ(compiled.actuators[0].joint, model.FindJoint("hinge"));
  // The gripper's impedance holds E where it starts, with the hinge as posture.
  ASSERT_EQ(compiled.gripper_impedances.size(), 1u);
  EXPECT_EQ(compiled.gripper_impedances[0].first, 0);
  const CartesianImpedance& c = compiled.gripper_impedances[0].second;
  EXPECT_EQ(c.body, arm);
  EXPECT_NEAR(c.X_WT.p.x(), 0.2 * std::cos(0.5), 1e-12);
  EXPECT_NEAR(c.X_WT.p.y(), 0.2 * std::sin(0.5), 1e-12);
  ASSERT_EQ(c.posture.size(), 1u);
  EXPECT_EQ(c.posture[0].q_nominal, 0.5);
  // The Simulation runs exactly that: its controller 0 is the gripper's.
  const Simulation sim(scene);
  EXPECT_EQ(sim.cartesian_impedance(0).X_WT.p, c.X_WT.p);
}

}  // namespace
}  // namespace stiction
