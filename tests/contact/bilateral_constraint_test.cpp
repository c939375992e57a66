// The bilateral constraint (welds, ball joints, [SAP] Sec. VII): impulse and
// G against finite differences of the cost, allocation-free reuse.
#include "engine/contact/bilateral_constraint.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace stiction {
namespace {

TEST(SapBilateralTest, FiniteDifferences) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1, 1);
  ConstraintEvaluation e;
  for (const int n : {6, 3, 1, 6}) {
    VectorX R(n), v_hat(n), vc(n);
    for (int i = 0; i < n; ++i) {
      R(i) = std::pow(10.0, 2 * U(rng));
      v_hat(i) = U(rng);
      vc(i) = U(rng);
    }
    const SapBilateralParameters p{R, v_hat};
    EvaluateBilateral(p, vc, &e);
    ASSERT_EQ(e.gamma.size(), n);
    ASSERT_EQ(e.G.rows(), n);
    ASSERT_EQ(e.G.cols(), n);
    EXPECT_EQ(e.G, MatrixX(R.cwiseInverse().asDiagonal()));
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(e.gamma(i), -(vc(i) - v_hat(i)) / R(i));
      const double h = 1e-6;
      VectorX vp = vc, vm = vc;
      vp(i) += h;
      vm(i) -= h;
      ConstraintEvaluation ep, em;
      EvaluateBilateral(p, vp, &ep);
      EvaluateBilateral(p, vm, &em);
      // Quadratic cost: central differences are exact up to round-off
      // ε ℓ / h, with ℓ ≤ ½ Σ 4/R_i ≤ 2n·max(1/R): ≈ 3e-9·max(1/R).
      // 1e-6 relative to that impulse scale max(1/R).
      const double scale = R.cwiseInverse().maxCoeff();
      EXPECT_NEAR(-(ep.cost - em.cost) / (2 * h), e.gamma(i), 1e-6 * scale);
      const VectorX G_col = -(ep.gamma - em.gamma) / (2 * h);
      EXPECT_LE((G_col - e.G.col(i)).norm(), 1e-6 * scale);
    }
  }
}

TEST(SapBilateralTest, ReusedEvaluationDoesNotReallocate) {
  ConstraintEvaluation b;
  const SapBilateralParameters p{VectorX::Constant(6, 0.1), VectorX::Zero(6)};
  EvaluateBilateral(p, VectorX::Ones(6), &b);
  const double* bG = b.G.data();
  EvaluateBilateral(p, -VectorX::Ones(6), &b);
  EXPECT_EQ(b.G.data(), bG);
}

}  // namespace
}  // namespace stiction
