#include "engine/stepping/theta_method.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "engine/multibody/dynamics.h"

namespace stiction {

namespace {
constexpr int kMaxFixedPointIterations = 100;
constexpr int kMaxNewtonIterations = 25;
// Halvings of a damped Newton step before its Jacobian is refreshed.
constexpr int kMaxStepHalvings = 12;
// Stage 1 is converged when the Newton update is below this relative size;
// tight enough that the midpoint rule conserves energy to round-off.
constexpr double kNewtonRelativeTolerance = 1e-13;
constexpr double kResidualRelativeTolerance = 1e-14;

// Stage 1's residual test, shared by the generic and the free-body path:
// ‖m(v)‖∞ negligible relative to the momentum change of the step (tight
// enough for midpoint to conserve energy), or at the round-off floor of
// evaluating m = M(v − v0) − δt k, which grows with the inertia entries that
// multiply the velocities and, when forces are applied, with the forces k
// sums before they cancel (`applied_scale`: δt ‖τ_ext‖∞ and δt |g| m|p|,
// gravity's moments about the world origin, in which the generic path sums
// them). A robot whose gravity compensation cancels its weight has k ≈ 0 to
// that round-off and no momentum change to measure the residual against.
double ResidualThreshold(double momentum_scale, double inertia_scale, double v_norm, double v0_norm,
                         double applied_scale) {
  const double round_off = 16 * std::numeric_limits<double>::epsilon() *
                           (inertia_scale * (v_norm + v0_norm) + momentum_scale + applied_scale);
  return std::max(kResidualRelativeTolerance * momentum_scale, round_off);
}
bool ResidualConverged(double r_norm, double momentum_scale, double inertia_scale, double v_norm, double v0_norm,
                       double applied_scale) {
  return r_norm <= ResidualThreshold(momentum_scale, inertia_scale, v_norm, v0_norm, applied_scale);
}
}  // namespace

ThetaMethod::ThetaMethod(const MultibodyModel& model)
    : model_(model),
      q_theta_(VectorX::Zero(model.num_positions())),
      q_next_(VectorX::Zero(model.num_positions())),
      v_theta_(VectorX::Zero(model.num_velocities())),
      k_(VectorX::Zero(model.num_velocities())),
      v_work_(VectorX::Zero(model.num_velocities())),
      v_trial_(VectorX::Zero(model.num_velocities())),
      qdot_(VectorX::Zero(model.num_positions())),
      v_vq_(VectorX::Zero(model.num_velocities())) {
  accel_ = VectorX::Zero(model.num_velocities());
  CalcJointStiffnessAndDamping(model, &K_, &D_);
  free_bodies_.resize(model.num_trees());
  factors_.reserve(model.num_trees());
  for (int t = 0; t < model.num_trees(); ++t) factors_.emplace_back(TreeCholesky::VelocityParents(model, t));
  for (int t = 0; t < model.num_trees(); ++t) {
    const Tree& tree = model.tree(t);
    if (tree.body_end - tree.body_begin != 1) continue;
    const Body& body = model.body(tree.body_begin);
    const Joint& joint = model.joint(body.joint);
    if (joint.type != JointType::kFree || body.parent != 0) continue;
    FreeBody& fb = free_bodies_[t];
    fb.active = true;
    fb.mass = body.mass;
    const RigidTransform X_MB = joint.X_CM.inverse();
    fb.r_M = X_MB * body.com_B;
    const Matrix3 I_c_M = X_MB.R * body.I_Bcm_B * X_MB.R.transpose();
    // Parallel-axis theorem: I_o = I_c + m [r]×ᵀ[r]×.
    const Matrix3 r_x = Skew(fb.r_M);
    fb.I_o_M = I_c_M + body.mass * r_x.transpose() * r_x;
    // The world (body 0) is at the identity: X_WF = X_PF.
    fb.R_WF = joint.X_PF.R;
    fb.mg_F = body.mass * (fb.R_WF.transpose() * model.gravity());
    fb.com_at_origin = (fb.r_M.array() == 0).all();
  }
}

void ThetaMethod::CalcPositions(int tree, const VectorX& q0, const VectorX& v0,
                                const VectorX& v, double dt, const ThetaParameters& p,
                                VectorX* q_theta, VectorX* q, const VectorX* pseudo_v) const {
  const Tree& t = model_.tree(tree);
  if (t.nq == 0) return;
  // v^θvq of Eq. (6); only the tree's slice of the scratch vectors is used.
  v_vq_.segment(t.v_start, t.nv) =
      p.theta_vq * v.segment(t.v_start, t.nv) + (1 - p.theta_vq) * v0.segment(t.v_start, t.nv);
  if (pseudo_v != nullptr) v_vq_.segment(t.v_start, t.nv) += pseudo_v->segment(t.v_start, t.nv);
  auto qt = q_theta->segment(t.q_start, t.nq);
  auto qn = q->segment(t.q_start, t.nq);
  const auto q0t = q0.segment(t.q_start, t.nq);
  qt = q0t;
  // With θ = 0, q^θ = q0 and one evaluation is exact.
  const int iterations = p.theta > 0 ? kMaxFixedPointIterations : 1;
  for (int it = 0; it < iterations; ++it) {
    model_.MapVelocityToQDot(*q_theta, v_vq_, &qdot_, tree);
    qn = q0t + dt * qdot_.segment(t.q_start, t.nq);
    double change = 0;
    for (int i = 0; i < t.nq; ++i) {
      const double updated = p.theta * qn[i] + (1 - p.theta) * q0t[i];
      change = std::max(change, std::abs(updated - qt[i]));
      qt[i] = updated;
    }
    if (change <= 1e-16 * (1 + qn.lpNorm<Eigen::Infinity>())) break;
  }
}

void ThetaMethod::CalcResidual(int tree, const VectorX& q0, const VectorX& v0,
                               const VectorX& v, double dt, const ThetaParameters& p,
                               const VectorX* tau_ext, KinematicsCache* cache, VectorX* r) {
  const Tree& t = model_.tree(tree);
  CalcPositions(tree, q0, v0, v, dt, p, &q_theta_, &q_next_);
  v_theta_.segment(t.v_start, t.nv) =
      p.theta * v.segment(t.v_start, t.nv) + (1 - p.theta) * v0.segment(t.v_start, t.nv);
  CalcKinematics(model_, q_theta_, v_theta_, BodyRange::OfTree(model_, tree), cache);
  // Eq. (14), m(v) = M(q^θ)(v − v0) − δt k(q^θ, v^θ), as δt times the
  // inverse dynamics at the mean acceleration (v − v0)/δt: one O(n)
  // recursive Newton–Euler pass instead of forming M.
  accel_.segment(t.v_start, t.nv) = (v.segment(t.v_start, t.nv) - v0.segment(t.v_start, t.nv)) / dt;
  CalcTreeInverseDynamics(model_, *cache, tree, accel_, &k_);
  AddTreeJointSpringDamperForces(model_, tree, q_theta_, v_theta_, -1.0, &k_);
  if (tau_ext != nullptr) k_.segment(t.v_start, t.nv) -= tau_ext->segment(t.v_start, t.nv);
  *r = dt * k_.segment(t.v_start, t.nv);
}

FreeMotionStatus ThetaMethod::SolveFreeMotion(int tree, const VectorX& q0,
                                              const VectorX& v0, double dt,
                                              const ThetaParameters& p,
                                              const VectorX* tau_ext, VectorX* v_star,
                                              KinematicsCache* cache, MatrixX* M_t,
                                              const KinematicsCache* cache_q0, FreeMotionHistory* history) {
  const Tree& t = model_.tree(tree);
  FreeMotionStatus status;
  if (t.nv == 0) {
    M_t->resize(0, 0);
    return status;
  }
  if (free_bodies_[tree].active) {
    return SolveFreeBodyMotion(tree, q0, v0, dt, p, tau_ext, v_star, M_t);
  }
  auto vs = v_star->segment(t.v_start, t.nv);
  if (cache_q0 == nullptr) {
    CalcKinematics(model_, q0, v0, BodyRange::OfTree(model_, tree), cache);
    cache_q0 = cache;
  }
  CalcTreeMassMatrix(model_, *cache_q0, tree, M_t);
  CalcTreeGeneralizedForces(model_, *cache_q0, tree, q0, v0, tau_ext, &k_);
  const auto v0t = v0.segment(t.v_start, t.nv);
  if (!p.implicit_in_v()) {
    // θ = 0: q^θ = q0 and v^θ = v0, so v = v0 + δt M(q0)⁻¹ k(q0, v0) is exact.
    factors_[tree].Factor(*M_t);
    dv_ = k_.segment(t.v_start, t.nv);
    factors_[tree].Solve(dv_);
    vs = v0t + dt * dv_;
    return status;
  }

  // Newton's method on m(v) = 0. Its Jacobian ∂m/∂v is M(q^θ) + δt θ D +
  // δt² θ θ_vq K (the joints' linear springs and dampers) plus the
  // derivatives of the Coriolis and centrifugal terms, O(δt |ω|) smaller,
  // and δt² θ θ_vq ∂(M a − τ_g)/∂q at the step's acceleration a: about 1e-3
  // on a robot at δt = 10 ms. So the steps are quasi-Newton with A0 =
  // M(q0) + δt θ D + δt² θ θ_vq K, factored once per step (the first from v0
  // with m taken at q0, v0: a linearly implicit Euler guess), each then
  // costing one O(n) evaluation of m. Where their measured contraction would
  // need more iterations than a forward-difference Jacobian costs (below: a
  // fast, light link), the rest use that Jacobian (nv evaluations; exact for
  // linear problems up to round-off, O(h) accurate otherwise), reused while
  // it keeps contracting the residual 10× per iteration.
  const auto K_t = K_.segment(t.v_start, t.nv);
  const auto D_t = D_.segment(t.v_start, t.nv);
  jacobian_ = *M_t;
  jacobian_.diagonal() += dt * p.theta * D_t + dt * dt * p.theta * p.theta_vq * K_t;
  const TreeCholesky& factor = factors_[tree];
  factors_[tree].Factor(jacobian_);  // A failed factor is NaN: the step reports it.
  M0_ = *M_t;
  dv_ = k_.segment(t.v_start, t.nv);
  factor.Solve(dv_);
  vs = v0t + dt * dv_;
  // The first guess: this linearly implicit step, moved by what the last
  // steps' iterations added to theirs (free_motion_history.h).
  v_lin_ = vs;
  if (history != nullptr) history->AddPrediction(tree, t.v_start, t.nv, dt, p.theta, p.theta_vq, vs);

  VectorX& r = r_;
  bool finite_differences = false;
  bool have_jacobian = false;
  bool jacobian_fresh = false;  // Formed at the current vs.
  double r_prev = std::numeric_limits<double>::infinity();
  status.converged = false;
  double tree_mass = 0;
  for (int b = t.body_begin; b < t.body_end; ++b) tree_mass += model_.body(b).mass;
  // Gravity's moment about the world origin, m|p| g, from the largest
  // spatial inertia entry m|p|² (inertia_scale, below) and the tree's mass.
  const double applied_scale =
      tau_ext != nullptr ? dt * tau_ext->segment(t.v_start, t.nv).lpNorm<Eigen::Infinity>() : 0.0;
  CalcResidual(tree, q0, v0, *v_star, dt, p, tau_ext, cache, &r);
  bool cache_current = true;  // cache and r hold the state at vs.
  for (int it = 0; it <= kMaxNewtonIterations; ++it) {
    const double r_norm = r.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(r_norm)) break;
    // The residual's scale: the momentum change M(v − v0) (M at q0, which
    // differs from M(q^θ) by O(δt |v|): a scale, not part of m) and δt k,
    // the rest of m. Spatial inertias about the world origin hold m|p|²
    // terms that cancel in M = SᵀIS, so the round-off floor grows with the
    // bodies' distance from the origin and their speed.
    dv_.noalias() = M0_ * (vs - v0t);
    const double momentum_scale = dv_.lpNorm<Eigen::Infinity>() + (dv_ - r).lpNorm<Eigen::Infinity>();
    double inertia_scale = M0_.lpNorm<Eigen::Infinity>();
    for (int b = t.body_begin; b < t.body_end; ++b) {
      inertia_scale = std::max(inertia_scale, cache->I_Wo[b].lpNorm<Eigen::Infinity>());
    }
    // Only an applied force can cancel gravity to k ≈ 0; without one the
    // momentum change measures the residual.
    const double gravity_scale =
        tau_ext != nullptr ? dt * model_.gravity().norm() * std::sqrt(inertia_scale * tree_mass) : 0.0;
    const double threshold = ResidualThreshold(momentum_scale, inertia_scale, vs.lpNorm<Eigen::Infinity>(),
                                               v0t.lpNorm<Eigen::Infinity>(), applied_scale + gravity_scale);
    if (r_norm <= threshold) {
      status.converged = true;
      break;
    }
    if (it == kMaxNewtonIterations) break;
    const bool contracting = r_norm <= 0.1 * r_prev;
    // Quasi-Newton goes on while its measured contraction ρ reaches the
    // threshold in fewer iterations than a forward-difference Jacobian costs
    // evaluations (nv) and within the iteration cap: a falling humanoid's
    // hands contract by ρ ~ 0.1–0.5 for a few steps, where 27 evaluations
    // for a Jacobian cost more than the extra iterations.
    if (!contracting && !finite_differences) {
      const double rho = r_norm / r_prev;
      const double needed = rho < 1 ? std::log(threshold / r_norm) / std::log(rho) : kMaxNewtonIterations;
      if (needed > std::min(t.nv, kMaxNewtonIterations - 2 - it)) finite_differences = true;
    }
    // The step: quasi-Newton on A0, or Newton on a forward-difference
    // Jacobian, damped so that it never increases ‖m‖∞ (below).
    double alpha = 1;
    bool accepted = false;
    while (!accepted) {
      if (!finite_differences) {
        dv_ = -r;
        factor.Solve(dv_);
      } else {
        if (!have_jacobian || (!contracting && !jacobian_fresh)) {
          v_work_.segment(t.v_start, t.nv) = vs;
          jacobian_.resize(t.nv, t.nv);
          for (int i = 0; i < t.nv; ++i) {
            const int col = t.v_start + i;
            const double h = 1e-7 * std::max(1.0, std::abs(v_work_[col]));
            v_work_[col] += h;
            CalcResidual(tree, q0, v0, v_work_, dt, p, tau_ext, cache, &r_h_);
            jacobian_.col(i) = (r_h_ - r) / h;
            v_work_[col] = vs[i];
          }
          lu_.compute(jacobian_);
          have_jacobian = true;
          jacobian_fresh = true;
          cache_current = false;
          ++status.finite_difference_jacobians;
        }
        dv_ = -lu_.solve(r);
      }
      if (!dv_.allFinite()) break;
      // A vanishing update means convergence (the residual at round-off):
      // taken without a test, as the residual no longer measures progress.
      if (dv_.lpNorm<Eigen::Infinity>() <=
          kNewtonRelativeTolerance * std::max(1e-3, (vs + dv_).lpNorm<Eigen::Infinity>())) {
        vs += dv_;
        cache_current = false;
        status.newton_iterations = it + 1;
        status.converged = true;
        break;
      }
      // Damping: a step must decrease ‖m‖∞. Along a Newton direction
      // m(v + α δv) ≈ (1 − α) m(v), so halving α finds one unless the
      // Jacobian is stale; a fast, light link's centrifugal terms (∝ ω²)
      // make the full step overshoot by orders of magnitude (a hand's
      // phalanx at 300 rad/s). A quasi-Newton step that fails the test
      // hands over to a forward-difference Jacobian at the same point.
      for (int halving = 0; halving <= kMaxStepHalvings; ++halving, alpha *= 0.5) {
        v_trial_.segment(t.v_start, t.nv) = vs + alpha * dv_;
        CalcResidual(tree, q0, v0, v_trial_, dt, p, tau_ext, cache, &r_h_);
        cache_current = true;
        const double r_trial = r_h_.lpNorm<Eigen::Infinity>();
        if (std::isfinite(r_trial) && r_trial <= (1 - 1e-4 * alpha) * r_norm) {
          accepted = true;
          break;
        }
        if (!finite_differences) break;
      }
      if (accepted) break;
      cache_current = false;
      alpha = 1;
      if (!finite_differences) {
        finite_differences = true;
      } else if (jacobian_fresh) {
        break;  // No descent along an exact direction: a local minimum of ‖m‖ (fails below).
      } else {
        have_jacobian = false;
      }
    }
    if (status.converged) break;
    if (!accepted) break;
    if (alpha < 1) ++status.damped_steps;
    r_prev = r_norm;
    vs = v_trial_.segment(t.v_start, t.nv);
    r.swap(r_h_);
    jacobian_fresh = false;
    status.newton_iterations = it + 1;
  }
  // M(q^θ(v*)) for A (Eq. 15), from the kinematics at v*.
  if (!cache_current) CalcResidual(tree, q0, v0, *v_star, dt, p, tau_ext, cache, &r);
  CalcTreeMassMatrix(model_, *cache, tree, M_t);
  status.residual_norm = r.lpNorm<Eigen::Infinity>();
  if (!std::isfinite(status.residual_norm) || !vs.allFinite()) status.converged = false;
  if (history != nullptr) {
    dv_ = vs - v_lin_;
    history->Record(tree, t.v_start, t.nv, dt, p.theta, p.theta_vq, status.converged, dv_);
  }
  return status;
}

void ThetaMethod::CalcFreeBodyTerms(const FreeBody& fb, const Matrix3& R_FM, const Vector6& v,
                                    const Vector6& tau, Matrix6* M, Vector6* k) const {
  const Vector3 w = v.head<3>();
  const double m = fb.mass;
  const Matrix3 M_wu = m * Skew(fb.r_M) * R_FM.transpose();
  M->topLeftCorner<3, 3>() = fb.I_o_M;
  M->topRightCorner<3, 3>() = M_wu;
  M->bottomLeftCorner<3, 3>() = M_wu.transpose();
  M->bottomRightCorner<3, 3>() = m * Matrix3::Identity();
  // k = −C v + τ_g + τ_ext (Eq. 7): gyroscopic torque about Mo, gravity's
  // torque about Mo, centripetal force of the offset COM, gravity.
  k->head<3>() = -w.cross(fb.I_o_M * w) + fb.r_M.cross(R_FM.transpose() * fb.mg_F) + tau.head<3>();
  k->tail<3>() = -m * (R_FM * w.cross(w.cross(fb.r_M))) + fb.mg_F + tau.tail<3>();
}

void ThetaMethod::CalcFreeBodyForceJacobian(const FreeBody& fb, const Matrix3& R_FM,
                                            const Vector6& v, Matrix6* dk_dv) const {
  const Vector3 w = v.head<3>();
  const Vector3& r = fb.r_M;
  dk_dv->setZero();
  // ∂(−ω × I ω)/∂ω = [I ω]× − [ω]× I.
  dk_dv->topLeftCorner<3, 3>() = Skew(fb.I_o_M * w) - Skew(w) * fb.I_o_M;
  // ∂(ω × (ω × r))/∂ω = (ω·r) 1 + ω rᵀ − 2 r ωᵀ.
  dk_dv->bottomLeftCorner<3, 3>() =
      -fb.mass * (R_FM * (w.dot(r) * Matrix3::Identity() + w * r.transpose() - 2 * r * w.transpose()));
}

FreeMotionStatus ThetaMethod::SolveFreeBodyMotion(int tree, const VectorX& q0, const VectorX& v0,
                                                  double dt, const ThetaParameters& p,
                                                  const VectorX* tau_ext, VectorX* v_star,
                                                  MatrixX* M_t) {
  const Tree& t = model_.tree(tree);
  const FreeBody& fb = free_bodies_[tree];
  FreeMotionStatus status;
  const Vector6 v0t = v0.segment<6>(t.v_start);
  const Vector6 tau = tau_ext != nullptr ? Vector6(tau_ext->segment<6>(t.v_start)) : Vector6::Zero();
  // R_FM enters only through the COM offset: with r = 0 every term that
  // holds it vanishes, and q^θ is not needed.
  auto rotation = [&](const VectorX& q) -> Matrix3 {
    return fb.com_at_origin ? Matrix3::Identity() : RotationFromQuaternion(q, t.q_start);
  };
  Matrix6 M;
  Vector6 k;
  // Explicit step v = v0 + δt M(q0)⁻¹ k(q0, v0): the answer when θ = 0, the
  // initial guess for Newton otherwise.
  CalcFreeBodyTerms(fb, rotation(q0), v0t, tau, &M, &k);
  Vector6 v = v0t + dt * Eigen::LLT<Matrix6>(M).solve(k);
  if (!p.implicit_in_v()) {
    v_star->segment<6>(t.v_start) = v;
    *M_t = M;
    return status;
  }

  // m(v) of Eq. (14) with M and k at q^θ(v), v^θ; R_FM of q^θ into *R.
  auto residual = [&](const Vector6& v_eval, Matrix6* M_eval, Vector6* k_eval,
                      Matrix3* R) -> Vector6 {
    if (fb.com_at_origin) {
      R->setIdentity();
    } else {
      v_work_.segment<6>(t.v_start) = v_eval;
      CalcPositions(tree, q0, v0, v_work_, dt, p, &q_theta_, &q_next_);
      *R = RotationFromQuaternion(q_theta_, t.q_start);
    }
    const Vector6 v_theta = p.theta * v_eval + (1 - p.theta) * v0t;
    CalcFreeBodyTerms(fb, *R, v_theta, tau, M_eval, k_eval);
    return (*M_eval) * (v_eval - v0t) - dt * (*k_eval);
  };

  Vector6 r;
  Matrix3 R_FM;
  Matrix6 J, M_h;
  Vector6 k_h;
  Matrix3 R_h;
  double r_prev = std::numeric_limits<double>::infinity();
  bool finite_differences = false;
  bool current = false;  // M, k and r belong to v.
  status.converged = false;
  for (int it = 0; it <= kMaxNewtonIterations; ++it) {
    r = residual(v, &M, &k, &R_FM);
    current = true;
    const double r_norm = r.lpNorm<Eigen::Infinity>();
    // The closed form has no m|p|² cancellation, so its round-off floor
    // scales with M itself.
    const double momentum_scale =
        (M * (v - v0t)).lpNorm<Eigen::Infinity>() + dt * k.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(r_norm)) break;
    if (ResidualConverged(r_norm, momentum_scale, M.lpNorm<Eigen::Infinity>(), v.lpNorm<Eigen::Infinity>(),
                          v0t.lpNorm<Eigen::Infinity>(), dt * tau.lpNorm<Eigen::Infinity>())) {
      status.converged = true;
      break;
    }
    if (it == kMaxNewtonIterations) break;
    // Newton's method with ∂m/∂v = M − δt θ ∂k/∂v^θ (Eq. 14 differentiated
    // at fixed q^θ): exact when r = 0 (M and k do not depend on q), a
    // quasi-Newton step otherwise (the q^θ(v) terms are O(δt) smaller). If it
    // stops contracting the residual 10× per iteration, forward differences.
    if (r_norm > 0.1 * r_prev) finite_differences = true;
    if (!finite_differences) {
      Matrix6 dk_dv;
      CalcFreeBodyForceJacobian(fb, R_FM, p.theta * v + (1 - p.theta) * v0t, &dk_dv);
      J = M - dt * p.theta * dk_dv;
    } else {
      for (int i = 0; i < 6; ++i) {
        Vector6 v_h = v;
        const double h = 1e-7 * std::max(1.0, std::abs(v[i]));
        v_h[i] += h;
        J.col(i) = (residual(v_h, &M_h, &k_h, &R_h) - r) / h;
      }
    }
    r_prev = r_norm;
    const Vector6 dv = -Eigen::PartialPivLU<Matrix6>(J).solve(r);
    v += dv;
    current = false;
    status.newton_iterations = it + 1;
    if (!dv.allFinite()) break;
    if (dv.lpNorm<Eigen::Infinity>() <=
        kNewtonRelativeTolerance * std::max(1e-3, v.lpNorm<Eigen::Infinity>())) {
      status.converged = true;
      break;
    }
  }
  if (!current) r = residual(v, &M, &k, &R_FM);
  v_star->segment<6>(t.v_start) = v;
  *M_t = M;
  status.residual_norm = r.lpNorm<Eigen::Infinity>();
  if (!std::isfinite(status.residual_norm) || !v.allFinite()) status.converged = false;
  return status;
}

}  // namespace stiction
