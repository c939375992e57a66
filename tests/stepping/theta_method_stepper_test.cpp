#include "engine/stepping/theta_method_stepper.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "engine/multibody/dynamics.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

TEST(ThetaMethodStepperTest, StageTwoMatrixIsEq15AndSpd) {
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q0, v0;
  test::RandomState(model, 2, &q0, &v0);
  ThetaMethodStepper stepper(model);
  StepperParameters params;
  params.dt = 0.01;
  params.integrator = {"midpoint", 0.5, 0.5};
  VectorX q, v;
  StepStats stats;
  std::string message;
  ASSERT_EQ(stepper.Step(params, q0, v0, nullptr, &q, &v, &stats, &message), StepStatus::kSuccess);
  // Without constraints stage 2 returns v = v* (Eq. 18 with γ = 0).
  EXPECT_EQ(v, stepper.problem().v_star);
  // A = M(q^θ(v*)) + δt² θ θ_vq K + δt θ D (Eq. 15).
  const VectorX q_theta = 0.5 * (q + q0);
  KinematicsCache c(model);
  CalcKinematics(model, q_theta, v, BodyRange::All(model), &c);
  MatrixX M;
  CalcTreeMassMatrix(model, c, 0, &M);
  VectorX K, D;
  CalcJointStiffnessAndDamping(model, &K, &D);
  const MatrixX expected = M + MatrixX((0.25 * 1e-4 * K + 0.5 * 0.01 * D).asDiagonal());
  const MatrixX& A = stepper.problem().A[0];
  // q^θ is recomputed from the normalized q here, so agreement is to ~1e-12.
  EXPECT_LT((A - expected).norm(), 1e-10 * A.norm());
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatrixX>(A).eigenvalues().minCoeff(), 0.0);
}

TEST(ThetaMethodStepperTest, ForestWithEveryJointTypeStepsAndKeepsUnitQuaternions) {
  // Free, ball, prismatic and fixed joints in two trees, implicit Euler.
  const MultibodyModel forest = test::MakeMixedForest();
  VectorX q0, v0;
  test::RandomState(forest, 8, &q0, &v0);
  ThetaMethodStepper stepper(forest);
  StepperParameters params;
  params.integrator = IntegratorPreset("implicit_euler");
  VectorX q = q0, v = v0, qn, vn;
  StepStats stats;
  std::string message;
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(stepper.Step(params, q, v, nullptr, &qn, &vn, &stats, &message), StepStatus::kSuccess) << message;
    q = qn;
    v = vn;
  }
  EXPECT_TRUE(q.allFinite());
  // The welded tree has no velocities; the quaternions stay unit.
  EXPECT_NEAR(q.head<4>().norm(), 1.0, 1e-15);
  EXPECT_NEAR(q.segment<4>(7).norm(), 1.0, 1e-15);
}

TEST(ThetaMethodStepperTest, NonFiniteInputIsReportedNotPropagated) {
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q0, v0;
  test::RandomState(model, 2, &q0, &v0);
  v0[1] = std::numeric_limits<double>::quiet_NaN();
  ThetaMethodStepper stepper(model);
  VectorX q, v;
  StepStats stats;
  std::string message;
  const StepStatus status = stepper.Step(StepperParameters{}, q0, v0, nullptr, &q, &v, &stats, &message);
  EXPECT_NE(status, StepStatus::kSuccess);
  EXPECT_FALSE(message.empty());
}

}  // namespace
}  // namespace stiction
