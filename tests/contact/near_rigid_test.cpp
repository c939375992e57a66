// The near-rigid regularization helpers of [SAP] Sec. V-B against Eq. (29)
// and its physical reading: a constraint with Delassus estimate w (effective
// mass 1/w) regularized by R behaves like a spring of stiffness 1/(δt² R)
// on that mass; β picks the stiffest spring δt resolves (period β δt) and
// τd = β δt/π is the critical damping of that spring. π is taken from
// <numbers> here, not from the engine's constant.
#include "engine/contact/near_rigid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace stiction {
namespace {

constexpr double kTestPi = std::numbers::pi;

// Every helper is a product or quotient of 2–4 doubles: its round-off is a
// few ulp, so 1e-14 relative is tight yet robust to operation order.
constexpr double kRoundOff = 1e-14;

TEST(NearRigidTest, FactorIsEq29) {
  // [SAP] Eq. (29): R = β²/(4π²) w; the factor is β²/(4π²).
  for (const double beta : {0.0, 0.1, 1.0, 2.5, 10.0}) {
    const double expected = beta * beta / (4 * kTestPi * kTestPi);
    EXPECT_NEAR(NearRigidFactor(beta), expected, kRoundOff * expected) << beta;
  }
  // β = 2π is the point where the factor is exactly 1: R = w.
  EXPECT_NEAR(NearRigidFactor(2 * kTestPi), 1.0, kRoundOff);
}

TEST(NearRigidTest, RegularizationIsFactorTimesDelassus) {
  for (const double beta : {0.3, 1.0, 4.0}) {
    for (const double w : {1e-3, 0.5, 2.0, 1e4}) {  // [s/kg]: heavy to light.
      const double expected = beta * beta / (4 * kTestPi * kTestPi) * w;
      EXPECT_NEAR(NearRigidRegularization(beta, w), expected, kRoundOff * expected) << beta << " " << w;
      // Without a physical compliance the rigid helper agrees whenever the
      // factor is above its floor (here it is ≥ 2e-3).
      EXPECT_NEAR(RigidConstraintRegularization(beta, w), expected, kRoundOff * expected) << beta << " " << w;
    }
  }
}

TEST(NearRigidTest, DissipationTimeIsBetaDtOverPi) {
  // Sec. V-B: τd = β δt/π.
  for (const double beta : {0.0, 0.5, 1.0, 3.0}) {
    for (const double dt : {1e-4, 1e-3, 1e-2}) {
      const double expected = beta * dt / kTestPi;
      EXPECT_NEAR(NearRigidDissipationTime(beta, dt), expected, kRoundOff * expected) << beta << " " << dt;
    }
  }
}

TEST(NearRigidTest, SpringOfPeriodBetaDtOnTheEffectiveMass) {
  // The meaning of Eq. (29): a row regularized by R responds like a spring
  // of stiffness k = 1/(δt² R) (R = 1/(δt² k) is the compliance of a spring
  // without dissipation, Eq. 29's second argument with τd = 0) acting on
  // the effective mass m = 1/w. Its natural frequency ω = √(k/m) must give
  // the period T = 2π/ω = β δt, and τd must be critical damping:
  // c = τd k = 2√(k m) (damping force k τd ẋ, as in Sec. V-A).
  for (const double beta : {0.25, 1.0, 2.0}) {
    for (const double dt : {1e-3, 1e-2}) {
      for (const double w : {0.01, 1.0, 50.0}) {
        const double R = NearRigidRegularization(beta, w);
        const double k = 1 / (dt * dt * R);
        const double m = 1 / w;
        const double omega = std::sqrt(k / m);
        const double period = 2 * kTestPi / omega;
        // A square root and ~6 products: still a few ulp; 1e-13 relative.
        EXPECT_NEAR(period, beta * dt, 1e-13 * beta * dt) << beta << " " << dt << " " << w;
        const double tau_d = NearRigidDissipationTime(beta, dt);
        const double critical = 2 * std::sqrt(k * m);
        EXPECT_NEAR(tau_d * k, critical, 1e-13 * critical) << beta << " " << dt << " " << w;
        // The same holds for the rigid-constraint helper above its floor.
        const double k_rigid = 1 / (dt * dt * RigidConstraintRegularization(beta, w));
        EXPECT_NEAR(2 * kTestPi / std::sqrt(k_rigid / m), beta * dt, 1e-13 * beta * dt);
      }
    }
  }
}

TEST(NearRigidTest, RigidConstraintsAreFlooredForBetaZero) {
  // β = 0 asks for an infinitely stiff row: contacts then fall back to their
  // physical compliance, but limits and welds have none, so their factor is
  // floored at 1e-12 to keep R > 0 (the cost must stay strictly convex).
  EXPECT_EQ(kMinNearRigidFactor, 1e-12);
  for (const double w : {1e-3, 1.0, 1e3}) {
    EXPECT_EQ(NearRigidRegularization(0.0, w), 0.0);
    const double floored = 1e-12 * w;
    EXPECT_NEAR(RigidConstraintRegularization(0.0, w), floored, kRoundOff * floored);
    EXPECT_GT(RigidConstraintRegularization(0.0, w), 0.0);
    // The floor also holds just below the crossover β* = 2π·1e-6, where
    // β*²/(4π²) = 1e-12, and gives way to Eq. (29) just above it.
    const double beta_star = 2 * kTestPi * 1e-6;
    EXPECT_NEAR(RigidConstraintRegularization(0.5 * beta_star, w), floored, kRoundOff * floored);
    const double above = 4e-12 * w;  // (2β*)²/(4π²) = 4e-12.
    EXPECT_NEAR(RigidConstraintRegularization(2 * beta_star, w), above, kRoundOff * above);
  }
  // No dissipation time without β: v̂ = −φ/δt (a full correction per step).
  EXPECT_EQ(NearRigidDissipationTime(0.0, 1e-3), 0.0);
}

TEST(NearRigidTest, LoadFactorIsClampedToOneAndTheCap) {
  // Eq. (L1): λ = clamp(w γ ℓ/(a δt), 1, λ_max); the raw value comes from
  // ConstraintAssembly::RawLoadFactor.
  ContactModelParameters p;
  p.max_load_factor = 1e3;
  EXPECT_EQ(ClampLoadFactor(0.0, p), 1.0);     // Nothing carried.
  EXPECT_EQ(ClampLoadFactor(0.65, p), 1.0);    // A box's corner under its own weight: never softer.
  EXPECT_EQ(ClampLoadFactor(250.0, p), 250.0);
  EXPECT_EQ(ClampLoadFactor(5e3, p), 1e3);     // The cap bounds the conditioning.
  EXPECT_EQ(ClampLoadFactor(std::nan(""), p), 1.0);
  EXPECT_EQ(ClampLoadFactor(HUGE_VAL, p), 1.0);
  // Off: [SAP] Eq. (29) as published, whatever the load.
  p.load_aware_regularization = false;
  EXPECT_EQ(ClampLoadFactor(250.0, p), 1.0);
}

TEST(NearRigidTest, LoadFactorRestoresTheOwnWeightViolation) {
  // At rest a row with R = β²/(4π²) w/λ carrying γ holds φ = γ R (δt + τd)
  // (v = 0 in γ = R⁻¹(v̂ − v), v̂ = −φ/(δt + τd)). With λ = w γ/(a δt) this
  // is φ₀ = β²/(4π²) a δt (δt + τd) for every load above the own weight.
  const double beta = 1, dt = 0.01, a = 9.81, tau_d = NearRigidDissipationTime(beta, dt);
  const double phi0 = NearRigidFactor(beta) * a * dt * (dt + tau_d);
  ContactModelParameters p;
  const double w = 100;  // A 10 g body.
  for (const double load_mass : {0.02, 1.0, 5.0, 50.0}) {
    const double gamma = load_mass * a * dt;
    const double lambda = ClampLoadFactor(w * gamma / (a * dt), p);
    const double phi = gamma * NearRigidRegularization(beta, w / lambda) * (dt + tau_d);
    EXPECT_NEAR(phi, phi0, kRoundOff * 10 * phi0) << load_mass;
  }
}

}  // namespace
}  // namespace stiction
