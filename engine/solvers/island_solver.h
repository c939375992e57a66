#pragma once
// Any contact solver, island by island (islands.h): a problem with several
// islands is solved as that many problems, optionally on two threads, and
// the results merged in island order; a problem with one island (or with
// islands turned off) goes to the solver whole. The solver factory wraps
// every solver in one, with the island settings of the solver's type
// (IslandParameters: on by default for SAP, off for CANAL and SubADMM).
#include <memory>
#include <vector>

#include "engine/solvers/contact_solver.h"
#include "engine/solvers/islands.h"

namespace stiction {

class IslandSolver final : public ContactSolver {
 public:
  /// Solves with solvers of settings.type (settings validated).
  explicit IslandSolver(const SolverSettings& settings);
  ~IslandSolver() override;
  IslandSolver(const IslandSolver&) = delete;
  IslandSolver& operator=(const IslandSolver&) = delete;

  SolverType type() const override { return settings_.type; }
  void SetParameters(const SolverSettings& settings) override;
  void SetDeadline(SolveDeadline deadline) override;
  bool UsesWarmStart() const override { return solver_->UsesWarmStart(); }
  SolverStatus Solve(const ContactProblem& problem, const VectorX& v_guess, SolverResult* result) override;

  /// Islands of the last Solve() (1 when solved as one problem).
  int last_num_islands() const { return last_num_islands_; }
  /// Threads the last Solve() used for its islands (1 or 2).
  int last_num_threads() const { return last_num_threads_; }

 private:
  class Worker;
  /// Extracts and solves each island in `which` with `solver` on `scratch`,
  /// writing solves_[i] for each i in `which`.
  void SolveIslands(const ContactProblem& problem, const std::vector<int>& which, const VectorX& v_guess,
                    ContactSolver* solver, IslandProblem* scratch);
  /// Splits the islands over two threads, largest first onto the lighter
  /// share; false when one thread should do it all.
  bool SplitIslands(const ContactProblem& problem);

  SolverSettings settings_;
  SolveDeadline deadline_;
  const IslandParameters* params_ = nullptr;  // Within settings_.
  std::unique_ptr<ContactSolver> solver_;     // This thread's.
  std::unique_ptr<Worker> worker_;            // Started on the first parallel solve.
  Islands islands_;
  std::vector<IslandSolve> solves_;  // Per island of the last Solve().
  IslandProblem scratch_;
  std::vector<int> share_[2];        // Islands per thread.
  std::vector<int> island_size_;     // Velocities per island.
  std::vector<int> tree_island_;     // Scratch: the island a tree was last counted for.
  int last_num_islands_ = 0;
  int last_num_threads_ = 1;
};

}  // namespace stiction
