#include "engine/solvers/ncp_residual.h"

#include <algorithm>
#include <cmath>

#include "engine/solvers/ncp_constraints.h"

namespace stiction {

double NcpResidual::Calc(const ContactProblem& problem, const VectorX& gamma, double penetration_recovery) {
  return Calc(problem, gamma, penetration_recovery, [&](int t, Eigen::Ref<VectorX> x) {
    llt_.compute(problem.A[t]);
    llt_.solveInPlace(x);
  });
}

double NcpResidual::Calc(const ContactProblem& problem, const VectorX& gamma, double penetration_recovery,
                         const SolveA& solve_A) {
  layout_.Build(problem);
  if (layout_.rows == 0) return 0;
  // 1. v̂ = v* + A⁻¹ Jᵀγ, tree by tree (A is block diagonal).
  layout_.Gather(problem, problem.v_star, &v_hat_);
  layout_.MultiplyJTranspose(problem, gamma, &jt_gamma_);
  for (int t : layout_.trees) {
    const int start = layout_.local_start[t], nv = problem.tree_nv[t];
    solve_A(t, jt_gamma_.segment(start, nv));
    v_hat_.segment(start, nv) += jt_gamma_.segment(start, nv);
  }
  layout_.MultiplyJ(problem, v_hat_, &w_);
  // 2.–4. The natural map per contact and limit.
  double sum_sq = 0;
  int counted = 0;
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    const int row = layout_.row_start[i];
    switch (NcpTypeOf(c)) {
      case NcpConstraintType::kContact: {
        const Vector3 g = gamma.segment<3>(row);
        Vector3 w = w_.segment<3>(row);
        w.z() += NcpErrorTerm(c, problem.dt, penetration_recovery);
        sum_sq += (g - ProjectStrict(g - w, c.mu)).squaredNorm();
        ++counted;
        break;
      }
      case NcpConstraintType::kHard: {
        const double g = gamma(row);
        const double w = w_(row) + NcpErrorTerm(c, problem.dt, penetration_recovery);
        const double r = g - std::max(0.0, g - w);
        sum_sq += r * r;
        ++counted;
        break;
      }
      case NcpConstraintType::kSoft:
        break;
    }
  }
  return counted > 0 ? std::sqrt(sum_sq) / counted : 0;
}

}  // namespace stiction
