#pragma once
// CANAL ([CANAL] Sec. IV–V, Alg. 1): the exact Signorini–Coulomb NCP of
// Eq. (5) by an augmented Lagrangian. Per constraint row a slack z (= J v at
// convergence) and a multiplier u (= −λ); each outer iteration minimizes the
// strongly convex h(v) of Eq. (22) — the cascaded inner problem with the De
// Saxcé correction μ‖z_t‖ frozen from the previous iterate (Eq. 21) — by
// Newton's method with the Hessian of Eq. (24) and an exact line search,
// then updates z and u (Eqs. 12–13) and raises β by Eq. (27) when
// ‖J v − z‖ stalls. Soft constraints (PD actuators, welds) keep their SAP
// convex cost inside h (see ncp_constraints.h). Two departures from the
// paper, both for piles (docs/solvers.md, "CANAL in piles"): the penalty is
// per constraint, β_i = ρ m_i with m_i the constraint's effective mass
// (one absolute β is 1e4-1e5 times a light body's mass and stalls the
// inner Newton), and the AL update (u, z) ← G(u, z) is Anderson-accelerated
// (the frozen De Saxcé term otherwise converges linearly).
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "engine/parameters/canal_parameters.h"
#include "engine/solvers/anderson_acceleration.h"
#include "engine/solvers/block_newton_matrix.h"
#include "engine/solvers/exact_line_search.h"
#include "engine/solvers/ncp_constraints.h"
#include "engine/solvers/solver_base.h"

namespace stiction {

/// Warm starts u and z from the constraints' previous values (Sec. V-D)
/// when params.warm_start is set.
class CanalSolver final : public SolverBase<CanalSolverParameters, SolverType::kCanal, &SolverSettings::canal> {
 public:
  using SolverBase::SolverBase;

  /// For tests: h(v), its gradient and Hessian (Eqs. 22, 21, 24) for the
  /// given penalty ratio ρ (β_i = ρ m_i), multipliers u and frozen errors ẽ (rows stacked in problem
  /// order; ẽ holds e for hard rows and e + [0, 0, μ‖z_t‖] for contacts);
  /// v covers all trees, gradient and Hessian the participating trees only
  /// (in tree order).
  double EvaluateInner(const ContactProblem& problem, const VectorX& v, double rho,
                       const VectorX& u, const VectorX& e_tilde, VectorX* gradient,
                       MatrixX* hessian);

 private:
  /// Alg. 1 as a list of steps: per AL iteration the inner Newton solve,
  /// the projection that updates z and u, the best iterate kept, the
  /// Anderson step, the stopping test and the penalty rule; then the
  /// results.
  SolverStatus SolveStarted(const ContactProblem& problem, SolverResult* result) override;
  /// Alg. 1 lines 1–2: errors, warm start of z and u, ρ, the effective
  /// masses, the pattern of the inner Hessian, the progress figures.
  void StartAugmentedLagrangian(const ContactProblem& problem);
  /// Lines 5–14: x_l packed, ẽ frozen, h minimized (SolveInner).
  SolverStatus CalcAugmentedLagrangianStep(const ContactProblem& problem, SolverResult* r);
  /// Line 15 (Eqs. 12–13), with ‖J v̂ − z‖ and the change of J v̂ into
  /// progress_.
  void UpdateSlackAndMultipliers(const ContactProblem& problem);
  void KeepBestIterate();
  /// (u, z) ← the Anderson mix of G(x_l) with the previous iterates.
  void Accelerate(const ContactProblem& problem);
  /// Line 16 and the deadline: the final status when the loop should stop.
  std::optional<SolverStatus> CheckStoppingCriteria(SolverResult* r) const;
  /// Lines 19–20, Eq. (27).
  void UpdatePenalty();
  /// The best iterate when the last falls short; z, λ, v, ρ, the residual
  /// and the usable-result rule into *r.
  SolverStatus PackCanalSolverResults(const ContactProblem& problem, SolverStatus status, SolverResult* r);
  void SetErrors(const ContactProblem& problem);
  /// m_i = rows / tr(J_i A⁻¹ J_iᵀ) per constraint (1 where J_i is zero).
  void ComputeEffectiveMasses(const ContactProblem& problem);
  /// β_i = ρ m_i of constraint k.
  double Beta(int k) const { return rho_ * effective_mass_[static_cast<std::size_t>(k)]; }
  /// The AL state (u, z) of the hard and contact rows as one vector in
  /// common units (u/√β_i, √β_i z: √kg m/s), and back.
  void PackState(const ContactProblem& problem, VectorX* x) const;
  void UnpackState(const ContactProblem& problem, const VectorX& x);
  /// Frozen errors ẽ of Eq. (21) from the current slack z.
  void FreezeErrors(const ContactProblem& problem);
  /// λ̃* of contact k at its constraint velocity vc (Eq. 21).
  Vector3 ConeArgument(int k, const Vector3& vc) const;
  /// λ of contact k at its constraint velocity vc (Eq. 21), ∂Π/∂λ̃* into *D.
  Vector3 ContactImpulse(const ContactProblem& problem, int k, const Vector3& vc, Matrix3* D) const;
  /// λ of hard row k at its constraint velocity vc (Eq. 14).
  double HardImpulse(int k, double vc) const;
  /// Evaluates constraint k at constraint velocity vc: its impulse λ (or
  /// SAP γ) into *lambda, the weight G of Eq. (24) into *G; returns its cost.
  double EvaluateConstraint(const ContactProblem& problem, int k, const VectorX& vc,
                            VectorX* lambda, MatrixX* G);
  /// h at v_ (½‖v − v*‖²_A + Σ costs); fills vc_ = J v, lambda_ and G_,
  /// and adv_ = A(v − v*) unless products_current says it holds already.
  double EvaluateAt(const ContactProblem& problem, bool products_current);
  LineSample SampleLine(const ContactProblem& problem, double alpha);
  /// Minimizes h from v_ (Alg. 1 lines 6–14), in SAP's shape: the
  /// stopping test, the Newton direction, the exact line search. kConverged
  /// also when it stops at its iteration cap or at round-off, a failure
  /// status otherwise.
  SolverStatus SolveInner(const ContactProblem& problem, SolverResult* r);
  /// ∇h = A(v − v*) − Jᵀλ at v_ after EvaluateAt (fills jc_, p_ and
  /// grad_), with r->momentum_error.
  MomentumResidual CalcInnerResidual(const ContactProblem& problem, SolverResult* r);
  /// Alg. 1 line 8, a round-off stall of h below `h_prev`, the Newton cap.
  std::optional<SolverStatus> CheckInnerStoppingCriteria(int it, double h, double h_prev,
                                                         const MomentumResidual& residual, SolverResult* r) const;
  /// dv_ = −(∂r/∂v)⁻¹ r (Eqs. 24–25); false, with the message set, when
  /// the inner Hessian is not positive definite.
  bool CalcSearchDirectionData(const ContactProblem& problem, SolverResult* r);
  /// The exact line search along dv_ (Sec. V-C) from dh/dα(0) = d0.
  double PerformLineSearch(const ContactProblem& problem, double d0, SolverResult* r);

  /// The outer loop's figures [m/s]: ‖J v̂ − z‖ of the last update and of
  /// the one before, the change of J v̂, their max (the merit), and the best
  /// merit with its residual.
  struct Progress {
    double residual = 0, residual_prev = 0, change = 0;
    double merit = 0, best_merit = 0, best_residual = 0;
  };

  BlockNewtonMatrix H_;
  std::vector<NcpConstraintType> types_;
  double rho_ = 0;               // Penalty ratio ρ (Eq. 27 acts on it).
  VectorX effective_mass_;       // m_i per constraint.
  std::vector<Eigen::LLT<MatrixX>> a_llt_;
  AndersonAccelerator accelerator_;
  VectorX state_, state_next_;
  Progress progress_;
  VectorX best_lambda_, best_z_, best_v_;  // The best iterate (KeepBestIterate).
  VectorX vc_prev_;                        // J v̂ of the previous AL iteration.
  VectorX dv_, grad_;
  VectorX scale_, adv_, jc_, p_;  // D, A(v − v*), Jᵀλ and A v of the inner iterate.
  VectorX a_v_star_;              // A v*.
  VectorX vc_, dvc_, dp_;
  VectorX e_, e_tilde_;  // Errors e and ẽ per row (0 on tangential and soft rows).
  VectorX u_, z_;        // AL multiplier and slack per row.
  VectorX lambda_;       // λ (hard rows) or SAP γ (soft rows) at v_.
  std::vector<MatrixX> G_;
  double line_a_cost_ = 0, line_dp_dot_dv_star_ = 0, line_dv_dot_dp_ = 0;
  VectorX vc_alpha_;  // A soft constraint's velocity along the line.
  ConstraintEvaluation eval_;
};

}  // namespace stiction
