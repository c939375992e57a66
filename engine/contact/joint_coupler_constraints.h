#pragma once
// The joint-coupler family: a holonomic constraint between two revolute or
// prismatic joints, the follower b and its leader a,
//   g(q) = q_b − ρ q_a − Δ = 0,
// as a gear train, a URDF <mimic> or an MJCF linear joint equality couples
// them (the two fingers of a parallel gripper). Drake's
// SapCouplerConstraint is the same constraint ([SAP] Sec. VII's holonomic
// constraints). One bilateral row (bilateral_constraint.h) on
// ġ = v_b − ρ v_a, with the near-rigid regularization of Sec. V-B
// (near_rigid.h) and the carried-load estimate, as the welds have it.
// docs/contact-model.md, "Joint couplers".
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_assembly.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

/// q_joint = ratio · q_leader + offset.
struct JointCoupler {
  int joint = -1;      ///< Model joint index of the follower b (revolute or prismatic).
  int leader = -1;     ///< Model joint index of the leader a (revolute or prismatic, ≠ joint).
  double ratio = 1;    ///< ρ [b's unit per a's unit: rad/rad, m/m, m/rad or rad/m], finite.
  double offset = 0;   ///< Δ [rad or m, b's unit], finite.
};

/// g(q) = q_b − ρ q_a − Δ [rad or m, b's unit] of `coupler` at q.
double CalcJointCouplerError(const MultibodyModel& model, const JointCoupler& coupler, const VectorX& q);

/// Appends one bilateral row per coupler: J has +1 on b's velocity and −ρ
/// on a's (one block when both joints lie on one tree, else one per tree,
/// b's first), R = β²/(4π²) w/λ with w = J A⁻¹ Jᵀ, τd = β δt/π and
/// v̂ = −g(q0)/(δt + τd). β is `params.near_rigid_threshold`.
void AddJointCouplerConstraints(const std::vector<JointCoupler>& couplers, const ContactModelParameters& params,
                                ConstraintAssembly* assembly);

}  // namespace stiction
