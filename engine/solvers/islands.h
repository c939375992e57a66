#pragma once
// Islands: the connected components of a contact problem's trees through
// its constraints ([SAP] Sec. IV-D's forest graph). Trees in different
// islands do not interact within the step, so each island is a problem of
// its own that any solver may solve separately (island_solver.h): a calm
// island stops iterating while another is still resolving an impact, and
// islands may be solved on different threads. This module finds them,
// extracts one as a problem, and merges the islands' results back.
#include <span>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/contact_solver.h"

namespace stiction {

/// One island as a problem of its own (storage reused across steps).
struct IslandProblem {
  ContactProblem problem;       ///< Its trees (in global tree order) and constraints (in problem order).
  VectorX v_guess;              ///< The guess on its trees.
  std::vector<int> trees;       ///< The global tree of each of its trees.
  std::vector<int> tree_local;  ///< Scratch: global tree → island tree, −1 if absent.
};

/// What an island's solve returned.
struct IslandSolve {
  SolverStatus status = SolverStatus::kConverged;
  SolverResult result;
  std::vector<int> trees;  ///< Global trees, in island order.
};

class Islands {
 public:
  /// Splits the constraints of `problem` into islands, numbered in the
  /// order of their smallest tree (deterministic); returns their number.
  int Find(const ContactProblem& problem);
  int size() const { return count_; }
  /// Constraint indices of island i, in problem order.
  const std::vector<int>& constraints(int i) const { return constraints_[i]; }
  /// Copies island i of `problem` and `v_guess` into *out.
  void Extract(const ContactProblem& problem, int i, const VectorX& v_guess, IslandProblem* out) const;

 private:
  int count_ = 0;
  std::vector<std::vector<int>> constraints_;  // Per island (storage kept beyond count_).
  std::vector<int> tree_parent_;               // Union-find over trees.
  std::vector<int> island_of_root_;            // Root tree → island number.
};

/// The result for the whole `problem` from its islands' solves (in island
/// order): v, γ and slack written back by tree and row; iterations, e_m,
/// e_μ, outer iterations, residual and penalty the largest over the islands;
/// line-search iterations, cost and times their sums; per-iteration
/// histories the largest entry by entry (an island that stopped keeps its
/// last value). The status is that of the first island that did not
/// converge (its message names the island); usable when every island's is.
SolverStatus MergeIslandSolves(const ContactProblem& problem, const Islands& islands,
                               std::span<const IslandSolve> solves, SolverResult* result);

}  // namespace stiction
