#include "engine/solvers/subadmm_solver.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <thread>

#include "engine/common/stopwatch.h"
#include "engine/parameters/ncp_parameters.h"
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

double SubAdmmSolver::UpdateMultipliers(const ContactProblem& problem) {
  double theta_p = 0;
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const Constraint& c = problem.constraints[k];
    const int row = layout_.row_start[k], m = c.num_rows;
    const double nz = static_cast<double>(c.blocks.size());  // |Z_i|.
    const VectorX lambda_old = lambda_.segment(row, m);
    // Eq. (35): y_ij = β J_ij v_j + u_ij, summed over the constraint's trees.
    std::vector<VectorX> y(c.blocks.size());
    VectorX sum_y = VectorX::Zero(m);
    for (size_t b = 0; b < c.blocks.size(); ++b) {
      const ConstraintJacobianBlock& blk = c.blocks[b];
      y[b] = beta_ * (blk.J * v_.segment(layout_.local_start[blk.tree], problem.tree_nv[blk.tree])) -
             lambda_old;
      sum_y += y[b];
    }
    const VectorX lambda = ProjectMultiplier(c, static_cast<int>(k), sum_y, nz);
    lambda_.segment(row, m) = lambda;  // Eq. (39): u_ij = −λ_i.
    for (size_t b = 0; b < c.blocks.size(); ++b) {
      // Eq. (35): β z_ij = y_ij + λ_i; θ_p of Eq. (42) with the new z.
      const ConstraintJacobianBlock& blk = c.blocks[b];
      z_[k][b] = (y[b] + lambda) / beta_;
      const VectorX Jv = blk.J * v_.segment(layout_.local_start[blk.tree], problem.tree_nv[blk.tree]);
      theta_p = std::max(theta_p, (Jv - z_[k][b]).norm());
    }
  }
  return theta_p;
}

VectorX SubAdmmSolver::ProjectMultiplier(const Constraint& c, int k, const VectorX& sum_y, double nz) const {
  const int row = layout_.row_start[k], m = c.num_rows;
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
      } else if (c.kind == ConstraintKind::kFrictionCone) {
        // A compliant polygon: λ = γ(v_c) with v_c = (Σ y + |Z_i| λ)/β is
        // the minimizer over the cone of ½ λᵀ(R + |Z_i|/β)λ + λᵀ(Σ y/β − v̂),
        // i.e. SAP's impulse (Eq. 27) at v_c = Σ y/β with R + |Z_i|/β for R.
        SapFrictionConeParameters p = c.cone;
        p.Rt += nz / beta_;
        p.Rn += nz / beta_;
        lambda = CalcFrictionConeImpulse(p, Vector3(sum_y.head<3>() / beta_));
      } else {
        for (int i = 0; i < m; ++i) {
          lambda[i] = (beta_ * c.bilateral.v_hat[i] - sum_y[i]) / (beta_ * c.bilateral.R[i] + nz);
        }
      }
      break;
  }
  return lambda;
}

double SubAdmmSolver::CalcDualResidual(const ContactProblem& problem) const {
  // θ_d of Eq. (42): max_j ‖A_j v_j − b_j − Σ_i J_ijᵀ λ_i‖.
  VectorX jt;
  layout_.MultiplyJTranspose(problem, lambda_, &jt);
  double theta_d = 0;
  for (int t : layout_.trees) {
    const int o = layout_.local_start[t], nv = problem.tree_nv[t];
    theta_d = std::max(theta_d, (problem.A[t] * (v_.segment(o, nv) - v_star_.segment(o, nv)) -
                                 jt.segment(o, nv)).norm());
  }
  return theta_d;
}

bool SubAdmmSolver::FinishIteration(const ContactProblem& problem, SolverResult* r) {
  theta_p_ = UpdateMultipliers(problem);
  theta_d_ = CalcDualResidual(problem);
  ++iteration_;
  RecordHistory(theta_p_ + theta_d_, &r->residual_history);
  if (CheckStoppingCriteria(r)) return true;
  UpdatePenalty();
  return false;
}

bool SubAdmmSolver::CheckStoppingCriteria(SolverResult* r) const {
  if (!std::isfinite(theta_p_ + theta_d_)) return true;
  if (theta_p_ + theta_d_ < params_.tolerance || iteration_ >= params_.max_iterations) return true;
  return StopAtDeadline(r);
}

void SubAdmmSolver::UpdatePenalty() {
  // Eq. (43): balance the residuals; refactor every tree with the new β.
  const double g = params_.penalty_balance;
  refactor_ = false;
  if (theta_d_ > 0 && theta_p_ > 0 && (theta_p_ > g * theta_d_ || theta_d_ > g * theta_p_)) {
    beta_ *= std::sqrt(theta_p_ / theta_d_);
    refactor_ = true;
  }
}

SolverStatus SubAdmmSolver::SolveStarted(const ContactProblem& problem, SolverResult* result) {
  SolverResult& r = *result;
  SplitConstraints(problem);
  StartMultipliers(problem);
  const auto t0 = std::chrono::steady_clock::now();
  const int threads = std::min<int>(params_.num_threads, static_cast<int>(layout_.trees.size()));
  if (threads <= 1) {
    // Per iteration: the v-update of every tree (Eq. 34), then the
    // projection, the stopping test and the penalty rule (FinishIteration).
    do {
      for (int t : layout_.trees) UpdateTree(problem, t, refactor_);
    } while (!FinishIteration(problem, &r));
  } else {
    IterateInParallel(problem, threads, &r);
  }
  r.factorization_time_s = SecondsSince(t0);
  return PackSubAdmmSolverResults(problem, &r);
}

void SubAdmmSolver::SplitConstraints(const ContactProblem& problem) {
  const SolverLayout& L = layout_;
  // Splitting (Eqs. 30–31): per tree, the (constraint, block) pairs on it.
  incidences_.assign(problem.num_trees(), {});
  llt_.resize(problem.num_trees());
  CalcNcpErrors(problem, L.row_start, L.rows, VelocityRecovery(params_), &types_, &e_);
  z_.resize(problem.constraints.size());
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const Constraint& c = problem.constraints[k];
    z_[k].resize(c.blocks.size());
    for (size_t b = 0; b < c.blocks.size(); ++b) {
      const ConstraintJacobianBlock& blk = c.blocks[b];
      incidences_[blk.tree].push_back({static_cast<int>(k), static_cast<int>(b)});
      z_[k][b] = blk.J * v_.segment(L.local_start[blk.tree], problem.tree_nv[blk.tree]);
    }
  }
}

void SubAdmmSolver::StartMultipliers(const ContactProblem& problem) {
  lambda_.setZero(layout_.rows);
  if (params_.warm_start) {
    VectorX unused = VectorX::Zero(layout_.rows);
    LoadWarmStart(problem, layout_, &lambda_, &unused);
  }
  beta_ = InitialPenalty(problem);
  refactor_ = true;
  iteration_ = 0;
}

void SubAdmmSolver::IterateInParallel(const ContactProblem& problem, int threads, SolverResult* r) {
  // Trees dealt to workers largest first (cost ~ nv³ to factor, nv² to
  // solve); a barrier whose completion step runs the serial rest of the
  // iteration (FinishIteration).
  std::vector<int> order = layout_.trees;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return problem.tree_nv[a] > problem.tree_nv[b]; });
  std::vector<std::vector<int>> share(threads);
  std::vector<double> load(threads, 0.0);
  for (int t : order) {
    const int w = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    share[w].push_back(t);
    load[w] += std::pow(problem.tree_nv[t], 2);
  }
  bool done = false;
  std::barrier sync(threads, [&]() noexcept { done = FinishIteration(problem, r); });
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

SolverStatus SubAdmmSolver::PackSubAdmmSolverResults(const ContactProblem& problem, SolverResult* r) const {
  r->iterations = iteration_;
  r->outer_iterations = iteration_;
  r->constraint_residual = theta_p_ + theta_d_;
  r->penalty = beta_;
  if (const std::optional<SolverStatus> bad = PackFinalIterate(problem, lambda_, r)) return *bad;
  return FinishUsable(!(theta_p_ + theta_d_ >= params_.tolerance), r, [&] {
    return ShortOfTolerance{.target = StreamText("theta_p + theta_d < ", params_.tolerance),
                            .count = iteration_,
                            .steps = "iterations",
                            .residual = StreamText(theta_p_ + theta_d_)};
  });
}

}  // namespace stiction
