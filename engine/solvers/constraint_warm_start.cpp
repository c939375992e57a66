#include "engine/solvers/constraint_warm_start.h"

namespace stiction {

int LoadWarmStart(const ContactProblem& problem, const SolverLayout& layout, VectorX* gamma, VectorX* slack) {
  int found = 0;
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    if (c.warm_gamma.size() != c.num_rows) continue;
    const int r = layout.row_start[i];
    gamma->segment(r, c.num_rows) = c.warm_gamma;
    // A constraint last solved by a solver without a slack (SAP, PGS)
    // carries none: the caller's slack stays.
    if (c.warm_slack.size() == c.num_rows) slack->segment(r, c.num_rows) = c.warm_slack;
    ++found;
  }
  return found;
}

}  // namespace stiction
