#pragma once
// The frictional contact of SAP ([SAP] Eqs. 23, 27–30, 35, 37; App. C–D):
// its regularization from the physical parameters (k, τd, μ; near-rigid β
// and stiction σ of Sec. V-B), and its cost, impulse and Hessian.
#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_evaluation.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

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

/// The regularization of a contact ([SAP] Sec. V): Rn from Eq. (29), the
/// larger of the near-rigid β²/(4π²) w and the physical compliance
/// 1/(δt k (δt + τd)); Rt = σ w (Eq. 30); v̂_n = −φ0/(δt + τd) (Sec. V-A).
/// w [s/kg]: the contact's Delassus estimate ‖W_ii‖_rms; k [N/m], τd [s]
/// and μ of the pair; φ0 [m]: signed distance at the step start; δt [s].
SapFrictionConeParameters MakeFrictionConeParameters(double w, double k, double tau_d, double mu, double phi0,
                                                     double dt, const ContactModelParameters& p);

}  // namespace stiction
