#pragma once
// The Semi-Analytic Primal solver ([SAP] Sec. IV, Alg. 2): Newton's
// method on the unconstrained convex cost ℓ_p(v) of Eq. (24) with
// H = A + Jᵀ G J, an exact line search (rtsafe on dℓ/dα, Sec. IV-B/C) or
// backtracking with Armijo's rule, and the stopping criterion of Eq. (26).
#include <optional>
#include <vector>

#include "engine/parameters/sap_parameters.h"
#include "engine/solvers/block_newton_matrix.h"
#include "engine/solvers/exact_line_search.h"
#include "engine/solvers/solver_base.h"

namespace stiction {

/// Newton's method of Alg. 2 on one problem (every tree in it may be
/// coupled). Islands are solved separately by wrapping it in an
/// IslandSolver (island_solver.h), which the solver factory does.
class SapSolver final : public SolverBase<SapSolverParameters, SolverType::kSap, &SolverSettings::sap> {
 public:
  using SolverBase::SolverBase;

  /// Cost and its first two derivatives along v + αΔv (Sec. IV-C), for tests.
  using LineSample = stiction::LineSample;

 private:
  /// Alg. 2 as Drake's SapSolver::SolveWithGuess reads it: per iteration
  /// the stopping test at v, the Newton direction, the line search; then
  /// the results.
  SolverStatus SolveStarted(const ContactProblem& problem, SolverResult* result) override;
  /// Once per solve: the scaling D, the pattern of H, A v*.
  void Prepare(const ContactProblem& problem);
  /// Evaluates the cost at v_ (fills vc_, gamma_, evals_, grad_ and jc_),
  /// sets r->cost = ℓ_p(v) and r->momentum_error (recorded in its history)
  /// and returns the residual Eq. (26) tests.
  MomentumResidual CalcStoppingCriteriaResidual(const ContactProblem& problem, SolverResult* r);
  /// The final status when iteration `it` should stop: kNonFinite (message
  /// set), kConverged by Eq. (26) or a round-off stall of ℓ_p (below
  /// `ell_prev` for kStallIterations iterations in a row, counted in
  /// *stalled), kMaxIterations at the cap or the deadline (budget_hit).
  std::optional<SolverStatus> CheckStoppingCriteria(int it, const MomentumResidual& residual, double ell_prev,
                                                    int* stalled, SolverResult* r) const;
  /// The Newton direction dv_ = −H⁻¹∇ℓ_p (Alg. 2, line 3); false, with the
  /// message set, when H is not positive definite.
  bool CalcSearchDirectionData(const ContactProblem& problem, SolverResult* r);
  /// The step length along dv_ by the configured line search (Alg. 2,
  /// line 4) from ℓ(0) = ell0 and dℓ/dα(0) = d_ell0 < 0, with its
  /// iterations and time added to *r.
  double PerformLineSearch(const ContactProblem& problem, double ell0, double d_ell0, SolverResult* r);
  /// Writes v, γ, e_μ, whether the answer is usable and why not into *r.
  void PackSapSolverResults(const ContactProblem& problem, SolverStatus status, SolverResult* r) const;
  /// e_μ of Eq. (33) at the final v.
  double CalcComplementarityError(const ContactProblem& problem, double cost) const;
  /// For a lost descent direction: kConverged when e_m is below
  /// stall_momentum_error, else kStalled with the message set.
  SolverStatus StallStatus(double momentum_error, SolverResult* r) const;
  /// Evaluates every constraint at vc: returns Σ ℓ_i; fills gamma_ and evals_.
  double EvaluateConstraints(const ContactProblem& problem, const VectorX& vc);
  LineSample SampleLine(const ContactProblem& problem, double alpha);
  /// Precomputes Δv_c, Δp and the A-norm terms of ℓ(α) for dv_ from v_
  /// (needs v_minus_star_ and adv_ at v_).
  void PrepareLine(const ContactProblem& problem);
  /// The configured line search along the prepared line.
  double SearchLine(const ContactProblem& problem, double ell0, double d_ell0, int* iters);
  double ExactLineSearch(const ContactProblem& problem, double ell0, double d_ell0, int* iters);
  double BacktrackingLineSearch(const ContactProblem& problem, double ell0, double d_ell0,
                                int* iters);

  VectorX dv_;         // Newton direction.
  VectorX vc_, dvc_;   // Constraint velocities and their change along dv.
  VectorX dp_;         // A dv.
  VectorX v_minus_star_;  // v − v*.
  VectorX adv_;           // A(v − v*).
  VectorX a_v_star_;      // A v*.
  VectorX a_times_;       // p = A v (scratch).
  VectorX grad_, jc_;     // ∇ℓ_p and Jᵀγ.
  VectorX gamma_;
  std::vector<ConstraintEvaluation> evals_;
  VectorX scale_;      // D = diag(A)^-½ of Eq. (25).
  BlockNewtonMatrix H_;  // A + JᵀGJ (Sec. IV-A).
  // Line search scratch.
  struct LineTerms {
    double a_cost = 0;          // ½‖v − v*‖²_A
    double dp_dot_dv_star = 0;  // Δpᵀ(v − v*)
    double dv_dot_dp = 0;       // ΔvᵀΔp
  } line_;
  VectorX vc_alpha_;
  ConstraintEvaluation eval_scratch_;

 public:
  /// For tests: prepares the problem at v (local layout built) and returns
  /// samples of ℓ(α) along the direction dv. Both vectors cover all trees.
  LineSample SampleAlong(const ContactProblem& problem, const VectorX& v, const VectorX& dv,
                         double alpha);
  /// For tests: the step length the configured line search picks along dv
  /// from v (dv must be a descent direction).
  double LineSearchAlong(const ContactProblem& problem, const VectorX& v, const VectorX& dv);
};

}  // namespace stiction
