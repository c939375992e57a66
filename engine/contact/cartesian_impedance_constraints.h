#pragma once
// The Cartesian-impedance family: [SAP] Sec. VII's implicit PD controller
// with effort limits, in task space. A frame E fixed on a body follows a
// target pose X_WT through a translational and a rotational spring-damper
// with a force and a torque limit, solved implicitly inside the convex
// problem as clamped rows (clamped_constraint.h) on the frame's velocity,
// plus optional low-gain joint posture rows for redundant arms.
// docs/contact-model.md, "Cartesian impedance".
#include <limits>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_assembly.h"
#include "engine/multibody/multibody_model.h"

namespace stiction {

/// One joint of the posture term: a PD row pulling the joint towards
/// q_nominal with the controller's posture gains.
struct CartesianPostureTerm {
  int joint = -1;        ///< Model joint index (revolute or prismatic).
  double q_nominal = 0;  ///< Nominal position [rad] or [m].
};

/// A frame E on `body` (E = X_BE in the body frame) pulled to the target T.
/// Force on E (world): f = clamp(−K_t e_t − D_t (v_WE − v_WT)), torque
/// τ = clamp(−K_r e_r − D_r (ω_WB − ω_WT)), with the errors
/// e_t = p_WE − p_WT and e_r = log(R_WE R_WTᵀ) (world axes, angle in [0, π])
/// taken at the end of the step (implicit, [SAP] Sec. VII). A block (the
/// translational or the rotational one) whose stiffness and damping are both
/// zero has no rows.
struct CartesianImpedance {
  int body = -1;           ///< Model body index (≥ 1) carrying E.
  RigidTransform X_BE;     ///< The controlled frame E in the body frame [m].
  RigidTransform X_WT;     ///< Target pose in world [m].
  Vector3 v_WT = Vector3::Zero();  ///< Target velocity of T's origin, world [m/s].
  Vector3 w_WT = Vector3::Zero();  ///< Target angular velocity, world [rad/s].
  double translational_stiffness = 0;  ///< K_t [N/m], ≥ 0.
  double translational_damping = 0;    ///< D_t [N s/m], ≥ 0.
  double rotational_stiffness = 0;     ///< K_r [N m/rad], ≥ 0.
  double rotational_damping = 0;       ///< D_r [N m s/rad], ≥ 0.
  /// F_max [N], > 0 (+∞: unlimited): bounds each translational row, so the
  /// spring force along the error; the whole force ≤ √3 F_max.
  double max_force = std::numeric_limits<double>::infinity();
  /// T_max [N m], > 0 (+∞: unlimited): the same for the rotational rows.
  double max_torque = std::numeric_limits<double>::infinity();
  /// Posture term (optional): one PD row per joint, τ = clamp(−k_null (q −
  /// q_nominal) − d_null v, ±posture_effort_limit).
  std::vector<CartesianPostureTerm> posture;
  double posture_stiffness = 0;  ///< k_null [N m/rad] or [N/m], ≥ 0.
  double posture_damping = 0;    ///< d_null [N m s/rad] or [N s/m], ≥ 0.
  double posture_effort_limit = std::numeric_limits<double>::infinity();  ///< [N m] or [N], > 0.
};

/// Throws InputError naming the parameter (e.g. "cartesian impedance:
/// translational_stiffness: must be finite and >= 0, got -1") for a body out
/// of range or the world, non-finite poses or twists, a pose whose rotation
/// is not orthonormal, negative or non-finite gains, limits that are not
/// > 0, posture joints that are not revolute or prismatic, or posture gains
/// that are both zero while there are posture joints.
void ValidateCartesianImpedance(const CartesianImpedance& c, const MultibodyModel& model);

/// The rotation vector (axis × angle, angle in [0, π]) of a rotation matrix:
/// the log map of SO(3).
Vector3 RotationVector(const Matrix3& R);

/// Errors at the pose X_WB of the controller's body: e_t = p_WE − p_WT [m]
/// and e_r = log(R_WE R_WTᵀ) [rad], both in world.
struct CartesianImpedanceErrors {
  Vector3 translation = Vector3::Zero();
  Vector3 rotation = Vector3::Zero();
};
CartesianImpedanceErrors CalcCartesianImpedanceErrors(const CartesianImpedance& c, const RigidTransform& X_WB);

/// The rows' frame for an error e: an orthonormal, right-handed basis (the
/// columns) whose first axis is e/|e|; the world axes when |e| ≤ 1e-12.
Matrix3 CartesianRowFrame(const Vector3& e);

/// Where a controller's rows are in the last built problem.
struct CartesianImpedanceRows {
  int first_constraint = -1;  ///< −1: none (a body on a tree without velocities).
  int num_translation = 0;    ///< 0 or 3 constraints (one row each), first.
  int num_rotation = 0;       ///< 0 or 3, after the translational ones.
  int num_posture = 0;        ///< Posture rows, last.
  Matrix3 R_WRt = Matrix3::Identity();  ///< Translational rows' frame (columns: row axes, world).
  Matrix3 R_WRr = Matrix3::Identity();  ///< Rotational rows' frame.
};

/// What a controller applied over a step: its rows' impulses / δt.
struct CartesianImpedanceEffort {
  Vector3 force_W = Vector3::Zero();   ///< Force on E, world [N].
  Vector3 torque_W = Vector3::Zero();  ///< Torque on the body, world [N m].
  /// The same in the rows' frames: entry 0 is the component along the
  /// error e0 (negative when pulling towards the target), bounded by
  /// F_max (T_max), as is each other entry.
  Vector3 force_rows = Vector3::Zero();
  Vector3 torque_rows = Vector3::Zero();
  /// Per posture row: the generalized force [N m] or [N].
  std::vector<double> posture;
};

/// The effort of a controller laid out as `rows`, from the impulses of its
/// rows, gamma[0 .. num rows) (consecutive: one row per constraint), over δt.
CartesianImpedanceEffort CalcCartesianImpedanceEffort(const CartesianImpedanceRows& rows, const double* gamma,
                                                      double dt);

/// Appends, per controller whose body moves: 3 translational rows (first
/// along e_t), 3 rotational rows (first along e_r), then its posture rows,
/// each a one-row kClamped constraint (ConstraintOrigin::kCartesian). Writes
/// each controller's first constraint index (−1 if none) into
/// *first_constraint_of_controller and, when `rows` is not null, its layout.
void AddCartesianImpedanceConstraints(const std::vector<CartesianImpedance>& controllers,
                                      ConstraintAssembly* assembly,
                                      std::vector<int>* first_constraint_of_controller,
                                      std::vector<CartesianImpedanceRows>* rows = nullptr);

}  // namespace stiction
