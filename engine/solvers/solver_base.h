#pragma once
// What every contact solver shares: its parameters (one member of
// SolverSettings) and the start of a solve (SolverLayout::StartSolve: the
// trees that take part, v* and the guess gathered, the trivial and
// non-finite cases answered). A solver derives from SolverBase and
// implements SolveStarted, its own method from there on.
#include <optional>
#include <string>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/parameters/solver_settings.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {

/// A solver of type `kType` whose parameters are SolverSettings::*kMember.
template <typename Parameters, SolverType kType, Parameters SolverSettings::*kMember>
class SolverBase : public ContactSolver {
 public:
  explicit SolverBase(const Parameters& p = {}) : params_(p) {}
  SolverType type() const final { return kType; }
  void SetParameters(const SolverSettings& settings) final { params_ = settings.*kMember; }
  /// Solvers whose parameters have a `warm_start` flag read the constraints'
  /// warm-start values when it is set.
  bool UsesWarmStart() const final {
    if constexpr (requires { params_.warm_start; }) {
      return params_.warm_start;
    } else {
      return false;
    }
  }
  void SetDeadline(SolveDeadline deadline) final { deadline_ = deadline; }
  const Parameters& parameters() const { return params_; }
  void set_parameters(const Parameters& p) { params_ = p; }

  SolverStatus Solve(const ContactProblem& problem, const VectorX& v_guess, SolverResult* result) final {
    const std::string title(GetSolverTypeInfo(kType).title);
    if (const std::optional<SolverStatus> done = layout_.StartSolve(problem, v_guess, title.c_str(), &v_star_, &v_,
                                                                    result)) {
      return *done;
    }
    return SolveStarted(problem, result);
  }

 protected:
  /// The solve from the start: layout_ built, v_star_ and v_ (the guess)
  /// gathered over the participating trees, *result holding v = v* and
  /// γ = 0 for every row.
  virtual SolverStatus SolveStarted(const ContactProblem& problem, SolverResult* result) = 0;

  /// Whether the deadline has passed (false without one); solvers ask once
  /// per iteration.
  bool PastDeadline() const { return deadline_ && std::chrono::steady_clock::now() >= *deadline_; }

  Parameters params_;
  SolveDeadline deadline_;
  SolverLayout layout_;
  VectorX v_star_;  ///< Local v*.
  VectorX v_;       ///< Local iterate.
};

}  // namespace stiction
