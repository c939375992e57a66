#include "engine/solvers/canal_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "engine/common/stopwatch.h"
#include "engine/parameters/ncp_parameters.h"
#include "engine/solvers/constraint_warm_start.h"

namespace stiction {

namespace {

// The exact line search brackets α in (0, α_max] as SAP's default does.
constexpr double kAlphaMax = 1.5;
constexpr int kMaxLineSearchIterations = 100;

}  // namespace

void CanalSolver::SetErrors(const ContactProblem& problem) {
  CalcNcpErrors(problem, layout_.row_start, layout_.rows, VelocityRecovery(params_), &types_, &e_);
  G_.resize(problem.constraints.size());
}

void CanalSolver::ComputeEffectiveMasses(const ContactProblem& problem) {
  a_llt_.resize(problem.A.size());
  for (int t : layout_.trees) a_llt_[t].compute(problem.A[t]);
  effective_mass_.resize(static_cast<Eigen::Index>(problem.constraints.size()));
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    double trace = 0;  // tr(J A⁻¹ Jᵀ) = Σ_b tr(J_b A_b⁻¹ J_bᵀ).
    for (const ConstraintJacobianBlock& b : c.blocks) {
      trace += (b.J.transpose().array() * a_llt_[b.tree].solve(b.J.transpose()).array()).sum();
    }
    effective_mass_[static_cast<Eigen::Index>(i)] = trace > 0 && std::isfinite(trace) ? c.num_rows / trace : 1.0;
  }
}

void CanalSolver::PackState(const ContactProblem& problem, VectorX* x) const {
  x->setZero(2 * layout_.rows);
  for (size_t k = 0; k < types_.size(); ++k) {
    if (types_[k] == NcpConstraintType::kSoft) continue;
    const int row = layout_.row_start[k], m = problem.constraints[k].num_rows;
    const double root_beta = std::sqrt(Beta(static_cast<int>(k)));
    x->segment(row, m) = u_.segment(row, m) / root_beta;
    x->segment(layout_.rows + row, m) = z_.segment(row, m) * root_beta;
  }
}

void CanalSolver::UnpackState(const ContactProblem& problem, const VectorX& x) {
  for (size_t k = 0; k < types_.size(); ++k) {
    if (types_[k] == NcpConstraintType::kSoft) continue;
    const int row = layout_.row_start[k], m = problem.constraints[k].num_rows;
    const double root_beta = std::sqrt(Beta(static_cast<int>(k)));
    u_.segment(row, m) = x.segment(row, m) * root_beta;
    z_.segment(row, m) = x.segment(layout_.rows + row, m) / root_beta;
  }
}

void CanalSolver::FreezeErrors(const ContactProblem& problem) {
  // Eq. (21): ẽ_i = e_i + [0, 0, μ_i ‖z_{i,t}‖] with z from the previous AL
  // iterate: the De Saxcé correction of Eq. (20), frozen so that the inner
  // problem is convex.
  e_tilde_ = e_;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    if (types_[i] != NcpConstraintType::kContact) continue;
    const int r = layout_.row_start[i];
    e_tilde_[r + 2] += problem.constraints[i].mu * z_.segment<2>(r).norm();
  }
}

Vector3 CanalSolver::ConeArgument(int k, const Vector3& vc) const {
  // Eq. (21): λ̃* = −β J v − u − β ẽ.
  const int r = layout_.row_start[k];
  return -Beta(k) * (vc + e_tilde_.segment<3>(r)) - u_.segment<3>(r);
}

Vector3 CanalSolver::ContactImpulse(const ContactProblem& problem, int k, const Vector3& vc, Matrix3* D) const {
  // λ = Π_C(λ̃*), ∂Π/∂λ̃* into *D.
  return ProjectCone(ConeArgument(k, vc), problem.constraints[k].mu, nullptr, D);
}

double CanalSolver::HardImpulse(int k, double vc) const {
  // Eq. (14): λ = Π_{≥0}(λ*), λ* = −β (J v + e) − u (Eq. 18).
  const int r = layout_.row_start[k];
  return std::max(-Beta(k) * (vc + e_tilde_[r]) - u_[r], 0.0);
}

double CanalSolver::EvaluateConstraint(const ContactProblem& problem, int k, const VectorX& vc,
                                       VectorX* lambda, MatrixX* G) {
  const Constraint& c = problem.constraints[k];
  const int r = layout_.row_start[k], m = c.num_rows;
  switch (types_[k]) {
    case NcpConstraintType::kContact: {
      Matrix3 D;
      const Vector3 l = ContactImpulse(problem, k, vc.segment<3>(r), &D);
      lambda->segment<3>(r) = l;
      *G = Beta(k) * D;  // G = β ∂Π/∂λ̃* (Eq. 24).
      return 0.5 / Beta(k) * l.squaredNorm();  // Eq. (22).
    }
    case NcpConstraintType::kHard: {
      const double l = HardImpulse(k, vc[r]);
      (*lambda)[r] = l;
      G->setConstant(1, 1, l > 0 ? Beta(k) : 0.0);
      return 0.5 / Beta(k) * l * l;
    }
    case NcpConstraintType::kSoft:
      break;
  }
  // Soft constraints keep their SAP convex cost ℓ (γ = −∂ℓ/∂v_c, G = ∂²ℓ).
  c.Evaluate(vc.segment(r, m), &eval_);
  lambda->segment(r, m) = eval_.gamma;
  *G = eval_.G;
  return eval_.cost;
}

double CanalSolver::EvaluateAt(const ContactProblem& problem, bool products_current) {
  // J v always from v: the impulses are β_i (up to 1e4 m_i) times it, so a
  // J v carried along the steps (round-off of each J Δv accumulating) moved
  // the inner solutions and slowed a resting pile's AL loop.
  layout_.MultiplyJ(problem, v_, &vc_);
  if (!products_current) layout_.MultiplyA(problem, v_ - v_star_, &adv_);
  lambda_.resize(layout_.rows);
  double cost = 0;
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    cost += EvaluateConstraint(problem, static_cast<int>(k), vc_, &lambda_, &G_[k]);
  }
  return cost + 0.5 * (v_ - v_star_).dot(adv_);
}

LineSample CanalSolver::SampleLine(const ContactProblem& problem, double alpha) {
  // As SAP's Sec. IV-C: h(α) = ½‖v − v*‖²_A + αΔpᵀ(v − v*) + ½α²ΔvᵀΔp + Σ h_i(v_c + αΔv_c),
  // dh/dα = Δpᵀ(v(α) − v*) − Σ Δv_c,iᵀ λ_i(α), d²h/dα² = ΔvᵀΔp + Σ Δv_c,iᵀ G_i Δv_c,i.
  // Contacts and hard rows in fixed-size arithmetic (every sample of every
  // line search passes here: most of CANAL's time on a pile).
  LineSample s;
  s.cost = line_a_cost_ + alpha * line_dp_dot_dv_star_ + 0.5 * alpha * alpha * line_dv_dot_dp_;
  s.d_cost = line_dp_dot_dv_star_ + alpha * line_dv_dot_dp_;
  s.d2_cost = line_dv_dot_dp_;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const int k = static_cast<int>(i);
    const int r = layout_.row_start[i], m = problem.constraints[i].num_rows;
    switch (types_[i]) {
      case NcpConstraintType::kContact: {
        // dλ̃*/dα = −β Δv_c, so d²h_i/dα² = β Δv_cᵀ ∂Π Δv_c.
        const Vector3 dvc = dvc_.segment<3>(r);
        double d_D_d = 0;
        const Vector3 l = ProjectConeAlong(ConeArgument(k, vc_.segment<3>(r) + alpha * dvc),
                                           problem.constraints[i].mu, dvc, &d_D_d);
        s.cost += 0.5 / Beta(k) * l.squaredNorm();
        s.d_cost -= dvc.dot(l);
        s.d2_cost += Beta(k) * d_D_d;
        break;
      }
      case NcpConstraintType::kHard: {
        const double dvc = dvc_[r];
        const double l = HardImpulse(k, vc_[r] + alpha * dvc);
        s.cost += 0.5 / Beta(k) * l * l;
        s.d_cost -= dvc * l;
        if (l > 0) s.d2_cost += Beta(k) * dvc * dvc;
        break;
      }
      case NcpConstraintType::kSoft: {
        vc_alpha_ = vc_.segment(r, m) + alpha * dvc_.segment(r, m);
        problem.constraints[i].Evaluate(vc_alpha_, &eval_);
        const auto dvc = dvc_.segment(r, m);
        s.cost += eval_.cost;
        s.d_cost -= dvc.dot(eval_.gamma);
        s.d2_cost += dvc.dot(eval_.G * dvc);
        break;
      }
    }
  }
  return s;
}

SolverStatus CanalSolver::SolveInner(const ContactProblem& problem, SolverResult* result) {
  SolverResult& r = *result;
  layout_.CalcScaling(problem, &scale_);
  double h_prev = std::numeric_limits<double>::infinity();
  for (int it = 0;; ++it) {
    // A(v − v*) formed anew at each AL iteration's start, then carried
    // along the Newton steps (PerformLineSearch forms A Δv).
    const double h = EvaluateAt(problem, /*products_current=*/it > 0);
    const MomentumResidual residual = CalcInnerResidual(problem, &r);
    if (const std::optional<SolverStatus> stop = CheckInnerStoppingCriteria(it, h, h_prev, residual, &r)) {
      return *stop;
    }
    h_prev = h;
    if (!CalcSearchDirectionData(problem, &r)) return SolverStatus::kNotPositiveDefinite;
    const double d0 = grad_.dot(dv_);
    if (!(d0 < 0)) return SolverStatus::kConverged;  // No descent left at round-off level.
    const double alpha = PerformLineSearch(problem, d0, &r);
    v_ += alpha * dv_;
    adv_ += alpha * dp_;  // A(v − v*) at the new v, linear in α.
    ++r.iterations;
  }
}

MomentumResidual CanalSolver::CalcInnerResidual(const ContactProblem& problem, SolverResult* r) {
  const SolverLayout& L = layout_;
  // r(v) = A v − b − Σ J_iᵀ λ_i (Eq. 21), the gradient of h (Prop. 3);
  // A(v − v*) from EvaluateAt.
  L.MultiplyJTranspose(problem, lambda_, &jc_);
  grad_ = adv_ - jc_;
  p_ = adv_ + a_v_star_;  // A v.
  const MomentumResidual residual = SolverLayout::CalcMomentumResidual(grad_, p_, jc_, scale_);
  r->momentum_error = residual.relative();
  return residual;
}

std::optional<SolverStatus> CanalSolver::CheckInnerStoppingCriteria(int it, double h, double h_prev,
                                                                    const MomentumResidual& residual,
                                                                    SolverResult* r) const {
  if (!std::isfinite(h) || !std::isfinite(residual.gradient_norm)) {
    r->message = "CANAL: non-finite inner cost or gradient";
    return SolverStatus::kNonFinite;
  }
  // Alg. 1 line 8 (θ_th^N relative to the momentum scale, as SAP's Eq. 26).
  if (residual.gradient_norm <= 1e-14 + params_.newton_tolerance * residual.scale) return SolverStatus::kConverged;
  // Round-off stall: h stopped decreasing.
  if (it > 0 && h_prev - h < 1e-30 + 1e-15 * std::abs(h_prev)) return SolverStatus::kConverged;
  if (it >= params_.max_newton_iterations) return SolverStatus::kConverged;
  return std::nullopt;
}

bool CanalSolver::CalcSearchDirectionData(const ContactProblem& problem, SolverResult* r) {
  // Newton step d = −(∂r/∂v)⁻¹ r with ∂r/∂v = A + Σ β J_iᵀ ∂λ_i/∂λ̃*_i J_i (Eqs. 24–25).
  const auto G = [&](int k) -> const MatrixX* { return (G_[k].array() == 0).all() ? nullptr : &G_[k]; };
  if (H_.CalcNewtonDirection(problem, layout_, G, grad_, &dv_, r)) return true;
  r->message = "CANAL: the inner Hessian A + sum beta J^T dPi J is not positive definite";
  return false;
}

double CanalSolver::PerformLineSearch(const ContactProblem& problem, double d0, SolverResult* r) {
  // Exact line search (Sec. V-C), the 1-D convex h(v + αd).
  const auto t0 = std::chrono::steady_clock::now();
  layout_.MultiplyJ(problem, dv_, &dvc_);
  layout_.MultiplyA(problem, dv_, &dp_);
  line_dp_dot_dv_star_ = dp_.dot(v_ - v_star_);
  line_dv_dot_dp_ = dv_.dot(dp_);
  line_a_cost_ = 0.5 * (v_ - v_star_).dot(adv_);
  int ls_iters = 0;
  const double alpha = ExactLineSearch([&](double a) { return SampleLine(problem, a); }, d0, kAlphaMax,
                                       params_.line_search_tolerance, kMaxLineSearchIterations, &ls_iters);
  r->line_search_iterations += ls_iters;
  r->line_search_time_s += SecondsSince(t0);
  return alpha;
}

SolverStatus CanalSolver::SolveStarted(const ContactProblem& problem, SolverResult* result) {
  SolverResult& r = *result;
  StartAugmentedLagrangian(problem);
  SolverStatus status = SolverStatus::kMaxIterations;
  for (int l = 0; l < params_.max_iterations; ++l) {
    // Alg. 1 lines 5–14: v̂^{l+1} from the inner Newton solve.
    if (const SolverStatus inner = CalcAugmentedLagrangianStep(problem, &r); inner != SolverStatus::kConverged) {
      return inner;
    }
    UpdateSlackAndMultipliers(problem);  // Line 15, the projection.
    KeepBestIterate();
    Accelerate(problem);
    r.outer_iterations = l + 1;
    RecordHistory(progress_.residual, &r.residual_history);
    if (const std::optional<SolverStatus> stop = CheckStoppingCriteria(&r)) {
      status = *stop;
      break;
    }
    UpdatePenalty();  // Lines 19–20.
  }
  return PackCanalSolverResults(problem, status, &r);
}

void CanalSolver::StartAugmentedLagrangian(const ContactProblem& problem) {
  const SolverLayout& L = layout_;
  SetErrors(problem);
  // Slack z = J v and multiplier u = −λ: from the previous step where the
  // constraint key matches, else z = J v_guess and u = 0 (Alg. 1 line 2).
  L.MultiplyJ(problem, v_, &z_);
  VectorX lambda0 = VectorX::Zero(L.rows);
  const int warm = params_.warm_start ? LoadWarmStart(problem, L, &lambda0, &z_) : 0;
  u_ = -lambda0;
  rho_ = 2 * static_cast<std::size_t>(warm) > problem.constraints.size() ? params_.warm_penalty_ratio
                                                                          : params_.initial_penalty_ratio;
  ComputeEffectiveMasses(problem);
  L.MultiplyA(problem, v_star_, &a_v_star_);  // A v*, fixed for the whole solve.
  accelerator_.set_memory(params_.acceleration_memory);
  H_.Analyze(problem, L, params_.linear_solver, params_.dense_max_size);
  const double infinity = std::numeric_limits<double>::infinity();
  progress_ = {.residual = infinity, .residual_prev = infinity, .change = 0, .merit = infinity,
               .best_merit = infinity, .best_residual = infinity};
  vc_prev_ = z_;
}

SolverStatus CanalSolver::CalcAugmentedLagrangianStep(const ContactProblem& problem, SolverResult* r) {
  PackState(problem, &state_);  // x_l, where G is evaluated.
  FreezeErrors(problem);        // Alg. 1 line 5.
  // Lines 6–14; leaves vc_, λ at v̂^{l+1}.
  return SolveInner(problem, r);
}

void CanalSolver::UpdateSlackAndMultipliers(const ContactProblem& problem) {
  // Line 15: z and u (Eqs. 12–13): β z = β J v̂ + u + λ, u ← u + β (J v̂ − z) = −λ.
  double sum = 0, change = 0;
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    if (types_[k] == NcpConstraintType::kSoft) continue;
    const int row = layout_.row_start[k], m = problem.constraints[k].num_rows;
    const VectorX d = (u_.segment(row, m) + lambda_.segment(row, m)) / Beta(static_cast<int>(k));  // z − J v̂.
    z_.segment(row, m) = vc_.segment(row, m) + d;
    u_.segment(row, m) = -lambda_.segment(row, m);
    sum += d.squaredNorm();
    change += (vc_.segment(row, m) - vc_prev_.segment(row, m)).squaredNorm();
  }
  vc_prev_ = vc_;
  progress_.residual = std::sqrt(sum);
  progress_.change = std::sqrt(change);
}

void CanalSolver::KeepBestIterate() {
  // The best iterate so far by the stopping test's own figures (both in
  // m/s, so comparable across penalties): what a solve that ends short of
  // its tolerance returns, since neither the AL iterates nor the
  // accelerated ones improve monotonically.
  progress_.merit = std::max(progress_.residual, progress_.change);
  if (progress_.merit < progress_.best_merit) {
    progress_.best_merit = progress_.merit;
    progress_.best_residual = progress_.residual;
    best_lambda_ = lambda_;
    best_z_ = z_;
    best_v_ = v_;
  }
}

void CanalSolver::Accelerate(const ContactProblem& problem) {
  // (u, z) = G(x_l); the next iterate mixes it with the previous ones
  // (the stopping test uses this plain update's residuals).
  if (params_.acceleration_memory <= 0) return;
  PackState(problem, &state_next_);
  UnpackState(problem, accelerator_.Next(state_, state_next_));
}

std::optional<SolverStatus> CanalSolver::CheckStoppingCriteria(SolverResult* r) const {
  // Line 16, and ADMM's dual residual: ‖J v − z‖ = ‖λ^{l+1} − λ^l‖/β alone
  // stops early when β is much larger than the masses (λ still moves the
  // velocities by β/m times that), so the constraint velocities J v must
  // also have stopped changing, to the same tolerance.
  if (progress_.residual < params_.tolerance && progress_.change < params_.tolerance) {
    return SolverStatus::kConverged;
  }
  // Out of time: the deadline is checked between AL iterations only, so
  // that the answer is a finished inner solve, the soft-contact answer of
  // Sec. V (a Newton solve cut short, with λ from a far-off v, threw the
  // dish pile's plates apart). One inner solve may overrun the budget.
  if (StopAtDeadline(r)) return SolverStatus::kMaxIterations;
  return std::nullopt;
}

void CanalSolver::UpdatePenalty() {
  // Eq. (27): raise ρ when ‖J v − z‖ stalls.
  if (progress_.residual > params_.residual_ratio * progress_.residual_prev && rho_ < params_.max_penalty_ratio) {
    rho_ = std::min(params_.penalty_growth * rho_, params_.max_penalty_ratio);
    accelerator_.Restart();  // G changes with ρ; the history no longer applies.
  }
  progress_.residual_prev = progress_.residual;
}

SolverStatus CanalSolver::PackCanalSolverResults(const ContactProblem& problem, SolverStatus status,
                                                 SolverResult* r) {
  if (status != SolverStatus::kConverged && progress_.best_merit < progress_.merit) {
    progress_.residual = progress_.best_residual;
    lambda_ = best_lambda_;
    z_ = best_z_;
    v_ = best_v_;
  }
  r->constraint_residual = progress_.residual;
  r->penalty = rho_;
  r->slack = z_;
  PackIterate(problem, lambda_, r);
  return FinishUsable(status == SolverStatus::kConverged, r, [&] {
    return ShortOfTolerance{.target = StreamText("||J v - z|| < ", params_.tolerance, " m/s"),
                            .count = r->outer_iterations,
                            .steps = "AL iterations",
                            .residual = StreamText("residual ", progress_.residual, " m/s")};
  });
}

double CanalSolver::EvaluateInner(const ContactProblem& problem, const VectorX& v, double rho,
                                  const VectorX& u, const VectorX& e_tilde, VectorX* gradient,
                                  MatrixX* hessian) {
  layout_.Build(problem);
  const SolverLayout& L = layout_;
  SetErrors(problem);
  L.Gather(problem, problem.v_star, &v_star_);
  L.Gather(problem, v, &v_);
  rho_ = rho;
  ComputeEffectiveMasses(problem);
  u_ = u;
  e_tilde_ = e_tilde;
  const double h = EvaluateAt(problem, /*products_current=*/false);
  L.MultiplyJTranspose(problem, lambda_, &jc_);
  *gradient = adv_ - jc_;
  hessian->setZero(L.n, L.n);
  for (int t : L.trees) {
    hessian->block(L.local_start[t], L.local_start[t], problem.tree_nv[t], problem.tree_nv[t]) =
        problem.A[t];
  }
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const Constraint& c = problem.constraints[k];
    MatrixX J = MatrixX::Zero(c.num_rows, L.n);
    for (const ConstraintJacobianBlock& b : c.blocks) {
      J.middleCols(L.local_start[b.tree], problem.tree_nv[b.tree]) += b.J;
    }
    *hessian += J.transpose() * G_[k] * J;
  }
  return h;
}

}  // namespace stiction
