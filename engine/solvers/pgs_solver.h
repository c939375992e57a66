#pragma once
// Projected Gauss–Seidel, the per-contact baseline of [CANAL] Sec. VII
// (docs/solvers.md, "PGS"). It works in the dual: with W = J A⁻¹ Jᵀ (the
// Delassus operator) it sweeps over the constraints, and for each one solves
// its local problem with the others' impulses frozen, keeping
// v = v* + A⁻¹ Jᵀ γ up to date after every local update (no W is formed
// beyond its diagonal blocks W_ii).
//   * exact formulation: each contact's one-contact Signorini–Coulomb
//     problem solved exactly (engine/solvers/one_contact_solver.h: take-off,
//     stick or slide, i.e. nonsmooth Gauss–Seidel), joint limits by
//     γ = max(0, γ − (J v + e)/W); soft rows (actuators, welds) as below;
//   * regularized formulation, and soft rows always: the constraint's own
//     convex cost ℓ_i (its contact model, [SAP] Sec. III–V), i.e. block
//     Gauss–Seidel on the dual of SAP's problem ([SAP] Eq. 22), each local
//     problem min ½ (v_c − c)ᵀ W_ii⁻¹ (v_c − c) + ℓ_i(v_c) solved by Newton
//     with backtracking (c: the constraint velocity without its own impulse).
// The SOR factor scales each local step; a sweep that changes no constraint
// velocity by more than the tolerance ends the solve.
#include <vector>

#include <Eigen/Cholesky>

#include "engine/contact/constraint_evaluation.h"
#include "engine/parameters/pgs_parameters.h"
#include "engine/solvers/ncp_constraints.h"
#include "engine/solvers/solver_base.h"

namespace stiction {

class PgsSolver final : public SolverBase<PgsSolverParameters, SolverType::kPgs, &SolverSettings::pgs> {
 public:
  using SolverBase::SolverBase;

 private:
  /// Per sweep the relaxed local updates and the stopping test; then the
  /// results.
  SolverStatus SolveStarted(const ContactProblem& problem, SolverResult* result) override;
  /// A⁻¹ J_iᵀ per block and W_ii per constraint.
  void Prepare(const ContactProblem& problem);
  /// γ (warm-started when asked) and v = v* + A⁻¹ Jᵀ γ.
  void StartImpulses(const ContactProblem& problem);
  /// One Gauss–Seidel sweep over the constraints; returns the largest
  /// change of a constraint velocity, ‖W_kk Δγ_k‖ [m/s].
  double Sweep(const ContactProblem& problem);
  /// Constraint k's next impulse from `old`: its local solution by the
  /// rules above, the SOR step towards it, the projection onto its set.
  VectorX CalcRelaxedImpulse(const ContactProblem& problem, int k, const VectorX& old);
  /// A non-finite or small enough change, or the deadline.
  bool CheckStoppingCriteria(double change, SolverResult* r) const;
  /// v, γ, e_m, the last change and the usable-result rule into *r.
  SolverStatus PackPgsSolverResults(const ContactProblem& problem, int sweeps, double change, SolverResult* r) const;
  /// J_k v over the constraint's blocks.
  VectorX ConstraintVelocity(const ContactProblem& problem, int k) const;
  /// v += A⁻¹ J_kᵀ Δγ.
  void ApplyImpulse(const ContactProblem& problem, int k, const VectorX& delta);
  /// The new impulse of constraint k by the rules above, from its current
  /// velocity u = J_k v and impulse γ_k.
  VectorX LocalExactContact(int k, const Constraint& c, const VectorX& u, const VectorX& gamma) const;
  VectorX LocalConvex(int k, const Constraint& c, const VectorX& u, const VectorX& gamma);

  std::vector<NcpConstraintType> types_;
  std::vector<Eigen::LLT<MatrixX>> llt_;           // Per tree: A_t.
  std::vector<std::vector<MatrixX>> a_inv_jt_;     // Per constraint, per block: A_t⁻¹ J_kbᵀ.
  std::vector<MatrixX> w_;                         // Per constraint: W_kk.
  std::vector<MatrixX> w_reg_, w_reg_inv_;         // Per convex constraint: W_kk regularized, its inverse.
  VectorX e_;                                      // Error terms (exact rows).
  VectorX gamma_;
  ConstraintEvaluation eval_;
};

}  // namespace stiction
