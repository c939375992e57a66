#pragma once
// The contact problem restricted to the trees that take part in some
// constraint (the others keep v = v*), and the products every solver needs
// on it: A x, J v and Jᵀ γ, tree block by tree block ([SAP] Sec. IV-D),
// and the momentum residual their stopping tests and results report.
// Shared by SAP, CANAL, SubADMM and PGS.
#include <optional>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/contact_solver.h"

namespace stiction {

/// The stopping statistics of a Newton iteration: ‖D ∇ℓ‖ against the
/// momentum scale max(‖D A v‖, ‖D Jᵀγ‖), D = diag(A)^-½ ([SAP] Eqs. 25–26).
struct MomentumResidual {
  double gradient_norm = 0;  ///< ‖D ∇ℓ‖ [√kg m/s].
  double scale = 0;          ///< max(‖D A v‖, ‖D Jᵀγ‖) [√kg m/s].
  /// e_m of [SAP] Eq. (32): their ratio (the norm itself at zero scale).
  double relative() const { return scale > 0 ? gradient_norm / scale : gradient_norm; }
};

struct SolverLayout {
  std::vector<int> local_start;  ///< Per tree: offset in the local vector, −1 if absent.
  std::vector<int> trees;        ///< Participating trees, in tree order.
  std::vector<int> row_start;    ///< Per constraint: first stacked row.
  int n = 0;                     ///< Local velocities.
  int rows = 0;                  ///< Constraint rows.

  void Build(const ContactProblem& problem);
  /// The start every solver shares: builds the layout; *result holds v = v*
  /// on every tree and γ = 0; v* and the guess gathered into *v_star and *v.
  /// Returns the final status when there is nothing left to do — kConverged
  /// (usable) when no tree takes part, kNonFinite when the input velocities
  /// are not finite ("<solver>: non-finite input velocities") — and nullopt
  /// when the solver should go on.
  std::optional<SolverStatus> StartSolve(const ContactProblem& problem, const VectorX& v_guess, const char* solver,
                                         VectorX* v_star, VectorX* v, SolverResult* result);
  /// Global (all trees) → local vector of the participating trees.
  void Gather(const ContactProblem& problem, const VectorX& global, VectorX* local) const;
  /// Writes the participating trees' slices of `local` into `global`.
  void Scatter(const ContactProblem& problem, const VectorX& local, VectorX* global) const;
  /// y = A x (block diagonal by tree).
  void MultiplyA(const ContactProblem& problem, const VectorX& x, VectorX* y) const;
  /// vc = J v, constraint rows stacked in problem order.
  void MultiplyJ(const ContactProblem& problem, const VectorX& v, VectorX* vc) const;
  /// y = Jᵀ γ.
  void MultiplyJTranspose(const ContactProblem& problem, const VectorX& gamma, VectorX* y) const;
  /// D = diag(A)^-½ of [SAP] Eq. (25) over the local velocities.
  void CalcScaling(const ContactProblem& problem, VectorX* D) const;
  /// The stopping statistics of ∇ℓ = `gradient` at a v with p = A v = `p`
  /// and Jᵀγ = `jc`, scaled by D (CalcScaling).
  static MomentumResidual CalcMomentumResidual(const VectorX& gradient, const VectorX& p, const VectorX& jc,
                                               const VectorX& D);
  /// e_m of [SAP] Eq. (32) with the scaling D = diag(A)^-½ of Eq. (25):
  /// ‖D (A (v − v*) − Jᵀγ)‖ / max(‖D A v‖, ‖D Jᵀγ‖), local vectors. The
  /// common accuracy figure of every solver (benchmarks).
  double CalcMomentumError(const ContactProblem& problem, const VectorX& v, const VectorX& v_star,
                           const VectorX& gamma) const;
};

}  // namespace stiction
