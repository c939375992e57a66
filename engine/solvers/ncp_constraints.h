#pragma once
// The exact-NCP view of the contact problem's constraints, shared by CANAL,
// SubADMM and exact PGS ([CANAL] Sec. III-B and IV; docs/references.md):
//   * contacts (origin kContact, any kind): the Signorini–Coulomb conditions
//     of Eq. (5) on rows [t1, t2, n], with the error term e = [0, 0, e_n];
//   * joint limits (origin kJointLimit): hard unilateral rows (Eq. 3/14);
//   * PD actuators and welds: soft constraints, kept as the SAP convex cost
//     the builder made for them (an already regularized, convex model);
//   * pressure-field polygons (Constraint::compliant) with SAP's cone: soft
//     likewise, since their overlap is the compliant contact's deformation
//     (each polygon's own stiffness, [Patch]; [SAP] Sec. VI-D), which the rigid
//     limit with recovery would push out.
// Error terms (velocities, since γ is an impulse): e = φ0/δt when φ0 ≥ 0, so
// that a speculative contact may close its gap exactly within the step, and
// r φ0/δt when overlapping (Baumgarte-like, 0 < r ≤ 1), so that penetration
// is recovered over ~1/r steps rather than in one violent step.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/contact/constraint_evaluation.h"

namespace stiction {

enum class NcpConstraintType {
  kContact,  ///< Signorini–Coulomb, 3 rows [t1, t2, n] (Eq. 5).
  kHard,     ///< 0 ≤ λ ⟂ J v + e ≥ 0, one row (Eq. 3).
  kSoft,     ///< SAP's convex cost ℓ(J v) (actuators, welds).
};

NcpConstraintType NcpTypeOf(const Constraint& c);

/// The velocity error e of a contact's normal row or a joint limit's row
/// [m/s or rad/s]: φ0/δt if φ0 ≥ 0, recovery · φ0/δt otherwise.
double NcpErrorTerm(const Constraint& c, double dt, double recovery);

/// Per constraint its type, and per stacked row (constraint k's first at
/// row_start[k], `rows` in all) the error term: e = NcpErrorTerm on a
/// contact's normal row (e = [0, 0, e_n]) and on a hard row, 0 on tangential
/// and soft rows.
void CalcNcpErrors(const ContactProblem& problem, const std::vector<int>& row_start, int rows, double recovery,
                   std::vector<NcpConstraintType>* types, VectorX* e);

/// The strict operator of Eqs. (16)–(17): λ_n = max(λ*_n, 0), then λ_t the
/// projection of λ*_t onto the disk of radius μ λ_n. Rows [t1, t2, n].
Vector3 ProjectStrict(const Vector3& lambda_star, double mu);

/// Euclidean projection onto the friction cone C = {‖λ_t‖ ≤ μ λ_n} (the
/// proximal operator of CANAL's inner problem, Eq. 21), its region and, when
/// `derivative` is given, ∂Π/∂y of Eq. (23) (rows and columns [t1, t2, n];
/// on region boundaries the formula of the inner region).
Vector3 ProjectCone(const Vector3& y, double mu, ConeRegion* region = nullptr,
                    Matrix3* derivative = nullptr);

/// ProjectCone(y, μ) with dᵀ (∂Π/∂y) d into *d_D_d, without forming ∂Π/∂y:
/// what a line search along d needs of the projection's curvature.
Vector3 ProjectConeAlong(const Vector3& y, double mu, const Vector3& d, double* d_D_d);

}  // namespace stiction
