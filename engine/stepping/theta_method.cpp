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
// Stage 1 is converged when the Newton update is below this relative size;
// tight enough that the midpoint rule conserves energy to round-off.
constexpr double kNewtonRelativeTolerance = 1e-13;
constexpr double kResidualRelativeTolerance = 1e-14;
}  // namespace

ThetaMethod::ThetaMethod(const MultibodyModel& model)
    : model_(model),
      q_theta_(VectorX::Zero(model.num_positions())),
      q_next_(VectorX::Zero(model.num_positions())),
      v_theta_(VectorX::Zero(model.num_velocities())),
      k_(VectorX::Zero(model.num_velocities())),
      v_work_(VectorX::Zero(model.num_velocities())),
      qdot_(VectorX::Zero(model.num_positions())),
      v_vq_(VectorX::Zero(model.num_velocities())) {}

void ThetaMethod::CalcPositions(int tree, const VectorX& q0, const VectorX& v0,
                                const VectorX& v, double dt, const ThetaParameters& p,
                                VectorX* q_theta, VectorX* q) const {
  const Tree& t = model_.tree(tree);
  if (t.nq == 0) return;
  // v^θvq of Eq. (6); only the tree's slice of the scratch vectors is used.
  v_vq_.segment(t.v_start, t.nv) =
      p.theta_vq * v.segment(t.v_start, t.nv) + (1 - p.theta_vq) * v0.segment(t.v_start, t.nv);
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
  // Newton's method on m(v) = 0 with a forward-difference Jacobian ∂m/∂v
  // (exact for linear problems up to round-off, O(h) accurate otherwise),
  // reused while it keeps contracting the residual by 10× per iteration.
  MatrixX J(t.nv, t.nv);
  Eigen::PartialPivLU<MatrixX> lu;
  bool have_jacobian = false;
  VectorX r_h;
  MatrixX M_scratch;
  double r_prev = std::numeric_limits<double>::infinity();
  status.converged = false;
  bool cache_current = false;  // cache and M_t hold the state at vs.
  for (int it = 0; it <= kMaxNewtonIterations; ++it) {
    CalcResidual(tree, q0, v0, *v_star, dt, p, tau_ext, cache, M_t, &r);
    cache_current = true;
    const double r_norm = r.lpNorm<Eigen::Infinity>();
    // Converged when the residual is negligible relative to the momentum
    // change of the step (tight enough for midpoint to conserve energy), or
    // at the round-off floor of evaluating it. Spatial inertias about the
    // world origin hold m|p|² terms that cancel in M = SᵀIS, so that floor
    // grows with the bodies' distance from the origin and their speed.
    const auto v0t = v0.segment(t.v_start, t.nv);
    const double momentum_scale =
        ((*M_t) * (vs - v0t)).lpNorm<Eigen::Infinity>() +
        dt * k_.segment(t.v_start, t.nv).lpNorm<Eigen::Infinity>();
    double inertia_scale = M_t->lpNorm<Eigen::Infinity>();
    for (int b = t.body_begin; b < t.body_end; ++b) {
      inertia_scale = std::max(inertia_scale, cache->I_Wo[b].lpNorm<Eigen::Infinity>());
    }
    const double round_off =
        16 * std::numeric_limits<double>::epsilon() *
        (inertia_scale * (vs.lpNorm<Eigen::Infinity>() + v0t.lpNorm<Eigen::Infinity>()) +
         momentum_scale);
    if (!std::isfinite(r_norm)) break;
    if (r_norm <= std::max(kResidualRelativeTolerance * momentum_scale, round_off)) {
      status.converged = true;
      break;
    }
    if (it == kMaxNewtonIterations) break;
    if (!have_jacobian || r_norm > 0.1 * r_prev) {
      v_work_.segment(t.v_start, t.nv) = vs;
      for (int i = 0; i < t.nv; ++i) {
        const int col = t.v_start + i;
        const double h = 1e-7 * std::max(1.0, std::abs(v_work_[col]));
        v_work_[col] += h;
        CalcResidual(tree, q0, v0, v_work_, dt, p, tau_ext, cache, &M_scratch, &r_h);
        J.col(i) = (r_h - r) / h;
        v_work_[col] = vs[i];
      }
      lu.compute(J);
      have_jacobian = true;
      cache_current = false;
    }
    r_prev = r_norm;
    const VectorX dv = -lu.solve(r);
    vs += dv;
    cache_current = false;
    status.newton_iterations = it + 1;
    if (!dv.allFinite()) break;
    // A vanishing update also means convergence (residual at round-off).
    if (dv.lpNorm<Eigen::Infinity>() <= kNewtonRelativeTolerance *
                                            std::max(1e-3, vs.lpNorm<Eigen::Infinity>())) {
      status.converged = true;
      break;
    }
  }
  if (!cache_current) CalcResidual(tree, q0, v0, *v_star, dt, p, tau_ext, cache, M_t, &r);
  status.residual_norm = r.lpNorm<Eigen::Infinity>();
  if (!std::isfinite(status.residual_norm) || !vs.allFinite()) status.converged = false;
  return status;
}

}  // namespace stiction
