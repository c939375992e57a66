#pragma once
// One accuracy figure for every solver: how well a step's impulses satisfy
// the exact Signorini–Coulomb NCP, measured the way [CANAL] Sec. VII-A does
// (docs/solvers.md, "The NCP residual"):
//   1. v̂ = A⁻¹(b + Jᵀγ) = v* + A⁻¹Jᵀγ from the solver's γ alone, so that the
//      dynamics hold exactly whatever v the solver returned;
//   2. per contact, with w = J v̂ + e (e the velocity error term of
//      ncp_constraints.h on the normal row), the natural map
//      r = γ − T(γ − w), T the strict operator of [CANAL] Eqs. (16)–(17):
//      zero exactly when γ and w satisfy Signorini and Coulomb ([CANAL]
//      Prop. 2); it is J v̂ − z for the slack z of [CANAL] Sec. VII-A;
//   3. joint limits (hard rows) likewise with T = max(0, ·);
//   4. the Euclidean norm of all those rows divided by their constraint
//      count (contacts + limits), as the paper divides by its contacts.
// Soft constraints (PD actuators, welds, Cartesian rows) are convex costs in
// every solver, not NCP rows, and do not enter. The figure mixes impulse
// [N s] and velocity [m/s] rows as the paper's does, so compare it across
// solvers on the same problem, not across scenes.
#include <functional>

#include <Eigen/Cholesky>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {

class NcpResidual {
 public:
  /// The residual of impulses `gamma` (rows stacked in problem order) on
  /// `problem`; `penetration_recovery` (0, 1] sets e on overlapping
  /// contacts and violated limits (ncp_constraints.h). 0 when the problem
  /// has no contact or limit. Keeps scratch between calls.
  double Calc(const ContactProblem& problem, const VectorX& gamma, double penetration_recovery);
  /// The same with step 1's A_t⁻¹ from the caller: solve_A(t, x) sets
  /// x ← A_t⁻¹ x (the stepper's assembly has A factored already).
  using SolveA = std::function<void(int tree, Eigen::Ref<VectorX> x)>;
  double Calc(const ContactProblem& problem, const VectorX& gamma, double penetration_recovery,
              const SolveA& solve_A);

 private:
  SolverLayout layout_;
  VectorX v_hat_, jt_gamma_, w_;
  Eigen::LLT<MatrixX> llt_;
};

}  // namespace stiction
