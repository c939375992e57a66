#pragma once
// A one-row constraint with a clamped impulse: a unilateral near-rigid row
// (joint limits) or a PD controller with an effort limit ([SAP] Sec. VII).
#include <limits>

#include "engine/contact/constraint_evaluation.h"

namespace stiction {

/// One-row constraint whose impulse is clamped to [lower, upper] (either may
/// be ±∞; lower ≤ 0 ≤ upper): γ = clamp(y, lower, upper), y = −(v_c − v̂)/R.
/// With [0, ∞) it is a unilateral near-rigid constraint (joint limits); with
/// [−e, e] a PD controller with effort limit e·δt ([SAP] Sec. VII).
/// Cost: ½ R y² inside, linear outside (a Huber function), so that
/// γ = −∂ℓ/∂v_c and G = 1/R inside, 0 outside.
struct SapClampedParameters {
  double R = 0;       ///< Regularization [s/kg] (or [s/(kg m²)]), > 0.
  double v_hat = 0;   ///< Stabilization velocity.
  double lower = -std::numeric_limits<double>::infinity();  ///< Impulse bound [N s].
  double upper = std::numeric_limits<double>::infinity();   ///< Impulse bound [N s].
};
void EvaluateClamped(const SapClampedParameters& p, double vc, ConstraintEvaluation* out);

}  // namespace stiction
