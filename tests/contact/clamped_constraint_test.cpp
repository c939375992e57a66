// The clamped constraint (joint limits, PD actuators with effort limits,
// [SAP] Sec. VII): impulse, Huber cost and G against their definitions and
// finite differences, continuity at the bounds, convexity.
#include "engine/contact/clamped_constraint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace stiction {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

const SapClampedParameters kClampedCases[] = {
    {0.01, 0.2, 0, kInf},     // Joint limit.
    {2.0, -1.0, -0.5, 0.5},   // PD controller with effort limit.
    {1e-3, 0.0, -kInf, kInf}, // Unbounded: a bilateral row.
    {0.3, 0.1, -2.0, 0.0},    // Upper-sided limit.
    {0.5, 0.25, 0.0, 0.0},    // Degenerate: γ ≡ 0.
};

double ClampedCost(const SapClampedParameters& p, double vc) {
  ConstraintEvaluation e;
  EvaluateClamped(p, vc, &e);
  return e.cost;
}
double ClampedImpulse(const SapClampedParameters& p, double vc) {
  ConstraintEvaluation e;
  EvaluateClamped(p, vc, &e);
  return e.gamma(0);
}

TEST(SapClampedTest, ImpulseCostAndG) {
  ConstraintEvaluation e;
  for (const SapClampedParameters& p : kClampedCases) {
    for (int i = -200; i <= 200; ++i) {
      auto finite = [](double b) { return std::isfinite(b) ? std::abs(b) : 0.0; };
      // y sweeps ±2(1 + |lower| + |upper|): across both bounds.
      const double vc = p.v_hat - 0.01 * i * (1 + finite(p.lower) + finite(p.upper)) * p.R;
      const double y = -(vc - p.v_hat) / p.R;
      EvaluateClamped(p, vc, &e);
      ASSERT_EQ(e.gamma.size(), 1);
      ASSERT_EQ(e.G.rows(), 1);
      ASSERT_EQ(e.G.cols(), 1);
      EXPECT_EQ(e.gamma(0), std::clamp(y, p.lower, p.upper));
      const bool inside = p.lower <= y && y <= p.upper;
      EXPECT_EQ(e.G(0, 0), inside ? 1 / p.R : 0.0);
      EXPECT_GE(e.cost, 0);
      // Finite differences away from the kinks (|y − bound| > 100 steps).
      const double h = 1e-7 * p.R * (1 + std::abs(y));  // Δy = 1e-7(1 + |y|).
      const double dy = h / p.R;
      if (std::abs(y - p.lower) < 100 * dy || std::abs(y - p.upper) < 100 * dy) continue;
      // Piecewise quadratic/linear: central differences are exact up to
      // round-off ε ℓ/h ≈ 2e-16 (1 + |y|)²R/(1e-7 R (1 + |y|)); 1e-7 relative.
      const double g_fd = -(ClampedCost(p, vc + h) - ClampedCost(p, vc - h)) / (2 * h);
      EXPECT_NEAR(g_fd, e.gamma(0), 1e-7 * (1 + std::abs(y)));
      const double G_fd = -(ClampedImpulse(p, vc + h) - ClampedImpulse(p, vc - h)) / (2 * h);
      EXPECT_NEAR(G_fd * p.R, e.G(0, 0) * p.R, 1e-7 * (1 + std::abs(y)));
    }
  }
}

TEST(SapClampedTest, ContinuousAtTheBoundsWhichBelongToTheInside) {
  // R, v̂ and the bounds are dyadic so that y hits each bound exactly.
  const SapClampedParameters p{0.5, 0.25, -0.75, 1.5};
  ConstraintEvaluation e;
  for (const double b : {p.lower, p.upper}) {
    const double vc = p.v_hat - p.R * b;
    ASSERT_EQ(-(vc - p.v_hat) / p.R, b);
    EvaluateClamped(p, vc, &e);
    EXPECT_EQ(e.gamma(0), b);
    EXPECT_EQ(e.G(0, 0), 1 / p.R);  // Inside formula on the bound.
    EXPECT_EQ(e.cost, 0.5 * p.R * b * b);
    // Lipschitz continuity of ℓ across the bound with constant |b| (the
    // gradient magnitude on both sides): for δ → 0 the jump must vanish.
    for (const double delta : {1e-3, 1e-6, 1e-9}) {
      for (const double side : {-1.0, 1.0}) {
        const double l = ClampedCost(p, vc + side * delta);
        // 1e-12 on top: round-off of ℓ ≈ 0.56.
        EXPECT_LE(std::abs(l - e.cost), std::abs(b) * delta * (1 + 1e-6) + 1e-12);
      }
    }
    // One-sided difference quotients both approach −γ = −b (C¹ cost).
    const double d = 1e-7;
    const double left = (e.cost - ClampedCost(p, vc - d)) / d;
    const double right = (ClampedCost(p, vc + d) - e.cost) / d;
    // 1e-6: one-sided truncation |ℓ''| d / 2 = d/(2R) = 1e-7, plus round-off.
    EXPECT_NEAR(left, -b, 1e-6);
    EXPECT_NEAR(right, -b, 1e-6);
  }
}

TEST(SapClampedTest, CostIsConvexAlongRandomLines) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int line = 0; line < 200; ++line) {
    const SapClampedParameters pc = kClampedCases[line % 5];
    const double c0 = pc.v_hat + pc.R * 3 * U(rng), cdir = pc.R * U(rng);
    std::vector<double> lc;
    for (int k = -200; k <= 200; ++k) lc.push_back(ClampedCost(pc, c0 + 0.02 * k * cdir));
    const double scale_c = *std::max_element(lc.begin(), lc.end());
    for (size_t k = 1; k + 1 < lc.size(); ++k) {
      // −1e-12·scale: round-off of ℓ (≈ 4 ε max ℓ) in a second difference.
      EXPECT_GE(lc[k + 1] - 2 * lc[k] + lc[k - 1], -1e-12 * scale_c) << "line " << line;
    }
  }
}

TEST(SapClampedTest, ReusedEvaluationDoesNotReallocate) {
  ConstraintEvaluation c;
  EvaluateClamped(kClampedCases[1], 0.3, &c);
  const double* cg = c.gamma.data();
  EvaluateClamped(kClampedCases[1], -3, &c);
  EXPECT_EQ(c.gamma.data(), cg);
}

}  // namespace
}  // namespace stiction
