#include "engine/contact/clamped_constraint.h"

#include <cassert>

namespace stiction {

void EvaluateClamped(const SapClampedParameters& p, double vc, ConstraintEvaluation* out) {
  assert(out != nullptr && p.R > 0 && p.lower <= 0 && 0 <= p.upper);
  EnsureEvaluationSize(1, out);
  const double y = -(vc - p.v_hat) / p.R;
  // ℓ(y) with dℓ/dy = R clamp(y, lower, upper), continuous at the bounds:
  //   ½ R y² inside, R b (y − b/2) beyond the bound b it crossed.
  // Since dy/dv_c = −1/R: −∂ℓ/∂v_c = clamp(y) = γ and ∂²ℓ/∂v_c² = 1/R inside,
  // 0 outside. The bounds themselves belong to the inside (G = 1/R there).
  if (y > p.upper) {
    out->gamma(0) = p.upper;
    out->cost = p.R * p.upper * (y - 0.5 * p.upper);
    out->G(0, 0) = 0;
  } else if (y < p.lower) {
    out->gamma(0) = p.lower;
    out->cost = p.R * p.lower * (y - 0.5 * p.lower);
    out->G(0, 0) = 0;
  } else {
    out->gamma(0) = y;
    out->cost = 0.5 * p.R * y * y;
    out->G(0, 0) = 1 / p.R;
  }
}

SapClampedParameters ImplicitPdRow(double dt, double K, double D, double e0, double v_d, double effort_limit) {
  const double gain = dt * K + D;
  assert(dt > 0 && gain > 0);
  SapClampedParameters p;
  p.R = 1.0 / (dt * gain);
  p.v_hat = (D * v_d - K * e0) / gain;
  p.lower = -dt * effort_limit;
  p.upper = dt * effort_limit;
  return p;
}

}  // namespace stiction
