#pragma once
// The Semi-Analytic Primal solver ([SAP] Sec. IV, Alg. 2): Newton's
// method on the unconstrained convex cost ℓ_p(v) of Eq. (24) with
// H = A + Jᵀ G J, an exact line search (rtsafe on dℓ/dα, Sec. IV-B/C) or
// backtracking with Armijo's rule, and the stopping criterion of Eq. (26).
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
  SolverStatus SolveStarted(const ContactProblem& problem, SolverResult* result) override;
  /// For a lost descent direction: kConverged when e_m is below
  /// stall_momentum_error, else kStalled with the message set.
  SolverStatus StallStatus(double momentum_error, SolverResult* r) const;
  /// Evaluates every constraint at vc: returns Σ ℓ_i; fills gamma_ and evals_.
  double EvaluateConstraints(const ContactProblem& problem, const VectorX& vc);
  LineSample SampleLine(const ContactProblem& problem, double alpha);
  /// Precomputes Δv_c, Δp and the A-norm terms of ℓ(α) for dv_ from v_
  /// (needs v_minus_star_ and adv_ at v_).
  void PrepareLine(const ContactProblem& problem);
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
