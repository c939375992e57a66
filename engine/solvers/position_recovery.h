#pragma once
// Penetration recovery outside the velocity NCP (a split impulse, as in
// [Bullet]'s sequential-impulse solver with `m_splitImpulse`; docs/solvers.md,
// "Recovery in positions"). The exact solvers' error term asks an
// overlapping contact to separate at r |φ0|/δt inside the velocity problem
// (ncp_constraints.h), and in a corner at μ ≥ 1 that NCP has no solution
// (tests/solvers/corner_jam_test.cpp). With `split_recovery` the velocity
// problem asks an overlap only not to deepen (e_n = 0), and after it this
// class finds a pseudo-velocity Δv that moves the positions, not the
// velocities:
//   min ½ Δvᵀ A Δv  s.t.  each contact and joint limit i:
//   J_i,n Δv + e_i ≥ 0,  e_i = φ_i/δt if φ_i ≥ 0, r φ_i/δt otherwise,
// with φ_i the gap the step's velocities leave, φ0 + δt J_i,n v^θvq (first
// order; v^θvq = θ_vq v + (1 − θ_vq) v0, what the positions integrate), so
// that a fraction r of what overlaps after the step is removed and nothing
// is pushed through a gap that stays open. It is the frictionless exact
// NCP with v* = 0 (its dual is a bound-constrained QP: no friction, so no
// jam), solved by exact projected Gauss–Seidel (pgs_solver.h). Positions
// then integrate v^θvq + Δv; the velocities, and so the kinetic energy, are
// the contact solve's.
//
// The same correction also ends an impact where the contact problem put it
// (`solver.arrival_correction`): the problem stops a contact at its
// prediction φ0 + δt J_n v, but with θ_vq < 1 the positions integrate
// v^θvq, which carries it (1 − θ_vq) δt (J_n v − J_n v0) further: 7.8 cm
// for a box arriving at 11 m/s with δt = 15.5 ms under the midpoint rule.
// Each constraint then ends no deeper than min(φ0 + δt J_n v, 0), and with
// both the target is the higher of the two.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/pgs_solver.h"

namespace stiction {

struct PositionRecoveryResult {
  int sweeps = 0;            ///< Gauss–Seidel sweeps of the correction's solve.
  bool converged = true;     ///< False: stopped at the sweep cap (no correction: Δv = 0).
  double max_correction_m = 0;  ///< Largest δt |J_n Δv| over contacts [m] (rad for a limit).
};

/// What the correction asks of each contact and joint limit.
struct PositionTargets {
  /// r ∈ [0, 1]: the fraction of the overlap left after the step removed
  /// (split recovery); 0: none.
  double recovery = 0;
  /// End no deeper than the contact problem's prediction (impact arrival).
  bool arrival = false;
  bool any() const { return recovery > 0 || arrival; }
};

class PositionRecovery {
 public:
  PositionRecovery();

  /// Δv (all of `problem`'s velocities) from the step's start velocities
  /// v0 and solved velocities v. Zero without contacts or limits, when no
  /// target is missed by more than 1e-6 m/s × δt, and when the solve
  /// reaches its sweep cap.
  PositionRecoveryResult Solve(const ContactProblem& problem, const VectorX& v0, const VectorX& v, double theta_vq,
                               const PositionTargets& targets, VectorX* dv);

 private:
  ContactProblem split_;  // The frictionless problem, recycled across steps.
  VectorX v_vq_;          // v^θvq, what the positions integrate.
  std::vector<double> gaps_;  // Each row's gap from its target [m].
  PgsSolver pgs_;         // Exact, frictionless, with CorrectionParameters().
};

}  // namespace stiction
