// Projected Gauss–Seidel (engine/solvers/pgs_solver.h), the per-contact
// baseline of [CANAL] Sec. VII: the analytic impulses of a point mass at
// rest and sliding; the regularized formulation converging to SAP's
// solution (the same convex problem, [SAP] Eq. 22, from its dual side); the
// exact formulation satisfying the NCP on random problems; the paper's
// finding that PGS stalls on a large mass ratio where CANAL converges; SOR;
// the iteration cap; degenerate and non-finite input.
#include "engine/solvers/pgs_solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "engine/solvers/canal_solver.h"
#include "engine/solvers/ncp_residual.h"
#include "engine/solvers/one_contact_solver.h"
#include "engine/solvers/sap_solver.h"
#include "tests/solvers/test_problems.h"

namespace stiction {
namespace {

constexpr double kG = 9.81;   // [m/s²], as test::PointMassOnGround.
constexpr double kDt = 0.01;  // [s]

PgsSolverParameters Tight(bool regularized) {
  PgsSolverParameters p;
  p.regularized = regularized;
  p.tolerance = 1e-12;
  p.max_iterations = 100000;
  p.warm_start = false;
  return p;
}

TEST(OneContactSolverTest, SolvesRandomOneContactProblemsExactly) {
  // Random SPD W (condition numbers up to ~1e3, strong normal-tangent
  // coupling), free velocities c and μ: every case (take-off, stick, slide)
  // occurs, and the answer satisfies Signorini–Coulomb to round-off.
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  int stick = 0, slide = 0, takeoff = 0;
  for (int i = 0; i < 2000; ++i) {
    const Matrix3 B = Matrix3::NullaryExpr([&] { return u(gen); });
    const Matrix3 W = B * B.transpose() + 1e-3 * Matrix3::Identity();
    const Vector3 c = Vector3::NullaryExpr([&] { return u(gen); });
    const double mu = 1.2 * std::abs(u(gen));
    const OneContactSolution s = SolveOneContact(W, c, mu);
    SCOPED_TRACE(testing::Message() << "case " << i << ": W = " << W << ", c = " << c.transpose() << ", mu = " << mu);
    ASSERT_TRUE(s.exact);
    const Vector3 v = c + W * s.gamma;
    // Round-off of u = c + W γ: |γ| reaches ~1e3 where W is nearly singular.
    const double tol = 1e-10 * (1 + s.gamma.norm());
    EXPECT_LT(OneContactResidual(W, c, mu, s.gamma), tol);
    EXPECT_GE(s.gamma.z(), 0);
    EXPECT_GE(v.z(), -tol);
    EXPECT_LE(s.gamma.head<2>().norm(), mu * s.gamma.z() + tol);
    if (s.gamma.z() == 0) {
      ++takeoff;
    } else if (v.head<2>().norm() < tol) {
      ++stick;
    } else {
      ++slide;
      // Maximal dissipation: friction opposes the slip.
      EXPECT_NEAR(s.gamma.head<2>().dot(v.head<2>()), -s.gamma.head<2>().norm() * v.head<2>().norm(), tol);
    }
  }
  EXPECT_GT(takeoff, 100);
  EXPECT_GT(stick, 100);
  EXPECT_GT(slide, 100);
}

TEST(PgsSolverTest, RestingPointMassGetsItsWeightAndStops) {
  const ContactProblem p = test::PointMassOnGround(2.0, kDt, 0.5, 0.0);
  SolverResult r;
  ASSERT_EQ(PgsSolver(Tight(false)).Solve(p, p.v_star, &r), SolverStatus::kConverged) << r.message;
  // One contact: the local problem is the whole problem, solved in the
  // first sweep; the second sees no change. Round-off of O(1) products.
  EXPECT_LE(r.iterations, 2);
  EXPECT_NEAR(r.gamma[2], 2.0 * kG * kDt, 1e-14);
  EXPECT_NEAR(r.gamma.head<2>().norm(), 0.0, 1e-14);
  EXPECT_NEAR(r.v.norm(), 0.0, 1e-14);
}

TEST(PgsSolverTest, SlidingPointMassGetsMaximalDissipationFriction) {
  // v* = (1, 0, −g δt): the friction impulse μ m g δt = 0.098 N s cannot stop
  // 2 kg at 1 m/s, so it slides: γ_t = −μ γ_n along x, v_x = 1 − μ g δt.
  const double m = 2.0, mu = 0.5;
  const ContactProblem p = test::PointMassOnGround(m, kDt, mu, 1.0);
  SolverResult r;
  ASSERT_EQ(PgsSolver(Tight(false)).Solve(p, p.v_star, &r), SolverStatus::kConverged) << r.message;
  EXPECT_NEAR(r.gamma[2], m * kG * kDt, 1e-13);
  EXPECT_NEAR(r.gamma[0], -mu * m * kG * kDt, 1e-13);
  EXPECT_NEAR(r.gamma[1], 0.0, 1e-13);
  EXPECT_NEAR(r.v[0], 1.0 - mu * kG * kDt, 1e-13);
  EXPECT_NEAR(r.v[2], 0.0, 1e-13);
}

TEST(PgsSolverTest, RegularizedFormulationConvergesToSapsSolution) {
  // Block Gauss–Seidel on the dual of SAP's strongly convex problem: the
  // same minimizer v. SAP is run to ε_r = 1e-12; PGS stops when no
  // constraint velocity changes by 1e-9 m/s in a sweep (tighter is below
  // round-off here: Rt = 1e-6 s/kg turns a 1e-16 m/s error of a local solve
  // into a 1e-10 N s impulse).
  for (unsigned seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    const ContactProblem p = test::RandomProblem(seed);
    SapSolverParameters sap_params;
    sap_params.relative_tolerance = 1e-12;
    SolverResult sap, pgs;
    ASSERT_EQ(SapSolver(sap_params).Solve(p, p.v_star, &sap), SolverStatus::kConverged);
    PgsSolverParameters params = Tight(true);
    params.tolerance = 1e-9;
    ASSERT_EQ(PgsSolver(params).Solve(p, p.v_star, &pgs), SolverStatus::kConverged) << pgs.message;
    EXPECT_LT((pgs.v - sap.v).norm(), 1e-7 * (1 + sap.v.norm()));
    EXPECT_LT((pgs.gamma - sap.gamma).norm(), 1e-6 * (1 + sap.gamma.norm()));
    // v is the dynamics of PGS's impulses: A (v − v*) = Jᵀ γ.
    EXPECT_LT(pgs.momentum_error, 1e-12);
  }
}

TEST(PgsSolverTest, ExactFormulationSatisfiesTheNcpOnRandomProblems) {
  // Contacts, a joint limit and a soft PD row (canal_solver_test's mix is
  // not reused here: test::RandomProblem with fewer contacts than DOFs, so
  // that the NCP has an isolated solution PGS converges to).
  NcpResidual residual;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    ContactProblem p = test::RandomProblem(seed, /*trees=*/3, /*contacts=*/4);
    for (Constraint& c : p.constraints) c.mu = c.cone.mu;
    const PgsSolverParameters params = Tight(false);
    SolverResult r;
    ASSERT_EQ(PgsSolver(params).Solve(p, p.v_star, &r), SolverStatus::kConverged) << r.message;
    // The natural-map residual of [CANAL] Sec. VII-A; 1e-8 is the paper's
    // figure for a converged solve, the sweep tolerance is 1e-12 m/s.
    EXPECT_LT(residual.Calc(p, r.gamma, params.penetration_recovery), 1e-8);
    EXPECT_LT(r.momentum_error, 1e-12);
  }
}

ContactProblem Stack(double m_bottom, double m_top) { return test::PointMassStack(m_bottom, m_top, kDt); }

TEST(PgsSolverTest, StallsUnderAHeavyBodyOnALightOneWhereCanalConverges) {
  // [CANAL] Sec. VII-B: a 5 kg pot on 0.1 kg plates. Gauss–Seidel on this
  // two-contact stack contracts the error by ρ = 1/(1 + m_bottom/m_top) =
  // 0.98 per sweep, so 100 sweeps (the default cap) leave 0.98^100 ≈ 13 %
  // of the top's impulse unresolved; CANAL's Newton steps do not care.
  const ContactProblem p = Stack(0.1, 5.0);
  const double top = 5.0 * kG * kDt;
  NcpResidual residual;
  PgsSolverParameters pgs_params;
  pgs_params.tolerance = 1e-10;
  SolverResult pgs, canal;
  EXPECT_EQ(PgsSolver(pgs_params).Solve(p, p.v_star, &pgs), SolverStatus::kMaxIterations);
  EXPECT_TRUE(pgs.usable);
  EXPECT_EQ(pgs.iterations, pgs_params.max_iterations);
  EXPECT_NE(pgs.message.find("PGS did not reach"), std::string::npos) << pgs.message;
  CanalSolverParameters canal_params;
  canal_params.tolerance = 1e-10;
  CanalSolver(canal_params).Solve(p, p.v_star, &canal);
  ASSERT_TRUE(canal.usable) << canal.message;
  const double r_pgs = residual.Calc(p, pgs.gamma, pgs_params.penetration_recovery);
  const double r_canal = residual.Calc(p, canal.gamma, canal_params.penetration_recovery);
  SCOPED_TRACE(testing::Message() << "PGS " << r_pgs << ", CANAL " << r_canal);
  EXPECT_GT(r_pgs, 1e-4);
  EXPECT_LT(r_canal, 1e-8);
  // The unresolved part is the predicted fraction of the top's weight
  // (between 5 % and 30 % of it: ρ^100 = 0.133 with ρ's spread over the
  // first sweeps, which start from γ = 0).
  const double missing = (top - pgs.gamma[5]) / top;
  EXPECT_GT(missing, 0.05);
  EXPECT_LT(missing, 0.3);
  EXPECT_NEAR(canal.gamma[5], top, 1e-8);
}

TEST(PgsSolverTest, OverRelaxationSpeedsUpTheStack) {
  // SOR theory for this 2×2 block system: the optimal ω = 2/(1 + √(1 − ρ))
  // ≈ 1.75 turns ρ = 0.98 into ω − 1 ≈ 0.75 per sweep.
  const ContactProblem p = Stack(0.1, 5.0);
  PgsSolverParameters gs = Tight(false), sor = Tight(false);
  gs.tolerance = sor.tolerance = 1e-10;
  sor.relaxation = 1.75;
  SolverResult a, b;
  ASSERT_EQ(PgsSolver(gs).Solve(p, p.v_star, &a), SolverStatus::kConverged);
  ASSERT_EQ(PgsSolver(sor).Solve(p, p.v_star, &b), SolverStatus::kConverged);
  SCOPED_TRACE(testing::Message() << "Gauss-Seidel " << a.iterations << " sweeps, SOR " << b.iterations);
  EXPECT_LT(b.iterations * 5, a.iterations);
  EXPECT_NEAR(b.gamma[5], 5.0 * kG * kDt, 1e-8);
  EXPECT_NEAR(b.gamma[2], 5.1 * kG * kDt, 1e-8);
}

TEST(PgsSolverTest, WarmStartFromTheSolutionStopsAtOnce) {
  ContactProblem p = Stack(0.1, 5.0);
  PgsSolverParameters params = Tight(false);
  params.warm_start = true;
  SolverResult first, second;
  params.tolerance = 1e-10;
  ASSERT_EQ(PgsSolver(params).Solve(p, p.v_star, &first), SolverStatus::kConverged);
  ASSERT_GT(first.iterations, 10);
  for (size_t k = 0; k < p.constraints.size(); ++k) p.constraints[k].warm_gamma = first.gamma.segment(3 * k, 3);
  ASSERT_EQ(PgsSolver(params).Solve(p, p.v_star, &second), SolverStatus::kConverged);
  EXPECT_LE(second.iterations, 2);
}

TEST(PgsSolverTest, AConstraintNoImpulseCanMoveGetsNone) {
  // A zero Jacobian (W_ii = 0): the exact formulation leaves γ = 0, the
  // regularized one gives the model's impulse at the free velocity; both
  // stay finite (the zero-Delassus inputs of the fuzzer).
  for (const bool regularized : {false, true}) {
    SCOPED_TRACE(regularized ? "regularized" : "exact");
    ContactProblem p = test::PointMassOnGround(2.0, kDt, 0.5, 0.0);
    p.constraints[0].blocks[0].J.setZero();
    p.constraints[0].cone.Rn = p.constraints[0].cone.Rt = 1e-3;
    SolverResult r;
    EXPECT_EQ(PgsSolver(Tight(regularized)).Solve(p, p.v_star, &r), SolverStatus::kConverged) << r.message;
    EXPECT_TRUE(r.gamma.allFinite());
    EXPECT_TRUE(r.v.isApprox(p.v_star));
  }
}

TEST(PgsSolverTest, NonFiniteInputIsReportedNotPropagated) {
  ContactProblem p = test::PointMassOnGround(2.0, kDt, 0.5, 0.0);
  p.v_star[0] = std::numeric_limits<double>::quiet_NaN();
  SolverResult r;
  EXPECT_EQ(PgsSolver().Solve(p, p.v_star, &r), SolverStatus::kNonFinite);
  EXPECT_FALSE(r.usable);
  EXPECT_NE(r.message.find("PGS"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace stiction
