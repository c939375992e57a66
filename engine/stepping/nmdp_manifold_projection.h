#pragma once
// The manifold projection of [NMDP] Eqs. (9) and (11) (docs/nmdp.md Sec. 4):
// with the weights w fixed, Newton's method on F(v₊, w) = 0,
//   v₊ ← v₊ − η F_v⁻¹ F,
// η halved from 1 until ‖F‖ decreases (Armijo, c = 1e-4). F_v is the exact
// Jacobian (first order, quadratic convergence near a solution) or F̃_v
// without the ∂D/∂q term (zeroth order, Eq. 11: linear convergence). F_v is
// factored by a rank-revealing LU; a reciprocal condition number below
// `min_rcond` ("near singular", A V.2) or a step that cannot lower ‖F‖
// ("the norm does not decrease") is the divergence Alg. 2 answers by
// halving the time step.
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/stepping/nmdp_residual.h"

namespace stiction {

struct ManifoldProjectionParameters {
  double tolerance = 1e-8;   ///< Stop when ‖F‖∞ is below this [N, N m]. > 0.
  int max_iterations = 30;   ///< Newton steps. ≥ 1.
  double min_rcond = 1e-12;  ///< F_v with a smaller reciprocal condition number is singular.
  int max_halvings = 10;     ///< Backtracking halvings of η before giving up.
};

enum class ManifoldProjectionStatus {
  kConverged,      ///< ‖F‖∞ ≤ tolerance.
  kSingular,       ///< F_v near singular.
  kNotDecreasing,  ///< No step length lowered ‖F‖.
  kMaxIterations,  ///< The Newton cap.
};

struct ManifoldProjectionResult {
  ManifoldProjectionStatus status = ManifoldProjectionStatus::kMaxIterations;
  VectorX v;                          ///< The last iterate (the solution when converged).
  int iterations = 0;                 ///< Newton steps taken.
  std::vector<double> residual_norms; ///< ‖F‖∞ at the start and after each step.
  std::string message;                ///< Why it stopped short.
};

ManifoldProjectionResult ProjectOntoManifold(NmdpResidual& residual, const VectorX& w, const VectorX& v_start,
                                             bool zeroth_order, const ManifoldProjectionParameters& params);

}  // namespace stiction
