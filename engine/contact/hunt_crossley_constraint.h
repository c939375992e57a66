#pragma once
// The Hunt & Crossley contact constraints of "A Theory of Irrotational
// Contact Fields" ([ICF] in docs/references.md): compliant normal
// force f_n = k x₊ (1 + d ẋ)₊ (Eq. 13) with regularized friction (Eqs. 17–18)
// in the two convex forms of Sec. VI:
//   Lagged  (Sec. VI-B, Eqs. 29–33): ℓ = −N(v_n) + μ γ_n0 ‖v_t‖_s,
//   Similar (Sec. VI-C, Eqs. 34–40): ℓ = −N(z),  z = v_n − μ ‖v_t‖_s,
// where N is the incremental potential of Eqs. (15)–(16) and ‖·‖_s the soft
// norm of App. A (Eq. 45) with ε_s the stiction tolerance. Both are convex,
// twice differentiable away from the normal kink v_n = v̂, and their Hessians
// are PSD everywhere including v_t = 0 (the soft norm removes the
// singularity). Like SAP's friction cone (friction_cone_constraint.h) they report
// ℓ, γ = −∂ℓ/∂v_c and G = ∂²ℓ/∂v_c², so the SAP Newton solver runs unchanged.
//
// Conventions as for SAP's friction cone: rows [t1, t2, n], v_c the velocity
// of B relative to A in the contact frame (v_n > 0 separates), penetration
// x = −φ, ẋ = −v_n.
#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_evaluation.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

enum class HuntCrossleyModel {
  kLagged,   ///< Friction bound lagged to γ_n0 (Eq. 29); consistent, no gliding.
  kSimilar,  ///< Normal impulse of z = v_n − μ‖v_t‖_s (Eq. 35); strongly coupled.
};

struct HuntCrossleyParameters {
  HuntCrossleyModel model = HuntCrossleyModel::kLagged;
  double dt = 0;        ///< δt [s], > 0.
  double k = 0;         ///< Stiffness [N/m], > 0.
  double d = 0;         ///< Hunt & Crossley dissipation [s/m], ≥ 0.
  double f0 = 0;        ///< Elastic force at the step start k x0 = −k φ0 [N] (< 0 when separated).
  double mu = 0;        ///< Friction coefficient, ≥ 0.
  double eps_s = 1e-4;  ///< Stiction tolerance ε_s of the soft norm [m/s], > 0.
  double gamma_n0 = 0;  ///< Lagged: previous normal impulse δt f_n(x0, ẋ0) [N s], ≥ 0.

  /// v̂ = min(x0/δt, 1/d) (Sec. IV-C): the normal impulse vanishes for v_n ≥ v̂.
  double v_hat() const;
};

/// Normal impulse n(v_n) = δt k (x0 − δt v_n)₊ (1 − d v_n)₊ (Eqs. 6, 13) [N s].
double HuntCrossleyNormalImpulse(const HuntCrossleyParameters& p, double vn);
/// The lagged normal impulse of Eq. (29): γ_n0 = δt f_n(x0, ẋ0) with
/// f_n(x, ẋ) = k x₊ (1 + d ẋ)₊, x0 = f0/k, ẋ0 = −vn0 [N s].
double HuntCrossleyLaggedImpulse(double dt, double d, double f0, double vn0);

/// A contact's parameters under a Hunt & Crossley contact model (Lagged,
/// Similar or regularized Lagged; `model` must be one of them) from its
/// pair's combined material: k, d, μ and v_s as given (the caller sets k
/// first: the Similar model's cap at the near-rigid stiffness, and every
/// model's stiffness for depth no solve produced, contact_constraints.cpp),
/// f0 = −k φ0 (Eq. 15), the
/// lagged impulse γ_n0 from the normal velocity vn0 [m/s] at the step start
/// (Eq. 29) and, for the regularized Lagged model, ε_s = max(v_s, σ w μ γ_n0)
/// (Eq. 44: SAP's effective stiction tolerance during impacts, v_s in
/// sustained contact), with w [s/kg] the contact's Delassus estimate.
HuntCrossleyParameters MakeHuntCrossleyParameters(ContactModel model, const ContactMaterial& m, double phi0,
                                                  double vn0, double w, double dt, double sigma);

/// ℓ, γ and G of the model at v_c (see the file comment).
void EvaluateHuntCrossley(const HuntCrossleyParameters& p, const Vector3& vc,
                          ConstraintEvaluation* out);

/// Stick/slip state for reports: no contact when the normal impulse is zero,
/// stiction while ‖v_t‖ ≤ ε_s (the regularized friction is below
/// μγ_n/√2 there, Eq. 17), sliding otherwise.
ConeRegion ClassifyHuntCrossley(const HuntCrossleyParameters& p, const Vector3& vc);

}  // namespace stiction
