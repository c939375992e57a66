#pragma once
// What every constraint family reports when evaluated at a constraint
// velocity v_c = J v ([SAP] Sec. III–V, App. C–D): its convex cost ℓ(v_c),
//   impulse  γ = −∂ℓ/∂v_c   (analytical inverse dynamics, Eq. 23)
//   Hessian  G =  ∂²ℓ/∂v_c² ⪰ 0 (App. D; one-sided formulas at kinks).
// The solvers only see this; the physics lives in each family's parameters.
#include "engine/common/eigen_types.h"

namespace stiction {

/// Result of evaluating one constraint at a constraint velocity.
struct ConstraintEvaluation {
  double cost = 0;  ///< ℓ [J].
  VectorX gamma;    ///< Impulse γ, one entry per row [N s] (or [N m s]).
  MatrixX G;        ///< ∂²ℓ/∂v_c², rows × rows, symmetric PSD [N s²/m].
};

/// Resizes only when the size differs, so that an evaluation reused across
/// solver iterations never reallocates.
inline void EnsureEvaluationSize(Eigen::Index rows, ConstraintEvaluation* out) {
  if (out->gamma.size() != rows) out->gamma.resize(rows);
  if (out->G.rows() != rows || out->G.cols() != rows) out->G.resize(rows, rows);
}

/// Where a frictional contact sits in the projection of [SAP] App. C (also
/// the stick/slip state reported for the other contact models).
enum class ConeRegion {
  kStiction,   ///< Region I: y inside the cone, γ = y.
  kSliding,    ///< Region II: γ on the cone's boundary.
  kNoContact,  ///< Region III: y in the polar cone, γ = 0.
};

}  // namespace stiction
