// The exact line search shared by SAP and CANAL (engine/solvers/
// exact_line_search.h) on convex functions of one variable whose minimizers
// are known in closed form: where it stops (|ℓ'(α)| ≤ tol·|ℓ'(0)|, or the
// bracket of a kink collapsed), that α stays in (0, α_max], that it counts
// every sample and respects its iteration cap, and that a looser tolerance
// never costs more samples.
#include "engine/solvers/exact_line_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace stiction {
namespace {

// The solvers' settings (SapSolverParameters, canal_solver.cpp).
constexpr double kAlphaMax = 1.5;
constexpr int kMaxIterations = 100;

/// A convex ℓ(α) with its derivatives and its minimizer over α ≥ 0.
struct Function {
  std::string name;
  std::function<LineSample(double)> sample;
  double minimizer = 0;
  /// A lower bound on ℓ'' around the minimizer [1/α²]: |α − α*| ≤ |ℓ'(α)| / it.
  double min_curvature = 0;
  double d0() const { return sample(0).d_cost; }
};

/// ℓ = ½ a (α − α*)²: ℓ' is linear, so one Newton step is exact.
Function Quadratic(double a, double alpha_star) {
  return {"quadratic a=" + std::to_string(a) + " alpha*=" + std::to_string(alpha_star),
          [=](double x) {
            return LineSample{0.5 * a * (x - alpha_star) * (x - alpha_star), a * (x - alpha_star), a};
          },
          alpha_star, a};
}

/// ℓ = e^{2α} − 3α: ℓ' = 2e^{2α} − 3 vanishes at α* = ½ ln 1.5; ℓ'' = 4e^{2α} ≥ 4.
Function Exponential() {
  return {"exp(2a) - 3a",
          [](double x) {
            const double e = std::exp(2 * x);
            return LineSample{e - 3 * x, 2 * e - 3, 4 * e};
          },
          0.5 * std::log(1.5), 4.0};
}

/// ℓ = H_δ(α − c) + ½ κ α² with the Huber function H_δ (quadratic for
/// |r| ≤ δ, linear beyond): C¹, ℓ'' jumps between κ and 1 + κ. With c = 0.2,
/// δ = 0.1, κ = 0.05 the root of ℓ' = (α − c) + κα lies in the quadratic zone:
/// α* = c / (1 + κ) (|α* − c| = 0.0095 < δ). The full step α = 1 is in the
/// linear zone, where ℓ'' = κ sends Newton far outside the bracket.
Function Huber() {
  constexpr double c = 0.2, delta = 0.1, kappa = 0.05;
  return {"huber",
          [=](double x) {
            const double r = x - c;
            const bool inner = std::abs(r) <= delta;
            const double h = inner ? 0.5 * r * r : delta * (std::abs(r) - 0.5 * delta);
            const double dh = std::clamp(r, -delta, delta);
            return LineSample{h + 0.5 * kappa * x * x, dh + kappa * x, (inner ? 1.0 : 0.0) + kappa};
          },
          // Outside the quadratic zone |ℓ'| ≥ 0.095 = 0.95·|ℓ'(0)|, so any
          // tolerance below 0.95 stops inside it, where ℓ'' = 1 + κ.
          c / (1 + kappa), 1 + kappa};
}

/// ℓ = max(−α, 2α − 0.9) + ½ ε α², ε = 0.1: convex, with a kink at α = 0.3
/// where ℓ' jumps from −1 + 0.03 to 2 + 0.03 — the minimizer, at which ℓ'
/// never comes near zero. ℓ'' = ε everywhere, so Newton always overshoots the
/// bracket and the search is pure bisection.
Function Kink() {
  constexpr double eps = 0.1, kink = 0.3;
  return {"kink",
          [=](double x) {
            const bool left = -x >= 2 * x - 0.9;
            return LineSample{std::max(-x, 2 * x - 0.9) + 0.5 * eps * x * x,
                              (left ? -1.0 : 2.0) + eps * x, eps};
          },
          kink, 0.0};
}

struct Outcome {
  double alpha = 0;
  int iters = 0;    // As reported by ExactLineSearch.
  int samples = 0;  // Calls to `sample`, counted here.
};

Outcome Search(const Function& f, double alpha_max, double tol, int max_iterations = kMaxIterations) {
  Outcome out;
  const auto counted = [&](double a) {
    ++out.samples;
    return f.sample(a);
  };
  out.alpha = ExactLineSearch(counted, f.d0(), alpha_max, tol, max_iterations, &out.iters);
  return out;
}

/// What holds for every search: α ∈ (0, α_max], every sample counted, and at
/// most the full step, α_max and one sample per iteration.
void ExpectWellFormed(const Outcome& r, double alpha_max, int max_iterations) {
  EXPECT_GT(r.alpha, 0.0);
  EXPECT_LE(r.alpha, alpha_max);
  EXPECT_EQ(r.iters, r.samples);
  EXPECT_GE(r.iters, 1);
  EXPECT_LE(r.iters, max_iterations + 2);
}

TEST(ExactLineSearchTest, QuadraticWithTheMinimizerInsideTheStep) {
  // Minimizers below the full step (bracket [0, 1]) and between it and α_max
  // (bracket [1, α_max]); one case with α_max < 1.
  struct Case {
    double a, alpha_star, alpha_max;
  };
  for (const Case& c : {Case{3.0, 0.6, kAlphaMax}, Case{3.0, 0.05, kAlphaMax},
                        Case{0.2, 0.001, kAlphaMax}, Case{50.0, 1.4, kAlphaMax},
                        Case{1.0, 1.05, kAlphaMax}, Case{2.0, 0.3, 0.8}}) {
    const Function f = Quadratic(c.a, c.alpha_star);
    SCOPED_TRACE(f.name);
    const double tol = 1e-6;  // SAP's default.
    const Outcome r = Search(f, c.alpha_max, tol);
    ExpectWellFormed(r, c.alpha_max, kMaxIterations);
    // The stopping test, evaluated here: |ℓ'(α)| = a|α − α*| ≤ tol·a·α*.
    EXPECT_LE(std::abs(f.sample(r.alpha).d_cost), tol * std::abs(f.d0()));
    EXPECT_NEAR(r.alpha, c.alpha_star, tol * c.alpha_star);
    // ℓ' is linear, so a Newton step lands on α* to round-off: the full
    // step, at most one safeguarding sample (α_max or a bisection), then one
    // Newton step.
    EXPECT_LE(r.iters, 3);
  }
}

TEST(ExactLineSearchTest, FullStepAtTheMinimizerTakesOneSample) {
  // α* = 1: the Newton direction was exact; the search must accept it as is.
  const Outcome exact = Search(Quadratic(4.0, 1.0), kAlphaMax, 1e-6);
  EXPECT_EQ(exact.alpha, 1.0);
  EXPECT_EQ(exact.iters, 1);
  EXPECT_EQ(exact.samples, 1);
  // α* = 1 + 1e-8: |ℓ'(1)| = 1e-8·a ≤ 1e-6·|ℓ'(0)|, so the full step already
  // meets the tolerance and is returned.
  const Outcome close = Search(Quadratic(4.0, 1.0 + 1e-8), kAlphaMax, 1e-6);
  EXPECT_EQ(close.alpha, 1.0);
  EXPECT_EQ(close.iters, 1);
  // With a tolerance tighter than that, the same function needs more.
  const Outcome tight = Search(Quadratic(4.0, 1.0 + 1e-8), kAlphaMax, 1e-12);
  EXPECT_GT(tight.iters, 1);
  EXPECT_NEAR(tight.alpha, 1.0 + 1e-8, 1e-12 * (1.0 + 1e-8));
}

TEST(ExactLineSearchTest, MinimizerBeyondAlphaMaxReturnsAlphaMax) {
  // ℓ' < 0 on all of (0, α_max]: the constrained minimizer is α_max itself.
  for (double alpha_star : {kAlphaMax + 1e-3, 3.0, 1e6}) {
    const Function f = Quadratic(2.0, alpha_star);
    SCOPED_TRACE(f.name);
    const Outcome r = Search(f, kAlphaMax, 1e-6);
    ExpectWellFormed(r, kAlphaMax, kMaxIterations);
    EXPECT_EQ(r.alpha, kAlphaMax);
    // ℓ'(1) < 0 and ℓ'(α_max) < 0 settle it: no root to search for.
    EXPECT_LE(r.iters, 2);
  }
  // The minimizer exactly at α_max (ℓ'(α_max) = 0).
  EXPECT_EQ(Search(Quadratic(2.0, kAlphaMax), kAlphaMax, 1e-6).alpha, kAlphaMax);
  // α_max < 1: the full step is clipped to α_max, where ℓ' < 0 already.
  const Outcome short_step = Search(Quadratic(2.0, 0.8), 0.5, 1e-6);
  ExpectWellFormed(short_step, 0.5, kMaxIterations);
  EXPECT_EQ(short_step.alpha, 0.5);
  EXPECT_EQ(short_step.iters, 1);
}

TEST(ExactLineSearchTest, SmoothStrictlyConvexFunctionsToTheTolerance) {
  for (const Function& f : {Exponential(), Huber(), Quadratic(3.0, 0.05)}) {
    SCOPED_TRACE(f.name);
    for (double tol : {1e-1, 1e-3, 1e-6, 1e-9, 1e-12}) {
      SCOPED_TRACE("tol = " + std::to_string(tol));
      const Outcome r = Search(f, kAlphaMax, tol);
      ExpectWellFormed(r, kAlphaMax, kMaxIterations);
      // The stopping test itself, with ℓ' evaluated here.
      const double g = f.sample(r.alpha).d_cost;
      EXPECT_LE(std::abs(g), tol * std::abs(f.d0())) << "alpha = " << r.alpha;
      // And what it implies for the distance to the analytic minimizer:
      // |α − α*| ≤ |ℓ'(α)| / min ℓ''.
      EXPECT_LE(std::abs(r.alpha - f.minimizer), tol * std::abs(f.d0()) / f.min_curvature)
          << "alpha = " << r.alpha << ", alpha* = " << f.minimizer;
    }
  }
}

TEST(ExactLineSearchTest, KinkIsBracketedToRoundOff) {
  // At the kink |ℓ'| ≥ 0.97 ≈ |ℓ'(0)| on both sides, so no tolerance below 1
  // can be met: the search must end when the bracket around the kink has
  // collapsed to round-off, with the kink inside it.
  const Function f = Kink();
  for (double tol : {1e-6, 1e-12}) {
    const Outcome r = Search(f, kAlphaMax, tol);
    ExpectWellFormed(r, kAlphaMax, kMaxIterations);
    // Bisection from [0, 1] reaches a width of ~1e-14·α after ~47 halvings,
    // well inside the cap of 100: 1e-13 leaves room for 0.3 being inexact.
    EXPECT_NEAR(r.alpha, f.minimizer, 1e-13);
    // ℓ' changes sign across α: it is the (sub)gradient's zero.
    EXPECT_LT(f.sample(r.alpha - 1e-12).d_cost, 0.0);
    EXPECT_GT(f.sample(r.alpha + 1e-12).d_cost, 0.0);
    EXPECT_LT(r.iters, kMaxIterations);  // Stopped by the bracket, not the cap.
  }
}

TEST(ExactLineSearchTest, IterationCapBoundsTheSamples) {
  // On the kink every iteration is one bisection of [0, 1] (Newton, with
  // ℓ'' = ε, always leaves the bracket): after the full step and k more
  // samples, the last sample is within 2^−k of the kink.
  const Function f = Kink();
  for (int cap : {0, 1, 2, 5, 10, 20}) {
    SCOPED_TRACE("max_iterations = " + std::to_string(cap));
    const Outcome r = Search(f, kAlphaMax, 1e-6, cap);
    ExpectWellFormed(r, kAlphaMax, cap);
    EXPECT_LE(std::abs(r.alpha - f.minimizer), std::ldexp(1.0, -cap));
  }
  // A smooth function stopped early still returns a point in (0, α_max] and
  // counts what it sampled.
  for (int cap : {0, 1, 2}) {
    const Outcome r = Search(Huber(), kAlphaMax, 1e-12, cap);
    ExpectWellFormed(r, kAlphaMax, cap);
  }
}

TEST(ExactLineSearchTest, LooserToleranceNeverTakesMoreSamples) {
  const std::vector<double> tolerances = {1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12};
  for (const Function& f : {Exponential(), Huber(), Quadratic(3.0, 0.05), Quadratic(1.0, 1.3), Kink()}) {
    SCOPED_TRACE(f.name);
    int previous = 0;
    double previous_tol = 0;
    for (double tol : tolerances) {  // Tightening.
      const Outcome r = Search(f, kAlphaMax, tol);
      EXPECT_GE(r.iters, previous) << "tol " << tol << " took " << r.iters << " samples, the looser "
                                   << previous_tol << " took " << previous;
      previous = r.iters;
      previous_tol = tol;
    }
  }
  // And the tolerance does make a difference where ℓ is not piecewise
  // quadratic (there Newton converges but is never exact), so the check
  // above is not vacuous. (Quadratic and Huber: the Newton step that enters
  // the quadratic piece containing α* is exact, whatever the tolerance.)
  EXPECT_LT(Search(Exponential(), kAlphaMax, 1e-1).iters, Search(Exponential(), kAlphaMax, 1e-12).iters);
}

}  // namespace
}  // namespace stiction
