#pragma once
// Parameters of the CANAL solver ([CANAL] Sec. IV–V, Alg. 1), with units and
// the paper's defaults.
#include "engine/parameters/island_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/sap_parameters.h"

namespace stiction {

struct CanalSolverParameters {
  /// β0: AL penalty at the start of each step [kg] (impulse per velocity);
  /// the paper starts from 1e4 (Sec. V). > 0.
  double initial_penalty = 1e4;
  /// κ of Eq. (27): β ← min(κβ, β_max) when the residual stalls. > 1.
  double penalty_growth = 10;
  /// β_max of Eq. (27) [kg], ≥ β0: bounds the inner problem's stiffness
  /// (beyond ~1e6 × the masses the inner Newton loses precision).
  double max_penalty = 1e6;
  /// ζ of Alg. 1 line 19: β grows unless ‖J v − z‖ shrank below ζ times its
  /// previous value. In (0, 1).
  double residual_ratio = 0.9;
  /// θ_th^AL of Alg. 1 line 16: stop when ‖J v − z‖₂ < tolerance and the
  /// constraint velocities J v changed by less than it (2-norms) [m/s]. > 0.
  double tolerance = 1e-6;
  /// Cap on AL (outer) iterations, ≥ 1. At the cap the last iterate is
  /// returned with status kMaxIterations (the stepper still uses it).
  int max_iterations = 20;
  /// θ_th^N of Alg. 1 line 8, relative: the inner Newton stops when the
  /// scaled gradient of h is below this fraction of the scaled momentum
  /// (as SAP's Eq. 26). In [0, 1).
  double newton_tolerance = 1e-10;
  /// Cap on Newton iterations per inner problem, ≥ 1.
  int max_newton_iterations = 25;
  /// Baumgarte-like fraction r of an overlap φ0 < 0 removed per step
  /// (e_n = r φ0/δt; see ncp_constraints.h). In (0, 1].
  double penetration_recovery = 0.2;
  /// Warm start u and z from the previous step by constraint key (Sec. V-D).
  bool warm_start = true;
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  int dense_max_size = 24;  ///< As SapSolverParameters::dense_max_size.
  /// Record ‖J v − z‖ after every AL iteration (tests, convergence plots).
  bool record_history = false;
  /// Islands (engine/solvers/islands.h): off by default, as before they
  /// served every solver.
  IslandParameters islands = {.enabled = false};
};

/// The scene keys of `solver.canal:`.
ParameterTable BindParameters(CanalSolverParameters& p);
/// Throws InputError naming the parameter when out of range or NaN.
void ValidateCanalParameters(const CanalSolverParameters& p);

}  // namespace stiction
