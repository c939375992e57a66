#pragma once
// A bilateral constraint of any number of rows with a diagonal
// regularization (welds and ball joints, [SAP] Sec. VII).
#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_evaluation.h"

namespace stiction {

/// R [s/kg] (> 0) and v̂ per row.
struct SapBilateralParameters {
  VectorX R;      ///< Regularization per row, > 0.
  VectorX v_hat;  ///< Stabilization velocity per row.
};

/// Bilateral constraint of any number of rows (weld: 6, ball: 3):
/// γ = −R⁻¹(v_c − v̂), ℓ = ½ (v_c − v̂)ᵀ R⁻¹ (v_c − v̂), G = R⁻¹ (diagonal).
void EvaluateBilateral(const SapBilateralParameters& p, Eigen::Ref<const VectorX> vc, ConstraintEvaluation* out);

}  // namespace stiction
