#include "engine/multibody/dynamics.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

KinematicsCache Kinematics(const MultibodyModel& model, const VectorX& q, const VectorX& v) {
  KinematicsCache cache(model);
  CalcKinematics(model, q, v, BodyRange::All(model), &cache);
  return cache;
}

MatrixX MassMatrix(const MultibodyModel& model, const VectorX& q) {
  const KinematicsCache c = Kinematics(model, q, VectorX::Zero(model.num_velocities()));
  MatrixX M;
  CalcMassMatrix(model, c, &M);
  return M;
}

VectorX InverseDynamics(const MultibodyModel& model, const VectorX& q, const VectorX& v,
                        const VectorX& vdot) {
  const KinematicsCache c = Kinematics(model, q, v);
  VectorX tau = VectorX::Zero(model.num_velocities());
  for (int t = 0; t < model.num_trees(); ++t) CalcTreeInverseDynamics(model, c, t, vdot, &tau);
  return tau;
}

double PotentialEnergy(const MultibodyModel& model, const VectorX& q) {
  return CalcPotentialEnergy(model, Kinematics(model, q, VectorX::Zero(model.num_velocities())), q);
}

TEST(DynamicsTest, MassMatrixIsSymmetricPositiveDefinite) {
  for (const MultibodyModel& model :
       {test::MakeThreeLinkArm(), test::MakeFreeBody(), test::MakeMixedForest()}) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      VectorX q, v;
      test::RandomState(model, seed, &q, &v);
      const MatrixX M = MassMatrix(model, q);
      // Symmetric to round-off of the sums that build it.
      EXPECT_LT((M - M.transpose()).norm(), 1e-12 * M.norm());
      Eigen::SelfAdjointEigenSolver<MatrixX> eig(M);
      EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
    }
  }
}

TEST(DynamicsTest, KineticEnergyMatchesBodySums) {
  // ½ vᵀ M v against Σ ½ m |v_cm|² + ½ ωᵀ I_W ω computed from the cached
  // spatial velocities body by body (checks CRBA against the kinematics).
  const MultibodyModel model = test::MakeMixedForest();
  VectorX q, v;
  test::RandomState(model, 11, &q, &v);
  const KinematicsCache c = Kinematics(model, q, v);
  double expected = 0;
  for (int b = 1; b < model.num_bodies(); ++b) {
    const Vector3 w = c.V_WB[b].head<3>();
    const Vector3 v_cm = c.V_WB[b].tail<3>() + w.cross(c.p_WBcm[b]);
    const Matrix3 I_W = c.X_WB[b].R * model.body(b).I_Bcm_B * c.X_WB[b].R.transpose();
    expected += 0.5 * model.body(b).mass * v_cm.squaredNorm() + 0.5 * w.dot(I_W * w);
  }
  const double rotor = 0;  // No rotor inertia in this model.
  const MatrixX M = MassMatrix(model, q);
  EXPECT_NEAR(0.5 * v.dot(M * v), expected + rotor, 1e-12 * expected);
  EXPECT_NEAR(CalcKineticEnergy(model, c, v), expected, 1e-12 * expected);
}

TEST(DynamicsTest, ThreeLinkArmBiasMatchesLagrangianFiniteDifferences) {
  // For joints with q̇ = v, Lagrange's equations give the bias terms
  //   C(q, v) v − τ_g = Ṁ v − ∂T/∂q + ∂V/∂q,  Ṁ = Σ_k ∂M/∂q_k v_k,
  // which we evaluate by central differences of M(q) and V(q) alone.
  const MultibodyModel model = test::MakeThreeLinkArm();
  const int n = model.num_velocities();
  for (unsigned seed = 0; seed < 3; ++seed) {
    VectorX q, v;
    test::RandomState(model, seed, &q, &v);
    const double h = 1e-6;
    VectorX expected = VectorX::Zero(n);
    MatrixX Mdot = MatrixX::Zero(n, n);
    for (int k = 0; k < n; ++k) {
      VectorX qp = q, qm = q;
      qp[k] += h;
      qm[k] -= h;
      const MatrixX dM = (MassMatrix(model, qp) - MassMatrix(model, qm)) / (2 * h);
      Mdot += dM * v[k];
      expected[k] += -0.5 * v.dot(dM * v);
      // Joint springs are not part of the bias: remove them from V.
      const double dV = (PotentialEnergy(model, qp) - PotentialEnergy(model, qm)) / (2 * h);
      const Joint& j = model.joint(k);
      expected[k] += dV - j.spring_stiffness * (q[k] - j.spring_reference);
    }
    expected += Mdot * v;
    const VectorX bias = InverseDynamics(model, q, v, VectorX::Zero(n));
    // Central differences (h = 1e-6) of O(1) quantities: error ~1e-10.
    EXPECT_LT((bias - expected).norm(), 1e-7 * (1 + expected.norm())) << "seed " << seed;
  }
}

TEST(DynamicsTest, InverseDynamicsIsMassMatrixTimesAccelerationPlusBias) {
  for (const MultibodyModel& model :
       {test::MakeThreeLinkArm(), test::MakeFreeBody(), test::MakeMixedForest()}) {
    VectorX q, v, vdot, unused;
    test::RandomState(model, 5, &q, &v);
    test::RandomState(model, 6, &unused, &vdot);
    const VectorX bias = InverseDynamics(model, q, v, VectorX::Zero(model.num_velocities()));
    const VectorX tau = InverseDynamics(model, q, v, vdot);
    EXPECT_LT((tau - bias - MassMatrix(model, q) * vdot).norm(), 1e-11 * (1 + tau.norm()));
  }
}

TEST(DynamicsTest, FreeBodyInverseDynamicsMatchesNewtonEuler) {
  // Independent Newton–Euler for a free body whose COM is offset by r = R c
  // from its origin; v = [ω_B; ṗ], v̇ = [ω̇_B; p̈].
  const MultibodyModel model = test::MakeFreeBody();
  const Body& body = model.body(1);
  VectorX q, v, vdot, unused;
  test::RandomState(model, 21, &q, &v);
  test::RandomState(model, 22, &unused, &vdot);
  const Matrix3 R = RotationFromQuaternion(q, 0);
  const Vector3 w_W = R * v.head<3>();
  const Vector3 wdot_W = R * vdot.head<3>();  // d/dt(R ω_B) = R ω̇_B since ω × ω = 0.
  const Vector3 r = R * body.com_B;
  const Vector3 a_cm = vdot.tail<3>() + wdot_W.cross(r) + w_W.cross(w_W.cross(r));
  const Matrix3 I_W = R * body.I_Bcm_B * R.transpose();
  const Vector3 f = body.mass * (a_cm - model.gravity());
  const Vector3 tau_cm = I_W * wdot_W + w_W.cross(I_W * w_W);
  VectorX expected(6);
  expected << R.transpose() * (tau_cm + r.cross(f)), f;
  const VectorX tau = InverseDynamics(model, q, v, vdot);
  EXPECT_LT((tau - expected).norm(), 1e-12 * expected.norm());
}

TEST(DynamicsTest, FreeBodyMassMatrixIsConstantWithBodyFrameAngularVelocity) {
  // With ω in the body frame and the COM at the origin, M = diag(I_B, m 𝟙)
  // for every orientation: this is what makes the midpoint rule conserve the
  // energy of a torque-free body exactly.
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  VectorX q, v;
  test::RandomState(model, 4, &q, &v);
  MatrixX expected = MatrixX::Zero(6, 6);
  expected.topLeftCorner(3, 3) = model.body(1).I_Bcm_B;
  expected.bottomRightCorner(3, 3) = model.body(1).mass * Matrix3::Identity();
  EXPECT_LT((MassMatrix(model, q) - expected).norm(), 1e-13);
}

TEST(DynamicsTest, GeneralizedForcesIncludeSpringsAndDampers) {
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q, v;
  test::RandomState(model, 9, &q, &v);
  const KinematicsCache c = Kinematics(model, q, v);
  VectorX k = VectorX::Zero(3);
  for (int t = 0; t < model.num_trees(); ++t) CalcTreeGeneralizedForces(model, c, t, q, v, nullptr, &k);
  const VectorX bias = InverseDynamics(model, q, v, VectorX::Zero(3));
  VectorX K, D;
  CalcJointStiffnessAndDamping(model, &K, &D);
  EXPECT_TRUE(K.isApprox(Vector3(0, 2, 4)));
  EXPECT_TRUE(D.isApprox(Vector3(0, 0.1, 0.2)));
  const VectorX expected = -bias - K.cwiseProduct(q) - D.cwiseProduct(v);
  EXPECT_LT((k - expected).norm(), 1e-12 * (1 + expected.norm()));
}

}  // namespace
}  // namespace stiction
