#include "engine/solvers/exact_line_search.h"

#include <algorithm>
#include <cmath>

namespace stiction {

double ExactLineSearch(const std::function<LineSample(double)>& sample, double d_cost0,
                       double alpha_max, double relative_tolerance, int max_iterations, int* iters) {
  // rtsafe (Numerical Recipes §9.4): Newton–Raphson on f(α) = dℓ/dα with
  // bisection whenever Newton leaves the bracket or converges slowly. ℓ is
  // strongly convex along the line, so f is increasing with f(0) < 0.
  // dℓ/dα(α*) = 0 to relative_tolerance of its initial value (SAP: 1e-6 by
  // default, a strong Wolfe condition; CANAL: 1e-12, round-off).
  const double f_tol = relative_tolerance * std::abs(d_cost0);
  // The full Newton step first: near convergence it is the minimizer to
  // round-off and the search ends after one sample. Only when dℓ/dα(1) < 0
  // does the minimizer lie beyond 1, and α_max is sampled.
  double lo = 0, hi = alpha_max;
  double alpha = std::min(1.0, alpha_max);
  LineSample s = sample(alpha);
  ++*iters;
  if (std::abs(s.d_cost) <= f_tol) return alpha;
  if (s.d_cost < 0) {
    if (alpha >= alpha_max) return alpha_max;  // α_max ≤ 1 and still descending.
    const LineSample s_max = sample(alpha_max);
    ++*iters;
    if (s_max.d_cost <= 0) return alpha_max;
  }
  double dx_old = hi - lo, dx = dx_old;
  for (int k = 0; k < max_iterations; ++k) {
    if (std::abs(s.d_cost) <= f_tol) break;
    if (s.d_cost < 0) lo = alpha; else hi = alpha;
    const bool newton_out = ((alpha - hi) * s.d2_cost - s.d_cost) *
                                ((alpha - lo) * s.d2_cost - s.d_cost) > 0;
    const bool slow = std::abs(2 * s.d_cost) > std::abs(dx_old * s.d2_cost);
    dx_old = dx;
    if (newton_out || slow || s.d2_cost <= 0) {
      dx = 0.5 * (hi - lo);
      alpha = lo + dx;
    } else {
      dx = s.d_cost / s.d2_cost;
      alpha -= dx;
    }
    if (std::abs(dx) <= 1e-14 * std::max(alpha, 1e-10) || hi - lo <= 1e-14 * hi) break;
    s = sample(alpha);
    ++*iters;
  }
  return alpha;
}

}  // namespace stiction
