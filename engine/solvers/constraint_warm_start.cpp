#include "engine/solvers/constraint_warm_start.h"

namespace stiction {

void ConstraintWarmStart::Save(const ContactProblem& problem, const SolverLayout& layout,
                               const VectorX& lambda, const VectorX& z) {
  values_.clear();
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    const int r = layout.row_start[i];
    values_[c.key] = {lambda.segment(r, c.num_rows), z.segment(r, c.num_rows)};
  }
}

int ConstraintWarmStart::Load(const ContactProblem& problem, const SolverLayout& layout,
                              VectorX* lambda, VectorX* z) const {
  int found = 0;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    const auto it = values_.find(c.key);
    if (it == values_.end() || it->second.lambda.size() != c.num_rows) continue;
    const int r = layout.row_start[i];
    lambda->segment(r, c.num_rows) = it->second.lambda;
    z->segment(r, c.num_rows) = it->second.z;
    ++found;
  }
  return found;
}

}  // namespace stiction
