// The single-step findings of [CANAL] Sec. VII-A1/VII-B1 that hold for our
// solvers, on a few of the problems of stiction-single-step
// (bench/single_step/; the full 10 × 10 comparison and its figures are in
// docs/benchmarks.md): CANAL reaches an NCP residual of 1e-8 within 16 AL
// iterations on the plates under a heavy pot, and PGS stalls far above it
// there (a mass ratio of 50); in the parallel grasp CANAL falls short of
// 1e-8. The timing claims (SubADMM fastest to moderate accuracy) are the
// bench's.
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
    const double first = CanalResidual(p, 1), converged = CanalResidual(p, 16);
    SCOPED_TRACE(testing::Message() << p.constraints.size() << " constraints: 1 AL iteration " << first
                                    << ", 16: " << converged);
    // [CANAL] Sec. VII-A1: ≤ 1e-8 in about 10 iterations (here 1e-11).
    EXPECT_LT(converged, 1e-8);
    EXPECT_LT(converged, 1e-6 * first);
  }
}

TEST(SingleStepTest, CanalGainsFourOrdersInTheGraspButNotTheLastFour) {
  // Where the paper's finding does not hold: in the grasp (a box squeezed
  // by two pads whose PD rows saturate) CANAL's residual after 16 AL
  // iterations is 5e-8 to 1e-6, and more iterations do not bring it to
  // 1e-8 reliably (docs/benchmarks.md, "Single-step tests"). What holds is
  // the first four orders of magnitude.
  const std::vector<ContactProblem> problems = bench::SampleProblems(Family("grasp"), 2, 3, 1);
  ASSERT_EQ(problems.size(), 6u);
  for (const ContactProblem& p : problems) {
    const double first = CanalResidual(p, 1), converged = CanalResidual(p, 16);
    SCOPED_TRACE(testing::Message() << "1 AL iteration " << first << ", 16: " << converged);
    EXPECT_LT(converged, 1e-5);
    EXPECT_LT(converged, 1e-4 * first);
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
