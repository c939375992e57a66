#pragma once
// The joint-limit family ([SAP] Sec. VII): each position limit of a
// revolute or prismatic joint that the joint can reach within the step is
// a unilateral row φ = q − q_lower (or q_upper − q) ≥ 0 with the near-rigid
// regularization of Sec. V-B (near_rigid.h), a clamped constraint with
// impulse bounds [0, ∞) (clamped_constraint.h).
#include "engine/contact/constraint_assembly.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

/// Appends the limit rows of every joint whose limit is within reach: the
/// speculative margin plus twice the distance its free-motion velocity
/// covers in δt. β is `params.near_rigid_threshold`.
void AddJointLimitConstraints(const ContactModelParameters& params, ConstraintAssembly* assembly);

}  // namespace stiction
