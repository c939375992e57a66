#pragma once
// Parameters of the CANAL solver ([CANAL] Sec. IV–V, Alg. 1), with units and
// the paper's defaults.
#include "engine/parameters/island_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/sap_parameters.h"

namespace stiction {

struct CanalSolverParameters {
  /// ρ0: the AL penalty at the start of each step, as a multiple of each
  /// constraint's effective mass: β_i = ρ m_i, m_i = rows / tr(W_ii) [kg,
  /// or kg m² for angular rows] with W_ii = J_i A⁻¹ J_iᵀ its Delassus block.
  /// [CANAL] uses one absolute β0 = 1e4 kg; scaled per constraint, the
  /// inner problem is as well conditioned as SAP's near-rigid one (whose
  /// stiffness is 4π² m_i, Eq. 29) for light and heavy bodies alike
  /// (docs/solvers.md, "CANAL in piles"). > 0, dimensionless.
  double initial_penalty_ratio = 40;
  /// ρ0 of a warm-started solve (more than half of the constraints carry
  /// the previous step's impulses), dimensionless, > 0 and
  /// ≤ max_penalty_ratio. From a good warm start the inner Newton is
  /// already near its solution, a stiff penalty costs it few steps, and the
  /// AL error contracts by ~1/(1 + ρ λ_min) per iteration, with λ_min the
  /// smallest eigenvalue of the mass-scaled Delassus operator: small in a
  /// stack under a heavy body (docs/solvers.md, "CANAL in piles").
  double warm_penalty_ratio = 4000;
  /// κ of Eq. (27): ρ ← min(κρ, ρ_max) when the residual stalls. > 1.
  double penalty_growth = 10;
  /// ρ_max of Eq. (27), ≥ ρ0, dimensionless: bounds the inner problem's
  /// stiffness relative to the masses (the inner Newton needs many more
  /// iterations beyond ~1e4).
  double max_penalty_ratio = 1e4;
  /// Anderson acceleration of the AL update (u, z) ← G(u, z)
  /// (anderson_acceleration.h): the last m iterates are mixed. The frozen
  /// De Saxcé term makes the plain update converge only linearly where many
  /// contacts slide (a pile); 0 gives the paper's plain update. In [0, 50].
  int acceleration_memory = 5;
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
  /// The inner exact line search (Sec. V-C) stops at |dh/dα| ≤ this
  /// |dh/dα(0)|, in (0, 1). The paper iterates to round-off, and so does
  /// the default: SAP's 1e-6 halves the samples per Newton iteration on the
  /// clutter at 10 ms (7.8 → 4.1) but the resting pile then settles worse
  /// (its last 3 s: 26 Newton iterations per step instead of 5–8, steps
  /// with overlaps to 1.6 mm instead of ≤ 0.1 mm; docs/benchmarks.md,
  /// "CANAL at a usable cost").
  double line_search_tolerance = 1e-12;
  /// Baumgarte-like fraction r of an overlap φ0 < 0 removed per step
  /// (e_n = r φ0/δt; see ncp_constraints.h). In (0, 1].
  double penetration_recovery = 0.2;
  /// Remove overlaps in positions after the step (a split impulse,
  /// engine/solvers/position_recovery.h): the velocity NCP then asks an
  /// overlap only not to deepen (e_n = 0), and the position correction
  /// removes the fraction penetration_recovery of it per step.
  bool split_recovery = false;
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
