// The solver-independent NCP residual (engine/solvers/ncp_residual.h,
// [CANAL] Sec. VII-A): zero on the analytic solutions of a point mass on the
// ground (resting, sliding), the exact figure on impulses that break
// Signorini or Coulomb, and on random problems CANAL's converged impulses
// satisfy the NCP far better than one AL iteration or SAP's regularized
// ones.
#include "engine/solvers/ncp_residual.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/solvers/canal_solver.h"
#include "engine/solvers/sap_solver.h"
#include "tests/solvers/test_problems.h"

namespace stiction {
namespace {

constexpr double kMass = 2.0;   // [kg]
constexpr double kDt = 0.01;    // [s]
constexpr double kG = 9.81;     // [m/s²]
constexpr double kMu = 0.5;
constexpr double kRecovery = 0.2;

ContactProblem PointMassOnGround(double vx) { return test::PointMassOnGround(kMass, kDt, kMu, vx); }

// Round-off of products of O(1) numbers.
constexpr double kRoundOff = 1e-14;

TEST(NcpResidualTest, ZeroOnTheRestingSolution) {
  // γ = (0, 0, m g δt): v̂ = 0, no penetration velocity, no slip.
  const ContactProblem p = PointMassOnGround(0);
  NcpResidual residual;
  EXPECT_LT(residual.Calc(p, Vector3(0, 0, kMass * kG * kDt), kRecovery), kRoundOff);
}

TEST(NcpResidualTest, ZeroOnTheSlidingSolutionWithFrictionOnTheConeBoundary) {
  // Sliding at 1 m/s: γ_n = m g δt, γ_t = −μ γ_n x̂, and v̂_x = 1 − μ g δt > 0.
  const ContactProblem p = PointMassOnGround(1.0);
  const double gn = kMass * kG * kDt;
  NcpResidual residual;
  EXPECT_LT(residual.Calc(p, Vector3(-kMu * gn, 0, gn), kRecovery), kRoundOff);
}

TEST(NcpResidualTest, NoImpulseIsOffByThePenetrationVelocity) {
  // γ = 0: v̂ = v*, the normal row approaches at g δt and the natural map
  // there is min(γ_n, w_n) = −g δt; the tangential rows are zero.
  const ContactProblem p = PointMassOnGround(0);
  NcpResidual residual;
  EXPECT_NEAR(residual.Calc(p, Vector3::Zero(), kRecovery), kG * kDt, kRoundOff);
}

TEST(NcpResidualTest, StickingOutsideTheConeIsOffByTheExcessFriction) {
  // Stopping a 1 m/s slide in one step needs γ_t = −m · 1 N s, more than
  // μ γ_n allows: v̂ = 0, so w = 0 and the natural map is γ − T(γ), the part
  // of γ_t outside the disk: m · 1 − μ m g δt.
  const ContactProblem p = PointMassOnGround(1.0);
  const double gn = kMass * kG * kDt;
  NcpResidual residual;
  EXPECT_NEAR(residual.Calc(p, Vector3(-kMass * 1.0, 0, gn), kRecovery), kMass * 1.0 - kMu * gn, kRoundOff);
}

TEST(NcpResidualTest, OverlapRecoveryEntersTheNormalRow) {
  // Overlapping by 1 mm: e = recovery φ0/δt; resting impulse plus what
  // pushes out at −e over the step satisfies it, plain resting does not.
  ContactProblem p = PointMassOnGround(0);
  p.constraints[0].phi0 = -1e-3;
  const double e = kRecovery * -1e-3 / kDt;
  NcpResidual residual;
  EXPECT_LT(residual.Calc(p, Vector3(0, 0, kMass * (kG * kDt - e)), kRecovery), kRoundOff);
  EXPECT_NEAR(residual.Calc(p, Vector3(0, 0, kMass * kG * kDt), kRecovery), std::abs(e), kRoundOff);
}

// CANAL converges to the exact NCP: its impulses at a tight tolerance have
// a residual orders of magnitude below one AL iteration's and below SAP's,
// whose regularization (R γ ≠ 0) is a model error the exact NCP sees.
TEST(NcpResidualTest, CanalConvergedBeatsOneIterationAndSap) {
  NcpResidual residual;
  for (unsigned seed = 1; seed <= 5; ++seed) {
    ContactProblem p = test::RandomProblem(seed);
    for (Constraint& c : p.constraints) c.mu = c.cone.mu;
    CanalSolverParameters tight;
    tight.tolerance = 1e-10;
    tight.max_iterations = 100;
    CanalSolverParameters one = tight;
    one.max_iterations = 1;
    SolverResult converged, first, sap;
    CanalSolver(tight).Solve(p, p.v_star, &converged);
    CanalSolver(one).Solve(p, p.v_star, &first);
    ASSERT_EQ(SapSolver().Solve(p, p.v_star, &sap), SolverStatus::kConverged);
    ASSERT_TRUE(converged.usable) << converged.message;
    const double r_converged = residual.Calc(p, converged.gamma, tight.penetration_recovery);
    const double r_first = residual.Calc(p, first.gamma, tight.penetration_recovery);
    const double r_sap = residual.Calc(p, sap.gamma, tight.penetration_recovery);
    SCOPED_TRACE(testing::Message() << "seed " << seed << ": CANAL converged " << r_converged << ", one iteration "
                                    << r_first << ", SAP " << r_sap);
    // CANAL stops when J v changes by < 1e-10 m/s between AL iterations;
    // 1e-8 is the paper's figure for a converged CANAL.
    EXPECT_LT(r_converged, 1e-8);
    EXPECT_LT(r_converged, 1e-3 * r_first);
    EXPECT_LT(r_converged, 1e-3 * r_sap);
  }
}

}  // namespace
}  // namespace stiction
