#pragma once
// The PD-actuator family ([SAP] Sec. VII): a PD controller with an effort
// limit on a revolute or prismatic joint, solved implicitly inside the
// convex problem as a clamped row on the joint velocity
// (clamped_constraint.h). docs/contact-model.md, "Actuators and constraints".
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/contact/constraint_assembly.h"

namespace stiction {

/// τ = clamp(−kp (q − q_d) − kd (v − v_d), ±effort_limit) with q = q0 + δt v.
struct JointActuator {
  int joint = -1;            ///< Model joint index (revolute or prismatic).
  double kp = 0;             ///< [N m/rad] or [N/m], ≥ 0.
  double kd = 0;             ///< [N m s/rad] or [N s/m], ≥ 0; kp + kd > 0.
  double effort_limit = std::numeric_limits<double>::infinity();  ///< [N m] or [N], > 0.
  double target_position = 0;  ///< q_d [rad] or [m].
  double target_velocity = 0;  ///< v_d [rad/s] or [m/s].
};

/// Appends one clamped row on the velocity of `joint` (revolute or
/// prismatic) with the implicit PD law of ImplicitPdRow (clamped_constraint.h)
/// for the position error e0 = q0 − q_d; δt K + D > 0. Returns the
/// constraint's index, or −1 (nothing appended) when the joint's tree does
/// not move. Shared by the PD actuators and the Cartesian posture term.
int AppendJointPdRow(ConstraintAssembly* assembly, int joint, double K, double D, double e0, double v_d,
                     double effort_limit, ConstraintOrigin origin, std::uint64_t key);

/// Appends one row per actuator whose tree has velocities; writes, per
/// actuator, the index of its constraint in the problem (−1 if none) into
/// *constraint_of_actuator.
void AddPdActuatorConstraints(const std::vector<JointActuator>& actuators, ConstraintAssembly* assembly,
                              std::vector<int>* constraint_of_actuator);

}  // namespace stiction
