#include "engine/contact/friction_cone_constraint.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/contact/near_rigid.h"

namespace stiction {
namespace {

// Everything the projection of App. C needs, in the R-warped coordinates of
// Eq. (27): y, its radial part y_r = ‖y_t‖, and the warped coefficients
// μ̃² = μ² Rt/Rn and μ̂ = μ Rt/Rn.
struct ConeState {
  Vector3 y;
  double yr = 0;
  double mu_tilde2 = 0;
  double mu_hat = 0;
  ConeRegion region = ConeRegion::kNoContact;
};

ConeState ClassifyFrictionCone(const SapFrictionConeParameters& p, const Vector3& vc) {
  assert(p.mu >= 0 && p.Rt > 0 && p.Rn > 0);
  ConeState s;
  // y = −R⁻¹(v_c − v̂_c), v̂_c = (0, 0, v̂_n).
  s.y << -vc.x() / p.Rt, -vc.y() / p.Rt, -(vc.z() - p.vn_hat) / p.Rn;
  // y_r = ‖y_t‖. The plain square root is exact enough and several times
  // cheaper than hypot (this runs per line-search sample); hypot takes over
  // only where y_t² would underflow or overflow, so that y_r = 0 exactly iff
  // y_t = 0 still holds.
  const double yr2 = s.y.x() * s.y.x() + s.y.y() * s.y.y();
  s.yr = yr2 > 1e-280 && yr2 < 1e280 ? std::sqrt(yr2) : std::hypot(s.y.x(), s.y.y());
  const double ratio = p.Rt / p.Rn;
  s.mu_hat = p.mu * ratio;
  s.mu_tilde2 = p.mu * p.mu * ratio;
  const double yn = s.y.z();
  if (s.yr <= p.mu * yn && yn >= 0) {
    // Region I, the closed cone F (Eq. 27: y_r ≤ μ y_n), boundary included
    // (App. D). For μ > 0, y_n ≥ 0 follows from y_r ≥ 0; it matters only for
    // μ = 0, where y_r ≤ 0·y_n would wrongly admit y_t = 0, y_n < 0.
    s.region = ConeRegion::kStiction;
  } else if (yn < -(s.mu_hat * s.yr)) {
    // Region III, the *interior* of the polar cone (Eq. 27, strict).
    s.region = ConeRegion::kNoContact;
  } else {
    // Region II: −μ̂ y_r ≤ y_n and not in F. Eq. (27) writes −μ̂ y_r < y_n,
    // which leaves the polar cone's boundary y_n = −μ̂ y_r (y_r > 0) in no
    // region; App. D assigns it to the sliding formula (γ = 0 there, since
    // s = y_n + μ̂ y_r = 0). Here y_r > 0 always: y_r = 0 is in F when
    // y_n ≥ 0 and in region III when y_n < 0.
    s.region = ConeRegion::kSliding;
  }
  return s;
}

// Normal impulse in sliding (Eq. 27): γ_n = (y_n + μ̂ y_r)/(1 + μ̃²) ≥ 0.
double SlidingNormalImpulse(const ConeState& s) {
  // In region II, y_n ≥ −(μ̂ y_r) as compared in floating point, so the
  // rounded sum is already ≥ 0; max() only documents the invariant.
  return std::max(0.0, s.y.z() + s.mu_hat * s.yr) / (1 + s.mu_tilde2);
}

// t̂ = y_t / y_r (|components| ≤ 1, no overflow even for subnormal y_r).
// Region II always has y_r > 0 (see ClassifyFrictionCone); the fallback
// t̂ = 0 (γ_t = 0, no P⊥ term) is only reachable with NaN input.
Eigen::Vector2d UnitTangent(const ConeState& s) {
  if (!(s.yr > 0)) return Eigen::Vector2d::Zero();
  return Eigen::Vector2d(s.y.x() / s.yr, s.y.y() / s.yr);
}

// G in region II (Eq. 37), simplified with μ̂ Rn = μ Rt,
// μ̂ s / y_r · Rn/Rt² = μ s/(Rt y_r) and s/(1 + μ̃²) = γ_n:
//   G_tt = c_par P(t̂) + c_perp P⊥(t̂),   c_par = μ²/(Rn(1+μ̃²)),
//   c_perp = μ γ_n/(Rt y_r),   G_tn = c_tn t̂,   c_tn = μ/(Rn(1+μ̃²)),
//   G_nn = 1/(Rn(1+μ̃²)).
// Region II has μ γ_n = ‖γ_t‖ < y_r, so the P⊥ weight is in [0, 1/Rt): the
// min() keeps it bounded even if y_r is subnormal (and it is 0 for μ = 0,
// where G = diag(0, 0, 1/Rn) for every t̂).
struct SlidingHessian {
  double c_par = 0, c_perp = 0, c_tn = 0, c_nn = 0;
};

SlidingHessian CalcSlidingHessian(const SapFrictionConeParameters& p, const ConeState& s,
                                  double gn) {
  const double d = 1 / (1 + s.mu_tilde2);
  SlidingHessian h;
  h.c_perp = s.yr > 0 ? std::min(1.0, p.mu * gn / s.yr) / p.Rt : 0;
  h.c_par = p.mu * p.mu * d / p.Rn;
  h.c_tn = p.mu * d / p.Rn;
  h.c_nn = d / p.Rn;
  return h;
}

// γ = P_F(y) for a classified state.
Vector3 ConeImpulse(const SapFrictionConeParameters& p, const ConeState& s) {
  switch (s.region) {
    case ConeRegion::kStiction:
      return s.y;
    case ConeRegion::kSliding: {
      const double gn = SlidingNormalImpulse(s);
      const Eigen::Vector2d t = UnitTangent(s);
      return Vector3(p.mu * gn * t.x(), p.mu * gn * t.y(), gn);
    }
    case ConeRegion::kNoContact:
      break;
  }
  return Vector3::Zero();
}

}  // namespace

SapFrictionConeParameters MakeFrictionConeParameters(double w, double k, double tau_d, double mu, double phi0,
                                                     double dt, const ContactModelParameters& p) {
  SapFrictionConeParameters c;
  // Eq. (29): near-rigid regularization or the physical compliance.
  c.Rn = std::max(NearRigidRegularization(p.near_rigid_threshold, w), 1.0 / (dt * k * (dt + tau_d)));
  c.Rt = p.stiction_tolerance * w;  // Eq. (30).
  c.mu = mu;
  c.vn_hat = -phi0 / (dt + tau_d);  // Sec. V-A, v̂_n = −φ0/(δt + τd).
  return c;
}

Vector3 CalcFrictionConeImpulse(const SapFrictionConeParameters& p, const Vector3& vc,
                                ConeRegion* region) {
  const ConeState s = ClassifyFrictionCone(p, vc);
  if (region != nullptr) *region = s.region;
  return ConeImpulse(p, s);
}

void EvaluateFrictionCone(const SapFrictionConeParameters& p, const Vector3& vc,
                          ConstraintEvaluation* out) {
  assert(out != nullptr);
  EnsureEvaluationSize(3, out);
  const ConeState s = ClassifyFrictionCone(p, vc);
  const double yn = s.y.z();
  auto& G = out->G;
  switch (s.region) {
    case ConeRegion::kStiction: {
      out->gamma = s.y;
      // Eq. (35): ℓ = ½(Rt y_r² + Rn y_n²) = ½ yᵀ R y.
      out->cost = 0.5 * (p.Rt * s.yr * s.yr + p.Rn * yn * yn);
      G.setZero();
      if (p.mu > 0) {
        // G = R⁻¹ ∇²ℓ_R R⁻¹ = R⁻¹ R R⁻¹ = R⁻¹ (Eq. 37), also on ∂F (App. D).
        G(0, 0) = G(1, 1) = 1 / p.Rt;
      }
      // With μ = 0 the cone is the ray {γ_t = 0, γ_n ≥ 0}: it has no interior,
      // and P_F(y) = (0, 0, max(y_n, 0)) is differentiable on the ray
      // (y_n > 0) with −∂γ/∂v_c = diag(0, 0, 1/Rn). That is also the sliding
      // formula for μ = 0 (for every t̂) and its limit as y_r → 0, so G stays
      // continuous across y_t = 0. Using R⁻¹ here would put a spurious 1/Rt
      // tangential stiffness on a frictionless contact.
      G(2, 2) = 1 / p.Rn;
      return;
    }
    case ConeRegion::kSliding: {
      const double gn = SlidingNormalImpulse(s);
      const Eigen::Vector2d t = UnitTangent(s);
      const double tx = t.x();
      const double ty = t.y();
      out->gamma = ConeImpulse(p, s);
      // Eq. (35): ℓ = Rn (y_n + μ̂ y_r)² / (2(1 + μ̃²)) = ½ Rn (1 + μ̃²) γ_n².
      out->cost = 0.5 * p.Rn * (1 + s.mu_tilde2) * gn * gn;
      // c_par P + c_perp (I − P), P = t̂ t̂ᵀ (Eq. 37).
      const SlidingHessian h = CalcSlidingHessian(p, s, gn);
      G(0, 0) = h.c_perp + (h.c_par - h.c_perp) * tx * tx;
      G(1, 1) = h.c_perp + (h.c_par - h.c_perp) * ty * ty;
      G(0, 1) = G(1, 0) = (h.c_par - h.c_perp) * tx * ty;
      G(0, 2) = G(2, 0) = h.c_tn * tx;
      G(1, 2) = G(2, 1) = h.c_tn * ty;
      G(2, 2) = h.c_nn;
      return;
    }
    case ConeRegion::kNoContact:
      break;
  }
  out->gamma.setZero();
  out->cost = 0;
  G.setZero();
}

FrictionConeLineTerms EvaluateFrictionConeAlong(const SapFrictionConeParameters& p,
                                                 const Vector3& vc, const Vector3& dvc) {
  // The same cost, impulse and G as EvaluateFrictionCone, reduced to what a
  // line-search sample needs ([SAP] Sec. IV-C): ℓ, γᵀΔv_c and
  // Δv_cᵀ G Δv_c, with no matrix formed.
  const ConeState s = ClassifyFrictionCone(p, vc);
  FrictionConeLineTerms out;
  const double yn = s.y.z();
  const double dt2 = dvc.x() * dvc.x() + dvc.y() * dvc.y();
  switch (s.region) {
    case ConeRegion::kStiction:
      out.cost = 0.5 * (p.Rt * s.yr * s.yr + p.Rn * yn * yn);  // Eq. (35).
      out.gamma_dot_dvc = s.y.dot(dvc);
      // G = R⁻¹ (Eq. 37), tangential part 0 when μ = 0 (see EvaluateFrictionCone).
      out.dvc_G_dvc = (p.mu > 0 ? dt2 / p.Rt : 0) + dvc.z() * dvc.z() / p.Rn;
      break;
    case ConeRegion::kSliding: {
      const double gn = SlidingNormalImpulse(s);
      const Eigen::Vector2d t = UnitTangent(s);
      const double t_dot = t.x() * dvc.x() + t.y() * dvc.y();
      out.cost = 0.5 * p.Rn * (1 + s.mu_tilde2) * gn * gn;  // Eq. (35).
      out.gamma_dot_dvc = p.mu * gn * t_dot + gn * dvc.z();
      const SlidingHessian h = CalcSlidingHessian(p, s, gn);
      out.dvc_G_dvc = h.c_perp * dt2 + (h.c_par - h.c_perp) * t_dot * t_dot +
                      2 * h.c_tn * t_dot * dvc.z() + h.c_nn * dvc.z() * dvc.z();
      break;
    }
    case ConeRegion::kNoContact:
      break;
  }
  return out;
}

}  // namespace stiction
