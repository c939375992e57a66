#pragma once
// The wrench space of one NMDP contact point ([NMDP] Eq. (5), Remark 4;
// docs/nmdp.md Sec. 2): the K edges of a linearized friction pyramid,
// n + μ d_k, scaled by the stiffness k and a smooth activation s of the
// penetration p = −φ, so that the vertices are differentiable in the
// configuration (A V.3) and never all vanish (Remark 5):
//
//   D(φ) = k s(−φ) [n + μ d_1, …, n + μ d_K],   d_k = cos(2πk/K) t₁ + sin(2πk/K) t₂,
//   s(p) = ℓ log(1 + exp(p/ℓ))   (softplus: s → p for p ≫ ℓ, → 0⁺ for p ≪ −ℓ).
//
// A force f = D w with w ≥ 0, Σ w ≤ 1 lies in the pyramid and its normal part
// is at most k s(−φ). The normal n and tangents t₁, t₂ belong to the
// surface (a half-space's are constant), so D depends on the configuration
// through φ alone: ∂D/∂q = (dD/dφ) ⊗ ∂φ/∂q with ∂φ/∂q = nᵀ J for a point.
#include "engine/common/eigen_types.h"

namespace stiction {

struct WrenchPolytopeParameters {
  double stiffness = 1e5;           ///< k [N/m]: the force per metre of penetration. > 0.
  double activation_length = 1e-3;  ///< ℓ [m]: the width of the smooth onset. > 0.
  int edges = 8;                    ///< K: pyramid edges (vertices per contact point). ≥ 3.
};

/// Throws InputError naming the key when a value is out of range.
void ValidateWrenchPolytopeParameters(const WrenchPolytopeParameters& p);

/// s(p) = ℓ log(1 + exp(p/ℓ)) [m], evaluated without overflow.
double SmoothActivation(double penetration, double length);
/// ds/dp = 1/(1 + exp(−p/ℓ)), in (0, 1).
double SmoothActivationSlope(double penetration, double length);

/// D (3 × K, [N]) at signed distance φ [m] for unit normal n and orthonormal
/// tangents t₁, t₂ (n = t₁ × t₂), friction μ ≥ 0; dD/dφ ([N/m]) when asked.
Matrix3X PolytopeVertices(const WrenchPolytopeParameters& params, double mu, double phi, const Vector3& n,
                          const Vector3& t1, const Vector3& t2, Matrix3X* dD_dphi = nullptr);

}  // namespace stiction
