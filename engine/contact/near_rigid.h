#pragma once
// The near-rigid regularization of [SAP] Sec. V-B, shared by every
// constraint family that has one (contacts, joint limits, welds). A
// constraint whose Delassus estimate is w [s/kg] (the inverse of its
// effective mass) gets the compliance of a spring whose period is β δt —
// the stiffest that δt resolves — and critical damping of that period:
//   R = β²/(4π²) w          (Eq. 29)
//   τd = β δt/π.
//
// The carried-load estimate (docs/contact-model.md, "Near-rigid contact
// under load"). Eq. (29) takes w from the bodies the constraint touches, as
// if it carried their weight only. At rest (v = 0, v̂ = −φ/(δt + τd)) a
// constraint carrying the impulse γ per step holds a violation
//   φ = γ R (δt + τd) = β²/(4π²) · w γ · (δt + τd),
// which for the paper's particle resting under its own weight (γ = a δt/w)
// is φ₀ = β²/(4π²) a δt (δt + τd), whatever its mass: about 30 µm at
// δt = 10 ms. A light body under a heavy one (the paper's "pile of books",
// Sec. VIII), or squeezed in a grasp, carries λ = w γ/(a δt) times its own
// weight and sinks λ times deeper. The estimate gives such a constraint the
// effective mass whose weight it carried in the previous step,
//   w_eff = w / λ,   λ = clamp(w γ_prev ℓ/(a δt), 1, λ_max),   (L1)
// so that its period with that mass is β δt again and its violation under
// the load is φ₀. a is the reference acceleration (the scene's |g|), ℓ [m]
// turns a rotational row's impulse [N m s] into a force at the radius of
// gyration (ℓ = 1 for translational rows). λ ≥ 1: a constraint is never
// softer than Eq. (29); λ_max bounds the conditioning. Each step stays a
// convex problem with R > 0 fixed before the solve ([SAP] Eq. 26 applies
// unchanged); the load only comes from the previous step.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/common/constants.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

/// β²/(4π²), the factor of Eq. (29) (dimensionless).
inline double NearRigidFactor(double beta) { return beta * beta / (4 * kPi * kPi); }

/// Eq. (29): the near-rigid regularization of a constraint with Delassus
/// estimate w [s/kg] → [s/kg]. Contacts take the larger of this and their
/// physical compliance.
inline double NearRigidRegularization(double beta, double w) { return NearRigidFactor(beta) * w; }

/// The near-rigid stiffness [N/m] of a Hunt & Crossley contact with Delassus
/// estimate w [s/kg] at step δt [s]: the k whose normal impulse slope δt² k
/// equals 1/R of Eq. (29), a spring of period β δt on the effective mass
/// 1/w. The Similar model caps its k there (docs/contact-model.md, "Similar
/// at near-rigid stiffness"); infinite for β = 0 (no cap).
inline double NearRigidStiffness(double beta, double w, double dt) {
  const double r = NearRigidRegularization(beta, w);
  return r > 0 ? 1.0 / (r * dt * dt) : std::numeric_limits<double>::infinity();
}

/// Floor of the factor for constraints with no physical compliance (joint
/// limits, welds), so that β = 0 still gives R > 0.
inline constexpr double kMinNearRigidFactor = 1e-12;

/// Eq. (29) for a constraint with no physical compliance (joint limits,
/// welds): the factor floored at kMinNearRigidFactor [s/kg].
inline double RigidConstraintRegularization(double beta, double w) {
  return std::max(NearRigidFactor(beta), kMinNearRigidFactor) * w;
}

/// Sec. V-B: the dissipation time scale τd = β δt/π [s] of a near-rigid
/// constraint (critical damping of its β δt period).
inline double NearRigidDissipationTime(double beta, double dt) { return beta / kPi * dt; }

/// a of Eq. (L1) for a scene whose gravity has magnitude `gravity` [m/s²]:
/// that magnitude, or standard gravity in a scene without gravity.
inline double LoadReferenceAcceleration(double gravity) { return gravity > 0 ? gravity : kStandardGravity; }

/// The unclamped λ of Eq. (L1), w γ ℓ/(a δt), of a constraint with Delassus
/// estimate w [s/kg] that carried the impulse γ over δt [s] under the
/// reference acceleration a [m/s²] (0 when γ ≤ 0 or δt ≤ 0).
inline double RawLoadFactor(double w, double impulse, double length, double a, double dt) {
  if (!(impulse > 0) || !(dt > 0)) return 0;
  return w * impulse * length / (a * dt);
}

/// λ of Eq. (L1) (see the file comment) from its unclamped value
/// w γ_prev ℓ/(a δt): 1 when the estimate is off or the value is not a
/// finite number, else clamped to [1, λ_max].
inline double ClampLoadFactor(double raw, const ContactModelParameters& p) {
  if (!p.load_aware_regularization || !std::isfinite(raw)) return 1;
  return std::clamp(raw, 1.0, p.max_load_factor);
}

}  // namespace stiction
