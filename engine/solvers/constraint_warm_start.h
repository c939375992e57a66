#pragma once
// Per-constraint values carried from one step's solve to the next, matched
// by Constraint::key ([CANAL] Sec. V-D: warm start of u and z from the
// previous time step). Keys only say "probably the same constraint": a
// mismatch in row count drops the value.
#include <cstdint>
#include <unordered_map>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {

class ConstraintWarmStart {
 public:
  void Clear() { values_.clear(); }
  /// Replaces the store with the rows of `lambda` and `z` (stacked in
  /// problem order, layout.rows each) of every constraint.
  void Save(const ContactProblem& problem, const SolverLayout& layout, const VectorX& lambda,
            const VectorX& z);
  /// Overwrites the rows of constraints seen before; leaves the others.
  /// Returns how many constraints were found.
  int Load(const ContactProblem& problem, const SolverLayout& layout, VectorX* lambda,
           VectorX* z) const;

 private:
  struct Value {
    VectorX lambda, z;
  };
  std::unordered_map<std::uint64_t, Value> values_;
};

}  // namespace stiction
