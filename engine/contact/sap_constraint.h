#pragma once
// The constraint types of the convex SAP formulation ([SAP] Sec. III–V,
// App. C–D; Sec. VII for limits, PD controllers and welds). Each constraint
// is a convex cost ℓ(v_c) of its constraint velocity v_c = J v with
//   impulse  γ = −∂ℓ/∂v_c   (analytical inverse dynamics, Eq. 23)
//   Hessian  G =  ∂²ℓ/∂v_c² ⪰ 0 (App. D; one-sided formulas at kinks).
// The solver only sees this bundle; the physics lives in the parameters.
#include <limits>

#include "engine/common/eigen_types.h"

namespace stiction {

/// Result of evaluating one constraint at a constraint velocity.
struct ConstraintEvaluation {
  double cost = 0;  ///< ℓ [J].
  VectorX gamma;    ///< Impulse γ, one entry per row [N s] (or [N m s]).
  MatrixX G;        ///< ∂²ℓ/∂v_c², rows × rows, symmetric PSD [N s²/m].
};

/// Where a frictional contact sits in the projection of App. C.
enum class ConeRegion {
  kStiction,   ///< Region I: y inside the cone, γ = y.
  kSliding,    ///< Region II: γ on the cone's boundary.
  kNoContact,  ///< Region III: y in the polar cone, γ = 0.
};

/// Frictional contact ([SAP] Eqs. 23, 27–30). Rows are ordered
/// [t1, t2, n] in the contact frame C (n̂ = z axis of C, pointing from body A
/// to body B; v_c is the velocity of B relative to A, expressed in C).
struct SapFrictionConeParameters {
  double mu = 0;     ///< Friction coefficient, ≥ 0.
  double Rt = 0;     ///< Tangential regularization [s/kg] (Eq. 30), > 0.
  double Rn = 0;     ///< Normal regularization [s/kg] (Eq. 29), > 0.
  double vn_hat = 0; ///< Stabilization velocity v̂_n [m/s] (Sec. V-A).
};

/// γ = P_F(y) with y = −R⁻¹(v_c − v̂_c), v̂_c = (0, 0, v̂_n) (Eq. 27).
Vector3 CalcFrictionConeImpulse(const SapFrictionConeParameters& p, const Vector3& vc,
                                ConeRegion* region = nullptr);
/// Cost ℓ = ½‖P_F(y)‖²_R (Eq. 35), impulse and G = −∂γ/∂v_c = R⁻¹ ∇²_y ℓ_R R⁻¹
/// (Eq. 37; at region boundaries the formula of the inner region, App. D).
void EvaluateFrictionCone(const SapFrictionConeParameters& p, const Vector3& vc,
                          ConstraintEvaluation* out);

/// What one line-search sample needs of a friction cone at v_c along Δv_c
/// ([SAP] Sec. IV-C): the cost ℓ(v_c), γᵀΔv_c and Δv_cᵀ G Δv_c, the same
/// values EvaluateFrictionCone gives, without forming γ or G.
struct FrictionConeLineTerms {
  double cost = 0;           ///< ℓ [J].
  double gamma_dot_dvc = 0;  ///< γᵀΔv_c [J].
  double dvc_G_dvc = 0;      ///< Δv_cᵀ G Δv_c [J].
};
FrictionConeLineTerms EvaluateFrictionConeAlong(const SapFrictionConeParameters& p,
                                                 const Vector3& vc, const Vector3& dvc);

/// One-row constraint whose impulse is clamped to [lower, upper] (either may
/// be ±∞; lower ≤ 0 ≤ upper): γ = clamp(y, lower, upper), y = −(v_c − v̂)/R.
/// With [0, ∞) it is a unilateral near-rigid constraint (joint limits); with
/// [−e, e] a PD controller with effort limit e·δt ([SAP] Sec. VII).
/// Cost: ½ R y² inside, linear outside (a Huber function), so that
/// γ = −∂ℓ/∂v_c and G = 1/R inside, 0 outside.
struct SapClampedParameters {
  double R = 0;       ///< Regularization [s/kg] (or [s/(kg m²)]), > 0.
  double v_hat = 0;   ///< Stabilization velocity.
  double lower = -std::numeric_limits<double>::infinity();  ///< Impulse bound [N s].
  double upper = std::numeric_limits<double>::infinity();   ///< Impulse bound [N s].
};
void EvaluateClamped(const SapClampedParameters& p, double vc, ConstraintEvaluation* out);

/// Bilateral constraint of any number of rows (weld: 6, ball: 3):
/// γ = −R⁻¹(v_c − v̂), ℓ = ½ (v_c − v̂)ᵀ R⁻¹ (v_c − v̂), G = R⁻¹ (diagonal).
void EvaluateBilateral(const VectorX& R, const VectorX& v_hat, Eigen::Ref<const VectorX> vc,
                       ConstraintEvaluation* out);

}  // namespace stiction
