#pragma once
// The exact one-contact Signorini–Coulomb problem, the local solve of
// nonsmooth Gauss–Seidel (PGS on the exact NCP, engine/solvers/pgs_solver.h):
// given the contact's Delassus block W (3×3, SPD, rows [t1, t2, n]), its
// velocity without its own impulse c, and μ, find γ with u = c + W γ and
//   0 ≤ γ_n ⟂ u_n ≥ 0,  ‖γ_t‖ ≤ μ γ_n,  u_t ≠ 0 ⇒ γ_t = −μ γ_n u_t/‖u_t‖.
// By enumeration of the three cases, as nonsmooth Gauss–Seidel's
// enumerative local solvers do: take-off (c_n ≥ 0, γ = 0),
// stick (γ = −W⁻¹c inside the cone), and slide (u_n = 0 and a slip direction
// θ found by bracketing and bisection of the one equation u_t ∥ s(θ)).
#include "engine/common/eigen_types.h"

namespace stiction {

struct OneContactSolution {
  Vector3 gamma = Vector3::Zero();
  /// False when no case was found consistent (W singular or not SPD, or the
  /// slide equation without a bracketed root); gamma then holds the
  /// candidate with the smallest natural-map residual.
  bool exact = false;
};

OneContactSolution SolveOneContact(const Matrix3& W, const Vector3& c, double mu);

/// The natural-map residual of one contact, ‖γ − Π_strict(γ − u)‖ with
/// u = c + W γ ([CANAL] Sec. VII-A for one contact).
double OneContactResidual(const Matrix3& W, const Vector3& c, double mu, const Vector3& gamma);

}  // namespace stiction
