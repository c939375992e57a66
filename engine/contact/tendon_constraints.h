#pragma once
// The tendon family: limits and equalities on a fixed tendon's length, a
// linear combination of revolute and prismatic joint coordinates,
//   L(q) = Σ c_i q_i,
// as MJCF's <fixed> tendons with a range and <equality><tendon> hold it (a
// humanoid's hamstring, a dm_control quadruped's three-joint leg coupling).
// One row on L̇ = Σ c_i v_i per side: unilateral (clamped_constraint.h) for
// a limit, bilateral (bilateral_constraint.h) for an equality, both with
// the near-rigid regularization of [SAP] Sec. V-B (near_rigid.h) and the
// carried-load estimate, as joint limits and joint couplers have them.
// docs/contact-model.md, "Tendons".
#include <limits>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_assembly.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

/// lower ≤ L(q) ≤ upper; lower = upper is an equality.
struct TendonConstraint {
  /// (model joint index, coefficient c ≠ 0): revolute or prismatic joints on
  /// at most two trees (a joint listed twice adds up).
  std::vector<std::pair<int, double>> joints;
  double lower = -std::numeric_limits<double>::infinity();  ///< [rad or m, weighted by c].
  double upper = std::numeric_limits<double>::infinity();
};

/// A PD servo on a tendon's length (MJCF position servos on fixed tendons):
/// the generalized force Jᵀ clamp(−kp (L − L_d) − kd (L̇ − L̇_d), ±effort_limit)
/// with J = Σ c_i e_i, solved implicitly as a PD actuator's row is.
struct TendonServo {
  std::vector<std::pair<int, double>> joints;  ///< As TendonConstraint's.
  double kp = 0;  ///< [N m/rad or N/m per unit of L], ≥ 0.
  double kd = 0;  ///< ≥ 0; kp + kd > 0.
  double effort_limit = std::numeric_limits<double>::infinity();  ///< > 0.
  double target_length = 0;    ///< L_d.
  double target_velocity = 0;  ///< L̇_d.
};

/// L(q) = Σ c_i q_i over `joints` (model joint index, coefficient).
double CalcTendonLength(const MultibodyModel& model, const std::vector<std::pair<int, double>>& joints,
                        const VectorX& q);

/// Appends, per tendon, one bilateral row when lower = upper (v̂ =
/// −(L(q0) − lower)/(δt + τd)), else one unilateral row per finite side
/// within reach of the step (as a joint limit's: the gap φ = L − lower or
/// upper − L, within the margin plus twice the step's free-motion travel).
/// J has c_i on joint i's velocity, one block per tree; R = β²/(4π²) w/λ,
/// w = J A⁻¹ Jᵀ. β is `params.near_rigid_threshold`.
void AddTendonConstraints(const std::vector<TendonConstraint>& tendons, const ContactModelParameters& params,
                          ConstraintAssembly* assembly);

/// Appends one clamped row per servo (ImplicitPdRow on L̇, e0 = L(q0) − L_d).
void AddTendonServoConstraints(const std::vector<TendonServo>& servos, ConstraintAssembly* assembly);

}  // namespace stiction
