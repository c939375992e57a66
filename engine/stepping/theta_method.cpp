#include "engine/stepping/theta_method.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "engine/multibody/dynamics.h"

namespace stiction {

namespace {
constexpr int kMaxFixedPointIterations = 100;
constexpr int kMaxNewtonIterations = 25;
// Stage 1 is converged when the Newton update is below this relative size;
// tight enough that the midpoint rule conserves energy to round-off.
constexpr double kNewtonRelativeTolerance = 1e-13;
}  // namespace

ThetaMethod::ThetaMethod(const MultibodyModel& model)
    : model_(model),
      q_theta_(VectorX::Zero(model.num_positions())),
      q_next_(VectorX::Zero(model.num_positions())),
      v_theta_(VectorX::Zero(model.num_velocities())),
      qdot_(VectorX::Zero(model.num_positions())),
      k_(VectorX::Zero(model.num_velocities())),
      v_work_(VectorX::Zero(model.num_velocities())) {}

void ThetaMethod::CalcPositions(int tree, const VectorX& q0, const VectorX& v0,
                                const VectorX& v, double dt, const ThetaParameters& p,
                                VectorX* q_theta, VectorX* q) const {
  const Tree& t = model_.tree(tree);
  if (t.nq == 0) return;
  // v^θvq of Eq. (6).
  VectorX v_vq = v;
  v_vq.segment(t.v_start, t.nv) =
      p.theta_vq * v.segment(t.v_start, t.nv) + (1 - p.theta_vq) * v0.segment(t.v_start, t.nv);
  VectorX qdot(model_.num_positions());
  q_theta->segment(t.q_start, t.nq) = q0.segment(t.q_start, t.nq);
  // With θ = 0, q^θ = q0 and one evaluation is exact.
  const int iterations = p.theta > 0 ? kMaxFixedPointIterations : 1;
  for (int it = 0; it < iterations; ++it) {
    model_.MapVelocityToQDot(*q_theta, v_vq, &qdot, tree);
    const VectorX q_new = q0.segment(t.q_start, t.nq) + dt * qdot.segment(t.q_start, t.nq);
    const VectorX q_theta_new =
        p.theta * q_new + (1 - p.theta) * q0.segment(t.q_start, t.nq);
    const double change = (q_theta_new - q_theta->segment(t.q_start, t.nq)).lpNorm<Eigen::Infinity>();
    q_theta->segment(t.q_start, t.nq) = q_theta_new;
    q->segment(t.q_start, t.nq) = q_new;
    if (change <= 1e-16 * (1 + q_new.lpNorm<Eigen::Infinity>())) break;
  }
}

void ThetaMethod::CalcResidual(int tree, const VectorX& q0, const VectorX& v0,
                               const VectorX& v, double dt, const ThetaParameters& p,
                               const VectorX* tau_ext, KinematicsCache* cache,
                               MatrixX* M_t, VectorX* r) {
  const Tree& t = model_.tree(tree);
  CalcPositions(tree, q0, v0, v, dt, p, &q_theta_, &q_next_);
  v_theta_.segment(t.v_start, t.nv) =
      p.theta * v.segment(t.v_start, t.nv) + (1 - p.theta) * v0.segment(t.v_start, t.nv);
  CalcKinematics(model_, q_theta_, v_theta_, BodyRange::OfTree(model_, tree), cache);
  CalcTreeMassMatrix(model_, *cache, tree, M_t);
  CalcTreeGeneralizedForces(model_, *cache, tree, q_theta_, v_theta_, tau_ext, &k_);
  // Eq. (14): m(v) = M(q^θ)(v − v0) − δt k(q^θ, v^θ).
  *r = (*M_t) * (v.segment(t.v_start, t.nv) - v0.segment(t.v_start, t.nv)) -
       dt * k_.segment(t.v_start, t.nv);
}

FreeMotionStatus ThetaMethod::SolveFreeMotion(int tree, const VectorX& q0,
                                              const VectorX& v0, double dt,
                                              const ThetaParameters& p,
                                              const VectorX* tau_ext, VectorX* v_star,
                                              KinematicsCache* cache, MatrixX* M_t) {
  const Tree& t = model_.tree(tree);
  FreeMotionStatus status;
  if (t.nv == 0) {
    M_t->resize(0, 0);
    return status;
  }
  auto vs = v_star->segment(t.v_start, t.nv);
  // Explicit step v = v0 + δt M(q0)⁻¹ k(q0, v0): the answer when θ = 0 (then
  // q^θ = q0 and v^θ = v0), the initial guess for Newton otherwise.
  CalcKinematics(model_, q0, v0, BodyRange::OfTree(model_, tree), cache);
  CalcTreeMassMatrix(model_, *cache, tree, M_t);
  CalcTreeGeneralizedForces(model_, *cache, tree, q0, v0, tau_ext, &k_);
  vs = v0.segment(t.v_start, t.nv) + dt * M_t->llt().solve(k_.segment(t.v_start, t.nv));
  if (!p.implicit_in_v()) return status;

  VectorX r;
  MatrixX J(t.nv, t.nv);
  VectorX r_h;
  MatrixX M_scratch;
  status.converged = false;
  for (int it = 0; it < kMaxNewtonIterations; ++it) {
    CalcResidual(tree, q0, v0, *v_star, dt, p, tau_ext, cache, M_t, &r);
    status.newton_iterations = it + 1;
    // Forward-difference Jacobian ∂m/∂v (exact for linear problems up to
    // round-off; O(h) accurate otherwise, which keeps Newton's contraction
    // at ~1e-7 per iteration).
    v_work_.segment(t.v_start, t.nv) = vs;
    for (int i = 0; i < t.nv; ++i) {
      const int col = t.v_start + i;
      const double h = 1e-7 * std::max(1.0, std::abs(v_work_[col]));
      v_work_[col] += h;
      CalcResidual(tree, q0, v0, v_work_, dt, p, tau_ext, cache, &M_scratch, &r_h);
      J.col(i) = (r_h - r) / h;
      v_work_[col] = vs[i];
    }
    const VectorX dv = -J.partialPivLu().solve(r);
    vs += dv;
    const double scale = std::max(1e-3, vs.lpNorm<Eigen::Infinity>());
    if (!dv.allFinite()) break;
    if (dv.lpNorm<Eigen::Infinity>() <= kNewtonRelativeTolerance * scale) {
      status.converged = true;
      break;
    }
  }
  CalcResidual(tree, q0, v0, *v_star, dt, p, tau_ext, cache, M_t, &r);
  status.residual_norm = r.lpNorm<Eigen::Infinity>();
  if (!status.converged) {
    // Newton stalls at round-off on hard problems; accept a tiny residual.
    const double scale = (*M_t).lpNorm<Eigen::Infinity>() *
                         std::max(1e-3, vs.lpNorm<Eigen::Infinity>());
    status.converged = std::isfinite(status.residual_norm) &&
                       status.residual_norm <= 1e-9 * scale;
  }
  return status;
}

}  // namespace stiction
