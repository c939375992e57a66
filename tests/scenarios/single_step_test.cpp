// The single-step findings of [CANAL] Sec. VII-A1/VII-B1 that hold for our
// solvers, on a few of the problems of stiction-single-step
// (bench/single_step/; the full 10 × 10 comparison and its figures are in
// docs/benchmarks.md): CANAL reaches an NCP residual of 1e-8 within 24 AL
// iterations on the plates under a heavy pot, and PGS stalls far above it
// there (a mass ratio of 50); in the parallel grasp within 32 iterations;
// in the clutter pile to ~1e-8. The timing claims (SubADMM fastest to
// moderate accuracy) are the bench's.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bench/single_step/sample_problems.h"
#include "engine/solvers/canal_solver.h"
#include "engine/solvers/ncp_residual.h"
#include "engine/solvers/pgs_solver.h"

namespace stiction {
namespace {

const std::string kScenes = std::string(STICTION_SOURCE_DIR) + "/assets/scenes";

bench::ProblemFamily Family(const std::string& key) {
  for (const bench::ProblemFamily& f : bench::SingleStepFamilies(kScenes)) {
    if (f.key == key) return f;
  }
  ADD_FAILURE() << "no family " << key;
  return {};
}

// The residual of CANAL's answer after at most `cap` AL iterations.
double CanalResidual(const ContactProblem& p, int cap) {
  CanalSolverParameters params;
  params.max_iterations = cap;
  params.tolerance = 1e-12;
  params.warm_start = false;
  SolverResult r;
  CanalSolver(params).Solve(p, p.v_star, &r);
  return NcpResidual().Calc(p, r.gamma, params.penetration_recovery);
}

TEST(SingleStepTest, CanalReachesTheNcpToOneEMinusEightUnderTheHeavyPot) {
  const std::vector<ContactProblem> problems = bench::SampleProblems(Family("dish_pile"), 2, 3, 1);
  ASSERT_EQ(problems.size(), 6u);
  for (const ContactProblem& p : problems) {
    ASSERT_FALSE(p.constraints.empty());
    const double early = CanalResidual(p, 8), converged = CanalResidual(p, 24);
    SCOPED_TRACE(testing::Message() << p.constraints.size() << " constraints: 8 AL iterations " << early
                                    << ", 24: " << converged);
    // [CANAL] Sec. VII-A1: ≤ 1e-8 in about 10 iterations. Here within 24
    // (measured 7e-10 to 9e-12; 5 of these 6 within 16): the per-constraint
    // penalty starts softer than the paper's β = 1e4 kg on 0.1 kg plates
    // (ρ = 40 against ~1e5) and spends a few iterations raising it, which is
    // what made the clutter converge (docs/solvers.md, "CANAL in piles").
    EXPECT_LT(converged, 1e-8);
    // Still converging fast past the first iterations, not stalled: from 8
    // to 24 iterations the residual fell by 1.8e3 to 3e6 on these problems.
    EXPECT_LT(converged, 1e-2 * early);
  }
}

TEST(SingleStepTest, CanalReachesOneEMinusEightInTheGraspWithin32Iterations) {
  // A box squeezed by two pads whose PD rows saturate. Before the
  // per-constraint penalty CANAL stalled here at 5e-8 to 1e-6 after 16 AL
  // iterations; now it reaches 1e-8 (measured: 3e-10 to 3e-15 after 32
  // iterations, 1e-11 to 6e-7 after 16).
  const std::vector<ContactProblem> problems = bench::SampleProblems(Family("grasp"), 2, 3, 1);
  ASSERT_EQ(problems.size(), 6u);
  for (const ContactProblem& p : problems) {
    const double first = CanalResidual(p, 1), converged = CanalResidual(p, 32);
    SCOPED_TRACE(testing::Message() << "1 AL iteration " << first << ", 32: " << converged);
    EXPECT_LT(converged, 1e-8);
    EXPECT_LT(converged, 1e-6 * first);  // Measured: at least 1.9e8 times smaller.
  }
}

TEST(SingleStepTest, CanalConvergesInTheClutterPile) {
  // Issue 18's case: the 40-object pile, where CANAL used to stop at its AL
  // cap (14 of 100 single-step problems reached 1e-8 within 32 iterations).
  // Measured on these 6 problems: 1e-3 to 5e-4 after 1 iteration, 9.1e-9 to
  // 2e-9 after 24, where it levels off (the 9.1e-9 of the first state is its
  // floor: 24, 32 and 48 iterations give the same figure). 1e-7: ten times
  // that floor, two orders below the 1e-5 that CANAL used to stop at here.
  const std::vector<ContactProblem> problems = bench::SampleProblems(Family("clutter"), 2, 3, 1);
  ASSERT_EQ(problems.size(), 6u);
  for (const ContactProblem& p : problems) {
    const double first = CanalResidual(p, 1), converged = CanalResidual(p, 24);
    SCOPED_TRACE(testing::Message() << p.constraints.size() << " constraints: 1 AL iteration " << first
                                    << ", 24: " << converged);
    EXPECT_LT(converged, 1e-7);
    EXPECT_LT(converged, 1e-4 * first);  // Measured: at least 2e5 times smaller.
  }
}

TEST(SingleStepTest, PgsStallsUnderTheHeavyPotWhereCanalConverges) {
  // [CANAL] Sec. VII-B: PGS fails on the light dishes under a heavy pot.
  // At its default 100 sweeps the median residual stays above 1e-5 (the
  // bench measures 2.7e-4 (median) after 256 sweeps), four orders above CANAL's.
  const std::vector<ContactProblem> problems = bench::SampleProblems(Family("dish_pile"), 2, 3, 1);
  std::vector<double> pgs, canal;
  for (const ContactProblem& p : problems) {
    PgsSolverParameters params;
    params.warm_start = false;
    SolverResult r;
    PgsSolver(params).Solve(p, p.v_star, &r);
    pgs.push_back(NcpResidual().Calc(p, r.gamma, params.penetration_recovery));
    canal.push_back(CanalResidual(p, 16));
  }
  std::sort(pgs.begin(), pgs.end());
  std::sort(canal.begin(), canal.end());
  const double pgs_median = 0.5 * (pgs[2] + pgs[3]), canal_median = 0.5 * (canal[2] + canal[3]);
  SCOPED_TRACE(testing::Message() << "median PGS " << pgs_median << ", CANAL " << canal_median);
  EXPECT_GT(pgs_median, 1e-5);
  EXPECT_GT(pgs_median, 1e4 * canal_median);
}

}  // namespace
}  // namespace stiction
