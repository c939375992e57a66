#include "engine/stepping/theta_method.h"

#include <gtest/gtest.h>

#include "engine/multibody/dynamics.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

TEST(ThetaMethodTest, ExplicitSchemesOnAFreeFallingBody) {
  // A free body under gravity only: k = m g in the linear rows, and with the
  // COM at the origin no rotational coupling. Explicit Euler advances q with
  // v0, symplectic Euler with v (SAP paper Sec. II-C presets).
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  VectorX q0 = model.DefaultPositions();
  q0.tail<3>() << 0, 0, 1;
  VectorX v0 = VectorX::Zero(6);
  v0.tail<3>() << 1, 0, 2;
  const double dt = 0.1;
  ThetaMethod method(model);
  KinematicsCache cache(model);
  MatrixX M;
  for (const ThetaParameters p : {ThetaParameters{0, 0}, ThetaParameters{0, 1}}) {
    VectorX v_star = v0;
    const FreeMotionStatus s = method.SolveFreeMotion(0, q0, v0, dt, p, nullptr, &v_star, &cache, &M);
    EXPECT_TRUE(s.converged);
    EXPECT_EQ(s.newton_iterations, 0);  // θ = 0: a single mass-matrix solve.
    EXPECT_NEAR(v_star[5], 2 - 9.81 * dt, 1e-14);
    VectorX q_theta = q0, q = q0;
    method.CalcPositions(0, q0, v0, v_star, dt, p, &q_theta, &q);
    const double vz = p.theta_vq == 0 ? v0[5] : v_star[5];
    EXPECT_NEAR(q[6], 1 + dt * vz, 1e-14);
    EXPECT_NEAR(q[4], dt * 1.0, 1e-14);
    EXPECT_EQ(q_theta, q0);  // θ = 0: mid-step positions are q0.
  }
}

TEST(ThetaMethodTest, ImplicitStageOneSolvesTheMomentumResidual) {
  // Eq. (13)–(14): at v*, M(q^θ)(v* − v0) − δt k(q^θ, v^θ) = 0, checked
  // independently of the solver's own residual.
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q0, v0;
  test::RandomState(model, 3, &q0, &v0);
  const double dt = 0.01;
  for (const ThetaParameters p : {ThetaParameters{1, 1}, ThetaParameters{0.5, 0.5}}) {
    ThetaMethod method(model);
    KinematicsCache cache(model);
    MatrixX M;
    VectorX v_star = v0;
    const FreeMotionStatus s = method.SolveFreeMotion(0, q0, v0, dt, p, nullptr, &v_star, &cache, &M);
    ASSERT_TRUE(s.converged);
    EXPECT_LE(s.newton_iterations, 5);  // Newton with an accurate Jacobian.
    VectorX q_theta = q0, q = q0;
    method.CalcPositions(0, q0, v0, v_star, dt, p, &q_theta, &q);
    const VectorX v_theta = p.theta * v_star + (1 - p.theta) * v0;
    KinematicsCache c2(model);
    CalcKinematics(model, q_theta, v_theta, BodyRange::All(model), &c2);
    MatrixX M2;
    CalcTreeMassMatrix(model, c2, 0, &M2);
    VectorX k = VectorX::Zero(3);
    CalcTreeGeneralizedForces(model, c2, 0, q_theta, v_theta, nullptr, &k);
    const VectorX m = M2 * (v_star - v0) - dt * k;
    // Newton stops at a relative update of 1e-13; the residual is at round-off.
    EXPECT_LT(m.norm(), 1e-12 * (1 + (M2 * v_star).norm()));
    EXPECT_TRUE(q_theta.isApprox(p.theta * q + (1 - p.theta) * q0, 1e-14));
  }
}

TEST(ThetaMethodTest, MidpointQuaternionUpdatePreservesNorm) {
  // With θ = θ_vq = ½ the update q − q0 = ½ δt q^θ ⊗ [0, ω] is orthogonal to
  // q^θ = (q + q0)/2, so |q| = |q0| exactly (before any renormalization).
  const MultibodyModel model = test::MakeFreeBody();
  VectorX q0, v;
  test::RandomState(model, 12, &q0, &v);
  v.head<3>() << 5, -3, 8;  // Fast spin: the fixed point must still converge.
  ThetaMethod method(model);
  VectorX q_theta = q0, q = q0;
  method.CalcPositions(0, q0, v, v, 0.02, ThetaParameters{0.5, 0.5}, &q_theta, &q);
  EXPECT_NEAR(q.head<4>().norm(), 1.0, 1e-14);
  EXPECT_GT((q.head<4>() - q0.head<4>()).norm(), 1e-3);
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

TEST(ThetaMethodTest, FastBodyFarFromTheOriginConverges) {
  // Spatial inertias about the world origin carry m|p|² terms that cancel
  // in M; 40 m away and spinning at 30 rad/s, the residual's round-off floor
  // is ~1e4 times that of a body at the origin. Stage 1 must recognise it
  // (a clutter without walls once failed here after objects rolled away).
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  VectorX q = model.DefaultPositions(), v = VectorX::Zero(6);
  q.tail<3>() << 40, -30, 0.05;
  v << 30, -20, 5, 1.5, 1.0, 0;
  ThetaMethod method(model);
  KinematicsCache cache(model);
  MatrixX M;
  for (int step = 0; step < 200; ++step) {
    VectorX v_star = v, q_theta = q, q_next = q;
    const FreeMotionStatus s =
        method.SolveFreeMotion(0, q, v, 0.01, ThetaParameters{0.5, 0.5}, nullptr, &v_star, &cache, &M);
    ASSERT_TRUE(s.converged) << "step " << step << " residual " << s.residual_norm;
    method.CalcPositions(0, q, v, v_star, 0.01, ThetaParameters{0.5, 0.5}, &q_theta, &q_next);
    model.NormalizeQuaternions(&q_next);
    q = q_next;
    v = v_star;
  }
}

}  // namespace
}  // namespace stiction
