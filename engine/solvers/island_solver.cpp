#include "engine/solvers/island_solver.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/solvers/solver_factory.h"

namespace stiction {

// A thread kept by the island solver, with its own solver and scratch,
// solving one share of the islands per Solve(). Hand-off by a mutex and a
// condition variable: the main thread posts the job, solves its own share,
// then waits for the worker's.
class IslandSolver::Worker {
 public:
  explicit Worker(IslandSolver* owner)
      : owner_(owner), solver_(MakeSingleContactSolver(owner->settings_)), thread_([this] { Run(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void Post(const ContactProblem& problem, const std::vector<int>& which, const VectorX& v_guess) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      solver_->SetParameters(owner_->settings_);
      solver_->SetDeadline(owner_->deadline_);
      job_ = Job{&problem, &which, &v_guess};
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
    const std::vector<int>* which = nullptr;
    const VectorX* v_guess = nullptr;
  };
  void Run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return pending_ || stop_; });
      if (stop_) return;
      const Job job = job_;
      lock.unlock();
      // Solvers never throw; each island writes only its own entry of solves_.
      owner_->SolveIslands(*job.problem, *job.which, *job.v_guess, solver_.get(), &scratch_);
      lock.lock();
      pending_ = false;
      done_.notify_one();
    }
  }

  IslandSolver* owner_;
  std::unique_ptr<ContactSolver> solver_;
  IslandProblem scratch_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job job_;
  bool pending_ = false;
  bool stop_ = false;
  std::thread thread_;  // Last: started once the members above exist.
};

IslandSolver::IslandSolver(const SolverSettings& settings)
    : settings_(settings),
      params_(&GetSolverTypeInfo(settings.type).islands(settings_)),
      solver_(MakeSingleContactSolver(settings)) {}

IslandSolver::~IslandSolver() = default;

void IslandSolver::SetParameters(const SolverSettings& settings) {
  settings_ = settings;
  params_ = &GetSolverTypeInfo(settings_.type).islands(settings_);
  solver_->SetParameters(settings_);
}

void IslandSolver::SetDeadline(SolveDeadline deadline) {
  deadline_ = deadline;
  solver_->SetDeadline(deadline);
}

void IslandSolver::SolveIslands(const ContactProblem& problem, const std::vector<int>& which,
                                const VectorX& v_guess, ContactSolver* solver, IslandProblem* scratch) {
  for (int i : which) {
    islands_.Extract(problem, i, v_guess, scratch);
    IslandSolve& s = solves_[i];
    s.status = solver->Solve(scratch->problem, scratch->v_guess, &s.result);
    s.trees = scratch->trees;
  }
}

bool IslandSolver::SplitIslands(const ContactProblem& problem) {
  const int count = islands_.size();
  share_[0].clear();
  share_[1].clear();
  if (!params_->parallel || count < 2) return false;
  island_size_.assign(count, 0);
  tree_island_.assign(problem.num_trees(), -1);
  int total = 0;
  for (int i = 0; i < count; ++i) {
    for (int k : islands_.constraints(i)) {
      for (const ConstraintJacobianBlock& b : problem.constraints[k].blocks) {
        if (tree_island_[b.tree] == i) continue;
        tree_island_[b.tree] = i;
        island_size_[i] += problem.tree_nv[b.tree];
      }
    }
    total += island_size_[i];
  }
  if (total < params_->parallel_min_velocities) return false;
  // Largest first onto the lighter share (a Newton iteration costs about
  // linearly in the island's velocities for these tree-sparse problems).
  std::vector<int> order(count);
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

SolverStatus IslandSolver::Solve(const ContactProblem& problem, const VectorX& v_guess, SolverResult* result) {
  const int islands = params_->enabled && !problem.constraints.empty() ? islands_.Find(problem) : 1;
  last_num_islands_ = islands;
  last_num_threads_ = 1;
  if (islands <= 1) return solver_->Solve(problem, v_guess, result);
  if (static_cast<int>(solves_.size()) < islands) solves_.resize(islands);
  if (SplitIslands(problem)) {
    if (worker_ == nullptr) worker_ = std::make_unique<Worker>(this);
    worker_->Post(problem, share_[1], v_guess);
    SolveIslands(problem, share_[0], v_guess, solver_.get(), &scratch_);
    worker_->Wait();
    last_num_threads_ = 2;
  } else {
    share_[0].resize(islands);
    for (int i = 0; i < islands; ++i) share_[0][i] = i;
    SolveIslands(problem, share_[0], v_guess, solver_.get(), &scratch_);
  }
  return MergeIslandSolves(problem, islands_, std::span<const IslandSolve>(solves_.data(), islands), result);
}

}  // namespace stiction
