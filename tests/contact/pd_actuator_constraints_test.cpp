// The PD-actuator family ([SAP] Sec. VII): one clamped row on the joint
// velocity with R = 1/(δt (δt kp + kd)), v̂ = (kd v_d − kp (q0 − q_d))/(δt kp
// + kd) and bounds ±δt·effort_limit, so that the row's impulse is the
// implicit PD impulse −δt (kp (q0 + δt v − q_d) + kd (v − v_d)) clamped to
// the effort limit. Also the Jacobian column, the constraint index per
// actuator (−1 for a tree without velocities) and keys.
#include "engine/contact/pd_actuator_constraints.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "engine/multibody/kinematics.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDt = 1e-3;

// A free body (tree 0), a slider carrying an elbow (tree 1: the elbow is
// column 1) and a body welded to the world (tree 2, no velocities).
struct ActuatedModel {
  MultibodyModel model;
  int slide = 0, elbow = 0, weld = 0;  // Joint indices.
};

ActuatedModel MakeActuatedModel() {
  ActuatedModel m;
  const Body b = test::BoxBody("free", 1.0, Vector3(0.1, 0, 0.05), Vector3(0.2, 0.2, 0.2));
  test::AddFreeBody(&m.model, b);
  const test::SliderElbow arm = test::AddSliderElbow(&m.model, b);
  const int post = test::AddWeldedBody(&m.model, b, "post");
  m.model.Finalize();
  m.slide = m.model.body(arm.slider).joint;
  m.elbow = m.model.body(arm.forearm).joint;
  m.weld = m.model.body(post).joint;
  return m;
}

JointActuator Actuator(int joint, double kp, double kd, double effort_limit, double q_d, double v_d) {
  JointActuator a;
  a.joint = joint;
  a.kp = kp;
  a.kd = kd;
  a.effort_limit = effort_limit;
  a.target_position = q_d;
  a.target_velocity = v_d;
  return a;
}

class PdActuatorConstraintsTest : public ::testing::Test {
 protected:
  PdActuatorConstraintsTest() : m_(MakeActuatedModel()), cache_(m_.model) {
    const MultibodyModel& model = m_.model;
    q0_ = model.DefaultPositions();
    q0_[model.joint(m_.slide).q_start] = 0.03;
    q0_[model.joint(m_.elbow).q_start] = 0.1;
    v0_ = VectorX::Zero(model.num_velocities());
    problem_ = test::TreeProblem(model, kDt, [&](int t) {  // A = 𝟙, v* = 0.
      return MatrixX::Identity(model.tree(t).nv, model.tree(t).nv);
    });
    actuators_ = {
        Actuator(m_.elbow, 200, 5, 60, 0.4, -0.3),      // PD with an effort limit.
        Actuator(m_.weld, 100, 1, 10, 0, 0),            // On a tree without velocities.
        Actuator(m_.slide, 0, 50, kInf, 0.5, 0.2),      // Pure damper, unlimited.
        Actuator(m_.slide, 1e4, 0, 2, 0.0301, 0),       // Pure spring, tight limit.
    };
  }

  // Builds with one constraint of another family already in the problem, so
  // that constraint indices are not actuator indices.
  void Build() {
    CalcKinematics(m_.model, q0_, v0_, BodyRange::All(m_.model), &cache_);
    ConstraintAssembly assembly(m_.model);
    assembly.Begin(cache_, q0_, v0_, 1e-3, nullptr, &problem_);
    assembly.Append(1).blocks[0].tree = 0;
    AddPdActuatorConstraints(actuators_, &assembly, &constraint_of_actuator_);
  }

  const Joint& joint(int j) const { return m_.model.joint(j); }
  int tree(int j) const { return test::TreeOfJoint(m_.model, j); }
  int column(int j) const { return test::ColumnInTree(m_.model, j); }

  ActuatedModel m_;
  KinematicsCache cache_;
  VectorX q0_, v0_;
  ContactProblem problem_;
  std::vector<JointActuator> actuators_;
  std::vector<int> constraint_of_actuator_;
};

TEST_F(PdActuatorConstraintsTest, OneRowPerActuatorOnAMovingTree) {
  Build();
  // The other family's constraint, then actuators 0, 2, 3 (1 has no row).
  ASSERT_EQ(constraint_of_actuator_, (std::vector<int>{1, -1, 2, 3}));
  ASSERT_EQ(problem_.constraints.size(), 4u);
  for (const int i : {0, 2, 3}) {
    const Constraint& c = problem_.constraints[constraint_of_actuator_[i]];
    const int j = actuators_[i].joint;
    EXPECT_EQ(c.kind, ConstraintKind::kClamped) << i;
    EXPECT_EQ(c.num_rows, 1) << i;
    EXPECT_EQ(c.origin, ConstraintOrigin::kActuator) << i;
    EXPECT_EQ(c.key, MakeConstraintKey(ConstraintOrigin::kActuator, static_cast<std::uint64_t>(i), 0, 0)) << i;
    ASSERT_EQ(c.blocks.size(), 1u) << i;
    EXPECT_EQ(c.blocks[0].tree, tree(j)) << i;
    // v_c is the joint's velocity: 1 on its column of the tree, 0 elsewhere.
    MatrixX J = MatrixX::Zero(1, problem_.tree_nv[tree(j)]);
    J(0, column(j)) = 1.0;
    EXPECT_EQ(c.blocks[0].J, J) << i;
  }
  // The elbow is the second column of its tree: the row must not sit on
  // the slider's.
  EXPECT_EQ(column(m_.elbow), 1);
}

TEST_F(PdActuatorConstraintsTest, RegularizationStabilizationAndBoundsOfSecVII) {
  Build();
  ASSERT_EQ(constraint_of_actuator_, (std::vector<int>{1, -1, 2, 3}));
  for (const int i : {0, 2, 3}) {
    const JointActuator& a = actuators_[i];
    const Constraint& c = problem_.constraints[constraint_of_actuator_[i]];
    const double q0 = q0_[joint(a.joint).q_start];
    const double gain = kDt * a.kp + a.kd;
    // [SAP] Sec. VII, each a few operations: 1e-14 relative.
    const double R = 1 / (kDt * gain);
    EXPECT_NEAR(c.clamped.R, R, 1e-14 * R) << i;
    const double v_hat = (a.kd * a.target_velocity - a.kp * (q0 - a.target_position)) / gain;
    EXPECT_NEAR(c.clamped.v_hat, v_hat, 1e-14 * std::abs(v_hat)) << i;
    EXPECT_EQ(c.clamped.lower, -kDt * a.effort_limit) << i;
    EXPECT_EQ(c.clamped.upper, kDt * a.effort_limit) << i;
  }
  // The unlimited damper: bounds ±∞.
  EXPECT_EQ(problem_.constraints[2].clamped.upper, kInf);
  EXPECT_EQ(problem_.constraints[2].clamped.lower, -kInf);
}

TEST_F(PdActuatorConstraintsTest, RowImpulseIsTheImplicitPdImpulseClamped) {
  // The row's impulse at any velocity must be the PD law evaluated at the
  // end-of-step position q0 + δt v, clamped to ±δt·effort: the physics the
  // (R, v̂, bounds) encode. Evaluated through the constraint's own cost.
  Build();
  ASSERT_EQ(constraint_of_actuator_, (std::vector<int>{1, -1, 2, 3}));
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-20, 20);
  int saturated = 0, inside = 0;
  ConstraintEvaluation e;
  for (int sample = 0; sample < 200; ++sample) {
    const VectorX v = VectorX::NullaryExpr(m_.model.num_velocities(), [&] { return u(rng); });
    for (const int i : {0, 2, 3}) {
      const JointActuator& a = actuators_[i];
      const Constraint& c = problem_.constraints[constraint_of_actuator_[i]];
      const ConstraintJacobianBlock& b = c.blocks[0];
      VectorX vc = b.J * v.segment(problem_.tree_v_start[b.tree], problem_.tree_nv[b.tree]);
      c.Evaluate(vc, &e);
      const double vj = v[joint(a.joint).v_start];
      const double q0 = q0_[joint(a.joint).q_start];
      const double unclamped =
          -kDt * (a.kp * (q0 + kDt * vj - a.target_position) + a.kd * (vj - a.target_velocity));
      const double limit = kDt * a.effort_limit;
      const double expected = std::clamp(unclamped, -limit, limit);
      if (i == 0) ++(std::abs(unclamped) > limit ? saturated : inside);
      // Both forms sum terms of size δt kp (|q0| + δt|v| + |q_d|) and
      // δt kd (|v| + |v_d|); they differ by round-off of that scale.
      const double scale =
          kDt * (a.kp * (std::abs(q0) + kDt * std::abs(vj) + std::abs(a.target_position)) +
                 a.kd * (std::abs(vj) + std::abs(a.target_velocity)));
      ASSERT_EQ(e.gamma.size(), 1);
      EXPECT_NEAR(e.gamma(0), expected, 1e-13 * scale) << i << " v = " << vj;
    }
  }
  // The samples cover both the linear range and the effort limit.
  EXPECT_GT(saturated, 10);
  EXPECT_GT(inside, 10);
}

}  // namespace
}  // namespace stiction
