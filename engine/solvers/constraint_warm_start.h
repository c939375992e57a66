#pragma once
// Warm starts across steps ([CANAL] Sec. V-D: u and z from the previous time
// step), kept outside the solvers so that every solver stays a function of
// its problem (and islands, threads and solver switches need no care):
//   * the stepper's ConstraintWarmStart stores each constraint's impulse γ
//     and slack z after a usable solve, keyed by Constraint::key, and before
//     the next solve writes them into the constraints it recognizes
//     (Constraint::warm_gamma, warm_slack);
//   * a solver that warm starts reads them back with LoadWarmStart.
// Keys only say "probably the same constraint": a mismatch in row count
// drops the value.
#include <cstdint>
#include <unordered_map>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {

class ConstraintWarmStart {
 public:
  void Clear() { values_.clear(); }
  /// Replaces the store with every constraint's rows of result.gamma and
  /// result.slack (zeros when the solver has no slack).
  void Save(const ContactProblem& problem, const SolverResult& result);
  /// Writes the stored values into the constraints of `problem` whose key
  /// was seen with the same number of rows (the others keep none). Returns
  /// how many constraints were found.
  int Apply(ContactProblem* problem) const;

 private:
  struct Value {
    VectorX gamma, slack;
  };
  std::unordered_map<std::uint64_t, Value> values_;
};

/// For solvers: overwrites the rows (stacked in problem order, `layout`) of
/// *gamma and *slack of every constraint that carries warm-start values;
/// leaves the others. Returns how many constraints had values.
int LoadWarmStart(const ContactProblem& problem, const SolverLayout& layout, VectorX* gamma, VectorX* slack);

}  // namespace stiction
