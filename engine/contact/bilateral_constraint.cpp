#include "engine/contact/bilateral_constraint.h"

#include <cassert>

namespace stiction {

void EvaluateBilateral(const SapBilateralParameters& p, Eigen::Ref<const VectorX> vc, ConstraintEvaluation* out) {
  assert(out != nullptr && p.R.size() == vc.size() && p.v_hat.size() == vc.size());
  const Eigen::Index n = vc.size();
  EnsureEvaluationSize(n, out);
  out->G.setZero();
  double cost = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double dv = vc(i) - p.v_hat(i);
    out->gamma(i) = -dv / p.R(i);
    cost += dv * dv / p.R(i);
    out->G(i, i) = 1 / p.R(i);
  }
  out->cost = 0.5 * cost;
}

}  // namespace stiction
