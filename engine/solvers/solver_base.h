#pragma once
// What every contact solver shares: its parameters (one member of
// SolverSettings), the start of a solve (SolverLayout::StartSolve: the
// trees that take part, v* and the guess gathered, the trivial and
// non-finite cases answered), and the steps its iteration loop has in
// common with the others' (docs/solvers.md, "The shape of a solve"): the
// deadline and history of the stopping test, and the packing of the
// result. A solver derives from SolverBase and implements SolveStarted, its
// own method from there on.
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/parameters/solver_settings.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {

/// Streams `parts` into one string, as the solvers' messages format numbers.
template <typename... Parts>
std::string StreamText(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

/// How far a solve that stopped short of its tolerance got, for its message
/// "<solver> did not reach <target> in <count> <steps>, the cap (<residual>)".
struct ShortOfTolerance {
  std::string target;    ///< e.g. "||J v - z|| < 1e-06 m/s".
  int count = 0;         ///< Iterations done.
  const char* steps;     ///< Their name, e.g. "AL iterations".
  std::string residual;  ///< Where it stopped, e.g. "residual 0.002 m/s".
};

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
    const std::string title(Title());
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

  /// As messages name the solver: "SAP", "CANAL", …
  static std::string_view Title() { return GetSolverTypeInfo(kType).title; }

  /// Whether the deadline has passed (false without one); solvers ask once
  /// per iteration.
  bool PastDeadline() const { return deadline_ && std::chrono::steady_clock::now() >= *deadline_; }
  /// The deadline part of a stopping test: PastDeadline(), noted in
  /// r->budget_hit when true.
  bool StopAtDeadline(SolverResult* r) const {
    if (!PastDeadline()) return false;
    r->budget_hit = true;
    return true;
  }
  /// Appends an iteration's residual to *history when the parameters ask
  /// for the history.
  void RecordHistory(double residual, std::vector<double>* history) const {
    if (params_.record_history) history->push_back(residual);
  }

  /// The packing every solve ends with: v_ over the participating trees
  /// into r->v (the others keep v*) and the impulses `gamma` into r->gamma.
  void PackIterate(const ContactProblem& problem, const VectorX& gamma, SolverResult* r) const {
    r->gamma = gamma;
    layout_.Scatter(problem, v_, &r->v);
  }
  /// PackIterate for a fixed-point solver (SubADMM, PGS), whose momentum
  /// error e_m is measured on its final iterate only; kNonFinite ("<solver>:
  /// non-finite iterate") when that iterate is not finite.
  std::optional<SolverStatus> PackFinalIterate(const ContactProblem& problem, const VectorX& gamma,
                                               SolverResult* r) const {
    PackIterate(problem, gamma, r);
    r->momentum_error = layout_.CalcMomentumError(problem, v_, v_star_, gamma);
    if (!v_.allFinite() || !gamma.allFinite()) {
      r->message = std::string(Title()) + ": non-finite iterate";
      return SolverStatus::kNonFinite;
    }
    return std::nullopt;
  }
  /// The usable-result rule of the solvers that return their last iterate
  /// (CANAL, SubADMM, PGS): usable even short of the tolerance, at the cap
  /// or the deadline, since one AL iteration or sweep is already a
  /// soft-contact answer ([CANAL] Sec. V). kConverged when `converged`;
  /// otherwise kMaxIterations, with the message made from `describe()`'s
  /// ShortOfTolerance.
  template <typename Describe>
  static SolverStatus FinishUsable(bool converged, SolverResult* r, Describe describe) {
    r->usable = true;
    if (converged) return SolverStatus::kConverged;
    const ShortOfTolerance why = describe();
    r->message = StreamText(Title(), " did not reach ", why.target, " in ", why.count, " ", why.steps,
                            r->budget_hit ? ", the time budget (" : ", the cap (", why.residual, ")");
    return SolverStatus::kMaxIterations;
  }

  Parameters params_;
  SolveDeadline deadline_;
  SolverLayout layout_;
  VectorX v_star_;  ///< Local v*.
  VectorX v_;       ///< Local iterate.
};

}  // namespace stiction
