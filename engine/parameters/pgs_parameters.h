#pragma once
// Parameters of the projected Gauss–Seidel baseline ([CANAL] Sec. VII: the
// per-contact solver of Bullet, MuJoCo, RaiSim and Isaac), with units.
#include "engine/parameters/island_parameters.h"
#include "engine/parameters/parameter_binding.h"

namespace stiction {

struct PgsSolverParameters {
  /// false: the exact Signorini–Coulomb NCP of [CANAL] Eq. (5), contacts and
  /// joint limits hard; true: the regularized dual of SAP's convex problem
  /// ([SAP] Eq. 22; [Anitescu], [Todorov]: MuJoCo's PGS), every constraint
  /// with the regularization of its contact model.
  bool regularized = false;
  /// SOR factor ω in (0, 2): each local update moves ω times its
  /// Gauss–Seidel step (1 = plain Gauss–Seidel).
  double relaxation = 1.0;
  /// Stop when no constraint's velocity changed by more than this in a
  /// sweep, ‖W_ii Δγ_i‖ [m/s, rad/s for angular rows]. > 0.
  double tolerance = 1e-6;
  /// Sweeps over all constraints, ≥ 1. At the cap the last iterate is used
  /// (status kMaxIterations), as every PGS engine does.
  int max_iterations = 100;
  /// As CanalSolverParameters::penetration_recovery (exact formulation).
  double penetration_recovery = 0.2;
  /// As CanalSolverParameters::split_recovery.
  bool split_recovery = false;
  /// Warm start γ from the previous step by constraint key.
  bool warm_start = true;
  /// Record the sweep's largest velocity change into residual_history.
  bool record_history = false;
  /// Islands (engine/solvers/islands.h): off by default, as for the other
  /// exact-NCP solvers.
  IslandParameters islands = {.enabled = false};
};

/// The scene keys of `solver.pgs:`.
ParameterTable BindParameters(PgsSolverParameters& p);
/// Throws InputError naming the parameter when out of range or NaN.
inline void ValidatePgsParameters(const PgsSolverParameters& p) { CheckParameterRanges("pgs", p); }

}  // namespace stiction
