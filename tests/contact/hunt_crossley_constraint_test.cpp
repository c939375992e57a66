// The Hunt & Crossley constraints of [ICF] (Lagged, Similar) against
// their defining formulas and finite differences: the impulse is −∂ℓ/∂v_c
// (the field is irrotational, Sec. V-B), G = ∂²ℓ/∂v_c² is PSD everywhere
// including v_t = 0, and the normal impulse is Eq. (6) with Eq. (13).
#include "engine/contact/hunt_crossley_constraint.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <random>

namespace stiction {
namespace {

HuntCrossleyParameters Params(HuntCrossleyModel model) {
  HuntCrossleyParameters p;
  p.model = model;
  p.dt = 1e-2;
  p.k = 1e5;
  p.d = 5.0;
  p.f0 = 1e5 * 1e-4;  // 0.1 mm of penetration.
  p.mu = 0.7;
  p.eps_s = 1e-3;
  p.gamma_n0 = 0.08;
  return p;
}

ConstraintEvaluation Eval(const HuntCrossleyParameters& p, const Vector3& vc) {
  ConstraintEvaluation e;
  EvaluateHuntCrossley(p, vc, &e);
  return e;
}

// Distance of the normal argument (v_n for Lagged, z for Similar) from the
// kink v̂, where the Hessian jumps and central differences straddle it.
double DistanceFromKink(const HuntCrossleyParameters& p, const Vector3& vc) {
  double arg = vc.z();
  if (p.model == HuntCrossleyModel::kSimilar) {
    const double t = std::hypot(vc.x(), vc.y());
    arg -= p.mu * (std::hypot(t, p.eps_s) - p.eps_s);
  }
  return std::abs(arg - p.v_hat());
}

// Random contact velocities spanning stiction (‖v_t‖ ≲ ε_s), sliding, and
// normal velocities on both sides of v̂.
std::vector<Vector3> Samples(const HuntCrossleyParameters& p, int count) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<Vector3> out;
  for (int i = 0; i < count; ++i) {
    const double scale_t = std::pow(10.0, 3 * unit(rng) - 2);  // 1e-5 … 10 m/s.
    const double vn = p.v_hat() + 0.2 * unit(rng);
    out.emplace_back(scale_t * unit(rng), scale_t * unit(rng), vn);
  }
  out.emplace_back(0, 0, p.v_hat() - 0.05);  // v_t = 0 exactly, in contact.
  out.emplace_back(0, 0, p.v_hat() + 0.05);  // v_t = 0, separating.
  return out;
}

class HuntCrossleyTest : public ::testing::TestWithParam<HuntCrossleyModel> {};

TEST_P(HuntCrossleyTest, ImpulseIsMinusTheCostGradient) {
  const HuntCrossleyParameters p = Params(GetParam());
  int checked = 0;
  for (const Vector3& vc : Samples(p, 400)) {
    const ConstraintEvaluation e = Eval(p, vc);
    // Central differences: tangential step 1e-4 ε_s (the soft norm's
    // curvature scale is ε_s, so the O(h²) truncation is ~1e-8 relative),
    // normal step 1e-7 m/s (the normal scale is ≥ 1e-4 m/s away from the
    // kink). The tolerance is 1e-6 relative plus the round-off of the
    // difference, a few ε_mach |ℓ| / h (the normal potential dominates ℓ).
    for (int i = 0; i < 3; ++i) {
      const double h = i < 2 ? 1e-4 * p.eps_s : 1e-7;
      if (i == 2 && DistanceFromKink(p, vc) < 1e-5) continue;
      Vector3 plus = vc, minus = vc;
      plus[i] += h;
      minus[i] -= h;
      const double fd = (Eval(p, plus).cost - Eval(p, minus).cost) / (2 * h);
      const double roundoff = 8 * std::numeric_limits<double>::epsilon() * std::abs(e.cost) / h;
      EXPECT_NEAR(-fd, e.gamma[i], 1e-6 * std::abs(e.gamma[i]) + roundoff + 1e-15)
          << "row " << i << " at " << vc.transpose();
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST_P(HuntCrossleyTest, HessianIsTheImpulseJacobianAndSymmetric) {
  const HuntCrossleyParameters p = Params(GetParam());
  int checked = 0;
  for (const Vector3& vc : Samples(p, 400)) {
    if (DistanceFromKink(p, vc) < 1e-4) continue;
    const ConstraintEvaluation e = Eval(p, vc);
    Matrix3 fd;
    for (int j = 0; j < 3; ++j) {
      const double h = j < 2 ? 1e-4 * std::min(p.eps_s, std::max(std::abs(vc[j]), 1e-5)) : 1e-7;
      Vector3 plus = vc, minus = vc;
      plus[j] += h;
      minus[j] -= h;
      fd.col(j) = -(Eval(p, plus).gamma - Eval(p, minus).gamma) / (2 * h);
    }
    // Eq. (23) of [ICF]: an irrotational field has a symmetric
    // Jacobian; G must equal it (O(h²) truncation, 1e-5 relative).
    const double scale = std::max(e.G.norm(), 1e-12);
    EXPECT_LT((fd - e.G).norm(), 1e-5 * scale) << "at " << vc.transpose() << "\nG =\n" << e.G << "\nfd =\n" << fd;
    EXPECT_LT((e.G - e.G.transpose()).norm(), 1e-14 * scale);
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST_P(HuntCrossleyTest, HessianIsPositiveSemiDefiniteEverywhere) {
  HuntCrossleyParameters p = Params(GetParam());
  for (double eps : {1e-6, 1e-4, 1e-2}) {
    p.eps_s = eps;
    for (const Vector3& vc : Samples(p, 300)) {
      const ConstraintEvaluation e = Eval(p, vc);
      const Eigen::SelfAdjointEigenSolver<Matrix3> eig(Matrix3(e.G));
      // Round-off: eigenvalues of a 3×3 symmetric matrix are accurate to
      // ~ε_mach ‖G‖.
      EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-13 * std::max(1.0, e.G.norm())) << vc.transpose();
    }
  }
}

TEST_P(HuntCrossleyTest, SoftNormRemovesTheSingularityAtZeroSlip) {
  const HuntCrossleyParameters p = Params(GetParam());
  const double vn = p.v_hat() - 0.01;  // In contact.
  const ConstraintEvaluation e = Eval(p, Vector3(0, 0, vn));
  EXPECT_EQ(e.gamma.x(), 0.0);
  EXPECT_EQ(e.gamma.y(), 0.0);
  // Eq. (43): at v_t = 0 the friction stiffness is G_t = μ γ̃_n / v_s with
  // γ̃_n = γ_n0 (Lagged) or γ_n (Similar); the Hessian is finite and
  // isotropic in the tangent plane.
  const double gamma_n = GetParam() == HuntCrossleyModel::kLagged ? p.gamma_n0 : e.gamma.z();
  EXPECT_NEAR(e.G(0, 0), p.mu * gamma_n / p.eps_s, 1e-12 * e.G(0, 0));
  EXPECT_NEAR(e.G(1, 1), e.G(0, 0), 1e-12 * e.G(0, 0));
  EXPECT_EQ(e.G(0, 1), 0.0);
}

TEST_P(HuntCrossleyTest, FrictionApproachesCoulombWhenSliding) {
  const HuntCrossleyParameters p = Params(GetParam());
  const double vn = p.v_hat() - 0.01;
  // ‖v_t‖ = 1e4 ε_s: f(s) = s/√(1 + s²) = 1 − 5e-9 (Eq. 17), so the friction
  // magnitude is μ times the normal impulse to that accuracy, opposing slip.
  const Vector3 vc(0.6 * 1e4 * p.eps_s, -0.8 * 1e4 * p.eps_s, vn);
  const ConstraintEvaluation e = Eval(p, vc);
  const double gamma_n = GetParam() == HuntCrossleyModel::kLagged ? p.gamma_n0 : e.gamma.z();
  const Eigen::Vector2d gt = e.gamma.head<2>();
  EXPECT_NEAR(gt.norm(), p.mu * gamma_n, 1e-8 * p.mu * gamma_n);
  EXPECT_NEAR(gt.normalized().dot(Eigen::Vector2d(0.6, -0.8)), -1.0, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Models, HuntCrossleyTest,
                         ::testing::Values(HuntCrossleyModel::kLagged, HuntCrossleyModel::kSimilar),
                         [](const auto& info) {
                           return info.param == HuntCrossleyModel::kLagged ? "Lagged" : "Similar";
                         });

TEST(HuntCrossleyNormalTest, ImpulseIsTheForceLawOverTheStep) {
  // Eq. (6) with Eq. (13): n(v_n) = δt f_n(x0 − δt v_n, −v_n),
  // f_n(x, ẋ) = k x₊ (1 + d ẋ)₊, for both signs of x0 (speculative contacts
  // have x0 < 0 and only push when approaching faster than −x0/δt).
  for (double x0 : {2e-4, -3e-4}) {
    HuntCrossleyParameters p = Params(HuntCrossleyModel::kLagged);
    p.f0 = p.k * x0;
    for (double vn = -0.5; vn <= 0.5; vn += 0.0125) {
      const double x = x0 - p.dt * vn, xdot = -vn;
      const double expected = p.dt * p.k * std::max(0.0, x) * std::max(0.0, 1 + p.d * xdot);
      EXPECT_NEAR(HuntCrossleyNormalImpulse(p, vn), expected, 1e-12 * (1 + expected)) << x0 << " " << vn;
    }
    // v̂ = min(x0/δt, 1/d) (Sec. IV-C): zero at and above it, positive below.
    EXPECT_EQ(HuntCrossleyNormalImpulse(p, p.v_hat()), 0.0);
    EXPECT_GT(HuntCrossleyNormalImpulse(p, p.v_hat() - 1e-6), 0.0);
  }
}

TEST(HuntCrossleyNormalTest, PotentialMatchesTheDisplacementFormOfEq14) {
  // Eq. (15) (the f0 form the code uses) equals Eq. (14) written with x0:
  // N⁺ = δt k [v (x0 − ½δt v) − d v²/2 (x0 − ⅔δt v)]; ℓ_n = −N.
  HuntCrossleyParameters p = Params(HuntCrossleyModel::kLagged);
  const double x0 = p.f0 / p.k;
  for (double vn = -0.4; vn < p.v_hat(); vn += 0.01) {
    const double n14 = p.dt * p.k * (vn * (x0 - 0.5 * p.dt * vn) - p.d * vn * vn / 2 * (x0 - 2.0 / 3.0 * p.dt * vn));
    ConstraintEvaluation e;
    EvaluateHuntCrossley(p, Vector3(0, 0, vn), &e);
    // Lagged friction adds μγ_n0‖0‖_s = 0 at v_t = 0.
    EXPECT_NEAR(-e.cost, n14, 1e-12 * (1 + std::abs(n14))) << vn;
  }
}

TEST(HuntCrossleyNormalTest, CostAndImpulseAreContinuousAtTheKink) {
  for (HuntCrossleyModel model : {HuntCrossleyModel::kLagged, HuntCrossleyModel::kSimilar}) {
    for (double d : {0.0, 5.0, 2000.0}) {  // v̂ = x0/δt, and v̂ = 1/d for the last.
      HuntCrossleyParameters p = Params(model);
      p.d = d;
      const double h = 1e-9;
      ConstraintEvaluation below, above;
      EvaluateHuntCrossley(p, Vector3(0, 0, p.v_hat() - h), &below);
      EvaluateHuntCrossley(p, Vector3(0, 0, p.v_hat() + h), &above);
      // Both one-sided limits agree to O(h) (n(v̂) = 0; the slope of n is
      // bounded by −n' of Eq. 8).
      EXPECT_NEAR(below.cost, above.cost, 1e-12);
      EXPECT_NEAR(below.gamma.z(), above.gamma.z(), 1e-9 * below.G(2, 2) + 1e-15);
      EXPECT_EQ(above.gamma.z(), 0.0);
      EXPECT_EQ(above.G(2, 2), 0.0);
    }
  }
}

TEST(HuntCrossleyNormalTest, LaggedImpulseIsTheForceAtTheStepStart) {
  // γ_n0 = δt f_n(x0, ẋ0) (Eq. 29 with Eq. 13): k x0 (1 − d v_n0) δt when
  // overlapping and not separating faster than 1/d; zero otherwise.
  EXPECT_DOUBLE_EQ(HuntCrossleyLaggedImpulse(0.01, 5.0, 10.0, -0.1), 0.01 * 10.0 * 1.5);
  EXPECT_DOUBLE_EQ(HuntCrossleyLaggedImpulse(0.01, 5.0, 10.0, 0.1), 0.01 * 10.0 * 0.5);
  EXPECT_EQ(HuntCrossleyLaggedImpulse(0.01, 5.0, 10.0, 0.3), 0.0);   // 1 − d v < 0.
  EXPECT_EQ(HuntCrossleyLaggedImpulse(0.01, 5.0, -10.0, -0.1), 0.0);  // Separated.
}

TEST(HuntCrossleyNormalTest, ClassificationFollowsImpulseAndSlip) {
  const HuntCrossleyParameters p = Params(HuntCrossleyModel::kLagged);
  const double vn = p.v_hat() - 0.01;
  EXPECT_EQ(ClassifyHuntCrossley(p, Vector3(0.5 * p.eps_s, 0, vn)), ConeRegion::kStiction);
  EXPECT_EQ(ClassifyHuntCrossley(p, Vector3(2 * p.eps_s, 0, vn)), ConeRegion::kSliding);
  EXPECT_EQ(ClassifyHuntCrossley(p, Vector3(0, 0, p.v_hat() + 0.01)), ConeRegion::kNoContact);
}

}  // namespace
}  // namespace stiction
