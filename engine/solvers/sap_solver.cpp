#include "engine/solvers/sap_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "engine/common/stopwatch.h"

namespace stiction {

namespace {
// Iterations in a row without a measurable decrease of ℓ_p that make a
// round-off stall (CheckStoppingCriteria).
constexpr int kStallIterations = 3;
}  // namespace

double SapSolver::EvaluateConstraints(const ContactProblem& problem, const VectorX& vc) {
  evals_.resize(problem.constraints.size());
  gamma_.resize(layout_.rows);
  double cost = 0;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    c.Evaluate(vc.segment(layout_.row_start[i], c.num_rows), &evals_[i]);
    gamma_.segment(layout_.row_start[i], c.num_rows) = evals_[i].gamma;
    cost += evals_[i].cost;
  }
  return cost;
}

SapSolver::LineSample SapSolver::SampleLine(const ContactProblem& problem, double alpha) {
  // Sec. IV-C: with Δp = AΔv and Δv_c = JΔv precomputed (and the A-norm
  // terms ½‖v − v*‖²_A, Δpᵀ(v − v*), ΔvᵀΔp of PrepareLine), each sample
  // costs O(n_c):
  //   ℓ(α)    = ½‖v − v*‖²_A + α Δpᵀ(v − v*) + ½α² ΔvᵀΔp + Σ ℓ_i(v_c + αΔv_c)
  //   dℓ/dα   = Δpᵀ(v(α) − v*) − Δv_cᵀ γ(α)
  //   d²ℓ/dα² = Δvᵀ Δp + Σ Δv_c,iᵀ G_i(α) Δv_c,i.
  LineSample s;
  s.cost = line_.a_cost + alpha * line_.dp_dot_dv_star + 0.5 * alpha * alpha * line_.dv_dot_dp;
  s.d_cost = line_.dp_dot_dv_star + alpha * line_.dv_dot_dp;
  s.d2_cost = line_.dv_dot_dp;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    const int r = layout_.row_start[i];
    const auto dvc_i = dvc_.segment(r, c.num_rows);
    if (c.kind == ConstraintKind::kFrictionCone) {
      // The common case, with fixed-size arithmetic and no γ or G formed.
      const Vector3 dvc3 = dvc_.segment<3>(r);
      const FrictionConeLineTerms t =
          EvaluateFrictionConeAlong(c.cone, vc_.segment<3>(r) + alpha * dvc3, dvc3);
      s.cost += t.cost;
      s.d_cost -= t.gamma_dot_dvc;
      s.d2_cost += t.dvc_G_dvc;
      continue;
    }
    auto vc_i = vc_alpha_.segment(r, c.num_rows);
    vc_i = vc_.segment(r, c.num_rows) + alpha * dvc_i;
    c.Evaluate(vc_i, &eval_scratch_);
    s.cost += eval_scratch_.cost;
    s.d_cost -= dvc_i.dot(eval_scratch_.gamma);
    // Δv_cᵀ G Δv_c without a temporary vector (this loop runs per sample).
    const MatrixX& G = eval_scratch_.G;
    for (int a = 0; a < c.num_rows; ++a) {
      double row = 0;
      for (int b = 0; b < c.num_rows; ++b) row += G(a, b) * dvc_i[b];
      s.d2_cost += dvc_i[a] * row;
    }
  }
  return s;
}

void SapSolver::PrepareLine(const ContactProblem& problem) {
  // Needs v_minus_star_ = v − v* and adv_ = A(v − v*) at the current v.
  layout_.MultiplyJ(problem, dv_, &dvc_);
  layout_.MultiplyA(problem, dv_, &dp_);
  vc_alpha_.resize(layout_.rows);
  line_.dp_dot_dv_star = dp_.dot(v_minus_star_);
  line_.dv_dot_dp = dv_.dot(dp_);
  line_.a_cost = 0.5 * v_minus_star_.dot(adv_);
}

double SapSolver::SearchLine(const ContactProblem& problem, double ell0, double d_ell0, int* iters) {
  return params_.line_search == LineSearchKind::kExact ? ExactLineSearch(problem, ell0, d_ell0, iters)
                                                       : BacktrackingLineSearch(problem, ell0, d_ell0, iters);
}

double SapSolver::ExactLineSearch(const ContactProblem& problem, double /*ell0*/,
                                  double d_ell0, int* iters) {
  return stiction::ExactLineSearch([&](double alpha) { return SampleLine(problem, alpha); }, d_ell0,
                                   params_.exact_alpha_max, params_.exact_line_search_tolerance,
                                   params_.max_line_search_iterations,
                                   iters);
}

double SapSolver::BacktrackingLineSearch(const ContactProblem& problem, double ell0,
                                         double d_ell0, int* iters) {
  double alpha = params_.backtracking_alpha_max;
  for (int k = 0; k < params_.max_line_search_iterations; ++k) {
    const LineSample s = SampleLine(problem, alpha);
    ++*iters;
    if (s.cost < ell0 + params_.armijo_c * alpha * d_ell0) return alpha;
    alpha *= params_.backtracking_rho;
  }
  return alpha;
}

SolverStatus SapSolver::StallStatus(double momentum_error, SolverResult* r) const {
  if (momentum_error <= params_.stall_momentum_error) return SolverStatus::kConverged;
  r->message = StreamText(
      "SAP stalled at round-off: no descent direction is left at momentum error e_m = ", momentum_error, " (> ",
      params_.stall_momentum_error,
      "); the Newton matrix is too ill-conditioned (contact stiffness too high for this time step?)");
  return SolverStatus::kStalled;
}

SolverStatus SapSolver::SolveStarted(const ContactProblem& problem, SolverResult* result) {
  SolverResult& r = *result;
  Prepare(problem);
  double ell_prev = std::numeric_limits<double>::infinity();
  int stalled = 0;
  SolverStatus status = SolverStatus::kMaxIterations;
  for (int it = 0;; ++it) {
    const MomentumResidual residual = CalcStoppingCriteriaResidual(problem, &r);
    if (const std::optional<SolverStatus> stop = CheckStoppingCriteria(it, residual, ell_prev, &stalled, &r)) {
      status = *stop;
      break;
    }
    ell_prev = r.cost;
    if (!CalcSearchDirectionData(problem, &r)) return SolverStatus::kNotPositiveDefinite;
    const double d_ell0 = grad_.dot(dv_);
    if (!(d_ell0 < 0)) {
      // No descent left at round-off level.
      status = StallStatus(r.momentum_error, &r);
      break;
    }
    const double alpha = PerformLineSearch(problem, r.cost, d_ell0, &r);
    v_ += alpha * dv_;
    r.iterations = it + 1;
  }
  if (status == SolverStatus::kNonFinite) return status;  // Nothing to pack: *result keeps v = v*, γ = 0.
  PackSapSolverResults(problem, status, &r);
  return status;
}

void SapSolver::Prepare(const ContactProblem& problem) {
  layout_.CalcScaling(problem, &scale_);
  H_.Analyze(problem, layout_, params_.linear_solver, params_.dense_max_size);
  layout_.MultiplyA(problem, v_star_, &a_v_star_);
}

MomentumResidual SapSolver::CalcStoppingCriteriaResidual(const ContactProblem& problem, SolverResult* r) {
  const SolverLayout& L = layout_;
  // v_c = J v and A(v − v*) from v itself at every iteration (not updated
  // along the step), so that the convergence test sees the residual of v
  // free of accumulated round-off.
  L.MultiplyJ(problem, v_, &vc_);
  v_minus_star_ = v_ - v_star_;
  L.MultiplyA(problem, v_minus_star_, &adv_);
  const double ell_R = EvaluateConstraints(problem, vc_);
  const double ell = 0.5 * v_minus_star_.dot(adv_) + ell_R;
  L.MultiplyJTranspose(problem, gamma_, &jc_);
  grad_ = adv_ - jc_;  // ∇ℓ_p = A(v − v*) − Jᵀγ (Sec. IV-A).
  // Eq. (26) with the scaling D = diag(A)^-½ of Eq. (25); p = A v.
  a_times_ = adv_ + a_v_star_;  // p = A v.
  const MomentumResidual residual = SolverLayout::CalcMomentumResidual(grad_, a_times_, jc_, scale_);
  r->cost = ell;
  r->momentum_error = residual.relative();  // Eq. (32).
  RecordHistory(r->momentum_error, &r->momentum_error_history);
  return residual;
}

std::optional<SolverStatus> SapSolver::CheckStoppingCriteria(int it, const MomentumResidual& residual,
                                                             double ell_prev, int* stalled, SolverResult* r) const {
  const double ell = r->cost;
  if (!std::isfinite(ell) || !std::isfinite(residual.gradient_norm)) {
    r->message = "SAP: non-finite cost or gradient";
    return SolverStatus::kNonFinite;
  }
  if (residual.gradient_norm < params_.absolute_tolerance + params_.relative_tolerance * residual.scale) {
    return SolverStatus::kConverged;
  }
  // Round-off stall: the cost stopped decreasing, for kStallIterations
  // iterations in a row. Accepted as converged when e_m is already small;
  // otherwise Newton goes on, since the exact line search works on dℓ/dα
  // (exact) rather than on differences of ℓ, and can still make progress
  // that ℓ's round-off hides. The iteration cap, or a direction that is no
  // longer a descent one, ends it then. One iteration is not enough: where
  // H ≫ A along near-rigid contacts, a Newton step that halves a large
  // scaled gradient lowers ℓ by a few ulps, and one whose line meets a
  // contact changing region stops short (the clutter: a sphere nearly at
  // rest, ℓ = 2.6 mJ, a predicted decrease of 1.7e-17 J, α = 0.17, accepted
  // at e_m = 2.8e-6 > ε_r; Newton continued there reaches 3.5e-8).
  const bool flat =
      it > 0 && ell_prev - ell < params_.cost_abs_tolerance + params_.cost_rel_tolerance * std::abs(ell_prev);
  *stalled = flat ? *stalled + 1 : 0;
  if (*stalled >= kStallIterations && r->momentum_error <= params_.stall_momentum_error) {
    return SolverStatus::kConverged;
  }
  if (it >= params_.max_iterations) return SolverStatus::kMaxIterations;
  if (it > 0 && StopAtDeadline(r)) return SolverStatus::kMaxIterations;
  return std::nullopt;
}

bool SapSolver::CalcSearchDirectionData(const ContactProblem& problem, SolverResult* r) {
  // H = A + Jᵀ G J (Sec. IV-A), block-sparse by trees (Sec. IV-D).
  if (H_.CalcNewtonDirection(problem, layout_, [&](int k) { return &evals_[k].G; }, grad_, &dv_, r)) return true;
  r->message = "SAP: the Newton matrix H = A + J^T G J is not positive definite (a constraint with R <= 0 or a "
               "singular A?)";
  return false;
}

double SapSolver::PerformLineSearch(const ContactProblem& problem, double ell0, double d_ell0, SolverResult* r) {
  PrepareLine(problem);
  const auto t0 = std::chrono::steady_clock::now();
  int ls_iters = 0;
  const double alpha = SearchLine(problem, ell0, d_ell0, &ls_iters);
  r->line_search_iterations += ls_iters;
  r->line_search_time_s += SecondsSince(t0);
  return alpha;
}

void SapSolver::PackSapSolverResults(const ContactProblem& problem, SolverStatus status, SolverResult* r) const {
  // γ at the final v (analytical inverse dynamics, Alg. 2 line 6). Every
  // exit of the loop comes after CalcStoppingCriteriaResidual at the final
  // v_, so gamma_ already holds it.
  PackIterate(problem, gamma_, r);
  r->complementarity_error = CalcComplementarityError(problem, r->cost);
  r->usable = status == SolverStatus::kConverged;
  if (r->budget_hit) {
    // Out of time: the last Newton iterate v and its impulses γ(J v). Each
    // line search decreased ℓ_p, so ½‖v − v*‖²_A ≤ ℓ_p(v_guess): a bounded
    // answer whose momentum error e_m is reported. (Projecting instead,
    // v = v* + A⁻¹Jᵀγ, balances momentum but, with near-rigid R⁻¹ times an
    // unconverged J v in γ, threw the dish pile apart.)
    r->usable = true;
    r->message = StreamText("SAP stopped at its time budget after ", r->iterations, " iterations (momentum error e_m = ",
                            r->momentum_error, ")");
  } else if (status == SolverStatus::kMaxIterations) {
    r->message = StreamText("SAP did not converge in ", params_.max_iterations, " iterations (momentum error e_m = ",
                            r->momentum_error, ")");
  }
}

double SapSolver::CalcComplementarityError(const ContactProblem& problem, double cost) const {
  // e_μ of Eq. (33) over friction cones: g_i = v_c − v̂_c + Rγ should be
  // orthogonal to γ_i (complementarity slackness); SAP satisfies it exactly.
  double slack = 0;
  int cones = 0;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    if (c.kind != ConstraintKind::kFrictionCone) continue;
    const Vector3 vc = vc_.segment<3>(layout_.row_start[i]);
    const Vector3 g = gamma_.segment<3>(layout_.row_start[i]);
    const Vector3 Rg(c.cone.Rt * g.x(), c.cone.Rt * g.y(), c.cone.Rn * g.z());
    slack += std::abs((vc - Vector3(0, 0, c.cone.vn_hat) + Rg).dot(g));
    ++cones;
  }
  return cones > 0 && cost > 0 ? slack / cones / cost : 0;
}

double SapSolver::LineSearchAlong(const ContactProblem& problem, const VectorX& v,
                                  const VectorX& dv) {
  const LineSample s0 = SampleAlong(problem, v, dv, 0.0);
  int iters = 0;
  return SearchLine(problem, s0.cost, s0.d_cost, &iters);
}

SapSolver::LineSample SapSolver::SampleAlong(const ContactProblem& problem, const VectorX& v,
                                             const VectorX& dv, double alpha) {
  layout_.Build(problem);
  layout_.Gather(problem, problem.v_star, &v_star_);
  layout_.Gather(problem, v, &v_);
  layout_.Gather(problem, dv, &dv_);
  layout_.MultiplyJ(problem, v_, &vc_);
  v_minus_star_ = v_ - v_star_;
  layout_.MultiplyA(problem, v_minus_star_, &adv_);
  PrepareLine(problem);
  return SampleLine(problem, alpha);
}

}  // namespace stiction
