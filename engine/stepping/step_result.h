#pragma once
// What one time step returns: a status (the step never throws and leaves
// the state unchanged on failure), a one-line message, and statistics.
#include <string>

#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/solver_settings.h"

namespace stiction {

enum class StepStatus {
  kSuccess = 0,
  kSolverFailed,  ///< A solver did not converge; the state was not advanced.
  kNonFinite,     ///< The step produced NaN/Inf; the state was not advanced.
};

/// Per-step statistics. Contact-related entries are zero until contact exists.
struct StepStats {
  int iterations = 0;              ///< Solver iterations (stage 1 Newton + contact solver;
                                   ///< CANAL: inner Newton steps summed; SubADMM: ADMM iterations).
  int line_search_iterations = 0;
  int num_contacts = 0;
  double momentum_error = 0;       ///< e_m, [SAP] Eq. (32).
  double complementarity_error = 0;  ///< e_μ, [SAP] Eq. (33).
  /// How well the step's impulses satisfy the exact Signorini–Coulomb NCP,
  /// the same figure for every solver ([CANAL] Sec. VII-A; mixed units,
  /// engine/solvers/ncp_residual.h); 0 without contacts or limits.
  double ncp_residual = 0;
  double max_penetration_m = 0;    ///< max(-φ) over contacts [m], ≥ 0.
  double wall_time_s = 0;          ///< Time spent inside Step() [s].
  SolverType solver = SolverType::kSap;  ///< The contact solver that ran (θ-method only).
  SteppingScheme scheme = SteppingScheme::kThetaMethod;  ///< The time-stepping scheme that ran.
  // NMDP schemes (docs/nmdp.md); zero for the θ-method. `iterations` counts
  // their manifold-projection Newton steps, `outer_iterations` the PGM
  // iterations, both summed over the substeps of Alg. 2.
  int qp_iterations = 0;     ///< Active-set iterations of the MDP QPs (Eqs. 8, 10, NE-MDP).
  /// Substeps beyond the first: NMDP's Alg. 2, or the θ-method's halvings
  /// of a step that failed at δt (`solver.max_step_halvings`); 0: δt as asked.
  int subdivisions = 0;
  /// The smallest substep taken [s]: NMDP, δt without subdivision; the
  /// θ-method, 0 without subdivision.
  double smallest_dt_s = 0;
  // Augmented-Lagrangian solvers (CANAL, SubADMM); zero for SAP.
  int outer_iterations = 0;        ///< CANAL: AL (outer) iterations.
  double constraint_residual = 0;  ///< ‖J v̂ − z‖ at exit [m/s] (SubADMM: θ_p + θ_d).
  double penalty = 0;              ///< AL penalty β at exit [kg] (not SAP's near-rigid β).
  bool solver_converged = true;    ///< False when an AL solver or PGS stopped at its cap or budget.
  /// The contact solver stopped at its time budget (SolverBudget) and the
  /// step went on with its last iterate; ncp_residual says how far it was.
  bool budget_hit = false;
  /// Contact solves repeated because a manifold's solved impulses carried
  /// more load than its near-rigid stiffness assumed (sudden loads;
  /// `solver.max_load_resolves`); the stats above are the last solve's,
  /// iterations and times summed over all.
  int load_resolves = 0;
  /// The position correction after the solve (the impact-arrival correction,
  /// `solver.arrival_correction`, and an exact solver's `split_recovery`;
  /// engine/solvers/position_recovery.h): its largest move of a contact
  /// along its normal in this step [m] (rad for a joint limit), and the
  /// Gauss–Seidel sweeps its solve took; 0 without one.
  double position_correction_m = 0;
  int position_correction_sweeps = 0;
  /// Bodies asleep in this step (solver.sleep; engine/stepping/sleep_tracker.h):
  /// frozen, in no contact problem. θ-method only.
  int sleeping_bodies = 0;
  /// The chosen contact solver failed (or its iterate was refused for
  /// creating energy) and SAP took the step instead (`solver` says SAP;
  /// ThetaMethodStepper::Step).
  bool solver_fallback = false;
  /// Work done on the system within the step [J], θ-method only
  /// (`work_metered`): by the generalized forces τ_ext (wrenches, motors,
  /// gravity compensation), by the PD actuators' rows and by the Cartesian
  /// impedance and posture rows, each Σ pᵀ (v_i + v_{i+1}) / 2 over the
  /// substeps taken (p: the impulse of the forces over the substep). For a
  /// constant mass matrix this is the kinetic energy they add, also when the
  /// step was taken in halves (a meter that multiplies the last substep's
  /// effort by the whole step's velocities is not).
  bool work_metered = false;
  double work_external_J = 0;
  double work_actuators_J = 0;
  double work_cartesian_J = 0;
  /// Where the step's time went [s] (benchmarks, docs/benchmarks.md), by
  /// the stages of ThetaMethodStepper::Step.
  struct TimeSplit {
    double free_motion = 0;    ///< Stage 1 (θ-method Newton per tree) and A.
    double collision = 0;      ///< Contact query: FCL broad + narrow phase.
    double contact_surfaces = 0;  ///< Of `collision`: pressure-field contact surfaces.
    double assembly = 0;       ///< Contact problem + Newton matrix H assembly.
    double factorization = 0;  ///< Sparse Cholesky of H.
    double line_search = 0;    ///< Exact/backtracking line search.
  } time;
};

struct StepResult {
  StepStatus status = StepStatus::kSuccess;
  std::string message;  ///< Empty on success; a one-line reason otherwise.
  StepStats stats;
};

}  // namespace stiction
