#pragma once
// The θ-method of [SAP] Sec. II-C (Eqs. 6, 11–14): mid-step quantities,
// the position update q(v), and stage 1 of the two-stage scheme (Sec. II-D),
// which solves the free-motion velocities v* from m(v*) = 0, one tree at a
// time (trees do not interact without constraints).
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "engine/common/eigen_types.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/multibody/tree_cholesky.h"
#include "engine/stepping/free_motion_history.h"

namespace stiction {

/// θ and θ_vq of Eq. (6). Presets (Sec. II-C): explicit Euler (0, 0),
/// symplectic Euler (0, 1), implicit Euler (1, 1), midpoint (½, ½).
struct ThetaParameters {
  double theta = 0.5;
  double theta_vq = 0.5;
  /// Stage 1 needs Newton iterations only when M and k are evaluated at the
  /// unknown mid-step state, i.e. θ > 0.
  bool implicit_in_v() const { return theta > 0; }
};

/// Result of stage 1 for one tree.
struct FreeMotionStatus {
  bool converged = true;
  int newton_iterations = 0;
  int finite_difference_jacobians = 0;  ///< Forward-difference Jacobians formed (nv evaluations each).
  int damped_steps = 0;  ///< Newton steps shortened so that ‖m‖∞ decreases.
  double residual_norm = 0;  ///< ‖m(v*)‖∞ at exit [N s].
};

class ThetaMethod {
 public:
  explicit ThetaMethod(const MultibodyModel& model);

  /// Eqs. (6), (11), (12) for tree t: q = q0 + δt N(q^θ) v^θvq where
  /// q^θ = θ q + (1−θ) q0 depends on q itself through N; solved by
  /// fixed-point iteration (a contraction with factor ~ δt θ ‖ω‖ / 2).
  /// Writes the tree's slices of q_theta and q (quaternions not normalized).
  /// `pseudo_v` (optional, all velocities): a pseudo-velocity added to
  /// v^θvq, which moves the positions by δt N pseudo_v and not the
  /// velocities (split recovery, engine/solvers/position_recovery.h).
  void CalcPositions(int tree, const VectorX& q0, const VectorX& v0, const VectorX& v,
                     double dt, const ThetaParameters& p, VectorX* q_theta,
                     VectorX* q, const VectorX* pseudo_v = nullptr) const;

  /// Stage 1 (Eq. 13) for tree t: writes the tree's slice of v_star. Newton's
  /// method on m(v) when θ > 0; a single mass-matrix solve when θ = 0. A tree
  /// that is one free body uses the closed-form M, k and an analytic ∂m/∂v
  /// (below); other trees the generic kinematics/CRBA/RNEA with quasi-Newton
  /// steps on A of Eq. (15), then a forward-difference Jacobian if those stop
  /// contracting. Writes the mass matrix M(q^θ(v*)) in *M_t.
  /// `cache` is scratch for the generic path (its entries for the tree are
  /// overwritten; the free-body path leaves it alone). `cache_q0`, when
  /// given, holds the kinematics at (q0, v0) (the stepper has them for the
  /// contact query), which the explicit first guess then does not recompute.
  /// `history`, when given, moves the generic path's first guess by what
  /// the last steps' iterations added to theirs, and records this step's
  /// (free_motion_history.h); the solution and its tolerance are the same.
  FreeMotionStatus SolveFreeMotion(int tree, const VectorX& q0, const VectorX& v0,
                                   double dt, const ThetaParameters& p,
                                   const VectorX* tau_ext, VectorX* v_star,
                                   KinematicsCache* cache, MatrixX* M_t,
                                   const KinematicsCache* cache_q0 = nullptr,
                                   FreeMotionHistory* history = nullptr);

 private:
  // Momentum residual m(v) of Eq. (14) for tree t, into r (size nv_t).
  void CalcResidual(int tree, const VectorX& q0, const VectorX& v0, const VectorX& v,
                    double dt, const ThetaParameters& p, const VectorX* tau_ext,
                    KinematicsCache* cache, VectorX* r);

  // A tree made of a single body on a free joint (its parent is the world, so
  // the joint frame F is fixed). With v = [ω_M (in M); u = ṗ_FM (in F)], the
  // COM at r and the rotational inertia I_o about M's origin (both in M,
  // constant), and R = R_FM:
  //   M = [I_o, m[r]× Rᵀ; −m R [r]×, m 1],
  //   k = [−ω × I_o ω + m r × (R_WMᵀ g); −m R (ω × (ω × r)) + m R_WFᵀ g] + τ_ext
  // (Newton–Euler about the moving point M: the terms in u cancel). With
  // r = 0, M is constant and k independent of q.
  struct FreeBody {
    bool active = false;
    double mass = 0;
    Vector3 r_M = Vector3::Zero();  // COM in M [m].
    Matrix3 I_o_M = Matrix3::Zero();  // Rotational inertia about Mo, M axes.
    Matrix3 R_WF = Matrix3::Identity();
    Vector3 mg_F = Vector3::Zero();  // m R_WFᵀ g [N].
    bool com_at_origin = true;  // r = 0: M(q) constant, k independent of q.
  };
  // M and k above at R_FM (of the normalized quaternion) and velocities v.
  void CalcFreeBodyTerms(const FreeBody& fb, const Matrix3& R_FM, const Vector6& v,
                         const Vector6& tau, Matrix6* M, Vector6* k) const;
  // ∂k/∂v at fixed positions (gyroscopic and centripetal terms).
  void CalcFreeBodyForceJacobian(const FreeBody& fb, const Matrix3& R_FM, const Vector6& v,
                                 Matrix6* dk_dv) const;
  FreeMotionStatus SolveFreeBodyMotion(int tree, const VectorX& q0, const VectorX& v0,
                                       double dt, const ThetaParameters& p,
                                       const VectorX* tau_ext, VectorX* v_star, MatrixX* M_t);

  const MultibodyModel& model_;
  std::vector<FreeBody> free_bodies_;  // Per tree.
  // Scratch, full size; only tree slices are touched.
  VectorX q_theta_, q_next_, v_theta_, k_, v_work_, v_trial_;
  mutable VectorX qdot_, v_vq_;  // CalcPositions scratch.
  VectorX K_, D_;                // Joint spring stiffness and damping per velocity.
  // Newton scratch of the generic path (no allocation once sized).
  VectorX r_, r_h_, dv_, accel_, v_lin_;
  MatrixX jacobian_, M0_;
  std::vector<TreeCholesky> factors_;  // Per tree: A0 = LᵀL with the tree's sparsity.
  Eigen::PartialPivLU<MatrixX> lu_;
};

}  // namespace stiction
