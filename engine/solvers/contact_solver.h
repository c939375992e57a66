#pragma once
// The one interface every contact solver implements: given a ContactProblem
// and an initial guess, find v and the impulses γ. Solvers return a status;
// they never throw inside a step.
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"

namespace stiction {

enum class SolverStatus {
  kConverged = 0,
  kMaxIterations,  ///< Stopped at the iteration cap without meeting the tolerance.
  kNonFinite,      ///< NaN/Inf appeared (bad data); the result is unusable.
  kStalled,        ///< Stopped decreasing the cost at round-off far from the tolerance.
};

struct SolverResult {
  VectorX v;      ///< Velocities of every tree (v* where no constraint acts).
  VectorX gamma;  ///< Impulses, constraint rows stacked in problem order [N s].
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
  double penalty = 0;               ///< AL penalty β at exit (not SAP's near-rigid β).
  std::vector<double> residual_history;  ///< ‖J v̂ − z‖ per AL iteration, when recorded.
};

class ContactSolver {
 public:
  virtual ~ContactSolver() = default;
  virtual std::string name() const = 0;
  /// Forgets state carried between steps (warm starts), e.g. after a reset.
  virtual void ClearWarmStart() {}
  /// Solves `problem` from `v_guess` (all trees; warm start). Never throws.
  virtual SolverStatus Solve(const ContactProblem& problem, const VectorX& v_guess,
                             SolverResult* result) = 0;
};

}  // namespace stiction
