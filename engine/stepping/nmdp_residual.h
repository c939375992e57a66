#pragma once
// The backward-Euler dynamics of [NMDP] Eq. (6)'s constraint, in Stiction's
// velocity unknowns (docs/nmdp.md Secs. 1–4):
//
//   F(v₊, w) = M(q₊)(v₊ − v)/δt − k(q₊, v₊) − Σ_x J_x(q₊)ᵀ D_x(q₊) w_x      [N, N m]
//   q₊ = normalize(q + δt N(q) v₊)
//
// k the non-contact generalized forces of [SAP] Eq. (7) (gravity, Coriolis,
// joint springs and dampers, external forces), D_x the wrench polytope of
// contact point x (wrench_polytope.h) against its half-space. Also the
// derivatives the projected gradient method needs: F_v = ∂F/∂v₊ by central
// differences (first order; or, for ZOPGM, with D frozen at v₊: F̃_v of
// Eqs. 10–11), F_w = −[J_xᵀ D_x] exactly, and E = ½ v₊ᵀ M(q₊) v₊.
#include <limits>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/wrench_polytope.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"

namespace stiction {

/// A contact point of NMDP ([NMDP] Sec. VII: "a small set of known contact
/// points"): a sphere of `radius` centred at p_BP on `body`, against the
/// half-space n·x ≥ offset. φ = n·p_WP − offset − radius [m].
struct NmdpContactPoint {
  int body = 0;
  Vector3 p_BP = Vector3::Zero();  ///< [m], body frame.
  double radius = 0;               ///< [m], ≥ 0.
  Vector3 normal = Vector3::UnitZ();  ///< Unit, world frame.
  double offset = 0;               ///< [m].
  double friction = 0.5;           ///< μ ≥ 0.

  /// φ [m] for the point's centre at p_WP.
  double SignedDistance(const Vector3& p_WP) const { return normal.dot(p_WP) - offset - radius; }
  /// The contact frame: columns t₁, t₂, n (t₁ fixed per normal, so that the
  /// pyramid's edges d_k do not depend on the configuration).
  Matrix3 Frame() const;
  /// Its polytope's vertices D (3 × K) at signed distance φ (wrench_polytope.h).
  Matrix3X Vertices(const WrenchPolytopeParameters& polytope, double phi) const;
};

/// A joint PD controller evaluated at the new state, inside F: the stable
/// PD of [StablePD] (docs/nmdp.md Sec. 8),
///   τ = L tanh(u/L),   u = −kp (q₊ − q̄) − kd (v₊ − v̄),
/// on one revolute or prismatic joint. The effort limit L enters through a
/// smooth saturation (tanh, slope 1 at u = 0) because NMDP needs F smooth
/// (A V.1) [Stiction]; with L = ∞ the law is linear.
struct NmdpJointPd {
  int q_index = 0, v_index = 0;  ///< The joint's position and velocity.
  double kp = 0;                 ///< [N m/rad] or [N/m], ≥ 0.
  double kd = 0;                 ///< [N m s/rad] or [N s/m], ≥ 0.
  double effort_limit = std::numeric_limits<double>::infinity();  ///< L [N m] or [N], > 0.
  double target_position = 0;    ///< q̄ at the end of the step [rad] or [m].
  double target_velocity = 0;    ///< v̄ at the end of the step [rad/s] or [m/s].
  /// τ for a raw PD output u (the saturation above).
  double Saturate(double u) const;
  /// τ [N m] or [N] at the joint's position q and velocity v.
  double Torque(double q, double v) const {
    return Saturate(-kp * (q - target_position) - kd * (v - target_velocity));
  }
};

class NmdpResidual {
 public:
  /// The step from (q, v) over dt [s] under tau_ext (may be null) and the
  /// joint PD controllers `pd`. The model must outlive this object.
  NmdpResidual(const MultibodyModel& model, std::vector<NmdpContactPoint> points,
               WrenchPolytopeParameters polytope, VectorX q, VectorX v, double dt,
               const VectorX* tau_ext = nullptr, std::vector<NmdpJointPd> pd = {});

  int num_velocities() const { return static_cast<int>(v_.size()); }
  /// K weights per contact point, in point order.
  int num_weights() const { return static_cast<int>(points_.size()) * polytope_.edges; }
  std::vector<int> group_sizes() const;

  /// q₊ for a new velocity.
  VectorX NextPositions(const VectorX& v_next) const;
  /// F(v₊, w).
  VectorX Evaluate(const VectorX& v_next, const VectorX& w);
  /// ∂F/∂v₊ by central differences (h = 1e-7 m/s per velocity, relative to
  /// max(1, |v₊|)); with `zeroth_order` the vertices D stay at their value
  /// at v₊, which drops the ∂D/∂q term ([NMDP] Eqs. 10–11).
  MatrixX VelocityJacobian(const VectorX& v_next, const VectorX& w, bool zeroth_order);
  /// ∂F/∂w = −[J_x(q₊)ᵀ D_x(q₊)]_x (nv × num_weights).
  MatrixX WeightJacobian(const VectorX& v_next);
  /// E = ½ v₊ᵀ M(q₊) v₊ [J] ([NMDP] Eq. 6).
  double KineticEnergy(const VectorX& v_next);
  /// M(q₊) [kg, kg m²].
  const MatrixX& MassMatrix(const VectorX& v_next);

 private:
  // Kinematics, M and k at q₊ = NextPositions(v_next); nothing when they
  // are already those of v_next (PGM asks for F_w, M and E at one v₊).
  void Prepare(const VectorX& v_next);
  // Σ_x J_xᵀ D_x w_x with D from `vertices` (or computed at the current
  // kinematics when null), and optionally the vertices used.
  VectorX ContactForce(const VectorX& w, const std::vector<Matrix3X>* vertices,
                       std::vector<Matrix3X>* used);
  VectorX EvaluatePrepared(const VectorX& v_next, const VectorX& w, const std::vector<Matrix3X>* vertices);

  const MultibodyModel& model_;
  std::vector<NmdpContactPoint> points_;
  WrenchPolytopeParameters polytope_;
  std::vector<NmdpJointPd> pd_;
  VectorX q_, v_, tau_ext_;
  bool has_tau_ext_ = false;
  double dt_;
  KinematicsCache cache_;
  VectorX q_next_, k_;
  MatrixX M_;
  VectorX prepared_v_;     // The v₊ that cache_, q_next_, M_ and k_ belong to.
  bool prepared_ = false;
};

}  // namespace stiction
