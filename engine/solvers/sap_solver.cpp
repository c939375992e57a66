#include "engine/solvers/sap_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace stiction {

namespace {
double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

void Constraint::Evaluate(const VectorX& vc, ConstraintEvaluation* out) const {
  switch (kind) {
    case ConstraintKind::kFrictionCone:
      EvaluateFrictionCone(cone, Vector3(vc[0], vc[1], vc[2]), out);
      break;
    case ConstraintKind::kClamped:
      EvaluateClamped(clamped, vc[0], out);
      break;
    case ConstraintKind::kBilateral:
      EvaluateBilateral(bilateral_R, bilateral_v_hat, vc, out);
      break;
    case ConstraintKind::kHuntCrossley:
      EvaluateHuntCrossley(hc, Vector3(vc[0], vc[1], vc[2]), out);
      break;
  }
}

int ContactProblem::num_rows() const {
  int rows = 0;
  for (const Constraint& c : constraints) rows += c.num_rows;
  return rows;
}

void SapSolver::BuildLayout(const ContactProblem& problem) {
  Layout& L = layout_;
  L.local_start.assign(problem.num_trees(), -1);
  L.trees.clear();
  L.row_start.resize(problem.constraints.size());
  L.rows = 0;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    L.row_start[i] = L.rows;
    L.rows += problem.constraints[i].num_rows;
    for (const ConstraintJacobianBlock& b : problem.constraints[i].blocks) {
      if (L.local_start[b.tree] < 0) {
        L.local_start[b.tree] = 0;  // Mark; offsets assigned below in tree order.
      }
    }
  }
  L.n = 0;
  for (int t = 0; t < problem.num_trees(); ++t) {
    if (L.local_start[t] < 0) continue;
    L.local_start[t] = L.n;
    L.trees.push_back(t);
    L.n += problem.tree_nv[t];
  }
  // Dense blocks of H: one per participating tree (diagonal) and one per
  // pair of trees coupled by a constraint, stored with the later tree (in
  // the local order) as the row tree so that the block is in the lower part.
  pair_blocks_.clear();
  diagonal_block_.assign(problem.num_trees(), -1);
  std::map<std::pair<int, int>, int> index;
  auto block_of = [&](int row_tree, int col_tree) {
    auto [it, inserted] = index.emplace(std::make_pair(row_tree, col_tree), static_cast<int>(pair_blocks_.size()));
    if (inserted) {
      pair_blocks_.push_back({row_tree, col_tree,
                              MatrixX::Zero(problem.tree_nv[row_tree], problem.tree_nv[col_tree])});
    }
    return it->second;
  };
  for (int t : L.trees) diagonal_block_[t] = block_of(t, t);
  constraint_pairs_.resize(problem.constraints.size());
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    std::vector<int>& pairs = constraint_pairs_[i];
    pairs.clear();
    for (const ConstraintJacobianBlock& bi : problem.constraints[i].blocks) {
      for (const ConstraintJacobianBlock& bj : problem.constraints[i].blocks) {
        // Term J_jᵀ G J_i lands in rows of tree j, columns of tree i; keep
        // only the one in the lower part (row tree later than column tree).
        const bool lower = L.local_start[bj.tree] >= L.local_start[bi.tree];
        pairs.push_back(lower ? block_of(bj.tree, bi.tree) : block_of(bi.tree, bj.tree));
      }
    }
  }
}

void SapSolver::MultiplyA(const ContactProblem& problem, const VectorX& x, VectorX* y) const {
  y->resize(layout_.n);
  for (int t : layout_.trees) {
    const int o = layout_.local_start[t], n = problem.tree_nv[t];
    y->segment(o, n).noalias() = problem.A[t] * x.segment(o, n);
  }
}

void SapSolver::CalcConstraintVelocities(const ContactProblem& problem, const VectorX& v,
                                         VectorX* vc) const {
  vc->setZero(layout_.rows);
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    for (const ConstraintJacobianBlock& b : c.blocks) {
      vc->segment(layout_.row_start[i], c.num_rows).noalias() +=
          b.J * v.segment(layout_.local_start[b.tree], problem.tree_nv[b.tree]);
    }
  }
}

void SapSolver::MultiplyJTranspose(const ContactProblem& problem, const VectorX& gamma,
                                   VectorX* y) const {
  y->setZero(layout_.n);
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    for (const ConstraintJacobianBlock& b : c.blocks) {
      y->segment(layout_.local_start[b.tree], problem.tree_nv[b.tree]).noalias() +=
          b.J.transpose() * gamma.segment(layout_.row_start[i], c.num_rows);
    }
  }
}

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

void SapSolver::AssembleHessian(const ContactProblem& problem) {
  // H = A + Jᵀ G J (Sec. IV-A), block-sparse by trees (Sec. IV-D): one dense
  // block per pair of coupled trees, summed over the pair's constraints,
  // then only the lower triangle goes to the sparse Cholesky (which reads
  // the lower part). The pattern depends only on which trees each
  // constraint couples, so it is the same at every Newton iteration.
  for (PairBlock& pb : pair_blocks_) pb.H.setZero();
  for (int t : layout_.trees) pair_blocks_[diagonal_block_[t]].H = problem.A[t];
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const Constraint& c = problem.constraints[k];
    const MatrixX& G = evals_[k].G;
    const std::vector<int>& pairs = constraint_pairs_[k];
    int p = 0;
    for (const ConstraintJacobianBlock& bi : c.blocks) {
      gj_.noalias() = G * bi.J;
      for (const ConstraintJacobianBlock& bj : c.blocks) {
        PairBlock& pb = pair_blocks_[pairs[p++]];
        // pb holds rows of tree pb.row_tree, columns of pb.col_tree.
        if (bj.tree == pb.row_tree && bi.tree == pb.col_tree) {
          pb.H.noalias() += bj.J.transpose() * gj_;
        }
      }
    }
  }
  if (use_dense_) {
    H_dense_.setZero(layout_.n, layout_.n);
    for (const PairBlock& pb : pair_blocks_) {
      const int orow = layout_.local_start[pb.row_tree], ocol = layout_.local_start[pb.col_tree];
      H_dense_.block(orow, ocol, pb.H.rows(), pb.H.cols()) = pb.H;  // Lower part suffices.
    }
    return;
  }
  triplets_.clear();
  for (const PairBlock& pb : pair_blocks_) {
    const int orow = layout_.local_start[pb.row_tree], ocol = layout_.local_start[pb.col_tree];
    for (int col = 0; col < pb.H.cols(); ++col) {
      for (int row = 0; row < pb.H.rows(); ++row) {
        if (orow + row >= ocol + col) triplets_.emplace_back(orow + row, ocol + col, pb.H(row, col));
      }
    }
  }
  H_.resize(layout_.n, layout_.n);
  H_.setFromTriplets(triplets_.begin(), triplets_.end());
}

SapSolver::LineSample SapSolver::SampleLine(const ContactProblem& problem, double alpha) {
  // Sec. IV-C: with Δp = AΔv and Δv_c = JΔv precomputed (and the A-norm
  // terms ½‖v − v*‖²_A, Δpᵀ(v − v*), ΔvᵀΔp of PrepareLine), each sample
  // costs O(n_c):
  //   ℓ(α)    = ½‖v − v*‖²_A + α Δpᵀ(v − v*) + ½α² ΔvᵀΔp + Σ ℓ_i(v_c + αΔv_c)
  //   dℓ/dα   = Δpᵀ(v(α) − v*) − Δv_cᵀ γ(α)
  //   d²ℓ/dα² = Δvᵀ Δp + Σ Δv_c,iᵀ G_i(α) Δv_c,i.
  vc_alpha_ = vc_ + alpha * dvc_;
  LineSample s;
  s.cost = line_.a_cost + alpha * line_.dp_dot_dv_star + 0.5 * alpha * alpha * line_.dv_dot_dp;
  s.d_cost = line_.dp_dot_dv_star + alpha * line_.dv_dot_dp;
  s.d2_cost = line_.dv_dot_dp;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    const int r = layout_.row_start[i];
    c.Evaluate(vc_alpha_.segment(r, c.num_rows), &eval_scratch_);
    const auto dvc_i = dvc_.segment(r, c.num_rows);
    s.cost += eval_scratch_.cost;
    s.d_cost -= dvc_i.dot(eval_scratch_.gamma);
    s.d2_cost += dvc_i.dot(eval_scratch_.G * dvc_i);
  }
  return s;
}

void SapSolver::PrepareLine(const ContactProblem& problem) {
  CalcConstraintVelocities(problem, dv_, &dvc_);
  MultiplyA(problem, dv_, &dp_);
  const VectorX d = v_ - v_star_;
  line_.dp_dot_dv_star = dp_.dot(d);
  line_.dv_dot_dp = dv_.dot(dp_);
  VectorX Ad;
  MultiplyA(problem, d, &Ad);
  line_.a_cost = 0.5 * d.dot(Ad);
}

double SapSolver::ExactLineSearch(const ContactProblem& problem, double /*ell0*/,
                                  double d_ell0, int* iters) {
  // rtsafe (Numerical Recipes §9.4): Newton–Raphson on f(α) = dℓ/dα with
  // bisection whenever Newton leaves the bracket or converges slowly. ℓ is
  // strongly convex along the line, so f is increasing with f(0) < 0.
  const double alpha_max = params_.exact_alpha_max;
  LineSample s_max = SampleLine(problem, alpha_max);
  ++*iters;
  if (s_max.d_cost <= 0) return alpha_max;
  double lo = 0, hi = alpha_max;
  double alpha = 1.0;  // The Newton step is usually close.
  LineSample s = SampleLine(problem, alpha);
  ++*iters;
  double dx_old = hi - lo, dx = dx_old;
  // dℓ/dα(α*) = 0 to 1e-12 of its initial value: well below what affects
  // the Newton iterate, and reachable above round-off.
  const double f_tol = 1e-12 * std::abs(d_ell0);
  for (int k = 0; k < params_.max_line_search_iterations; ++k) {
    if (std::abs(s.d_cost) <= f_tol) break;
    if (s.d_cost < 0) lo = alpha; else hi = alpha;
    const bool newton_out = ((alpha - hi) * s.d2_cost - s.d_cost) *
                                ((alpha - lo) * s.d2_cost - s.d_cost) > 0;
    const bool slow = std::abs(2 * s.d_cost) > std::abs(dx_old * s.d2_cost);
    dx_old = dx;
    if (newton_out || slow || s.d2_cost <= 0) {
      dx = 0.5 * (hi - lo);
      alpha = lo + dx;
    } else {
      dx = s.d_cost / s.d2_cost;
      alpha -= dx;
    }
    if (std::abs(dx) <= 1e-14 * std::max(alpha, 1e-10) || hi - lo <= 1e-14 * hi) break;
    s = SampleLine(problem, alpha);
    ++*iters;
  }
  return alpha;
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

SolverStatus SapSolver::Solve(const ContactProblem& problem, const VectorX& v_guess,
                              SolverResult* result) {
  SolverResult& r = *result;
  r = SolverResult{};
  r.v = problem.v_star;
  BuildLayout(problem);
  const Layout& L = layout_;
  r.gamma = VectorX::Zero(L.rows);
  if (L.n == 0) return SolverStatus::kConverged;

  v_star_.resize(L.n);
  v_.resize(L.n);
  scale_.resize(L.n);
  for (int t : L.trees) {
    const int o = L.local_start[t], n = problem.tree_nv[t], g = problem.tree_v_start[t];
    v_star_.segment(o, n) = problem.v_star.segment(g, n);
    v_.segment(o, n) = v_guess.segment(g, n);  // Warm start (Alg. 2, line 1).
    scale_.segment(o, n) = problem.A[t].diagonal().cwiseSqrt().cwiseInverse();
  }
  if (!v_.allFinite() || !v_star_.allFinite()) {
    r.message = "SAP: non-finite input velocities";
    return SolverStatus::kNonFinite;
  }

  VectorX grad, Adv, jc;
  bool pattern_analyzed = false;
  switch (params_.linear_solver) {
    case LinearSolverKind::kDense: use_dense_ = true; break;
    case LinearSolverKind::kSparse: use_dense_ = false; break;
    case LinearSolverKind::kAuto: use_dense_ = L.n <= params_.dense_max_size; break;
  }
  double ell_prev = std::numeric_limits<double>::infinity();
  SolverStatus status = SolverStatus::kMaxIterations;
  for (int it = 0;; ++it) {
    CalcConstraintVelocities(problem, v_, &vc_);
    const double ell_R = EvaluateConstraints(problem, vc_);
    MultiplyA(problem, v_ - v_star_, &Adv);
    const double ell = 0.5 * (v_ - v_star_).dot(Adv) + ell_R;
    MultiplyJTranspose(problem, gamma_, &jc);
    grad = Adv - jc;  // ∇ℓ_p = A(v − v*) − Jᵀγ (Sec. IV-A).
    // Eq. (26) with the scaling D = diag(A)^-½ of Eq. (25); p = A v.
    VectorX p;
    MultiplyA(problem, v_, &p);
    const double g_norm = grad.cwiseProduct(scale_).norm();
    const double ref = std::max(p.cwiseProduct(scale_).norm(), jc.cwiseProduct(scale_).norm());
    r.cost = ell;
    r.momentum_error = ref > 0 ? g_norm / ref : g_norm;  // Eq. (32).
    if (params_.record_history) r.momentum_error_history.push_back(r.momentum_error);
    if (!std::isfinite(ell) || !std::isfinite(g_norm)) {
      r.message = "SAP: non-finite cost or gradient";
      return SolverStatus::kNonFinite;
    }
    if (g_norm < params_.absolute_tolerance + params_.relative_tolerance * ref) {
      status = SolverStatus::kConverged;
      break;
    }
    // Round-off stall: the cost stopped decreasing.
    if (it > 0 && ell_prev - ell < params_.cost_abs_tolerance + params_.cost_rel_tolerance * std::abs(ell_prev)) {
      status = SolverStatus::kConverged;
      break;
    }
    if (it >= params_.max_iterations) break;
    ell_prev = ell;

    // Newton direction Δv = −H⁻¹ ∇ℓ (Alg. 2, line 3).
    auto t0 = std::chrono::steady_clock::now();
    AssembleHessian(problem);
    r.assembly_time_s += SecondsSince(t0);
    t0 = std::chrono::steady_clock::now();
    bool factored = false;
    if (use_dense_) {
      dense_llt_.compute(H_dense_);  // Reads the lower triangle.
      factored = dense_llt_.info() == Eigen::Success;
      if (factored) dv_ = -dense_llt_.solve(grad);
    } else {
      if (!pattern_analyzed) {
        llt_.analyzePattern(H_);
        pattern_analyzed = true;
      }
      llt_.factorize(H_);
      factored = llt_.info() == Eigen::Success;
      if (factored) dv_ = -llt_.solve(grad);
    }
    if (!factored) {
      r.message = "SAP: the Newton matrix H = A + JᵀGJ is not positive definite";
      return SolverStatus::kNonFinite;
    }
    r.factorization_time_s += SecondsSince(t0);
    PrepareLine(problem);
    const double d_ell0 = grad.dot(dv_);
    if (!(d_ell0 < 0)) {
      // No descent left at round-off level.
      status = SolverStatus::kConverged;
      break;
    }
    // Line search (Alg. 2, line 4).
    t0 = std::chrono::steady_clock::now();
    int ls_iters = 0;
    const double alpha = params_.line_search == LineSearchKind::kExact
                             ? ExactLineSearch(problem, ell, d_ell0, &ls_iters)
                             : BacktrackingLineSearch(problem, ell, d_ell0, &ls_iters);
    r.line_search_iterations += ls_iters;
    r.line_search_time_s += SecondsSince(t0);
    v_ += alpha * dv_;
    r.iterations = it + 1;
  }

  // Results: γ at the final v (analytical inverse dynamics, Alg. 2 line 6).
  CalcConstraintVelocities(problem, v_, &vc_);
  EvaluateConstraints(problem, vc_);
  r.gamma = gamma_;
  for (int t : L.trees) {
    r.v.segment(problem.tree_v_start[t], problem.tree_nv[t]) =
        v_.segment(L.local_start[t], problem.tree_nv[t]);
  }
  // e_μ of Eq. (33) over friction cones: g_i = v_c − v̂_c + Rγ should be
  // orthogonal to γ_i (complementarity slackness); SAP satisfies it exactly.
  double slack = 0;
  int cones = 0;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    if (c.kind != ConstraintKind::kFrictionCone) continue;
    const Vector3 vc = vc_.segment<3>(L.row_start[i]);
    const Vector3 g = gamma_.segment<3>(L.row_start[i]);
    const Vector3 Rg(c.cone.Rt * g.x(), c.cone.Rt * g.y(), c.cone.Rn * g.z());
    slack += std::abs((vc - Vector3(0, 0, c.cone.vn_hat) + Rg).dot(g));
    ++cones;
  }
  r.complementarity_error = cones > 0 && r.cost > 0 ? slack / cones / r.cost : 0;
  if (status == SolverStatus::kMaxIterations) {
    std::ostringstream os;
    os << "SAP did not converge in " << params_.max_iterations
       << " iterations (momentum error e_m = " << r.momentum_error << ")";
    r.message = os.str();
  }
  return status;
}

double SapSolver::LineSearchAlong(const ContactProblem& problem, const VectorX& v,
                                  const VectorX& dv) {
  const LineSample s0 = SampleAlong(problem, v, dv, 0.0);
  int iters = 0;
  return params_.line_search == LineSearchKind::kExact
             ? ExactLineSearch(problem, s0.cost, s0.d_cost, &iters)
             : BacktrackingLineSearch(problem, s0.cost, s0.d_cost, &iters);
}

SapSolver::LineSample SapSolver::SampleAlong(const ContactProblem& problem, const VectorX& v,
                                             const VectorX& dv, double alpha) {
  BuildLayout(problem);
  v_star_.resize(layout_.n);
  v_.resize(layout_.n);
  dv_.resize(layout_.n);
  for (int t : layout_.trees) {
    const int o = layout_.local_start[t], n = problem.tree_nv[t], g = problem.tree_v_start[t];
    v_star_.segment(o, n) = problem.v_star.segment(g, n);
    v_.segment(o, n) = v.segment(g, n);
    dv_.segment(o, n) = dv.segment(g, n);
  }
  CalcConstraintVelocities(problem, v_, &vc_);
  PrepareLine(problem);
  return SampleLine(problem, alpha);
}

}  // namespace stiction
