#pragma once
// Exact line search on a convex function of one variable ([SAP]
// Sec. IV-C; [CANAL] Sec. V-C): rtsafe (Newton–Raphson safeguarded by
// bisection) on the root of dℓ/dα in (0, α_max]. Shared by SAP and CANAL.
#include <functional>

namespace stiction {

/// A convex function and its first two derivatives at one α.
struct LineSample {
  double cost = 0, d_cost = 0, d2_cost = 0;
};

/// Returns α* ∈ (0, α_max] minimizing ℓ(α) = sample(α).cost, given
/// dℓ/dα(0) = d_cost0 < 0: the search ends once |dℓ/dα(α)| ≤
/// relative_tolerance · |dℓ/dα(0)| (or the bracket collapses to round-off).
/// Counts samples in *iters.
double ExactLineSearch(const std::function<LineSample(double)>& sample, double d_cost0,
                       double alpha_max, double relative_tolerance, int max_iterations, int* iters);

}  // namespace stiction
