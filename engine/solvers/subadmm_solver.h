#pragma once
// SubADMM ([CANAL] Sec. VI, Alg. 2): ADMM on the exact NCP with one
// subsystem per kinematic tree. Each constraint's Jacobian is split per tree
// (Eq. 30; a constraint within one tree keeps one block — we do not split it
// body by body, see docs/solvers.md), with a slack z_ij per (constraint,
// tree) pair. Per iteration: independent v-updates per tree with matrices
// A_j + β Σ_i J_ijᵀ J_ij factored once per β (Eq. 34, in parallel),
// closed-form λ/z updates per constraint (Eqs. 35–38, the strict operator
// for contacts), u = −λ (Eq. 39), residuals θ_p, θ_d (Eq. 42) and the
// adaptive penalty (Eq. 43).
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "engine/parameters/subadmm_parameters.h"
#include "engine/solvers/ncp_constraints.h"
#include "engine/solvers/solver_base.h"

namespace stiction {

/// Warm starts λ from the constraints' previous values when
/// params.warm_start is set.
class SubAdmmSolver final
    : public SolverBase<SubAdmmSolverParameters, SolverType::kSubAdmm, &SolverSettings::subadmm> {
 public:
  using SolverBase::SolverBase;

 private:
  /// Alg. 2 as a list of steps: per iteration the v-update of every tree
  /// (in parallel when asked), then FinishIteration; then the results.
  SolverStatus SolveStarted(const ContactProblem& problem, SolverResult* result) override;
  struct Incidence {
    int constraint;  // Index in the problem.
    int block;       // Index in the constraint's blocks.
  };
  /// Eqs. (30–31): per tree, the (constraint, block) pairs on it; the
  /// error terms; z_ij = J_ij v_j of the guess.
  void SplitConstraints(const ContactProblem& problem);
  /// λ (warm-started when asked), the initial β, the iteration count.
  void StartMultipliers(const ContactProblem& problem);
  /// The serial loop's iterations on `threads` workers sharing the trees.
  void IterateInParallel(const ContactProblem& problem, int threads, SolverResult* r);
  /// Factors A_j + β Σ_i J_ijᵀ J_ij (Eq. 34's matrix) and solves for v_j.
  void UpdateTree(const ContactProblem& problem, int tree, bool refactor);
  /// The rest of an iteration after the v-updates: the projection, the
  /// residuals, the stopping test and the penalty rule. Returns true when
  /// the iteration should stop.
  bool FinishIteration(const ContactProblem& problem, SolverResult* r);
  /// λ and z updates (Eqs. 35–39); returns θ_p of Eq. (42).
  double UpdateMultipliers(const ContactProblem& problem);
  /// λ_i of Eqs. (36–38) from Σ_j y_ij over the constraint's nz trees.
  VectorX ProjectMultiplier(const Constraint& c, int k, const VectorX& sum_y, double nz) const;
  /// θ_d of Eq. (42).
  double CalcDualResidual(const ContactProblem& problem) const;
  /// Non-finite residuals, the tolerance, the cap or the deadline.
  bool CheckStoppingCriteria(SolverResult* r) const;
  /// Eq. (43).
  void UpdatePenalty();
  /// v, λ, e_m, β, the residual and the usable-result rule into *r.
  SolverStatus PackSubAdmmSolverResults(const ContactProblem& problem, SolverResult* r) const;
  double InitialPenalty(const ContactProblem& problem) const;

  std::vector<NcpConstraintType> types_;
  std::vector<std::vector<Incidence>> incidences_;  // Per tree.
  std::vector<Eigen::LLT<MatrixX>> llt_;            // Per tree.
  std::vector<std::vector<VectorX>> z_;             // Per constraint, per block.
  VectorX e_;        // Error terms per row (normal rows of contacts, hard rows).
  VectorX lambda_;   // λ per row; u_ij = −λ_i.
  double beta_ = 0;
  bool refactor_ = true;
  int iteration_ = 0;
  double theta_p_ = 0, theta_d_ = 0;
};

}  // namespace stiction
