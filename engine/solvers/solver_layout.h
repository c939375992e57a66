#pragma once
// The contact problem restricted to the trees that take part in some
// constraint (the others keep v = v*), and the products every solver needs
// on it: A x, J v and Jᵀ γ, tree block by tree block ([SAP] Sec. IV-D).
// Shared by SAP, CANAL and SubADMM.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"

namespace stiction {

struct SolverLayout {
  std::vector<int> local_start;  ///< Per tree: offset in the local vector, −1 if absent.
  std::vector<int> trees;        ///< Participating trees, in tree order.
  std::vector<int> row_start;    ///< Per constraint: first stacked row.
  int n = 0;                     ///< Local velocities.
  int rows = 0;                  ///< Constraint rows.

  void Build(const ContactProblem& problem);
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
  /// e_m of [SAP] Eq. (32) with the scaling D = diag(A)^-½ of Eq. (25):
  /// ‖D (A (v − v*) − Jᵀγ)‖ / max(‖D A v‖, ‖D Jᵀγ‖), local vectors. The
  /// common accuracy figure of every solver (benchmarks).
  double CalcMomentumError(const ContactProblem& problem, const VectorX& v, const VectorX& v_star,
                           const VectorX& gamma) const;
};

}  // namespace stiction
