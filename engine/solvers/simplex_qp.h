#pragma once
// A small dense QP over a product of capped simplices, the QP of [NMDP]
// Eqs. (8) and (10) and of the NE-MDP baseline (docs/nmdp.md, Secs. 4, 7):
//
//   min ½ wᵀ H w + hᵀ w   s.t.   w ≥ 0,   Σ_{j ∈ group g} w_j ≤ 1  for every g
//   (or = 1 with SimplexQpProblem::equality),
//
// groups being consecutive runs of weights (one per contact point, one
// weight per vertex of its wrench polytope). H must be symmetric positive
// definite (NMDP adds I/α). Solved by the primal active-set method
// (Nocedal & Wright, Numerical Optimization, Alg. 16.3): each iteration
// solves the equality-constrained QP of the working set by its KKT system,
// steps to the nearest blocking constraint, and drops the constraint with
// the most negative multiplier at a working-set optimum. It terminates
// after finitely many steps with the exact optimum, and it can be
// warm-started from the previous solve's working set, as [NMDP] warm-starts
// its parametric solver ([qpOASES]) between outer iterations: the working
// set changes little between them. Debian packages no parametric QP solver
// (issue 17), hence this one, sized for tens of weights.
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"

namespace stiction {

struct SimplexQpProblem {
  MatrixX H;                     ///< n × n, symmetric positive definite.
  VectorX h;                     ///< n.
  std::vector<int> group_sizes;  ///< Consecutive groups; sizes sum to n, each ≥ 1.
  /// Every group sums to exactly one (Σ w = 1) instead of at most one:
  /// each group is a probability simplex. The caps then never leave the
  /// working set.
  bool equality = false;
};

/// Which constraints are in the working set: w_j = 0 per weight, the cap
/// Σ w = 1 per group.
struct SimplexQpWorkingSet {
  std::vector<char> at_zero;
  std::vector<char> at_cap;
};

struct SimplexQpResult {
  bool converged = false;  ///< False: the iteration cap or a singular KKT system.
  VectorX w;               ///< The optimum (or the last feasible iterate).
  double objective = 0;    ///< ½ wᵀ H w + hᵀ w at w.
  int iterations = 0;      ///< Working-set changes plus the final check.
  SimplexQpWorkingSet working_set;  ///< Pass to the next solve to warm-start it.
  std::string message;     ///< Why it did not converge.
};

/// Throws InputError when the sizes disagree, a group is empty or the data
/// are not finite. `start` (optional) is projected onto the feasible set
/// (negative weights to 0, an over-full group scaled down; with `equality`
/// every group scaled to sum to one, an empty one made uniform); `working_set`
/// (optional, from a previous result) seeds the working set with those of
/// its constraints that are active at the start.
SimplexQpResult SolveSimplexQp(const SimplexQpProblem& problem, const VectorX* start = nullptr,
                               const SimplexQpWorkingSet* working_set = nullptr, int max_iterations = 500);

}  // namespace stiction
