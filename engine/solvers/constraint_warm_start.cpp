#include "engine/solvers/constraint_warm_start.h"

namespace stiction {

void ConstraintWarmStart::Save(const ContactProblem& problem, const SolverResult& result) {
  values_.clear();
  for (std::size_t i = 0, row = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    Value& value = values_[c.key];  // A repeated key keeps its last constraint's values.
    value.gamma = result.gamma.segment(row, c.num_rows);
    value.slack = result.slack.size() > 0 ? VectorX(result.slack.segment(row, c.num_rows))
                                          : VectorX(VectorX::Zero(c.num_rows));
    row += c.num_rows;
  }
}

int ConstraintWarmStart::Apply(ContactProblem* problem) const {
  int found = 0;
  for (Constraint& c : problem->constraints) {
    const auto it = values_.find(c.key);
    if (it == values_.end() || it->second.gamma.size() != c.num_rows) {
      c.warm_gamma.resize(0);
      c.warm_slack.resize(0);
      continue;
    }
    c.warm_gamma = it->second.gamma;
    c.warm_slack = it->second.slack;
    ++found;
  }
  return found;
}

int LoadWarmStart(const ContactProblem& problem, const SolverLayout& layout, VectorX* gamma, VectorX* slack) {
  int found = 0;
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    if (c.warm_gamma.size() != c.num_rows) continue;
    const int r = layout.row_start[i];
    gamma->segment(r, c.num_rows) = c.warm_gamma;
    slack->segment(r, c.num_rows) = c.warm_slack;
    ++found;
  }
  return found;
}

}  // namespace stiction
