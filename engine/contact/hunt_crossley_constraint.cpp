#include "engine/contact/hunt_crossley_constraint.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace stiction {
namespace {

// The normal potential of Eqs. (15)–(16) and its first two derivatives at
// v (in the Similar model v is the grouping z of Eq. 34).
struct NormalTerms {
  double potential = 0;  // N(v) [J]: ℓ_n = −N.
  double impulse = 0;    // n(v) = N'(v) ≥ 0 [N s].
  double stiffness = 0;  // −n'(v) = −N''(v) ≥ 0 [N s²/m].
};

NormalTerms EvaluateNormal(const HuntCrossleyParameters& p, double v) {
  NormalTerms t;
  // Eq. (16): N(v) = N⁺(min(v, v̂)); above v̂ the impulse is zero and the
  // potential constant, so cost, impulse and Hessian are continuous at v̂
  // except for the Hessian's jump (the one-sided inner value is used at v̂).
  const double vm = std::min(v, p.v_hat());
  // Eq. (15) with Δf = −δt k v: the f0 form stays exact for small k x0.
  const double df = -p.dt * p.k * vm;
  t.potential = p.dt * (vm * (p.f0 + 0.5 * df) - p.d * vm * vm / 2 * (p.f0 + 2.0 / 3.0 * df));
  if (v <= p.v_hat()) {
    const double elastic = p.f0 + df;   // k (x0 − δt v) ≥ 0 here.
    const double damping = 1 - p.d * v;  // 1 + d ẋ ≥ 0 here.
    t.impulse = std::max(0.0, p.dt * elastic * damping);  // Eq. (6) with Eq. (13).
    // −n'(v) = δt [δt k (1 − d v) + d k (x0 − δt v)] (Eq. 8), both terms ≥ 0.
    t.stiffness = p.dt * (p.dt * p.k * std::max(0.0, damping) + p.d * std::max(0.0, elastic));
  }
  return t;
}

// The soft norm of App. A: ‖x‖_s = √(‖x‖² + ε²) − ε (Eq. 45), written as
// ‖x‖²/(√(‖x‖² + ε²) + ε) to avoid cancellation for ‖x‖ ≪ ε; its gradient
// x̂_s = x/(‖x‖_s + ε) (Eq. 46) and the denominator ‖x‖_s + ε of Eq. (47).
struct SoftNorm {
  double value = 0;
  double denominator = 0;  // ‖x‖_s + ε = √(‖x‖² + ε²).
  Eigen::Vector2d unit = Eigen::Vector2d::Zero();  // x̂_s, ‖x̂_s‖ < 1.
};

SoftNorm EvaluateSoftNorm(const Eigen::Vector2d& x, double eps) {
  SoftNorm s;
  s.denominator = std::hypot(std::hypot(x.x(), x.y()), eps);
  s.value = x.squaredNorm() / (s.denominator + eps);
  s.unit = x / s.denominator;
  return s;
}

// ∂x̂_s/∂x = (I − x̂_s x̂_sᵀ)/(‖x‖_s + ε) (Eq. 47), 2 × 2, positive definite.
Eigen::Matrix2d SoftUnitDerivative(const SoftNorm& s) {
  return (Eigen::Matrix2d::Identity() - s.unit * s.unit.transpose()) / s.denominator;
}

}  // namespace

double HuntCrossleyParameters::v_hat() const {
  const double elastic_limit = f0 / (dt * k);  // x0/δt.
  return d > 0 ? std::min(elastic_limit, 1 / d) : elastic_limit;
}

HuntCrossleyParameters MakeHuntCrossleyParameters(ContactModel model, const ContactMaterial& m, double phi0,
                                                  double vn0, double w, double dt, double sigma) {
  HuntCrossleyParameters hc;
  hc.model = model == ContactModel::kSimilar ? HuntCrossleyModel::kSimilar : HuntCrossleyModel::kLagged;
  hc.dt = dt;
  hc.k = m.stiffness;
  hc.d = m.hc_dissipation;
  hc.f0 = -m.stiffness * phi0;  // k x0, x0 = −φ0 (Eq. 15).
  hc.mu = m.friction;
  hc.gamma_n0 = HuntCrossleyLaggedImpulse(dt, hc.d, hc.f0, vn0);
  hc.eps_s = m.stiction_velocity;
  if (model == ContactModel::kRegularizedLagged) hc.eps_s = std::max(hc.eps_s, sigma * w * hc.mu * hc.gamma_n0);
  return hc;
}

double HuntCrossleyNormalImpulse(const HuntCrossleyParameters& p, double vn) {
  return EvaluateNormal(p, vn).impulse;
}

double HuntCrossleyLaggedImpulse(double dt, double d, double f0, double vn0) {
  // γ_n0 = δt k x0₊ (1 + d ẋ0)₊ with k x0 = f0 and ẋ0 = −vn0.
  return dt * std::max(0.0, f0) * std::max(0.0, 1 - d * vn0);
}

void EvaluateHuntCrossley(const HuntCrossleyParameters& p, const Vector3& vc,
                          ConstraintEvaluation* out) {
  assert(out != nullptr && p.dt > 0 && p.k > 0 && p.d >= 0 && p.mu >= 0 && p.eps_s > 0);
  EnsureEvaluationSize(3, out);
  const SoftNorm soft = EvaluateSoftNorm(Eigen::Vector2d(vc.x(), vc.y()), p.eps_s);
  auto& G = out->G;
  G.setZero();
  switch (p.model) {
    case HuntCrossleyModel::kLagged: {
      // Eq. (31): ℓ = ℓ_n(v_n) + ℓ_t(v_t), separable.
      const NormalTerms n = EvaluateNormal(p, vc.z());
      const double bound = p.mu * p.gamma_n0;  // μ γ_n0 [N s].
      // Eq. (33): ℓ_t = μγ_n0 ‖v_t‖_s, γ_t = −μγ_n0 t̂_s,
      // ∂²ℓ_t/∂v_t² = μγ_n0 (I − P(t̂_s))/(‖v_t‖_s + ε_s).
      out->cost = -n.potential + bound * soft.value;
      out->gamma << -bound * soft.unit.x(), -bound * soft.unit.y(), n.impulse;
      G.topLeftCorner<2, 2>() = bound * SoftUnitDerivative(soft);
      G(2, 2) = n.stiffness;
      return;
    }
    case HuntCrossleyModel::kSimilar: {
      // Eq. (34): z = v_n − μ‖v_t‖_s; Eq. (39): ℓ = −N(z).
      const double z = vc.z() - p.mu * soft.value;
      const NormalTerms n = EvaluateNormal(p, z);
      out->cost = -n.potential;
      // Eq. (35): γ_n = n(z), γ_t = −μ γ_n t̂_s, i.e. γ = n(z) ∇z with
      // ∇z = (−μ t̂_s, 1).
      const Vector3 grad_z(-p.mu * soft.unit.x(), -p.mu * soft.unit.y(), 1.0);
      out->gamma = n.impulse * grad_z;
      // Eq. (40) with the soft norm: G = −n'(z) ∇z∇zᵀ − n(z) ∇²z, where
      // ∇²z = −μ (I − P(t̂_s))/(‖v_t‖_s + ε_s) on the tangential block. Both
      // terms are PSD (n ≥ 0, −n' ≥ 0).
      G = n.stiffness * grad_z * grad_z.transpose();
      G.topLeftCorner<2, 2>() += p.mu * n.impulse * SoftUnitDerivative(soft);
      return;
    }
  }
}

ConeRegion ClassifyHuntCrossley(const HuntCrossleyParameters& p, const Vector3& vc) {
  double gamma_n = 0;
  if (p.model == HuntCrossleyModel::kLagged) {
    gamma_n = HuntCrossleyNormalImpulse(p, vc.z());
  } else {
    const SoftNorm soft = EvaluateSoftNorm(Eigen::Vector2d(vc.x(), vc.y()), p.eps_s);
    gamma_n = HuntCrossleyNormalImpulse(p, vc.z() - p.mu * soft.value);
  }
  if (!(gamma_n > 0)) return ConeRegion::kNoContact;
  return std::hypot(vc.x(), vc.y()) <= p.eps_s ? ConeRegion::kStiction : ConeRegion::kSliding;
}

}  // namespace stiction
