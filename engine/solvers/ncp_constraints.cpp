#include "engine/solvers/ncp_constraints.h"

#include <algorithm>
#include <cmath>

namespace stiction {

NcpConstraintType NcpTypeOf(const Constraint& c) {
  if (c.origin == ConstraintOrigin::kContact && c.num_rows == 3) {
    // A pressure-field polygon under SAP's cone keeps its compliance.
    return c.compliant && c.kind == ConstraintKind::kFrictionCone ? NcpConstraintType::kSoft
                                                                   : NcpConstraintType::kContact;
  }
  if (c.origin == ConstraintOrigin::kJointLimit && c.num_rows == 1) return NcpConstraintType::kHard;
  return NcpConstraintType::kSoft;
}

double NcpErrorTerm(const Constraint& c, double dt, double recovery) {
  return c.phi0 >= 0 ? c.phi0 / dt : recovery * c.phi0 / dt;
}

void CalcNcpErrors(const ContactProblem& problem, const std::vector<int>& row_start, int rows, double recovery,
                   std::vector<NcpConstraintType>* types, VectorX* e) {
  types->resize(problem.constraints.size());
  e->setZero(rows);
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const Constraint& c = problem.constraints[k];
    const NcpConstraintType type = (*types)[k] = NcpTypeOf(c);
    const double e_k = NcpErrorTerm(c, problem.dt, recovery);
    if (type == NcpConstraintType::kContact) (*e)[row_start[k] + 2] = e_k;
    if (type == NcpConstraintType::kHard) (*e)[row_start[k]] = e_k;
  }
}

Vector3 ProjectStrict(const Vector3& lambda_star, double mu) {
  // Eq. (16): the normal impulse first, Eq. (17): the tangential one onto
  // the disk it defines. Prop. 2: the result satisfies Signorini–Coulomb.
  const double n = std::max(lambda_star.z(), 0.0);
  Vector3 out(lambda_star.x(), lambda_star.y(), n);
  const double radius = mu * n;
  const double t = lambda_star.head<2>().norm();
  if (t > radius) out.head<2>() *= (t > 0 ? radius / t : 0.0);
  return out;
}

Vector3 ProjectCone(const Vector3& y, double mu, ConeRegion* region, Matrix3* derivative) {
  const double n = y.z();
  const double t = y.head<2>().norm();
  ConeRegion where;
  Vector3 out;
  if (t <= mu * n) {
    where = ConeRegion::kStiction;  // Inside C: Π = y, ∂Π = I.
    out = y;
    if (derivative != nullptr) derivative->setIdentity();
  } else if (mu * t <= -n) {
    where = ConeRegion::kNoContact;  // In the polar cone: Π = 0, ∂Π = 0.
    out.setZero();
    if (derivative != nullptr) derivative->setZero();
  } else {
    // Onto the boundary ray through t̂: λ_n = (μ‖y_t‖ + y_n)/(1 + μ²),
    // λ_t = μ λ_n t̂ (t > 0 here: t = 0 lies in one of the cases above).
    where = ConeRegion::kSliding;
    const Eigen::Vector2d that = y.head<2>() / t;
    const double s = 1.0 / (1.0 + mu * mu);
    const double ln = (mu * t + n) * s;
    out << mu * ln * that, ln;
    if (derivative != nullptr) {
      // Eq. (23), slip: (1/(μ²+1)) [μ² I₂ + (μ y_n/‖y_t‖) P(t̂), μ t̂; μ t̂ᵀ, 1].
      const Eigen::Matrix2d P = Eigen::Matrix2d::Identity() - that * that.transpose();
      Matrix3& D = *derivative;
      D.topLeftCorner<2, 2>() = s * (mu * mu * Eigen::Matrix2d::Identity() + (mu * n / t) * P);
      D.topRightCorner<2, 1>() = s * mu * that;
      D.bottomLeftCorner<1, 2>() = s * mu * that.transpose();
      D(2, 2) = s;
    }
  }
  if (region != nullptr) *region = where;
  return out;
}

Vector3 ProjectConeAlong(const Vector3& y, double mu, const Vector3& d, double* d_D_d) {
  ConeRegion region;
  const Vector3 out = ProjectCone(y, mu, &region);
  switch (region) {
    case ConeRegion::kStiction: *d_D_d = d.squaredNorm(); break;  // ∂Π = I.
    case ConeRegion::kNoContact: *d_D_d = 0; break;                // ∂Π = 0.
    case ConeRegion::kSliding: {
      // dᵀ D d with Eq. (23)'s D = s [μ² I₂ + (μ y_n/‖y_t‖) P(t̂), μ t̂; μ t̂ᵀ, 1],
      // s = 1/(1 + μ²), P = I − t̂ t̂ᵀ.
      const double t = y.head<2>().norm();
      const Eigen::Vector2d that = y.head<2>() / t;
      const double s = 1.0 / (1.0 + mu * mu);
      const double dt2 = d.head<2>().squaredNorm();
      const double along = that.dot(d.head<2>());
      *d_D_d = s * (mu * mu * dt2 + (mu * y.z() / t) * (dt2 - along * along) + 2 * mu * along * d.z() +
                    d.z() * d.z());
      break;
    }
  }
  return out;
}

}  // namespace stiction
