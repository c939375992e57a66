#include "engine/multibody/kinematics.h"

#include <gtest/gtest.h>

#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

// Positions after moving along v for a time h through the kinematic map,
// q(h) = q + h N(q) v (first order; central differences cancel the h² term).
VectorX Advance(const MultibodyModel& model, const VectorX& q, const VectorX& v, double h) {
  VectorX qdot;
  model.MapVelocityToQDot(q, v, &qdot);
  return q + h * qdot;
}

KinematicsCache Kinematics(const MultibodyModel& model, const VectorX& q, const VectorX& v) {
  KinematicsCache cache(model);
  CalcKinematics(model, q, v, BodyRange::All(model), &cache);
  return cache;
}

// Central differences with h = 1e-6 have truncation error ~h² ≈ 1e-12 and
// round-off ~1e-16/h ≈ 1e-10: 1e-8 leaves a safe margin.
constexpr double kFdTolerance = 1e-8;
constexpr double kH = 1e-6;

class KinematicsTest : public ::testing::TestWithParam<int> {
 protected:
  MultibodyModel MakeModel() const {
    switch (GetParam()) {
      case 0: return test::MakeThreeLinkArm();
      case 1: return test::MakeFreeBody();
      default: return test::MakeMixedForest();
    }
  }
};

TEST_P(KinematicsTest, QuaternionRateMatchesAngularVelocityInChildFrame) {
  const MultibodyModel model = MakeModel();
  VectorX q, v;
  test::RandomState(model, 7, &q, &v);
  for (const Joint& j : model.joints()) {
    if (j.type != JointType::kFree && j.type != JointType::kBall) continue;
    // N(q) is not the identity: q̇ = ½ q ⊗ [0, ω_M], so that
    // R(q + h q̇) ≈ R(q) (I + h [ω_M]×).
    const VectorX qp = Advance(model, q, v, kH), qm = Advance(model, q, v, -kH);
    const Matrix3 Rdot = (RotationFromQuaternion(qp, j.q_start) -
                          RotationFromQuaternion(qm, j.q_start)) / (2 * kH);
    const Matrix3 R = RotationFromQuaternion(q, j.q_start);
    const Matrix3 expected = R * Skew(v.segment<3>(j.v_start));
    EXPECT_LT((Rdot - expected).norm(), kFdTolerance) << j.name;
    VectorX qdot;
    model.MapVelocityToQDot(q, v, &qdot);
    // The quaternion rate is orthogonal to the quaternion (unit norm kept).
    EXPECT_NEAR(qdot.segment<4>(j.q_start).dot(q.segment<4>(j.q_start)), 0.0, 1e-14);
  }
}

TEST_P(KinematicsTest, SpatialVelocityAndJacobiansMatchFiniteDifferences) {
  const MultibodyModel model = MakeModel();
  for (unsigned seed : {1u, 2u, 3u}) {
    VectorX q, v;
    test::RandomState(model, seed, &q, &v);
    const KinematicsCache c = Kinematics(model, q, v);
    const KinematicsCache cp = Kinematics(model, Advance(model, q, v, kH), v);
    const KinematicsCache cm = Kinematics(model, Advance(model, q, v, -kH), v);
    for (int b = 1; b < model.num_bodies(); ++b) {
      const Vector3 p_BP(0.03, -0.07, 0.11);  // An arbitrary point fixed on b.
      const Vector3 p_WP = c.X_WB[b] * p_BP;
      const Vector3 v_fd = (cp.X_WB[b] * p_BP - cm.X_WB[b] * p_BP) / (2 * kH);
      const Matrix3 Rdot = (cp.X_WB[b].R - cm.X_WB[b].R) / (2 * kH);
      const Matrix3 W = Rdot * c.X_WB[b].R.transpose();  // [ω_WB]×
      const Vector3 w_fd(W(2, 1), W(0, 2), W(1, 0));
      const Matrix6X J = CalcFrameJacobian(model, c, b, p_WP);
      EXPECT_LT((J.bottomRows<3>() * v - v_fd).norm(), kFdTolerance) << model.body(b).name;
      EXPECT_LT((J.topRows<3>() * v - w_fd).norm(), kFdTolerance) << model.body(b).name;
      EXPECT_LT((CalcPointJacobian(model, c, b, p_WP) * v - v_fd).norm(), kFdTolerance);
      // The cached spatial velocity agrees with the Jacobian.
      EXPECT_LT((c.V_WB[b].head<3>() - w_fd).norm(), kFdTolerance);
      EXPECT_LT((c.V_WB[b].tail<3>() + w_fd.cross(p_WP) - v_fd).norm(), kFdTolerance);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, KinematicsTest, ::testing::Values(0, 1, 2));

TEST(KinematicsTest, FixedJointWeldsBodyToParent) {
  const MultibodyModel model = test::MakeMixedForest();
  VectorX q, v;
  test::RandomState(model, 3, &q, &v);
  const KinematicsCache c = Kinematics(model, q, v);
  const int post = model.FindBody("post");
  EXPECT_TRUE(c.X_WB[post].p.isApprox(Vector3(1, 0, 0)));
  EXPECT_TRUE(c.V_WB[post].isZero());
}

}  // namespace
}  // namespace stiction
