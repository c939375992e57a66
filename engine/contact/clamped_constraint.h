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

/// A PD controller with an effort limit as one clamped row ([SAP] Sec. VII).
/// With the row's coordinate error e0 at the step start and e = e0 + δt v_c
/// at its end, the impulse over the step is
///   γ = −δt (K (e0 + δt v_c) + D (v_c − v_d)) = −(v_c − v̂) / R,
///   R = 1 / (δt (δt K + D)),  v̂ = (D v_d − K e0) / (δt K + D),
/// clamped to ±δt·effort_limit. Gains enter R (a convex cost), never an
/// explicit force, so arbitrarily stiff gains stay stable. Needs δt > 0 and
/// δt K + D > 0. Units: K [N/m or N m/rad], D [N s/m or N m s/rad], e0 [m or
/// rad], v_d [m/s or rad/s], effort_limit [N or N m] (+∞: unlimited).
SapClampedParameters ImplicitPdRow(double dt, double K, double D, double e0, double v_d, double effort_limit);

}  // namespace stiction
