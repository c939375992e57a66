#pragma once
// The near-rigid regularization of [SAP] Sec. V-B, shared by every
// constraint family that has one (contacts, joint limits, welds). A
// constraint whose Delassus estimate is w [s/kg] (the inverse of its
// effective mass) gets the compliance of a spring whose period is β δt —
// the stiffest that δt resolves — and critical damping of that period:
//   R = β²/(4π²) w          (Eq. 29)
//   τd = β δt/π.
#include <algorithm>

#include "engine/common/constants.h"

namespace stiction {

/// β²/(4π²), the factor of Eq. (29) (dimensionless).
inline double NearRigidFactor(double beta) { return beta * beta / (4 * kPi * kPi); }

/// Eq. (29): the near-rigid regularization of a constraint with Delassus
/// estimate w [s/kg] → [s/kg]. Contacts take the larger of this and their
/// physical compliance.
inline double NearRigidRegularization(double beta, double w) { return NearRigidFactor(beta) * w; }

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

}  // namespace stiction
