#pragma once
// Parameters of the SAP solver ([SAP] Sec. IV, Alg. 2) with units and
// defaults, its line-search kinds (a registry) and the linear solvers every
// Newton-type solver can factor with.
#include <span>
#include <string_view>

#include "engine/parameters/island_parameters.h"
#include "engine/parameters/parameter_binding.h"

namespace stiction {

/// How a Newton matrix is factored: a dense LLT of the participating trees,
/// Eigen's sparse simplicial (entry-wise) Cholesky, the supernodal-by-tree
/// block Cholesky (engine/solvers/block_cholesky.h), or by size (dense up to
/// dense_max_size velocities, block above; docs/benchmarks.md measures why).
enum class LinearSolverKind { kAuto, kDense, kSparse, kBlock };

enum class LineSearchKind { kExact, kBacktracking };

struct LineSearchInfo {
  LineSearchKind kind;
  std::string_view name;         ///< As scenes (`solver.line_search`) and the viewer spell it.
  std::string_view description;  ///< One line.
};
/// Every line search, in the order help texts and the viewer list them.
std::span<const LineSearchInfo> LineSearches();
const LineSearchInfo& GetLineSearchInfo(LineSearchKind kind);

struct SapSolverParameters {
  double relative_tolerance = 1e-6;   ///< ε_r of Eq. (26), dimensionless.
  double absolute_tolerance = 1e-14;  ///< ε_a of Eq. (26) [√J].
  /// Newton iterations, ≥ 1: stiff Hunt & Crossley impacts at large δt need > 100.
  int max_iterations = 300;
  LineSearchKind line_search = LineSearchKind::kExact;
  /// Backtracking (Sec. IV-B): α ← ρα from α_max until Armijo's rule holds.
  double backtracking_rho = 0.8;
  double armijo_c = 1e-4;
  double backtracking_alpha_max = 1.25;
  int max_line_search_iterations = 100;
  /// Exact search: α ∈ (0, α_max].
  double exact_alpha_max = 1.5;
  /// Exact search: stop once |dℓ/dα| ≤ this · |dℓ/dα(0)| (dimensionless,
  /// in (0, 1)). The paper iterates to round-off (Sec. IV-C); the Newton
  /// iterates do not need it: on the clutter 1e-6 takes 26% fewer samples
  /// than 1e-12 at 10 ms and about half at 2 ms, for the same Newton
  /// iterations with SAP and with each Hunt & Crossley model. 1e-3 saves a
  /// little more with SAP but costs the H&C models Newton iterations
  /// (regularized Lagged at 2 ms: 5.8 instead of 3.6 per step), measured
  /// in docs/benchmarks.md.
  double exact_line_search_tolerance = 1e-6;
  /// Stop when the cost no longer decreases beyond round-off:
  /// ℓ_prev − ℓ < cost_abs_tolerance + cost_rel_tolerance · |ℓ_prev|.
  double cost_abs_tolerance = 1e-30;
  double cost_rel_tolerance = 1e-15;
  /// A round-off stop (the cost no longer decreases, or no descent
  /// direction is left) counts as converged only when e_m (Eq. 32) is below
  /// this. Above it, a stalled cost lets Newton go on (the exact line search
  /// uses dℓ/dα, not differences of ℓ) until the iteration cap, and a lost
  /// descent direction reports kStalled. Without it, an ill-conditioned
  /// problem (e.g. Hunt & Crossley contact with k = 1e12 N/m at δt = 10 ms)
  /// stopped at e_m ≈ 1 and was taken as a solution, silently losing
  /// momentum balance. 1%: far above what converged solves reach (≤ ε_r),
  /// far below the non-solutions this catches (e_m = 0.1–1).
  double stall_momentum_error = 1e-2;
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  /// kAuto uses the dense LLT up to this many participating velocities
  /// (chosen by measurement, docs/benchmarks.md).
  int dense_max_size = 24;
  /// Record e_m (Eq. 32) at every iteration into SolverResult (for tests
  /// and convergence plots). With islands: the largest e_m over the islands
  /// at each iteration (an island that converged keeps its last value).
  bool record_history = false;
  /// Islands (engine/solvers/islands.h): on by default for SAP.
  IslandParameters islands;
};

/// The scene keys at `solver:`'s top level that set SAP's parameters (the
/// line search is a choice, read through LineSearches()).
ParameterTable BindParameters(SapSolverParameters& p);
/// Throws InputError naming the parameter when out of range or NaN.
void ValidateSapParameters(const SapSolverParameters& p);

}  // namespace stiction
