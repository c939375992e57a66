#pragma once
// The Semi-Analytic Primal solver ([SAP] Sec. IV, Alg. 2): Newton's
// method on the unconstrained convex cost ℓ_p(v) of Eq. (24) with
// H = A + Jᵀ G J, an exact line search (rtsafe on dℓ/dα, Sec. IV-B/C) or
// backtracking with Armijo's rule, and the stopping criterion of Eq. (26).
#include <memory>
#include <vector>

#include "engine/solvers/block_newton_matrix.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/exact_line_search.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {

enum class LineSearchKind { kExact, kBacktracking };

struct SapSolverParameters {
  double relative_tolerance = 1e-6;   ///< ε_r of Eq. (26), dimensionless.
  double absolute_tolerance = 1e-14;  ///< ε_a of Eq. (26) [√J].
  int max_iterations = 300;
  LineSearchKind line_search = LineSearchKind::kExact;
  /// Backtracking (Sec. IV-B): α ← ρα from α_max until Armijo's rule holds.
  double backtracking_rho = 0.8;
  double armijo_c = 1e-4;
  double backtracking_alpha_max = 1.25;
  int max_line_search_iterations = 100;
  /// Exact search: α ∈ (0, α_max].
  double exact_alpha_max = 1.5;
  /// Exact search: stop once |dℓ/dα| ≤ this · |dℓ/dα(0)| (dimensionless,
  /// in (0, 1)). The paper iterates to round-off (Sec. IV-C); the Newton
  /// iterates do not need it: on the clutter 1e-6 takes 26% fewer samples
  /// than 1e-12 at 10 ms and about half at 2 ms, for the same Newton
  /// iterations with SAP and with each Hunt & Crossley model. 1e-3 saves a
  /// little more with SAP but costs the H&C models Newton iterations
  /// (regularized Lagged at 2 ms: 5.8 instead of 3.6 per step), measured
  /// in docs/benchmarks.md.
  double exact_line_search_tolerance = 1e-6;
  /// Stop when the cost no longer decreases beyond round-off:
  /// ℓ_prev − ℓ < cost_abs_tolerance + cost_rel_tolerance · |ℓ_prev|.
  double cost_abs_tolerance = 1e-30;
  double cost_rel_tolerance = 1e-15;
  /// A round-off stop (the cost no longer decreases, or no descent
  /// direction is left) counts as converged only when e_m (Eq. 32) is below
  /// this. Above it, a stalled cost lets Newton go on (the exact line search
  /// uses dℓ/dα, not differences of ℓ) until the iteration cap, and a lost
  /// descent direction reports kStalled. Without it, an ill-conditioned
  /// problem (e.g. Hunt & Crossley contact with k = 1e12 N/m at δt = 10 ms)
  /// stopped at e_m ≈ 1 and was taken as a solution, silently losing
  /// momentum balance. 1%: far above what converged solves reach (≤ ε_r),
  /// far below the non-solutions this catches (e_m = 0.1–1).
  double stall_momentum_error = 1e-2;
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  /// kAuto uses the dense LLT up to this many participating velocities
  /// (chosen by measurement, docs/benchmarks.md).
  int dense_max_size = 24;
  /// Record e_m (Eq. 32) at every iteration into SolverResult (for tests
  /// and convergence plots). With islands: the largest e_m over the islands
  /// at each iteration (an island that converged keeps its last value).
  bool record_history = false;
  /// Solve independent islands (groups of trees coupled by constraints, SAP
  /// paper Sec. IV-D's forest graph split into connected components) as
  /// separate problems: ℓ_p is a sum over islands, so each island's Newton
  /// iteration is exactly SAP on that island, and a calm island stops
  /// iterating while another is still resolving an impact. Eq. (26) is then
  /// checked per island. Reported: iterations, e_m and e_μ = the largest
  /// over the islands; line-search iterations, cost and times = their sums.
  bool solve_islands = true;
  /// With solve_islands: solve the islands on two threads (this one and a
  /// worker the solver keeps) when there are at least
  /// parallel_min_velocities velocities in all and a split of the islands in
  /// which the smaller share holds at least a fifth of them. The result is
  /// the same as on one thread, bit for bit (each island is solved by the
  /// same code on its own scratch; results are merged in island order).
  /// Off by default: on the project's 2-vCPU machine two threads deliver
  /// 1.1× the throughput of one (measured), so the hand-off never pays
  /// there (docs/benchmarks.md). Turn it on where the two cores are real.
  bool parallel_islands = false;
  int parallel_min_velocities = 120;
};

class SapSolver final : public ContactSolver {
 public:
  explicit SapSolver(const SapSolverParameters& p = {});
  ~SapSolver() override;
  SapSolver(const SapSolver&) = delete;
  SapSolver& operator=(const SapSolver&) = delete;
  std::string name() const override { return "sap"; }
  const SapSolverParameters& parameters() const { return params_; }
  void set_parameters(const SapSolverParameters& p) { params_ = p; }

  SolverStatus Solve(const ContactProblem& problem, const VectorX& v_guess,
                     SolverResult* result) override;
  /// Islands of the last Solve() (1 when solved as one problem).
  int last_num_islands() const { return last_num_islands_; }
  /// Threads the last Solve() used for its islands (1 or 2).
  int last_num_threads() const { return last_num_threads_; }

  /// Cost and its first two derivatives along v + αΔv (Sec. IV-C), for tests.
  using LineSample = stiction::LineSample;

 private:
  /// Alg. 2 on one problem (every tree in it may be coupled).
  SolverStatus SolveConnected(const ContactProblem& problem, const VectorX& v_guess,
                              SolverResult* result);
  /// Splits `problem` into islands_ (constraint indices per island, ordered
  /// by their first tree); returns their number.
  int FindIslands(const ContactProblem& problem);
  /// Copies the constraints `island` of `problem` into island_problem_
  /// (trees renumbered; island_trees_ lists them).
  void ExtractIsland(const ContactProblem& problem, const std::vector<int>& island, const VectorX& v_guess);
  /// One island's solve, kept between steps for its storage.
  struct IslandSolve {
    SolverStatus status = SolverStatus::kConverged;
    SolverResult result;
    std::vector<int> trees;  // Global trees, in island order.
  };
  /// Extracts and solves each island in `which` (indices into `islands`),
  /// writing (*out)[i] for each i in `which`.
  void SolveIslands(const ContactProblem& problem, const std::vector<std::vector<int>>& islands,
                    const std::vector<int>& which, const VectorX& v_guess, std::vector<IslandSolve>* out);
  /// Splits the islands over two threads, largest first onto the lighter
  /// share; returns false when one thread should do it all.
  bool SplitIslands(const ContactProblem& problem);
  class IslandWorker;
  /// For a lost descent direction: kConverged when e_m is below
  /// stall_momentum_error, else kStalled with the message set.
  SolverStatus StallStatus(double momentum_error, SolverResult* r) const;
  /// Evaluates every constraint at vc: returns Σ ℓ_i; fills gamma_ and evals_.
  double EvaluateConstraints(const ContactProblem& problem, const VectorX& vc);
  LineSample SampleLine(const ContactProblem& problem, double alpha);
  /// Precomputes Δv_c, Δp and the A-norm terms of ℓ(α) for dv_ from v_
  /// (needs v_minus_star_ and adv_ at v_).
  void PrepareLine(const ContactProblem& problem);
  double ExactLineSearch(const ContactProblem& problem, double ell0, double d_ell0, int* iters);
  double BacktrackingLineSearch(const ContactProblem& problem, double ell0, double d_ell0,
                                int* iters);

  SapSolverParameters params_;
  int last_num_islands_ = 0;
  int last_num_threads_ = 1;
  std::vector<IslandSolve> island_solves_;  // Per island of the last Solve().
  std::vector<int> share_[2];               // Islands per thread.
  std::vector<int> island_size_;            // Velocities per island.
  std::unique_ptr<IslandWorker> worker_;    // Started on the first parallel solve.
  std::vector<std::vector<int>> islands_;  // Constraint indices per island.
  std::vector<int> island_trees_;          // Scratch: the island's trees (global ids).
  std::vector<int> tree_parent_;           // Union-find over trees.
  std::vector<int> island_of_root_;        // Root tree → island number.
  std::vector<int> tree_local_;            // Global tree → island tree, −1 if absent.
  ContactProblem island_problem_;
  VectorX island_guess_;
  std::vector<int> row_start_;  // Per constraint of the whole problem: first row.
  SolverLayout layout_;
  VectorX v_star_;     // Local v*.
  VectorX v_, dv_;     // Local iterate and Newton direction.
  VectorX vc_, dvc_;   // Constraint velocities and their change along dv.
  VectorX dp_;         // A dv.
  VectorX v_minus_star_;  // v − v*.
  VectorX adv_;           // A(v − v*).
  VectorX a_v_star_;      // A v*.
  VectorX a_times_;       // p = A v (scratch).
  VectorX grad_, jc_;     // ∇ℓ_p and Jᵀγ.
  VectorX gamma_;
  std::vector<ConstraintEvaluation> evals_;
  VectorX scale_;      // D = diag(A)^-½ of Eq. (25).
  BlockNewtonMatrix H_;  // A + JᵀGJ (Sec. IV-A).
  // Line search scratch.
  struct LineTerms {
    double a_cost = 0;          // ½‖v − v*‖²_A
    double dp_dot_dv_star = 0;  // Δpᵀ(v − v*)
    double dv_dot_dp = 0;       // ΔvᵀΔp
  } line_;
  VectorX vc_alpha_;
  ConstraintEvaluation eval_scratch_;

 public:
  /// For tests: prepares the problem at v (local layout built) and returns
  /// samples of ℓ(α) along the direction dv. Both vectors cover all trees.
  LineSample SampleAlong(const ContactProblem& problem, const VectorX& v, const VectorX& dv,
                         double alpha);
  /// For tests: the step length the configured line search picks along dv
  /// from v (dv must be a descent direction).
  double LineSearchAlong(const ContactProblem& problem, const VectorX& v, const VectorX& dv);
};

}  // namespace stiction
