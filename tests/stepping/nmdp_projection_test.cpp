// The backward-Euler residual of NMDP and its manifold projection
// (engine/stepping/nmdp_residual.h, nmdp_manifold_projection.h; [NMDP]
// Eqs. (6), (9), (11); docs/nmdp.md Secs. 1–4): free fall against the
// analytic answer, F_v against a Taylor expansion, the zeroth-order
// Jacobian's missing term against its closed form, quadratic convergence
// of the first-order projection and linear convergence of the zeroth-order
// one, and divergence reported, not looped.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/multibody/kinematics.h"
#include "engine/stepping/nmdp_manifold_projection.h"
#include "engine/stepping/nmdp_residual.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

WrenchPolytopeParameters Polytope() {
  WrenchPolytopeParameters p;
  p.stiffness = 1e4;           // [N/m]
  p.activation_length = 1e-3;  // [m]
  p.edges = 4;
  return p;
}

// A contact point on the arm's last link, 3 mm into the ground plane
// z ≥ z0 at the configuration q: the activation's steep part.
NmdpContactPoint PointIntoGround(const MultibodyModel& model, const VectorX& q) {
  KinematicsCache cache(model);
  CalcKinematics(model, q, VectorX::Zero(model.num_velocities()), BodyRange::All(model), &cache);
  NmdpContactPoint c;
  c.body = model.num_bodies() - 1;
  c.p_BP = Vector3(0.05, 0, 0.45);
  c.offset = (cache.X_WB[c.body] * c.p_BP).z() + 3e-3;
  c.friction = 0.6;
  return c;
}

TEST(NmdpProjectionTest, FreeFallIsTheAnalyticVelocity) {
  // A free body without contact, translating: M (v₊ − v)/δt = m g on the
  // linear rows, nothing on the angular ones (no rotation, no Coriolis).
  const MultibodyModel model = test::MakeFreeBody();
  VectorX q = model.DefaultPositions(), v = VectorX::Zero(6);
  v.tail<3>() = Vector3(0.3, -0.2, 1.0);
  const double dt = 0.02;
  NmdpResidual F(model, {}, Polytope(), q, v, dt);
  const ManifoldProjectionResult r = ProjectOntoManifold(F, VectorX(), v, false, {});
  ASSERT_EQ(r.status, ManifoldProjectionStatus::kConverged) << r.message;
  VectorX expected = v;
  expected.tail<3>() += dt * model.gravity();
  // Newton on an affine residual: one step, exact up to the central
  // differences' round-off (~1e-16 × |M v/δt| / h ≈ 1e-7 N → 1e-9 m/s).
  EXPECT_LT((r.v - expected).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LE(r.iterations, 2);
}

TEST(NmdpProjectionTest, VelocityJacobianPredictsTheResidualToSecondOrder) {
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q, v;
  test::RandomState(model, 11, &q, &v);
  NmdpResidual F(model, {PointIntoGround(model, q)}, Polytope(), q, v, 0.01);
  const VectorX w = (VectorX(4) << 0.1, 0.2, 0.3, 0.1).finished();
  const MatrixX J = F.VelocityJacobian(v, w, false);
  const VectorX F0 = F.Evaluate(v, w);
  const VectorX dir = (VectorX(3) << 0.3, -0.5, 0.8).finished();
  double previous = 0;
  for (double eps : {1e-2, 5e-3, 2.5e-3}) {
    const double error = (F.Evaluate(v + eps * dir, w) - F0 - eps * J * dir).norm();
    // Halving the step quarters the remainder (O(ε²)), up to 10 %.
    if (previous > 0) {
      EXPECT_NEAR(error / previous, 0.25, 0.025) << "eps = " << eps;
    }
    previous = error;
  }
}

TEST(NmdpProjectionTest, WeightJacobianIsTheAffinePartOfTheResidual) {
  // F is affine in w: F(v, w) − F(v, 0) = F_w w exactly (round-off of
  // forces ~1e2 N).
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q, v;
  test::RandomState(model, 15, &q, &v);
  NmdpResidual F(model, {PointIntoGround(model, q)}, Polytope(), q, v, 0.01);
  const VectorX w = (VectorX(4) << 0.3, 0.1, 0.4, 0.2).finished();
  const VectorX df = F.Evaluate(v, w) - F.Evaluate(v, VectorX::Zero(4));
  ASSERT_GT(df.norm(), 1.0);
  EXPECT_LT((df - F.WeightJacobian(v) * w).cwiseAbs().maxCoeff(), 1e-10 * df.norm());
}

TEST(NmdpProjectionTest, TheZerothOrderJacobianLacksExactlyTheVertexDerivative) {
  // F̃_v = F_v + δt Σ_x J_xᵀ (dD_x/dφ w_x)(nᵀ J_x) for a point against a
  // plane (docs/nmdp.md Sec. 4: the ∂D/∂q term through q₊ = q + δt N v₊).
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q, v;
  test::RandomState(model, 12, &q, &v);
  const double dt = 0.01;
  const NmdpContactPoint c = PointIntoGround(model, q);
  NmdpResidual F(model, {c}, Polytope(), q, v, dt);
  const VectorX w = (VectorX(4) << 0.25, 0.25, 0.25, 0.25).finished();
  const MatrixX first = F.VelocityJacobian(v, w, false);
  const MatrixX zeroth = F.VelocityJacobian(v, w, true);
  // The missing term, at q₊.
  KinematicsCache cache(model);
  CalcKinematics(model, F.NextPositions(v), v, BodyRange::All(model), &cache);
  const Vector3 p_WP = cache.X_WB[c.body] * c.p_BP;
  const Matrix3X Jp = CalcPointJacobian(model, cache, c.body, p_WP);
  Matrix3X dD;
  PolytopeVertices(Polytope(), c.friction, c.normal.dot(p_WP) - c.offset, c.normal, c.normal.unitOrthogonal(),
                   c.normal.cross(c.normal.unitOrthogonal()), &dD);
  const MatrixX term = dt * Jp.transpose() * (dD * w) * (c.normal.transpose() * Jp);
  ASSERT_GT(term.norm(), 1.0);  // Not negligible: dD/dφ ~ k = 1e4 N/m.
  // q₊ = q + δt N(q) v₊ makes ∂q₊/∂v₊ = δt for the hinges, so the closed
  // form is exact; the tolerance is the central differences' round-off.
  EXPECT_LT((zeroth - first - term).norm(), 1e-5 * term.norm());
}

TEST(NmdpProjectionTest, FirstOrderConvergesQuadraticallyZerothOrderLinearly) {
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q, v;
  test::RandomState(model, 13, &q, &v);
  const double dt = 0.01;
  NmdpResidual F(model, {PointIntoGround(model, q)}, Polytope(), q, v, dt);
  const VectorX w = (VectorX(4) << 0.4, 0.1, 0.2, 0.3).finished();
  ManifoldProjectionParameters params;
  params.tolerance = 1e-9;
  const ManifoldProjectionResult first = ProjectOntoManifold(F, w, v, false, params);
  ASSERT_EQ(first.status, ManifoldProjectionStatus::kConverged) << first.message;
  // Measured: ‖F‖∞ = 50, 0.80, 2.2e-4, 1.5e-11 N. Quadratic: r_{k+1} = C r_k²
  // with one constant C over the last two steps (3.4e-4 and 3.2e-4 /N here;
  // within 10×), and the last step gains far more than a linear rate could.
  const std::vector<double>& r = first.residual_norms;
  ASSERT_GE(r.size(), 4u);
  const std::size_t n = r.size();
  const double c1 = r[n - 2] / (r[n - 3] * r[n - 3]), c2 = r[n - 1] / (r[n - 2] * r[n - 2]);
  EXPECT_LT(c2, 10 * c1);
  EXPECT_LT(r[n - 1], 1e-5 * r[n - 2]);
  // Zeroth order (Eq. 11): the chord iteration without ∂D/∂q contracts
  // linearly, measured 0.83 per step: 110 steps to 1e-9 N against 3.
  params.max_iterations = 200;
  const ManifoldProjectionResult zeroth = ProjectOntoManifold(F, w, v, true, params);
  ASSERT_EQ(zeroth.status, ManifoldProjectionStatus::kConverged) << zeroth.message;
  SCOPED_TRACE(testing::Message() << "Newton steps: first order " << first.iterations << ", zeroth order "
                                  << zeroth.iterations);
  EXPECT_GT(zeroth.iterations, 5 * first.iterations);
  const std::vector<double>& z = zeroth.residual_norms;
  const double rate = z[z.size() - 2] / z[z.size() - 3];
  EXPECT_GT(rate, 0.1);  // Linear: not the quadratic collapse above.
  EXPECT_LT(rate, 1.0);
  // Both find the same velocity (F(·, w) = 0 has one solution near v):
  // |F| ≤ 1e-9 N over F_v ~ M/δt ≥ 100 kg/s.
  EXPECT_LT((first.v - zeroth.v).cwiseAbs().maxCoeff(), 1e-10);
}

TEST(NmdpProjectionTest, AStepTooLargeIsReportedAsDivergence) {
  // A stiff contact and a long step: Newton from v cannot lower |F| or
  // F_v is singular. The status says which, with a message, and the
  // velocity stays finite.
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q, v;
  test::RandomState(model, 14, &q, &v);
  WrenchPolytopeParameters stiff = Polytope();
  stiff.stiffness = 1e12;
  NmdpResidual F(model, {PointIntoGround(model, q)}, stiff, q, v, 1.0);
  ManifoldProjectionParameters params;
  params.max_iterations = 10;
  const ManifoldProjectionResult r = ProjectOntoManifold(F, VectorX::Constant(4, 0.25), v, false, params);
  EXPECT_NE(r.status, ManifoldProjectionStatus::kConverged);
  EXPECT_FALSE(r.message.empty());
  EXPECT_TRUE(r.v.allFinite());
}

}  // namespace
}  // namespace stiction
