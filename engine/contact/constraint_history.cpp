#include "engine/contact/constraint_history.h"

namespace stiction {

void ConstraintHistory::Save(const ContactProblem& problem, const VectorX& gamma, const VectorX& slack) {
  values_.clear();
  dt_ = problem.dt;
  for (std::size_t i = 0, row = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    Value& value = values_[c.key];  // A repeated key keeps its last constraint's values.
    value.gamma = gamma.segment(row, c.num_rows);
    value.slack = slack.size() > 0 ? VectorX(slack.segment(row, c.num_rows)) : VectorX(VectorX::Zero(c.num_rows));
    row += c.num_rows;
  }
}

const VectorX* ConstraintHistory::Impulse(std::uint64_t key, int rows) const {
  const auto it = values_.find(key);
  if (it == values_.end() || it->second.gamma.size() != rows) return nullptr;
  return &it->second.gamma;
}

int ConstraintHistory::ApplyWarmStart(ContactProblem* problem) const {
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

}  // namespace stiction
