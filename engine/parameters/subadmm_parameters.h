#pragma once
// Parameters of the SubADMM solver ([CANAL] Sec. VI, Alg. 2), with units and
// the paper's defaults.
#include "engine/parameters/island_parameters.h"
#include "engine/parameters/parameter_binding.h"

namespace stiction {

struct SubAdmmSolverParameters {
  /// β0 [kg]; 0 selects the paper's rule ([CANAL] Sec. VI-D): the geometric mean
  /// over trees of the pseudo-density m_j / (constraints on tree j), with
  /// m_j the largest diagonal entry of A_j (the tree's mass for a free base).
  double initial_penalty = 0;
  /// γ > 1 of Eq. (43): β ← β √(θ_p/θ_d) when one residual exceeds γ times
  /// the other (then every tree matrix is refactored).
  double penalty_balance = 10;
  /// θ_th of Alg. 2: stop when θ_p + θ_d < tolerance (Eq. 42; θ_p in m/s,
  /// θ_d in N s: a mixed sum, as in the paper). > 0.
  double tolerance = 1e-6;
  /// l_max of Alg. 2, ≥ 1. At the cap the last iterate is returned with
  /// status kMaxIterations (the stepper still uses it).
  int max_iterations = 200;
  /// Threads for the per-tree v-updates and factorizations (Eq. 34), ≥ 1.
  int num_threads = 1;
  /// As CanalSolverParameters::penetration_recovery. In (0, 1].
  double penetration_recovery = 0.2;
  /// As CanalSolverParameters::split_recovery.
  bool split_recovery = false;
  /// Warm start λ (u = −λ) from the previous step by constraint key.
  bool warm_start = true;
  /// Record θ_p + θ_d after every iteration into residual_history.
  bool record_history = false;
  /// Islands (engine/solvers/islands.h): off by default, as before they
  /// served every solver.
  IslandParameters islands = {.enabled = false};
};

/// The scene keys of `solver.subadmm:`.
ParameterTable BindParameters(SubAdmmSolverParameters& p);
/// Throws InputError naming the parameter when out of range or NaN (the
/// ranges are all there is to check).
inline void ValidateSubAdmmParameters(const SubAdmmSolverParameters& p) { CheckParameterRanges("subadmm", p); }

}  // namespace stiction
