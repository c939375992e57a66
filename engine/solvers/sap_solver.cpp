#include "engine/solvers/sap_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <thread>

namespace stiction {

namespace {
double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

void Constraint::Evaluate(Eigen::Ref<const VectorX> vc, ConstraintEvaluation* out) const {
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
  std::ostringstream os;
  os << "SAP stalled at round-off: no descent direction is left at momentum error e_m = " << momentum_error
     << " (> " << params_.stall_momentum_error
     << "); the Newton matrix is too ill-conditioned (contact stiffness too high for this time step?)";
  r->message = os.str();
  return SolverStatus::kStalled;
}

int SapSolver::FindIslands(const ContactProblem& problem) {
  const int trees = problem.num_trees();
  tree_parent_.resize(trees);
  for (int t = 0; t < trees; ++t) tree_parent_[t] = t;
  auto root = [&](int t) {
    while (tree_parent_[t] != t) t = tree_parent_[t] = tree_parent_[tree_parent_[t]];
    return t;
  };
  for (const Constraint& c : problem.constraints) {
    for (std::size_t b = 1; b < c.blocks.size(); ++b) {
      const int a = root(c.blocks[0].tree), d = root(c.blocks[b].tree);
      if (a != d) tree_parent_[std::max(a, d)] = std::min(a, d);  // Root = smallest tree.
    }
  }
  // Islands numbered in order of their root, the smallest tree of each
  // island: deterministic.
  island_of_root_.assign(trees, -1);
  for (const Constraint& c : problem.constraints) island_of_root_[root(c.blocks.front().tree)] = 0;
  int count = 0;
  for (int t = 0; t < trees; ++t) {
    if (island_of_root_[t] == 0) island_of_root_[t] = ++count;  // 1-based while marking.
  }
  islands_.resize(count);
  for (auto& island : islands_) island.clear();
  for (std::size_t k = 0; k < problem.constraints.size(); ++k) {
    islands_[island_of_root_[root(problem.constraints[k].blocks.front().tree)] - 1].push_back(static_cast<int>(k));
  }
  return count;
}

void SapSolver::ExtractIsland(const ContactProblem& problem, const std::vector<int>& island,
                              const VectorX& v_guess) {
  ContactProblem& sub = island_problem_;
  island_trees_.clear();
  tree_local_.assign(problem.num_trees(), -1);
  for (int k : island) {
    for (const ConstraintJacobianBlock& b : problem.constraints[k].blocks) {
      if (tree_local_[b.tree] < 0) {
        tree_local_[b.tree] = 0;
        island_trees_.push_back(b.tree);
      }
    }
  }
  std::sort(island_trees_.begin(), island_trees_.end());  // Keep the tree order.
  const int n_trees = static_cast<int>(island_trees_.size());
  sub.dt = problem.dt;
  sub.tree_v_start.resize(n_trees);
  sub.tree_nv.resize(n_trees);
  sub.A.resize(n_trees);
  int nv = 0;
  for (int t = 0; t < n_trees; ++t) {
    const int g = island_trees_[t];
    tree_local_[g] = t;
    sub.tree_v_start[t] = nv;
    sub.tree_nv[t] = problem.tree_nv[g];
    sub.A[t] = problem.A[g];
    nv += problem.tree_nv[g];
  }
  sub.v_star.resize(nv);
  island_guess_.resize(nv);
  for (int t = 0; t < n_trees; ++t) {
    const int g = island_trees_[t];
    sub.v_star.segment(sub.tree_v_start[t], sub.tree_nv[t]) = problem.v_star.segment(problem.tree_v_start[g], problem.tree_nv[g]);
    island_guess_.segment(sub.tree_v_start[t], sub.tree_nv[t]) = v_guess.segment(problem.tree_v_start[g], problem.tree_nv[g]);
  }
  sub.constraints.resize(island.size());
  for (std::size_t k = 0; k < island.size(); ++k) {
    sub.constraints[k] = problem.constraints[island[k]];  // Reuses capacity.
    for (ConstraintJacobianBlock& b : sub.constraints[k].blocks) b.tree = tree_local_[b.tree];
  }
}

// A thread kept by the solver, with its own SapSolver (its own scratch),
// solving one share of the islands per Solve(). Hand-off by a mutex and a
// condition variable: the main thread posts the job, solves its own share,
// then waits for the worker's.
class SapSolver::IslandWorker {
 public:
  IslandWorker() : thread_([this] { Run(); }) {}
  ~IslandWorker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  IslandWorker(const IslandWorker&) = delete;
  IslandWorker& operator=(const IslandWorker&) = delete;

  void Post(const SapSolverParameters& params, const ContactProblem& problem,
            const std::vector<std::vector<int>>& islands, const std::vector<int>& which,
            const VectorX& v_guess, std::vector<IslandSolve>* out) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      solver_.set_parameters(params);
      job_ = Job{&problem, &islands, &which, &v_guess, out};
      pending_ = true;
    }
    wake_.notify_one();
  }
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return !pending_; });
  }

 private:
  struct Job {
    const ContactProblem* problem = nullptr;
    const std::vector<std::vector<int>>* islands = nullptr;
    const std::vector<int>* which = nullptr;
    const VectorX* v_guess = nullptr;
    std::vector<IslandSolve>* out = nullptr;
  };
  void Run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return pending_ || stop_; });
      if (stop_) return;
      const Job job = job_;
      lock.unlock();
      // SolveConnected never throws; each island writes only its own entry.
      solver_.SolveIslands(*job.problem, *job.islands, *job.which, *job.v_guess, job.out);
      lock.lock();
      pending_ = false;
      done_.notify_one();
    }
  }

  SapSolver solver_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job job_;
  bool pending_ = false;
  bool stop_ = false;
  std::thread thread_;  // Last: started once the members above exist.
};

SapSolver::SapSolver(const SapSolverParameters& p) : params_(p) {}
SapSolver::~SapSolver() = default;

void SapSolver::SolveIslands(const ContactProblem& problem, const std::vector<std::vector<int>>& islands,
                             const std::vector<int>& which, const VectorX& v_guess,
                             std::vector<IslandSolve>* out) {
  for (int i : which) {
    ExtractIsland(problem, islands[i], v_guess);
    IslandSolve& s = (*out)[i];
    s.status = SolveConnected(island_problem_, island_guess_, &s.result);
    s.trees = island_trees_;
  }
}

bool SapSolver::SplitIslands(const ContactProblem& problem) {
  const int count = static_cast<int>(islands_.size());
  share_[0].clear();
  share_[1].clear();
  if (!params_.parallel_islands || count < 2) return false;
  island_size_.assign(count, 0);
  tree_local_.assign(problem.num_trees(), -1);  // Marks trees already counted.
  int total = 0;
  for (int i = 0; i < count; ++i) {
    for (int k : islands_[i]) {
      for (const ConstraintJacobianBlock& b : problem.constraints[k].blocks) {
        if (tree_local_[b.tree] == i) continue;
        tree_local_[b.tree] = i;
        island_size_[i] += problem.tree_nv[b.tree];
      }
    }
    total += island_size_[i];
  }
  if (total < params_.parallel_min_velocities) return false;
  // Largest first onto the lighter share (a Newton iteration costs about
  // linearly in the island's velocities for these tree-sparse problems).
  std::vector<int>& order = island_trees_;  // Scratch.
  order.resize(count);
  for (int i = 0; i < count; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return island_size_[a] > island_size_[b]; });
  int load[2] = {0, 0};
  for (int i : order) {
    const int t = load[1] < load[0] ? 1 : 0;
    share_[t].push_back(i);
    load[t] += island_size_[i];
  }
  if (5 * std::min(load[0], load[1]) < total) {  // One island dominates: no gain.
    share_[0].clear();
    share_[1].clear();
    return false;
  }
  // Each share in island order (deterministic scratch reuse).
  std::sort(share_[0].begin(), share_[0].end());
  std::sort(share_[1].begin(), share_[1].end());
  return true;
}

SolverStatus SapSolver::Solve(const ContactProblem& problem, const VectorX& v_guess,
                              SolverResult* result) {
  const int islands = params_.solve_islands && !problem.constraints.empty() ? FindIslands(problem) : 1;
  last_num_islands_ = islands;
  last_num_threads_ = 1;
  if (islands <= 1) return SolveConnected(problem, v_guess, result);
  if (static_cast<int>(island_solves_.size()) < islands) island_solves_.resize(islands);
  if (SplitIslands(problem)) {
    if (worker_ == nullptr) worker_ = std::make_unique<IslandWorker>();
    worker_->Post(params_, problem, islands_, share_[1], v_guess, &island_solves_);
    SolveIslands(problem, islands_, share_[0], v_guess, &island_solves_);
    worker_->Wait();
    last_num_threads_ = 2;
  } else {
    share_[0].resize(islands);
    for (int i = 0; i < islands; ++i) share_[0][i] = i;
    SolveIslands(problem, islands_, share_[0], v_guess, &island_solves_);
  }
  SolverResult& r = *result;
  r = SolverResult{};
  r.v = problem.v_star;
  r.gamma = VectorX::Zero(problem.num_rows());
  row_start_.resize(problem.constraints.size());
  for (std::size_t k = 0, row = 0; k < problem.constraints.size(); ++k) {
    row_start_[k] = static_cast<int>(row);
    row += problem.constraints[k].num_rows;
  }
  // Merged in island order, whichever thread solved each.
  SolverStatus status = SolverStatus::kConverged;
  for (int i = 0; i < islands; ++i) {
    const IslandSolve& solve = island_solves_[i];
    const SolverResult& s = solve.result;
    int v_offset = 0;
    for (const int g : solve.trees) {
      r.v.segment(problem.tree_v_start[g], problem.tree_nv[g]) = s.v.segment(v_offset, problem.tree_nv[g]);
      v_offset += problem.tree_nv[g];
    }
    for (std::size_t k = 0, row = 0; k < islands_[i].size(); ++k) {
      const int c = islands_[i][k];
      const int m = problem.constraints[c].num_rows;
      r.gamma.segment(row_start_[c], m) = s.gamma.segment(row, m);
      row += m;
    }
    const SolverStatus st = solve.status;
    r.iterations = std::max(r.iterations, s.iterations);
    r.line_search_iterations += s.line_search_iterations;
    r.cost += s.cost;
    r.momentum_error = std::max(r.momentum_error, s.momentum_error);
    r.complementarity_error = std::max(r.complementarity_error, s.complementarity_error);
    r.assembly_time_s += s.assembly_time_s;
    r.factorization_time_s += s.factorization_time_s;
    r.line_search_time_s += s.line_search_time_s;
    if (params_.record_history) {
      auto& h = r.momentum_error_history;
      const auto& hs = s.momentum_error_history;
      const std::size_t n = std::max(h.size(), hs.size());
      const double h_last = h.empty() ? 0 : h.back();
      h.resize(n, h_last);
      for (std::size_t k = 0; k < n; ++k) h[k] = std::max(h[k], hs.empty() ? 0 : hs[std::min(k, hs.size() - 1)]);
    }
    if (st != SolverStatus::kConverged && status == SolverStatus::kConverged) {
      status = st;
      r.message = s.message + " (island " + std::to_string(i + 1) + " of " + std::to_string(islands) + ")";
    }
  }
  return status;
}

SolverStatus SapSolver::SolveConnected(const ContactProblem& problem, const VectorX& v_guess,
                                       SolverResult* result) {
  SolverResult& r = *result;
  r = SolverResult{};
  r.v = problem.v_star;
  layout_.Build(problem);
  const SolverLayout& L = layout_;
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

  VectorX& grad = grad_;  // Members: no allocation per solve once sized.
  VectorX& jc = jc_;
  H_.Analyze(problem, L, params_.linear_solver, params_.dense_max_size);
  L.MultiplyA(problem, v_star_, &a_v_star_);
  double ell_prev = std::numeric_limits<double>::infinity();
  SolverStatus status = SolverStatus::kMaxIterations;
  for (int it = 0;; ++it) {
    // v_c = J v and A(v − v*) from v itself at every iteration (not updated
    // along the step), so that the convergence test sees the residual of v
    // free of accumulated round-off.
    L.MultiplyJ(problem, v_, &vc_);
    v_minus_star_ = v_ - v_star_;
    L.MultiplyA(problem, v_minus_star_, &adv_);
    const double ell_R = EvaluateConstraints(problem, vc_);
    const double ell = 0.5 * v_minus_star_.dot(adv_) + ell_R;
    L.MultiplyJTranspose(problem, gamma_, &jc);
    grad = adv_ - jc;  // ∇ℓ_p = A(v − v*) − Jᵀγ (Sec. IV-A).
    // Eq. (26) with the scaling D = diag(A)^-½ of Eq. (25); p = A v.
    a_times_ = adv_ + a_v_star_;  // p = A v.
    const double g_norm = grad.cwiseProduct(scale_).norm();
    const double ref = std::max(a_times_.cwiseProduct(scale_).norm(), jc.cwiseProduct(scale_).norm());
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
    // Round-off stall: the cost stopped decreasing. Accepted as converged
    // when e_m is already small; otherwise Newton goes on, since the exact
    // line search works on dℓ/dα (exact) rather than on differences of ℓ,
    // and can still make progress that ℓ's round-off hides. The iteration
    // cap, or a direction that is no longer a descent one, ends it then.
    if (it > 0 && ell_prev - ell < params_.cost_abs_tolerance + params_.cost_rel_tolerance * std::abs(ell_prev) &&
        r.momentum_error <= params_.stall_momentum_error) {
      status = SolverStatus::kConverged;
      break;
    }
    if (it >= params_.max_iterations) break;
    ell_prev = ell;

    // Newton direction Δv = −H⁻¹ ∇ℓ (Alg. 2, line 3).
    auto t0 = std::chrono::steady_clock::now();
    // H = A + Jᵀ G J (Sec. IV-A), block-sparse by trees (Sec. IV-D).
    H_.Assemble(problem, L, [&](int k) { return &evals_[k].G; });
    r.assembly_time_s += SecondsSince(t0);
    t0 = std::chrono::steady_clock::now();
    const bool factored = H_.Factor();
    if (factored) {
      H_.Solve(grad, &dv_);
      dv_ = -dv_;
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
      status = StallStatus(r.momentum_error, &r);
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
  // Every exit above comes after EvaluateConstraints at the final v_, so
  // gamma_ already holds it.
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
  layout_.Build(problem);
  v_star_.resize(layout_.n);
  v_.resize(layout_.n);
  dv_.resize(layout_.n);
  for (int t : layout_.trees) {
    const int o = layout_.local_start[t], n = problem.tree_nv[t], g = problem.tree_v_start[t];
    v_star_.segment(o, n) = problem.v_star.segment(g, n);
    v_.segment(o, n) = v.segment(g, n);
    dv_.segment(o, n) = dv.segment(g, n);
  }
  layout_.MultiplyJ(problem, v_, &vc_);
  v_minus_star_ = v_ - v_star_;
  layout_.MultiplyA(problem, v_minus_star_, &adv_);
  PrepareLine(problem);
  return SampleLine(problem, alpha);
}

}  // namespace stiction
