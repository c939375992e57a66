#pragma once
// What each constraint of the previous step carried, keyed by
// Constraint::key: its impulse γ and slack z after the last usable solve.
// Two users read it, both outside the solvers so that every solver stays a
// function of its problem (islands, threads and solver switches need no
// care):
//   * warm starts ([CANAL] Sec. V-D: u and z from the previous step), which
//     ApplyWarmStart writes into Constraint::warm_gamma / warm_slack;
//   * the carried-load regularization of near-rigid constraints
//     (near_rigid.h), which reads the impulse each constraint carried.
// Keys only say "probably the same constraint": a mismatch in row count
// drops the value.
#include <cstdint>
#include <unordered_map>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"

namespace stiction {

class ConstraintHistory {
 public:
  void Clear() { values_.clear(); }
  /// Replaces the store with every constraint's rows of `gamma` and `slack`
  /// (stacked in problem order; an empty `slack` stores zeros) and the
  /// problem's time step.
  void Save(const ContactProblem& problem, const VectorX& gamma, const VectorX& slack);
  /// The impulse [N s or N m s per row] the constraint with `key` carried,
  /// when it had `rows` rows; null when it was not in the last problem.
  const VectorX* Impulse(std::uint64_t key, int rows) const;
  /// Writes the stored values into the constraints of `problem` whose key
  /// was seen with the same number of rows (the others keep none). Returns
  /// how many constraints were found.
  int ApplyWarmStart(ContactProblem* problem) const;
  /// The time step [s] over which the stored impulses acted (0 before any Save).
  double dt() const { return dt_; }

 private:
  struct Value {
    VectorX gamma, slack;
  };
  std::unordered_map<std::uint64_t, Value> values_;
  double dt_ = 0;
};

}  // namespace stiction
