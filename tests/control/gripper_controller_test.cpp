// GripperController (engine/control/gripper_controller.h) on the shipped
// gripper scene assets/scenes/grasp_box.yaml: the initial target, linear
// ramps and what Actuate writes into the simulation's actuators (read back
// through Simulation::scene()), input checks, and StateCommand. The expected
// values come from the scene files and the contract in docs/teleop.md, not
// from running the controller. Then SceneGripper
// (engine/control/scene_gripper.h), the set-up every driver shares.
#include "engine/control/gripper_controller.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/control/scene_gripper.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// From assets/scenes/includes/gripper.yaml: the palm starts at z = 0.25 m
// (gripper_z's initial position), every other palm coordinate at 0; the
// finger actuators have kp = 1e4 N/m, kd = 60 N s/m; the initial grip
// force is 20 N.
const GripperPose kInitialPose{0, 0, 0.25, 0};
constexpr double kFingerKp = 1.0e4, kFingerKd = 60, kSceneGripForce = 20;
// Finger open/closed coordinates set by the overrides below, different from
// the finger actuators' scene targets (0.06 m), so that a target left as the
// scene had it cannot pass for one Actuate wrote.
constexpr double kFingerOpen = 0.05, kFingerClosed = 0.002;

Simulation GraspBox() {
  return Simulation::FromFile(test::ScenePath("grasp_box.yaml"),
                              {"gripper.finger_open=" + test::Num(kFingerOpen),
                               "gripper.finger_closed=" + test::Num(kFingerClosed)});
}

// The actuator's live gains and targets (what the next step uses).
const JointActuator& Actuator(const Simulation& sim, const std::string& name) { return sim.actuator(name); }

const char* const kPalmActuators[4] = {"gripper_x_motor", "gripper_y_motor", "gripper_z_motor",
                                       "gripper_yaw_motor"};
const char* const kFingerActuators[2] = {"finger_left_motor", "finger_right_motor"};

double Coordinate(const GripperPose& p, int i) {
  const double c[4] = {p.x, p.y, p.z, p.yaw};
  return c[i];
}

GripperPose Lerp(const GripperPose& a, const GripperPose& b, double s) {
  return {a.x + s * (b.x - a.x), a.y + s * (b.y - a.y), a.z + s * (b.z - a.z),
          a.yaw + s * (b.yaw - a.yaw)};
}

::testing::AssertionResult PoseNear(const GripperPose& actual, const GripperPose& expected,
                                    double tol) {
  for (int i = 0; i < 4; ++i) {
    if (!(std::abs(Coordinate(actual, i) - Coordinate(expected, i)) <= tol)) {
      return ::testing::AssertionFailure()
             << "[" << actual.x << ", " << actual.y << ", " << actual.z << ", " << actual.yaw
             << "] vs expected [" << expected.x << ", " << expected.y << ", " << expected.z
             << ", " << expected.yaw << "] (coordinate " << i << ", tolerance " << tol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

GripperCommand TargetCommand(std::int64_t step, const GripperPose& target, std::int64_t ramp_steps) {
  GripperCommand c;
  c.step = step;
  c.target = target;
  c.ramp_steps = ramp_steps;
  return c;
}

/// The InputError message of applying `c` ("" and a failure if none).
std::string ApplyError(GripperController* controller, const GripperCommand& c) {
  try {
    controller->Apply(c);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

// Interpolated coordinates are a + s (b − a) of O(1) numbers, done here and
// in the controller in possibly different orders: a few ulps.
constexpr double kLerpTol = 1e-14;

TEST(GripperControllerTest, InitialTargetIsTheCurrentPose) {
  const Simulation sim = GraspBox();
  const GripperController c(sim);
  EXPECT_EQ(c.target(), kInitialPose);
  EXPECT_EQ(c.CurrentPose(sim), kInitialPose);
  for (std::int64_t step : {-1, 0, 1, 1000}) EXPECT_EQ(c.TargetAt(step), kInitialPose) << step;
  EXPECT_EQ(c.grip(), GripState::kOpen);
  EXPECT_EQ(c.grip_force(), kSceneGripForce);
  EXPECT_EQ(c.palm_body(), sim.model().FindBody("palm"));
  EXPECT_EQ(c.finger_body(0), sim.model().FindBody("finger_left"));
  EXPECT_EQ(c.finger_body(1), sim.model().FindBody("finger_right"));
}

TEST(GripperControllerTest, InitialTargetFollowsAMovedState) {
  // Put the palm somewhere else before constructing the controller; the
  // target must be where the palm now is. The palm's world pose is the
  // independent check: at zero joint coordinates the palm frame is the world
  // frame, so its origin is (x, y, z) and its heading is yaw about z.
  Simulation sim = GraspBox();
  const GripperPose moved{0.1, -0.05, 0.3, 0.4};
  VectorX q = sim.positions();
  for (const Joint& j : sim.model().joints()) {
    if (j.name == "gripper_x") q[j.q_start] = moved.x;
    if (j.name == "gripper_y") q[j.q_start] = moved.y;
    if (j.name == "gripper_z") q[j.q_start] = moved.z;
    if (j.name == "gripper_yaw") q[j.q_start] = moved.yaw;
  }
  sim.SetState(q, sim.velocities());
  const GripperController c(sim);
  const BodyState palm = sim.CalcBodyStates()[c.palm_body() - 1];
  const Vector3 heading = palm.orientation * Vector3::UnitX();
  // Pose through the kinematics of a short chain: round-off only.
  EXPECT_NEAR(c.target().x, palm.position.x(), 1e-12);
  EXPECT_NEAR(c.target().y, palm.position.y(), 1e-12);
  EXPECT_NEAR(c.target().z, palm.position.z(), 1e-12);
  EXPECT_NEAR(c.target().yaw, std::atan2(heading.y(), heading.x()), 1e-12);
  EXPECT_EQ(c.target(), moved);  // And exactly the coordinates that were set.
  EXPECT_EQ(c.TargetAt(0), moved);
}

TEST(GripperControllerTest, RampInterpolatesLinearlyAndHoldsTheEnd) {
  const Simulation sim = GraspBox();
  GripperController c(sim);
  // A command before step 10, moving over 20 steps. TargetAt(k) is the value
  // for the end of step k: the ramp starts from the current target at index
  // 10 (TargetAt(9)) and reaches the end at index 30 (TargetAt(29)).
  const std::int64_t s0 = 10, n = 20;
  const GripperPose end{0.1, -0.04, 0.15, 0.6};
  c.Apply(TargetCommand(s0, end, n));
  EXPECT_EQ(c.target(), end);
  // Before the command and at its start: the old target.
  for (std::int64_t k : {0, 5, 8, 9}) EXPECT_EQ(c.TargetAt(k), kInitialPose) << k;
  // Along the ramp: linear in the step.
  for (std::int64_t j = 0; j <= n; ++j) {
    const double s = static_cast<double>(j) / static_cast<double>(n);
    EXPECT_TRUE(PoseNear(c.TargetAt(s0 - 1 + j), Lerp(kInitialPose, end, s), kLerpTol)) << "j = " << j;
  }
  // The midpoint, written out.
  const GripperPose mid{0.05, -0.02, 0.2, 0.3};
  EXPECT_TRUE(PoseNear(c.TargetAt(s0 - 1 + n / 2), mid, kLerpTol));
  // The end exactly, and held after the ramp.
  for (std::int64_t k : {s0 - 1 + n, s0 + n, s0 + n + 1, s0 + 10 * n}) EXPECT_EQ(c.TargetAt(k), end) << k;
}

TEST(GripperControllerTest, NewRampStartsFromTheTargetAtItsStep) {
  const Simulation sim = GraspBox();
  GripperController c(sim);
  const GripperPose first{0.2, 0.1, 0.05, -1.0}, second{-0.1, 0.0, 0.3, 0.5};
  c.Apply(TargetCommand(0, first, 10));
  // Halfway through the first ramp (its value at index 5) a second one starts.
  c.Apply(TargetCommand(5, second, 4));
  const GripperPose halfway = Lerp(kInitialPose, first, 0.5);
  for (std::int64_t j = 0; j <= 4; ++j) {
    EXPECT_TRUE(PoseNear(c.TargetAt(4 + j), Lerp(halfway, second, j / 4.0), kLerpTol)) << "j = " << j;
  }
  EXPECT_EQ(c.TargetAt(100), second);
  // A target without a ramp takes effect at its step: index 20 onwards.
  const GripperPose third{0.01, 0.02, 0.03, 0.04};
  c.Apply(TargetCommand(20, third, 0));
  EXPECT_EQ(c.TargetAt(18), second);
  EXPECT_EQ(c.TargetAt(19), third);
  EXPECT_EQ(c.TargetAt(20), third);
}

TEST(GripperControllerTest, ActuateWritesPalmTargetsAndRampRate) {
  Simulation sim = GraspBox();
  GripperController c(sim);
  const GripperPose end{0.1, -0.05, 0.2, 0.5};
  const std::int64_t n = 10;
  c.Apply(TargetCommand(0, end, n));
  // The rate v_d of a ramp over n steps of δt: (end − start) / (n δt).
  const double T = static_cast<double>(n) * sim.time_step();
  const GripperPose rate{(end.x - kInitialPose.x) / T, (end.y - kInitialPose.y) / T,
                         (end.z - kInitialPose.z) / T, (end.yaw - kInitialPose.yaw) / T};
  // Actuate before each step, as PrepareGripperStep does: before step i the
  // target is the ramp's value for its end, (i + 1)/n of the way.
  for (std::int64_t i = 0; i < n + 3; ++i) {
    ASSERT_EQ(sim.step_index(), i);
    c.Actuate(&sim);
    const bool ramping = i < n;
    const GripperPose expected =
        ramping ? Lerp(kInitialPose, end, static_cast<double>(i + 1) / static_cast<double>(n)) : end;
    for (int a = 0; a < 4; ++a) {
      const JointActuator& act = Actuator(sim, kPalmActuators[a]);
      EXPECT_NEAR(act.target_position, Coordinate(expected, a), kLerpTol) << kPalmActuators[a] << " step " << i;
      // The rate is a difference over n δt = 0.1 s: round-off of O(10) numbers.
      EXPECT_NEAR(act.target_velocity, ramping ? Coordinate(rate, a) : 0.0, 1e-12)
          << kPalmActuators[a] << " step " << i;
    }
    const StepResult r = sim.Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
  }
}

TEST(GripperControllerTest, ActuateWritesFingerTargetsAndGripForce) {
  Simulation sim = GraspBox();
  GripperController c(sim);
  // The palm gains are left as the scene has them (only fingers get the
  // grip force as their effort limit).
  const double palm_limits[4] = {100, 100, 150, 10};  // includes/gripper.yaml.
  const auto expect_fingers = [&](double target, double force, const std::string& when) {
    for (const char* name : kFingerActuators) {
      const JointActuator& a = Actuator(sim, name);
      EXPECT_EQ(a.target_position, target) << name << ", " << when;
      EXPECT_EQ(a.target_velocity, 0.0) << name << ", " << when;
      EXPECT_EQ(a.effort_limit, force) << name << ", " << when;
      EXPECT_EQ(a.kp, kFingerKp) << name << ", " << when;
      EXPECT_EQ(a.kd, kFingerKd) << name << ", " << when;
    }
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(Actuator(sim, kPalmActuators[i]).effort_limit, palm_limits[i]) << when;
    }
  };
  // Open with the scene's force: the open coordinate.
  c.Actuate(&sim);
  expect_fingers(kFingerOpen, kSceneGripForce, "open");

  GripperCommand close;
  close.grip = GripState::kClosed;
  close.grip_force = 33.5;
  c.Apply(close);
  EXPECT_EQ(c.grip(), GripState::kClosed);
  EXPECT_EQ(c.grip_force(), 33.5);
  c.Actuate(&sim);
  // Closed: aim at finger_closed, saturating at the grip force.
  expect_fingers(kFingerClosed, 33.5, "closed at 33.5 N");

  GripperCommand softer;
  softer.grip_force = 7.25;  // Force alone: the grip stays closed.
  c.Apply(softer);
  c.Actuate(&sim);
  expect_fingers(kFingerClosed, 7.25, "closed at 7.25 N");

  GripperCommand open;
  open.grip = GripState::kOpen;
  c.Apply(open);
  c.Actuate(&sim);
  expect_fingers(kFingerOpen, 7.25, "reopened");
  // And the palm targets were not disturbed by grip commands.
  for (int a = 0; a < 4; ++a) {
    EXPECT_EQ(Actuator(sim, kPalmActuators[a]).target_position, Coordinate(kInitialPose, a));
  }
}

TEST(GripperControllerTest, HandFingersCloseWithTheirOwnEffortLimits) {
  Simulation sim = Simulation::FromFile(test::ScenePath("iiwa_hand_grasp.yaml"));
  GripperController c(sim);
  ASSERT_EQ(c.num_fingers(), 4);
  EXPECT_FALSE(c.grip_force_limited());
  const GripperDescription& g = sim.scene().grippers.at(0);
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(c.finger_name(f), g.fingers[f].name);
    // The finger's links: its four links, first link first.
    const std::vector<int>& bodies = c.finger_bodies(f);
    ASSERT_EQ(bodies.size(), 4u) << c.finger_name(f);
    EXPECT_EQ(sim.model().body(bodies.front()).name, "hand/" + g.fingers[f].name + "_link_0");
    EXPECT_EQ(c.finger_body(f), bodies.front());
  }
  auto expect_targets = [&](bool closed) {
    for (const FingerDescription& finger : g.fingers) {
      for (std::size_t i = 0; i < finger.actuators.size(); ++i) {
        const JointActuator& a = Actuator(sim, finger.actuators[i]);
        EXPECT_EQ(a.target_position, closed ? finger.closed[i] : finger.open[i]) << finger.actuators[i];
        // The URDF's 0.7 N m (joint_pd caps at it), whatever the grip force.
        EXPECT_EQ(a.effort_limit, 0.7) << finger.actuators[i];
      }
    }
  };
  c.Actuate(&sim);
  expect_targets(false);
  GripperCommand close;
  close.grip = GripState::kClosed;
  close.grip_force = 5;
  c.Apply(close);
  c.Actuate(&sim);
  expect_targets(true);
}

TEST(GripperControllerTest, ArmTargetTiltsAboutTheYawedXAxis) {
  Simulation sim = Simulation::FromFile(test::ScenePath("iiwa_pick_place.yaml"));
  GripperController c(sim);
  ASSERT_TRUE(c.can_tilt());
  const Matrix3 R0 = sim.cartesian_impedance(0).X_WT.R;  // The start: R_WE0.
  const GripperPose start = c.CurrentPose(sim);
  EXPECT_NEAR(start.yaw, 0, 1e-12);
  EXPECT_NEAR(start.tilt, 0, 1e-12);
  GripperPose p = start;
  p.yaw = 0.4;
  p.tilt = -0.3;
  c.Apply(TargetCommand(0, p, 0));
  c.Actuate(&sim);
  // R = Rz(yaw) Rx(tilt) R_WE0 (gripper_command.h).
  const Matrix3 expected =
      (Eigen::AngleAxisd(0.4, Vector3::UnitZ()) * Eigen::AngleAxisd(-0.3, Vector3::UnitX())).toRotationMatrix() * R0;
  EXPECT_LT((sim.cartesian_impedance(0).X_WT.R - expected).norm(), 1e-15);
  // The arm turns there: CurrentPose reads yaw and tilt back. 1e-2 rad: the
  // rotational stiffness (1000 N m/rad) against the posture term and
  // gravity leaves a few mrad of static error.
  for (int i = 0; i < 200; ++i) {
    c.Actuate(&sim);
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  }
  const GripperPose now = c.CurrentPose(sim);
  EXPECT_NEAR(now.yaw, 0.4, 1e-2);
  EXPECT_NEAR(now.tilt, -0.3, 1e-2);
}

TEST(GripperControllerTest, NonFiniteTargetsAreRejected) {
  const Simulation sim = GraspBox();
  GripperController c(sim);
  for (int i = 0; i < 4; ++i) {
    for (double bad : {kNaN, kInf, -kInf}) {
      GripperPose p{0.1, 0.1, 0.1, 0.1};
      double* coords[4] = {&p.x, &p.y, &p.z, &p.yaw};
      *coords[i] = bad;
      const std::string message = ApplyError(&c, TargetCommand(3, p, 5));
      EXPECT_NE(message.find("target"), std::string::npos) << message;
      EXPECT_NE(message.find("finite"), std::string::npos) << message;
    }
  }
  GripperPose nan_tilt{0.1, 0.1, 0.1, 0.1, kNaN};
  EXPECT_NE(ApplyError(&c, TargetCommand(3, nan_tilt, 5)).find("finite"), std::string::npos);
  // The gantry has no tilt axis: a tilted target is refused, not ignored.
  GripperPose tilted{0.1, 0.1, 0.1, 0.1, 0.2};
  EXPECT_EQ(ApplyError(&c, TargetCommand(3, tilted, 5)), "target: a gantry gripper cannot tilt (tilt must be 0)");
  EXPECT_FALSE(c.can_tilt());
  GripperCommand negative_ramp = TargetCommand(3, GripperPose{0.1, 0.1, 0.1, 0.1}, -1);
  EXPECT_NE(ApplyError(&c, negative_ramp).find("ramp"), std::string::npos);
  // Nothing was applied.
  EXPECT_EQ(c.target(), kInitialPose);
  EXPECT_EQ(c.TargetAt(100), kInitialPose);
}

TEST(GripperControllerTest, GripForceOutsideItsRangeIsRejected) {
  const Simulation sim = GraspBox();
  GripperController c(sim);
  for (double bad : {0.999, 0.0, -5.0, 50.001, 1e9, kNaN, kInf, -kInf}) {
    GripperCommand cmd;
    cmd.grip_force = bad;
    const std::string message = ApplyError(&c, cmd);
    EXPECT_NE(message.find("grip_force"), std::string::npos) << bad << ": " << message;
    EXPECT_NE(message.find("[1, 50]"), std::string::npos) << bad << ": " << message;
    EXPECT_EQ(c.grip_force(), kSceneGripForce) << bad;
  }
  // The ends of the range are accepted.
  for (double ok : {kMinGripForce, kMaxGripForce}) {
    GripperCommand cmd;
    cmd.grip_force = ok;
    EXPECT_NO_THROW(c.Apply(cmd)) << ok;
    EXPECT_EQ(c.grip_force(), ok);
  }
}

TEST(GripperControllerTest, RejectedCommandChangesNothing) {
  // A command is checked whole before any of it is applied (the viewer's
  // teleop must not half-apply a bad command).
  const Simulation sim = GraspBox();
  GripperController c(sim);
  GripperCommand bad_force = TargetCommand(0, GripperPose{0.1, 0.2, 0.3, 0.4}, 0);
  bad_force.grip = GripState::kClosed;
  bad_force.grip_force = 60;
  ApplyError(&c, bad_force);
  GripperCommand bad_target = TargetCommand(0, GripperPose{0.1, kNaN, 0.3, 0.4}, 0);
  bad_target.grip = GripState::kClosed;
  bad_target.grip_force = 30;
  ApplyError(&c, bad_target);
  EXPECT_EQ(c.target(), kInitialPose);
  EXPECT_EQ(c.TargetAt(0), kInitialPose);
  EXPECT_EQ(c.grip(), GripState::kOpen);
  EXPECT_EQ(c.grip_force(), kSceneGripForce);
}

TEST(GripperControllerTest, SceneWithoutGripperIsRejected) {
  // grasp_hold.yaml has actuated pads but no `gripper:` section. The message
  // must say that (not, say, that an actuator named '' is unknown).
  const Simulation sim = Simulation::FromFile(test::ScenePath("grasp_hold.yaml"));
  ASSERT_TRUE(sim.scene().grippers.empty());
  try {
    const GripperController c(sim);
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no gripper"), std::string::npos) << e.what();
  }
}

TEST(GripperControllerTest, StateCommandReproducesTheState) {
  // At rest: a fresh controller given StateCommand(s) has the same target,
  // grip and force from step s on.
  const Simulation sim = GraspBox();
  GripperController a(sim);
  const GripperPose t1{0.05, 0.02, 0.1, -0.3};
  a.Apply(TargetCommand(0, t1, 5));
  GripperCommand close;
  close.step = 3;
  close.grip = GripState::kClosed;
  close.grip_force = 12.5;
  a.Apply(close);
  const std::int64_t s = 20;  // After the ramp (it ended at index 5).
  const GripperCommand state = a.StateCommand(s);
  EXPECT_EQ(state.step, s);
  ASSERT_TRUE(state.target.has_value());
  EXPECT_EQ(*state.target, t1);
  EXPECT_EQ(state.ramp_steps, 0);
  ASSERT_TRUE(state.grip.has_value());
  EXPECT_EQ(*state.grip, GripState::kClosed);
  ASSERT_TRUE(state.grip_force.has_value());
  EXPECT_EQ(*state.grip_force, 12.5);

  GripperController b(sim);
  b.Apply(state);
  EXPECT_EQ(b.target(), a.target());
  EXPECT_EQ(b.grip(), a.grip());
  EXPECT_EQ(b.grip_force(), a.grip_force());
  for (std::int64_t k = s - 1; k < s + 50; ++k) EXPECT_EQ(b.TargetAt(k), a.TargetAt(k)) << k;

  // Mid-ramp: the command finishes the ramp from where it is. Applied to a
  // controller in the same state (as a replay is at that step) it leaves the
  // trajectory of targets as it was.
  GripperController m(sim);
  const GripperPose t2{-0.1, 0.05, 0.35, 1.0};
  m.Apply(TargetCommand(10, t2, 20));  // Ends at index 30.
  const GripperCommand mid = m.StateCommand(15);
  ASSERT_TRUE(mid.target.has_value());
  EXPECT_EQ(*mid.target, t2);
  EXPECT_EQ(mid.ramp_steps, 30 - 15);
  GripperController replay = m;
  replay.Apply(mid);
  for (std::int64_t k = 14; k < 40; ++k) {
    EXPECT_TRUE(PoseNear(replay.TargetAt(k), m.TargetAt(k), kLerpTol)) << k;
  }
  EXPECT_EQ(replay.TargetAt(29), t2);

  // A fresh controller's state command is the scene's initial state.
  const GripperCommand initial = GripperController(sim).StateCommand(0);
  EXPECT_EQ(*initial.target, kInitialPose);
  EXPECT_EQ(initial.ramp_steps, 0);
  EXPECT_EQ(*initial.grip, GripState::kOpen);
  EXPECT_EQ(*initial.grip_force, kSceneGripForce);
}

TEST(SceneGripperTest, PlaysTheScenesOwnCommandsOrTheGivenFile) {
  const Simulation sim = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  const SceneGripper own = SceneGripper::ForScene(sim);
  ASSERT_TRUE(own.present());
  ASSERT_NE(own.player(), nullptr);
  EXPECT_EQ(own.commands_file(), sim.scene().commands_file);
  EXPECT_GT(own.player()->num_entries(), 0);

  const std::string other = test::ScenePath("commands/grasp_soft_pads.yaml");
  const SceneGripper given = SceneGripper::ForScene(sim, other);
  ASSERT_NE(given.player(), nullptr);
  EXPECT_EQ(given.commands_file(), other);

  SceneGripper controller_only(sim);
  ASSERT_TRUE(controller_only.present());
  EXPECT_EQ(controller_only.player(), nullptr);
  EXPECT_EQ(controller_only.controller()->target(), GripperController(sim).target());
}

TEST(SceneGripperTest, ASceneWithoutAGripperHasNothingToDrive) {
  Simulation sim = Simulation::FromFile(test::ScenePath("grasp_hold.yaml"));
  SceneGripper none = SceneGripper::ForScene(sim, test::ScenePath("commands/grasp_box.yaml"));
  EXPECT_FALSE(none.present());
  EXPECT_EQ(none.controller(), nullptr);
  EXPECT_EQ(none.player(), nullptr);
  none.PrepareStep(&sim);  // Nothing to do.
  none.Restart(sim);
  EXPECT_THROW(none.PlayFile(sim, test::ScenePath("commands/grasp_box.yaml")), InputError);
}

TEST(SceneGripperTest, ARefusedFileLeavesWhatWasPlaying) {
  const Simulation sim = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  SceneGripper gripper = SceneGripper::ForScene(sim);
  const std::string playing = gripper.commands_file();
  EXPECT_THROW(gripper.PlayFile(sim, "/nonexistent/commands.yaml"), InputError);
  EXPECT_EQ(gripper.commands_file(), playing);
  ASSERT_NE(gripper.player(), nullptr);
  gripper.StopPlaying();
  EXPECT_EQ(gripper.player(), nullptr);
  EXPECT_EQ(gripper.commands_file(), "");
  EXPECT_TRUE(gripper.present());
}

TEST(SceneGripperTest, DrivesAsPrepareGripperStepAndRestartsWithTheSimulation) {
  // The same script through SceneGripper and through the controller and
  // player by hand: bit-identical states; after Reset and Restart the run
  // repeats itself.
  Simulation a = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  Simulation b = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  SceneGripper gripper = SceneGripper::ForScene(a);
  GripperController controller(b);
  CommandPlayer player(LoadCommandFile(b.scene().commands_file), b.time_step());
  constexpr int kSteps = 60;
  std::vector<VectorX> first_run;
  for (int i = 0; i < kSteps; ++i) {
    gripper.PrepareStep(&a);
    PrepareGripperStep(&b, &controller, &player);
    ASSERT_EQ(a.Step().status, StepStatus::kSuccess);
    ASSERT_EQ(b.Step().status, StepStatus::kSuccess);
    ASSERT_EQ(a.velocities(), b.velocities()) << "step " << i;
    first_run.push_back(a.velocities());
  }
  a.Reset();
  gripper.Restart(a);
  for (int i = 0; i < kSteps; ++i) {
    gripper.PrepareStep(&a);
    ASSERT_EQ(a.Step().status, StepStatus::kSuccess);
    ASSERT_EQ(a.velocities(), first_run[static_cast<std::size_t>(i)]) << "step " << i << " after the restart";
  }
}

}  // namespace
}  // namespace stiction
