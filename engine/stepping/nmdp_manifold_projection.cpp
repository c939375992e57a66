#include "engine/stepping/nmdp_manifold_projection.h"

#include <cmath>
#include <string>

#include <Eigen/LU>

namespace stiction {

ManifoldProjectionResult ProjectOntoManifold(NmdpResidual& residual, const VectorX& w, const VectorX& v_start,
                                             bool zeroth_order, const ManifoldProjectionParameters& params) {
  ManifoldProjectionResult r;
  r.v = v_start;
  VectorX F = residual.Evaluate(r.v, w);
  double norm = F.cwiseAbs().maxCoeff();
  r.residual_norms.push_back(norm);
  for (;;) {
    if (!std::isfinite(norm)) {
      r.status = ManifoldProjectionStatus::kNotDecreasing;
      r.message = "nmdp: the dynamics residual is not finite";
      return r;
    }
    if (norm <= params.tolerance) {
      r.status = ManifoldProjectionStatus::kConverged;
      return r;
    }
    if (r.iterations >= params.max_iterations) {
      r.status = ManifoldProjectionStatus::kMaxIterations;
      r.message = "nmdp: the manifold projection did not converge in " + std::to_string(params.max_iterations) +
                  " Newton steps (|F| = " + std::to_string(norm) + ")";
      return r;
    }
    const MatrixX J = residual.VelocityJacobian(r.v, w, zeroth_order);
    const Eigen::FullPivLU<MatrixX> lu(J);
    if (!(lu.rcond() >= params.min_rcond)) {
      r.status = ManifoldProjectionStatus::kSingular;
      r.message = "nmdp: dF/dv is near singular (rcond " + std::to_string(lu.rcond()) + ")";
      return r;
    }
    const VectorX step = -lu.solve(F);
    double eta = 1;
    bool accepted = false;
    for (int halving = 0; halving <= params.max_halvings; ++halving, eta *= 0.5) {
      const VectorX v_try = r.v + eta * step;
      const VectorX F_try = residual.Evaluate(v_try, w);
      const double norm_try = F_try.cwiseAbs().maxCoeff();
      if (norm_try <= (1 - 1e-4 * eta) * norm) {
        r.v = v_try;
        F = F_try;
        norm = norm_try;
        accepted = true;
        break;
      }
    }
    ++r.iterations;
    if (!accepted) {
      r.status = ManifoldProjectionStatus::kNotDecreasing;
      r.message = "nmdp: the manifold projection cannot lower |F| (" + std::to_string(norm) + ")";
      return r;
    }
    r.residual_norms.push_back(norm);
  }
}

}  // namespace stiction
