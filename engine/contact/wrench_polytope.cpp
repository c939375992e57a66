#include "engine/contact/wrench_polytope.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "engine/common/error.h"

namespace stiction {

void ValidateWrenchPolytopeParameters(const WrenchPolytopeParameters& p) {
  if (!(p.stiffness > 0) || !std::isfinite(p.stiffness)) {
    throw InputError("nmdp: stiffness must be a finite value > 0 [N/m], got " + std::to_string(p.stiffness));
  }
  if (!(p.activation_length > 0) || !std::isfinite(p.activation_length)) {
    throw InputError("nmdp: activation_length must be a finite value > 0 [m], got " +
                     std::to_string(p.activation_length));
  }
  if (p.edges < 3) throw InputError("nmdp: edges must be >= 3, got " + std::to_string(p.edges));
}

double SmoothActivation(double penetration, double length) {
  const double x = penetration / length;
  // log(1 + eˣ) = max(x, 0) + log1p(e^−|x|): no overflow for large x.
  return length * (std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x))));
}

double SmoothActivationSlope(double penetration, double length) {
  const double x = penetration / length;
  if (x >= 0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

Matrix3X PolytopeVertices(const WrenchPolytopeParameters& params, double mu, double phi, const Vector3& n,
                          const Vector3& t1, const Vector3& t2, Matrix3X* dD_dphi) {
  const int K = params.edges;
  Matrix3X edges(3, K);
  for (int k = 0; k < K; ++k) {
    const double angle = 2 * std::numbers::pi * k / K;
    edges.col(k) = n + mu * (std::cos(angle) * t1 + std::sin(angle) * t2);
  }
  const double p = -phi;
  if (dD_dphi != nullptr) {
    *dD_dphi = -params.stiffness * SmoothActivationSlope(p, params.activation_length) * edges;
  }
  return params.stiffness * SmoothActivation(p, params.activation_length) * edges;
}

}  // namespace stiction
