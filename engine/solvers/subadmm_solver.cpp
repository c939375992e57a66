#include "engine/solvers/subadmm_solver.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

#include "engine/common/stopwatch.h"
#include "engine/solvers/constraint_warm_start.h"

namespace stiction {

double SubAdmmSolver::InitialPenalty(const ContactProblem& problem) const {
  if (params_.initial_penalty > 0) return params_.initial_penalty;
  // [CANAL] Sec. VI-D: the geometric mean over subsystems of the pseudo-density
  // (mass / number of constraints acting on it).
  double sum_log = 0;
  int n = 0;
  for (int t : layout_.trees) {
    if (incidences_[t].empty()) continue;
    const double mass = problem.A[t].diagonal().maxCoeff();
    sum_log += std::log(mass / static_cast<double>(incidences_[t].size()));
    ++n;
  }
  return n > 0 ? std::exp(sum_log / n) : 1.0;
}

void SubAdmmSolver::UpdateTree(const ContactProblem& problem, int t, bool refactor) {
  const int o = layout_.local_start[t], nv = problem.tree_nv[t];
  if (refactor) {
    // Eq. (34)'s matrix A_j + β Σ_i J_ijᵀ J_ij, factored once per β.
    MatrixX M = problem.A[t];
    for (const Incidence& in : incidences_[t]) {
      const MatrixX& J = problem.constraints[in.constraint].blocks[in.block].J;
      M.noalias() += beta_ * J.transpose() * J;
    }
    llt_[t].compute(M);
  }
  // Eq. (34): right-hand side b_j + Σ_i J_ijᵀ (β z_ij − u_ij), u_ij = −λ_i.
  VectorX rhs = problem.A[t] * v_star_.segment(o, nv);
  for (const Incidence& in : incidences_[t]) {
    const Constraint& c = problem.constraints[in.constraint];
    rhs.noalias() += c.blocks[in.block].J.transpose() *
                     (beta_ * z_[in.constraint][in.block] +
                      lambda_.segment(layout_.row_start[in.constraint], c.num_rows));
  }
  v_.segment(o, nv) = llt_[t].solve(rhs);
}

bool SubAdmmSolver::UpdateConstraints(const ContactProblem& problem, SolverResult* result) {
  SolverResult& r = *result;
  const SolverLayout& L = layout_;
  double theta_p = 0;
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const Constraint& c = problem.constraints[k];
    const int row = L.row_start[k], m = c.num_rows;
    const double nz = static_cast<double>(c.blocks.size());  // |Z_i|.
    const VectorX lambda_old = lambda_.segment(row, m);
    // Eq. (35): y_ij = β J_ij v_j + u_ij, summed over the constraint's trees.
    std::vector<VectorX> y(c.blocks.size());
    VectorX sum_y = VectorX::Zero(m);
    for (size_t b = 0; b < c.blocks.size(); ++b) {
      const ConstraintJacobianBlock& blk = c.blocks[b];
      y[b] = beta_ * (blk.J * v_.segment(L.local_start[blk.tree], problem.tree_nv[blk.tree])) -
             lambda_old;
      sum_y += y[b];
    }
    VectorX lambda(m);
    switch (types_[k]) {
      case NcpConstraintType::kContact:  // Eq. (38): the strict operator.
        lambda = ProjectStrict(-(sum_y + beta_ * e_.segment(row, m)) / nz, c.mu);
        break;
      case NcpConstraintType::kHard:  // Eq. (36).
        lambda[0] = std::max(-(sum_y[0] + beta_ * e_[row]) / nz, 0.0);
        break;
      case NcpConstraintType::kSoft:
        // Eq. (37) with the SAP model of the row, γ = −(v_c − v̂)/R, i.e.
        // b = 1/R and k e = −v̂/R: λ = (β v̂ − Σ_j y_ij)/(β R + |Z_i|),
        // clamped to the row's bounds for a PD row with an effort limit
        // (the scalar equation is monotone, so the clamp is exact).
        if (c.kind == ConstraintKind::kClamped) {
          const double l = (beta_ * c.clamped.v_hat - sum_y[0]) / (beta_ * c.clamped.R + nz);
          lambda[0] = std::clamp(l, c.clamped.lower, c.clamped.upper);
        } else {
          for (int i = 0; i < m; ++i) {
            lambda[i] = (beta_ * c.bilateral.v_hat[i] - sum_y[i]) / (beta_ * c.bilateral.R[i] + nz);
          }
        }
        break;
    }
    lambda_.segment(row, m) = lambda;  // Eq. (39): u_ij = −λ_i.
    for (size_t b = 0; b < c.blocks.size(); ++b) {
      // Eq. (35): β z_ij = y_ij + λ_i; θ_p of Eq. (42) with the new z.
      const ConstraintJacobianBlock& blk = c.blocks[b];
      z_[k][b] = (y[b] + lambda) / beta_;
      const VectorX Jv = blk.J * v_.segment(L.local_start[blk.tree], problem.tree_nv[blk.tree]);
      theta_p = std::max(theta_p, (Jv - z_[k][b]).norm());
    }
  }
  // θ_d of Eq. (42): max_j ‖A_j v_j − b_j − Σ_i J_ijᵀ λ_i‖.
  VectorX jt;
  L.MultiplyJTranspose(problem, lambda_, &jt);
  double theta_d = 0;
  for (int t : L.trees) {
    const int o = L.local_start[t], nv = problem.tree_nv[t];
    theta_d = std::max(theta_d, (problem.A[t] * (v_.segment(o, nv) - v_star_.segment(o, nv)) -
                                 jt.segment(o, nv)).norm());
  }
  theta_p_ = theta_p;
  theta_d_ = theta_d;
  ++iteration_;
  if (params_.record_history) r.residual_history.push_back(theta_p + theta_d);
  if (!std::isfinite(theta_p + theta_d)) return true;
  if (theta_p + theta_d < params_.tolerance || iteration_ >= params_.max_iterations) return true;
  if (PastDeadline()) {
    r.budget_hit = true;
    return true;
  }
  // Eq. (43): balance the residuals; refactor every tree with the new β.
  const double g = params_.penalty_balance;
  refactor_ = false;
  if (theta_d > 0 && theta_p > 0 && (theta_p > g * theta_d || theta_d > g * theta_p)) {
    beta_ *= std::sqrt(theta_p / theta_d);
    refactor_ = true;
  }
  return false;
}

SolverStatus SubAdmmSolver::SolveStarted(const ContactProblem& problem, SolverResult* result) {
  SolverResult& r = *result;
  const SolverLayout& L = layout_;
  // Splitting (Eqs. 30–31): per tree, the (constraint, block) pairs on it.
  incidences_.assign(problem.num_trees(), {});
  llt_.resize(problem.num_trees());
  types_.resize(problem.constraints.size());
  z_.resize(problem.constraints.size());
  e_.setZero(L.rows);
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const Constraint& c = problem.constraints[k];
    types_[k] = NcpTypeOf(c);
    const double e = NcpErrorTerm(c, problem.dt, params_.penetration_recovery);
    if (types_[k] == NcpConstraintType::kContact) e_[L.row_start[k] + 2] = e;
    if (types_[k] == NcpConstraintType::kHard) e_[L.row_start[k]] = e;
    z_[k].resize(c.blocks.size());
    for (size_t b = 0; b < c.blocks.size(); ++b) {
      const ConstraintJacobianBlock& blk = c.blocks[b];
      incidences_[blk.tree].push_back({static_cast<int>(k), static_cast<int>(b)});
      z_[k][b] = blk.J * v_.segment(L.local_start[blk.tree], problem.tree_nv[blk.tree]);
    }
  }
  lambda_.setZero(L.rows);
  if (params_.warm_start) {
    VectorX unused = VectorX::Zero(L.rows);
    LoadWarmStart(problem, L, &lambda_, &unused);
  }
  beta_ = InitialPenalty(problem);
  refactor_ = true;
  iteration_ = 0;

  const auto t0 = std::chrono::steady_clock::now();
  const int threads = std::min<int>(params_.num_threads, static_cast<int>(L.trees.size()));
  if (threads <= 1) {
    for (;;) {
      for (int t : L.trees) UpdateTree(problem, t, refactor_);
      if (UpdateConstraints(problem, &r)) break;
    }
  } else {
    // Trees dealt to workers largest first (cost ~ nv³ to factor, nv² to
    // solve); a barrier whose completion step runs the serial λ/z update.
    std::vector<int> order = L.trees;
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return problem.tree_nv[a] > problem.tree_nv[b]; });
    std::vector<std::vector<int>> share(threads);
    std::vector<double> load(threads, 0.0);
    for (int t : order) {
      const int w = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
      share[w].push_back(t);
      load[w] += std::pow(problem.tree_nv[t], 2);
    }
    bool done = false;
    std::barrier sync(threads, [&]() noexcept { done = UpdateConstraints(problem, &r); });
    auto work = [&](int w) {
      for (;;) {
        const bool refactor = refactor_;
        for (int t : share[w]) UpdateTree(problem, t, refactor);
        sync.arrive_and_wait();
        if (done) return;
      }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < threads; ++w) pool.emplace_back(work, w);
    work(0);
    for (std::thread& th : pool) th.join();
  }
  r.factorization_time_s = SecondsSince(t0);

  r.iterations = iteration_;
  r.outer_iterations = iteration_;
  r.constraint_residual = theta_p_ + theta_d_;
  r.penalty = beta_;
  r.gamma = lambda_;
  L.Scatter(problem, v_, &r.v);
  r.momentum_error = L.CalcMomentumError(problem, v_, v_star_, lambda_);
  if (!v_.allFinite() || !lambda_.allFinite()) {
    r.message = "SubADMM: non-finite iterate";
    return SolverStatus::kNonFinite;
  }
  // At the cap the last iterate is a usable soft-contact answer ([CANAL] Sec. V).
  r.usable = true;
  if (theta_p_ + theta_d_ >= params_.tolerance) {
    std::ostringstream os;
    os << "SubADMM did not reach theta_p + theta_d < " << params_.tolerance << " in " << iteration_
       << (r.budget_hit ? " iterations, the time budget" : " iterations, the cap") << " (" << theta_p_ + theta_d_
       << ")";
    r.message = os.str();
    return SolverStatus::kMaxIterations;
  }
  return SolverStatus::kConverged;
}

}  // namespace stiction
