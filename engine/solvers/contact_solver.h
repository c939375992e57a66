#pragma once
// The one interface every contact solver implements: given a ContactProblem
// and an initial guess, find v and the impulses γ. Solvers return a status
// and say whether their result may advance the step; they never throw inside
// a step. They keep no state between steps beyond scratch: warm starts come
// in through the problem's constraints (Constraint::warm_gamma/warm_slack).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/parameters/solver_settings.h"

namespace stiction {

enum class SolverStatus {
  kConverged = 0,
  kMaxIterations,         ///< Stopped at the iteration cap without meeting the tolerance.
  kNonFinite,             ///< NaN/Inf appeared (bad data); the result is unusable.
  kStalled,               ///< Stopped decreasing the cost at round-off far from the tolerance.
  kNotPositiveDefinite,   ///< A Newton matrix could not be factored; the result is unusable.
};

struct SolverResult {
  VectorX v;      ///< Velocities of every tree (v* where no constraint acts).
  VectorX gamma;  ///< Impulses, constraint rows stacked in problem order [N s].
  /// Whether v and γ may advance the step: true when converged; an
  /// augmented-Lagrangian solver at its iteration cap also returns a usable
  /// last iterate (a soft-contact answer, [CANAL] Sec. V: one iteration is
  /// already a convex soft model). When false, `message` says why.
  bool usable = false;
  int iterations = 0;
  int line_search_iterations = 0;
  double cost = 0;                   ///< ℓ_p at the solution [J].
  double momentum_error = 0;         ///< e_m, [SAP] Eq. (32).
  double complementarity_error = 0;  ///< e_μ, [SAP] Eq. (33).
  std::string message;               ///< Why it failed, one line; empty on success.
  std::vector<double> momentum_error_history;  ///< e_m per iteration, when recorded.
  double assembly_time_s = 0;       ///< Building H = A + JᵀGJ [s].
  double factorization_time_s = 0;  ///< Factorizing H and solving [s].
  double line_search_time_s = 0;    ///< Line search [s].
  // Augmented-Lagrangian solvers (CANAL, SubADMM); zero for SAP.
  int outer_iterations = 0;         ///< AL (outer) iterations.
  double constraint_residual = 0;   ///< ‖J v̂ − z‖ at exit.
  double penalty = 0;               ///< AL penalty at exit: CANAL its ratio ρ, SubADMM its β (not SAP's near-rigid β).
  std::vector<double> residual_history;  ///< ‖J v̂ − z‖ per AL iteration, when recorded.
  /// The solve stopped at its wall-clock deadline (SolverBudget) before its
  /// tolerance; the result is usable, as an AL solver's at its cap (SAP's:
  /// its last Newton iterate, whose cost is below the guess's).
  bool budget_hit = false;
  /// AL solvers: the slack z per row at exit, carried to the next step's
  /// warm start with γ; empty for solvers without one.
  VectorX slack;
};

/// When a solve must stop (SolverBudget); nullopt: no budget.
using SolveDeadline = std::optional<std::chrono::steady_clock::time_point>;

class ContactSolver {
 public:
  virtual ~ContactSolver() = default;
  virtual SolverType type() const = 0;
  /// Takes this solver's parameters from `settings` (validated); keeps its
  /// scratch.
  virtual void SetParameters(const SolverSettings& settings) = 0;
  /// Whether Solve reads the constraints' warm-start values (the stepper
  /// fills them only then, from the previous step's γ and slack).
  virtual bool UsesWarmStart() const { return false; }
  /// The deadline of the next solves (the stepper sets it before each step
  /// from SolverBudget; islands share it).
  virtual void SetDeadline(SolveDeadline deadline) = 0;
  /// Solves `problem` from `v_guess` (all trees). Never throws.
  virtual SolverStatus Solve(const ContactProblem& problem, const VectorX& v_guess,
                             SolverResult* result) = 0;
};

}  // namespace stiction
