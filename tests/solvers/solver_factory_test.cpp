// The solver factory (engine/solvers/solver_factory.h): every registered
// solver type can be built, wrapped in an IslandSolver; reconfiguring keeps
// the instance for the same type and applies the new parameters (observed
// through what Solve does, not through accessors), and builds a new one for
// another type.
#include "engine/solvers/solver_factory.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>

#include "engine/solvers/canal_solver.h"
#include "engine/solvers/island_solver.h"
#include "engine/solvers/pgs_solver.h"
#include "engine/solvers/sap_solver.h"
#include "engine/solvers/subadmm_solver.h"
#include "tests/solvers/test_problems.h"

namespace stiction {
namespace {

using test::AddPairedCones;
using test::RandomProblem;

// A random problem the exact solvers can read too (they take μ from the
// constraint, not from SAP's cone parameters).
ContactProblem Problem(unsigned seed) {
  ContactProblem p = RandomProblem(seed);
  for (Constraint& c : p.constraints) c.mu = c.cone.mu;
  return p;
}

// The concrete solver behind `solver`, by its dynamic type.
bool IsOfClass(const ContactSolver& solver, SolverType type) {
  switch (type) {
    case SolverType::kSap:
      return dynamic_cast<const SapSolver*>(&solver) != nullptr;
    case SolverType::kCanal:
      return dynamic_cast<const CanalSolver*>(&solver) != nullptr;
    case SolverType::kSubAdmm:
      return dynamic_cast<const SubAdmmSolver*>(&solver) != nullptr;
    case SolverType::kPgs:
      return dynamic_cast<const PgsSolver*>(&solver) != nullptr;
  }
  return false;
}

TEST(SolverFactoryTest, MakesASolverOfEveryRegisteredType) {
  const ContactProblem p = Problem(1);
  for (const SolverTypeInfo& info : SolverTypes()) {
    SCOPED_TRACE(std::string(info.name));
    SolverSettings settings;
    settings.type = info.type;
    const std::unique_ptr<ContactSolver> solver = MakeContactSolver(settings);
    ASSERT_NE(solver, nullptr);
    EXPECT_EQ(solver->type(), info.type);
    // Every solver goes through the island solver (islands serve them all).
    EXPECT_NE(dynamic_cast<IslandSolver*>(solver.get()), nullptr);
    // And it solves: the type is not only reported, the right solver runs
    // (SAP converges on this well-posed problem; the AL solvers return a
    // usable iterate in any case).
    SolverResult r;
    const SolverStatus status = solver->Solve(p, VectorX::Zero(p.num_velocities()), &r);
    EXPECT_TRUE(r.usable) << r.message;
    if (info.type == SolverType::kSap) {
      EXPECT_EQ(status, SolverStatus::kConverged);
    }
    // Only the AL solvers report outer iterations ([CANAL] Alg. 1 and 2).
    EXPECT_EQ(r.outer_iterations > 0, info.augmented_lagrangian) << r.outer_iterations;

    const std::unique_ptr<ContactSolver> single = MakeSingleContactSolver(settings);
    ASSERT_NE(single, nullptr);
    EXPECT_EQ(single->type(), info.type);
    EXPECT_TRUE(IsOfClass(*single, info.type));
    EXPECT_EQ(dynamic_cast<IslandSolver*>(single.get()), nullptr);
  }
}

// ‖A (v − v*) − Jᵀγ‖ over all trees: zero when v is the dynamics of γ.
double MomentumImbalance(const ContactProblem& p, const SolverResult& r) {
  VectorX jt = VectorX::Zero(p.num_velocities());
  for (std::size_t k = 0, row = 0; k < p.constraints.size(); ++k) {
    const Constraint& c = p.constraints[k];
    for (const ConstraintJacobianBlock& b : c.blocks) {
      jt.segment(p.tree_v_start[b.tree], p.tree_nv[b.tree]) += b.J.transpose() * r.gamma.segment(row, c.num_rows);
    }
    row += c.num_rows;
  }
  double sum = 0;
  for (int t = 0; t < p.num_trees(); ++t) {
    const int o = p.tree_v_start[t], n = p.tree_nv[t];
    sum += (p.A[t] * (r.v.segment(o, n) - p.v_star.segment(o, n)) - jt.segment(o, n)).squaredNorm();
  }
  return std::sqrt(sum);
}

TEST(SolverFactoryTest, EverySolverStopsAtAPassedDeadlineWithAUsableAnswer) {
  // A deadline already past: every solver stops after its first iteration
  // (SAP after one Newton step, the others after one outer iteration or
  // sweep), says the budget stopped it, and returns a usable, bounded
  // answer. Two islands (AddPairedCones) so that SAP's island solver must
  // pass the deadline on and merge the flag; every solver needs several
  // iterations here without a deadline (checked first).
  ContactProblem p = RandomProblem(5, /*trees=*/4, /*contacts=*/0);
  AddPairedCones(&p, 6, /*count=*/6, /*pairs=*/2, /*single_every=*/3);
  for (Constraint& c : p.constraints) c.mu = c.cone.mu;
  for (const SolverTypeInfo& info : SolverTypes()) {
    SCOPED_TRACE(std::string(info.name));
    SolverSettings settings;
    settings.type = info.type;
    std::unique_ptr<ContactSolver> solver = MakeContactSolver(settings);
    SolverResult free_run;
    solver->Solve(p, p.v_star, &free_run);
    ASSERT_FALSE(free_run.budget_hit);
    ASSERT_GT(std::max(free_run.iterations, free_run.outer_iterations), 1);
    solver->SetDeadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
    SolverResult r;
    const SolverStatus status = solver->Solve(p, p.v_star, &r);
    EXPECT_TRUE(r.budget_hit);
    EXPECT_TRUE(r.usable) << r.message;
    EXPECT_EQ(status, SolverStatus::kMaxIterations);
    EXPECT_NE(r.message.find("budget"), std::string::npos) << r.message;
    EXPECT_EQ(std::max(r.outer_iterations, info.type == SolverType::kCanal ? 0 : r.iterations), 1);
    EXPECT_TRUE(r.v.allFinite() && r.gamma.allFinite());
    // PGS's v is the dynamics of its impulses at every sweep (round-off of
    // A (v − v*) with O(1) entries and a Cholesky solve).
    if (info.type == SolverType::kPgs) {
      EXPECT_LT(MomentumImbalance(p, r), 1e-9);
    }
    // SAP's Newton step with its line search decreased the convex cost
    // ([SAP] Eq. 24) below the guess v*'s: the answer is bounded.
    if (info.type == SolverType::kSap) {
      EXPECT_LT(test::Cost(p, r.v), test::Cost(p, p.v_star));
    }
    // And without a deadline again, the full solve.
    solver->SetDeadline(std::nullopt);
    solver->Solve(p, p.v_star, &r);
    EXPECT_FALSE(r.budget_hit);
  }
}

TEST(SolverFactoryTest, ConfigureBuildsASolverWhenThereIsNone) {
  std::unique_ptr<ContactSolver> solver;
  SolverSettings settings;
  settings.type = SolverType::kCanal;
  ConfigureContactSolver(settings, &solver);
  ASSERT_NE(solver, nullptr);
  EXPECT_EQ(solver->type(), SolverType::kCanal);
}

TEST(SolverFactoryTest, ConfigureSameTypeKeepsTheInstanceAndAppliesTheParameters) {
  // RandomProblem(2) needs several Newton iterations at SAP's default
  // tolerance (checked first); with a cap of 1 and a tolerance no single
  // iteration can meet, Solve must stop at the cap and, SAP not being an AL
  // solver, say its result is not usable.
  const ContactProblem p = Problem(2);
  const VectorX guess = VectorX::Zero(p.num_velocities());
  SolverSettings settings;
  std::unique_ptr<ContactSolver> solver = MakeContactSolver(settings);
  SolverResult r;
  ASSERT_EQ(solver->Solve(p, guess, &r), SolverStatus::kConverged);
  ASSERT_GT(r.iterations, 1);

  const ContactSolver* const before = solver.get();
  settings.sap.max_iterations = 1;
  settings.sap.relative_tolerance = 1e-15;
  ConfigureContactSolver(settings, &solver);
  EXPECT_EQ(solver.get(), before);
  EXPECT_EQ(solver->Solve(p, guess, &r), SolverStatus::kMaxIterations);
  EXPECT_FALSE(r.usable);
  EXPECT_EQ(r.iterations, 1);

  // And back: the same instance converges again.
  ConfigureContactSolver(SolverSettings{}, &solver);
  EXPECT_EQ(solver.get(), before);
  EXPECT_EQ(solver->Solve(p, guess, &r), SolverStatus::kConverged);
}

TEST(SolverFactoryTest, ConfigureSameTypeAppliesTheAlSolversParameters) {
  // One outer iteration cannot meet a 1e-14 residual on this problem: both
  // AL solvers stop at the cap, and (unlike SAP) call the iterate usable
  // ([CANAL] Sec. V: one AL iteration is already a soft-contact answer).
  const ContactProblem p = Problem(3);
  const VectorX guess = VectorX::Zero(p.num_velocities());
  for (const SolverType type : {SolverType::kCanal, SolverType::kSubAdmm}) {
    SCOPED_TRACE(std::string(SolverTypeName(type)));
    SolverSettings settings;
    settings.type = type;
    std::unique_ptr<ContactSolver> solver = MakeContactSolver(settings);
    const ContactSolver* const before = solver.get();
    SolverResult r;
    solver->Solve(p, guess, &r);
    ASSERT_GT(r.outer_iterations, 1);  // The default cap lets it iterate.
    settings.canal.max_iterations = settings.subadmm.max_iterations = 1;
    settings.canal.tolerance = settings.subadmm.tolerance = 1e-14;
    ConfigureContactSolver(settings, &solver);
    EXPECT_EQ(solver.get(), before);
    EXPECT_EQ(solver->Solve(p, guess, &r), SolverStatus::kMaxIterations);
    EXPECT_EQ(r.outer_iterations, 1);
    EXPECT_TRUE(r.usable);
  }
}

TEST(SolverFactoryTest, ConfigureSameTypeAppliesTheIslandSettings) {
  // Two islands of trees ({0, 1} and {2, 3}): SAP splits them by default;
  // with islands turned off through Configure the same instance solves the
  // problem whole.
  ContactProblem p = RandomProblem(5, /*trees=*/4, /*contacts=*/0);
  AddPairedCones(&p, 6, /*count=*/6, /*pairs=*/2, /*single_every=*/3);
  const VectorX guess = VectorX::Zero(p.num_velocities());
  SolverSettings settings;
  std::unique_ptr<ContactSolver> solver = MakeContactSolver(settings);
  SolverResult r;
  ASSERT_EQ(solver->Solve(p, guess, &r), SolverStatus::kConverged);
  const auto* islands = dynamic_cast<const IslandSolver*>(solver.get());
  ASSERT_NE(islands, nullptr);
  EXPECT_EQ(islands->last_num_islands(), 2);
  settings.sap.islands.enabled = false;
  ConfigureContactSolver(settings, &solver);
  ASSERT_EQ(solver.get(), islands);
  ASSERT_EQ(solver->Solve(p, guess, &r), SolverStatus::kConverged);
  EXPECT_EQ(islands->last_num_islands(), 1);
}

TEST(SolverFactoryTest, ConfigureAnotherTypeReplacesTheSolver) {
  // Every ordered pair of distinct types. The new solver is built before the
  // old one is released, so the addresses cannot coincide by reuse.
  for (const SolverTypeInfo& from : SolverTypes()) {
    for (const SolverTypeInfo& to : SolverTypes()) {
      if (from.type == to.type) continue;
      SCOPED_TRACE(std::string(from.name) + " -> " + std::string(to.name));
      SolverSettings settings;
      settings.type = from.type;
      std::unique_ptr<ContactSolver> solver = MakeContactSolver(settings);
      const ContactSolver* const before = solver.get();
      settings.type = to.type;
      ConfigureContactSolver(settings, &solver);
      ASSERT_NE(solver, nullptr);
      EXPECT_NE(solver.get(), before);
      EXPECT_EQ(solver->type(), to.type);
    }
  }
}

TEST(SolverFactoryTest, UsesWarmStartFollowsTheAlSolversFlag) {
  // The stepper fills the constraints' warm-start values only when the
  // solver reads them: the AL solvers by their warm_start flag (on by
  // default, [CANAL] Sec. V-D), SAP never (it starts from v_guess alone).
  SolverSettings settings;
  EXPECT_FALSE(MakeContactSolver(settings)->UsesWarmStart());
  settings.sap.islands.enabled = false;  // Nor the single SAP solver inside.
  EXPECT_FALSE(MakeContactSolver(settings)->UsesWarmStart());
  for (const SolverType type : {SolverType::kCanal, SolverType::kSubAdmm}) {
    SCOPED_TRACE(std::string(SolverTypeName(type)));
    settings = {};
    settings.type = type;
    std::unique_ptr<ContactSolver> solver = MakeContactSolver(settings);
    EXPECT_TRUE(solver->UsesWarmStart());
    settings.canal.warm_start = settings.subadmm.warm_start = false;
    ConfigureContactSolver(settings, &solver);
    EXPECT_FALSE(solver->UsesWarmStart());
    EXPECT_FALSE(MakeContactSolver(settings)->UsesWarmStart());
    // Only that solver's own flag counts.
    settings.canal.warm_start = type != SolverType::kCanal;
    settings.subadmm.warm_start = type != SolverType::kSubAdmm;
    ConfigureContactSolver(settings, &solver);
    EXPECT_FALSE(solver->UsesWarmStart());
    settings.canal.warm_start = settings.subadmm.warm_start = true;
    ConfigureContactSolver(settings, &solver);
    EXPECT_TRUE(solver->UsesWarmStart());
  }
}

}  // namespace
}  // namespace stiction
