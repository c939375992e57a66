#include "app/input/perturbation.h"

namespace stiction::app {
namespace {

Vector3 Capped(const Vector3& x, double max_norm) {
  const double n = x.norm();
  return n > max_norm ? Vector3(x * (max_norm / n)) : x;
}

}  // namespace

Perturbation BeginPerturbation(PerturbMode mode, int body, const RigidTransform& X_WB,
                               const Vector3& com_B, const Vector3& p_WP) {
  Perturbation p;
  p.mode = mode;
  p.body = body;
  p.p_BP = X_WB.inverse() * p_WP;
  p.target_W = p_WP;
  p.target_R_WB = Quaternion(X_WB.R);
  p.p_WBcm_hold = X_WB * com_B;
  return p;
}

ExternalWrench CalcPerturbationWrench(const Perturbation& perturbation, const Body& body,
                                      const RigidTransform& X_WB, const Vector3& v_WB,
                                      const Vector3& w_WB, const PerturbSpring& spring,
                                      Vector3* p_WP_out) {
  const double w = spring.omega;
  const double m = body.mass;
  const Matrix3 I_W = X_WB.R * body.I_Bcm_B * X_WB.R.transpose();
  ExternalWrench wrench;
  wrench.body = perturbation.body;
  if (perturbation.mode == PerturbMode::kTranslate) {
    const Vector3 p_WP = X_WB * perturbation.p_BP;
    const Vector3 v_WP = v_WB + w_WB.cross(p_WP - X_WB.p);
    const Vector3 d = Capped(perturbation.target_W - p_WP, spring.max_displacement);
    wrench.p_WP = p_WP;
    wrench.f_W = m * (w * w * d - 2 * w * v_WP);
    // A grab point off the COM spins the body; damp that spin critically too
    // so the body hangs from the mouse instead of swinging.
    wrench.tau_W = I_W * (-2 * w * w_WB);
  } else if (perturbation.mode == PerturbMode::kRotate) {
    const Vector3 p_WBcm = X_WB * body.com_B;
    const Vector3 v_WBcm = v_WB + w_WB.cross(p_WBcm - X_WB.p);
    const Eigen::AngleAxisd err(perturbation.target_R_WB * Quaternion(X_WB.R).conjugate());
    // Eigen's angle is in [0, π]: the short way round.
    const Vector3 e = Capped(err.angle() * err.axis(), spring.max_angle);
    const Vector3 d = Capped(perturbation.p_WBcm_hold - p_WBcm, spring.max_displacement);
    wrench.p_WP = p_WBcm;
    wrench.f_W = m * (w * w * d - 2 * w * v_WBcm);
    wrench.tau_W = I_W * (w * w * e - 2 * w * w_WB);
  }
  if (p_WP_out != nullptr) *p_WP_out = wrench.p_WP;
  return wrench;
}

}  // namespace stiction::app
