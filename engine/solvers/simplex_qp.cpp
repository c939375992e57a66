#include "engine/solvers/simplex_qp.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/LU>

#include "engine/common/error.h"

namespace stiction {
namespace {

// Constraint i < n is the bound w_i ≥ 0 (gradient e_i, value w_i); constraint
// n + g is group g's cap 1 − Σ w ≥ 0 (gradient −1 on the group).
struct Constraints {
  int n = 0;
  std::vector<int> group_start, group_size;

  int count() const { return n + static_cast<int>(group_start.size()); }
  double Value(int i, const VectorX& w) const {
    if (i < n) return w[i];
    const int g = i - n;
    return 1.0 - w.segment(group_start[g], group_size[g]).sum();
  }
  double Along(int i, const VectorX& p) const {  // Gradient · p.
    if (i < n) return p[i];
    const int g = i - n;
    return -p.segment(group_start[g], group_size[g]).sum();
  }
};

void ProjectStart(const Constraints& c, bool equality, VectorX* w) {
  *w = w->cwiseMax(0.0);
  for (std::size_t g = 0; g < c.group_start.size(); ++g) {
    auto seg = w->segment(c.group_start[g], c.group_size[g]);
    const double sum = seg.sum();
    if (equality && !(sum > 0)) {
      seg.setConstant(1.0 / c.group_size[g]);
    } else if (sum > 1 || (equality && sum != 1)) {
      seg /= sum;
    }
  }
}

// Throws InputError when the sizes disagree, a group is empty or the data
// are not finite; returns the constraints of a valid problem.
Constraints CheckProblem(const SimplexQpProblem& problem, const VectorX* start) {
  const int n = static_cast<int>(problem.h.size());
  if (problem.H.rows() != n || problem.H.cols() != n) {
    throw InputError("simplex QP: H is " + std::to_string(problem.H.rows()) + "x" +
                     std::to_string(problem.H.cols()) + ", h has " + std::to_string(n) + " entries");
  }
  if (!problem.H.allFinite() || !problem.h.allFinite()) throw InputError("simplex QP: H or h is not finite");
  Constraints c;
  c.n = n;
  int total = 0;
  for (int size : problem.group_sizes) {
    if (size < 1) throw InputError("simplex QP: a group has no weights");
    c.group_start.push_back(total);
    c.group_size.push_back(size);
    total += size;
  }
  if (total != n) {
    throw InputError("simplex QP: the groups hold " + std::to_string(total) + " weights, h has " +
                     std::to_string(n));
  }
  if (start != nullptr && (start->size() != n || !start->allFinite())) {
    throw InputError("simplex QP: the start has the wrong size or is not finite");
  }
  return c;
}

// Nocedal & Wright's Alg. 16.3 on one problem: the working set and the
// scratch of its iterations.
class ActiveSetMethod {
 public:
  enum class Outcome { kContinue, kConverged, kSingular };

  ActiveSetMethod(const SimplexQpProblem& problem, const Constraints& c)
      : problem_(problem), c_(c), n_(c.n), num_groups_(static_cast<int>(c.group_start.size())) {
    // Relative to the data: a QP whose forces are tiny (contact points far
    // from their plane) has tiny H and h, and must still be solved.
    const double scale = std::max(problem.H.cwiseAbs().maxCoeff() + problem.h.cwiseAbs().maxCoeff(), 1e-300);
    multiplier_tol_ = 1e-12 * scale;
    group_of_.resize(static_cast<std::size_t>(n_));
    for (int g = 0; g < num_groups_; ++g) {
      for (int j = 0; j < c.group_size[g]; ++j) group_of_[static_cast<std::size_t>(c.group_start[g] + j)] = g;
    }
    cap_row_.resize(static_cast<std::size_t>(num_groups_));
    // The cap rows enter the KKT matrix scaled to H's size, so that a pivot
    // test relative to its largest entry sees both blocks (the multipliers
    // are scaled back below).
    cap_scale_ = problem.H.diagonal().cwiseAbs().maxCoeff() > 0 ? problem.H.diagonal().cwiseAbs().maxCoeff() : 1.0;
    p_.resize(n_);
  }

  // The working set at the start w: the constraints the warm start names
  // (or, without one, every constraint) that are active at w.
  void Seed(const SimplexQpWorkingSet* working_set, const VectorX& w) {
    const int m_all = c_.count();
    in_set_.assign(static_cast<std::size_t>(m_all), 0);
    for (int i = 0; i < m_all; ++i) {
      bool wanted = true;
      if (working_set != nullptr) {
        const auto& flags = i < n_ ? working_set->at_zero : working_set->at_cap;
        const int k = i < n_ ? i : i - n_;
        wanted = k < static_cast<int>(flags.size()) && flags[static_cast<std::size_t>(k)] != 0;
      }
      in_set_[static_cast<std::size_t>(i)] = wanted && std::abs(c_.Value(i, w)) <= kActiveTolerance;
      if (problem_.equality && i >= n_) in_set_[static_cast<std::size_t>(i)] = 1;  // Σ w = 1 always holds.
    }
  }

  // One iteration from w: the working set's equality QP, then either a
  // constraint dropped at its optimum or a step along p.
  Outcome Iterate(VectorX* w) {
    const VectorX grad = problem_.H * *w + problem_.h;
    BuildKkt(grad);
    const Eigen::FullPivLU<MatrixX> lu(kkt_);
    if (nf_ + m_ > 0 && !lu.isInvertible()) return Outcome::kSingular;
    const VectorX x = nf_ + m_ > 0 ? VectorX(lu.solve(rhs_)) : VectorX();
    p_.setZero();
    for (int a = 0; a < nf_; ++a) p_[free_vars_[static_cast<std::size_t>(a)]] = x[a];
    if (at_working_set_optimum_ || p_.cwiseAbs().maxCoeff() <= kStepTolerance * (1 + w->cwiseAbs().maxCoeff())) {
      at_working_set_optimum_ = false;
      // The working set's optimum: done when every multiplier is ≥ 0,
      // otherwise drop the most negative one.
      const int drop = MostNegativeMultiplier(x, grad);
      if (drop < 0) return Outcome::kConverged;
      in_set_[static_cast<std::size_t>(drop)] = 0;
      return Outcome::kContinue;
    }
    StepToBlockingConstraint(w);
    return Outcome::kContinue;
  }

  // The working set as SimplexQpResult reports it.
  SimplexQpWorkingSet Export() const {
    SimplexQpWorkingSet set;
    set.at_zero.assign(static_cast<std::size_t>(n_), 0);
    set.at_cap.assign(c_.group_start.size(), 0);
    for (int i = 0; i < c_.count(); ++i) {
      if (!in_set_[static_cast<std::size_t>(i)]) continue;
      if (i < n_) {
        set.at_zero[static_cast<std::size_t>(i)] = 1;
      } else {
        set.at_cap[static_cast<std::size_t>(i - n_)] = 1;
      }
    }
    return set;
  }

 private:
  static constexpr double kActiveTolerance = 1e-14;  // A constraint value this small counts as active.
  static constexpr double kStepTolerance = 1e-13;    // ‖p‖∞ below this: the working-set optimum.

  // The weights at zero in the working set stay at zero: the equality QP
  // lives on the free weights F and the working caps C,
  //   [H_FF  B_Fᵀ; B_F  0] [p_F; μ] = [−g_F; 0],   g = H w + h,
  // B_F holding −s on the free weights of each working cap's group (s the
  // scale above); the multipliers of c ≥ 0 are λ = −s μ for the caps and,
  // for a weight i at zero, λ_i = g_i + λ_cap of its group (when that cap
  // is working).
  void BuildKkt(const VectorX& grad) {
    free_vars_.clear();
    caps_.clear();
    for (int i = 0; i < n_; ++i) {
      if (!in_set_[static_cast<std::size_t>(i)]) free_vars_.push_back(i);
    }
    for (int g = 0; g < num_groups_; ++g) {
      cap_row_[static_cast<std::size_t>(g)] = -1;
      if (in_set_[static_cast<std::size_t>(n_ + g)]) {
        cap_row_[static_cast<std::size_t>(g)] = static_cast<int>(caps_.size());
        caps_.push_back(g);
      }
    }
    nf_ = static_cast<int>(free_vars_.size());
    m_ = static_cast<int>(caps_.size());
    kkt_.setZero(nf_ + m_, nf_ + m_);
    rhs_.setZero(nf_ + m_);
    for (int a = 0; a < nf_; ++a) {
      const int i = free_vars_[static_cast<std::size_t>(a)];
      for (int b = 0; b < nf_; ++b) kkt_(a, b) = problem_.H(i, free_vars_[static_cast<std::size_t>(b)]);
      const int row = CapRowOf(i);
      if (row >= 0) kkt_(a, nf_ + row) = kkt_(nf_ + row, a) = -cap_scale_;
      rhs_[a] = -grad[i];
    }
  }

  int CapRowOf(int weight) const {
    return cap_row_[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(weight)])];
  }

  // The constraint of the working set with the most negative multiplier
  // (below −multiplier_tol_), −1 when there is none.
  int MostNegativeMultiplier(const VectorX& x, const VectorX& grad) const {
    int drop = -1;
    double most_negative = -multiplier_tol_;
    for (int k = 0; k < m_ && !problem_.equality; ++k) {  // Equality caps have free multipliers.
      const double lambda = -cap_scale_ * x[nf_ + k];
      if (lambda < most_negative) {
        most_negative = lambda;
        drop = n_ + caps_[static_cast<std::size_t>(k)];
      }
    }
    for (int i = 0; i < n_; ++i) {
      if (!in_set_[static_cast<std::size_t>(i)]) continue;
      const int row = CapRowOf(i);
      const double lambda = grad[i] + (row >= 0 ? -cap_scale_ * x[nf_ + row] : 0.0);
      if (lambda < most_negative) {
        most_negative = lambda;
        drop = i;
      }
    }
    return drop;
  }

  // Steps along p_ to the nearest constraint outside the set that blocks
  // it, which joins the set. After a step that no constraint blocked, w is
  // the working set's optimum by construction: the next solve only supplies
  // multipliers (its p is round-off, which on an ill-conditioned H can
  // exceed the step tolerance and would otherwise be stepped along forever).
  void StepToBlockingConstraint(VectorX* w) {
    double alpha = 1;
    int blocking = -1;
    for (int i = 0; i < c_.count(); ++i) {
      if (in_set_[static_cast<std::size_t>(i)]) continue;
      const double along = c_.Along(i, p_);
      if (along >= 0) continue;
      const double ratio = std::max(c_.Value(i, *w), 0.0) / -along;
      if (ratio < alpha) {
        alpha = ratio;
        blocking = i;
      }
    }
    *w += alpha * p_;
    ProjectStart(c_, problem_.equality, w);  // Round-off only: the step stays feasible.
    if (blocking >= 0) {
      in_set_[static_cast<std::size_t>(blocking)] = 1;
    } else {
      at_working_set_optimum_ = true;
    }
  }

  const SimplexQpProblem& problem_;
  const Constraints& c_;
  const int n_, num_groups_;
  double multiplier_tol_ = 0, cap_scale_ = 1;
  std::vector<char> in_set_;
  bool at_working_set_optimum_ = false;
  std::vector<int> group_of_, free_vars_, caps_, cap_row_;
  int nf_ = 0, m_ = 0;  // Free weights and working caps of the current KKT system.
  MatrixX kkt_;
  VectorX rhs_, p_;
};

}  // namespace

SimplexQpResult SolveSimplexQp(const SimplexQpProblem& problem, const VectorX* start,
                               const SimplexQpWorkingSet* working_set, int max_iterations) {
  const Constraints c = CheckProblem(problem, start);
  SimplexQpResult r;
  r.w = start != nullptr ? *start : VectorX::Zero(c.n);
  ProjectStart(c, problem.equality, &r.w);
  ActiveSetMethod method(problem, c);
  method.Seed(working_set, r.w);
  for (r.iterations = 1; r.iterations <= max_iterations; ++r.iterations) {
    const ActiveSetMethod::Outcome outcome = method.Iterate(&r.w);
    if (outcome == ActiveSetMethod::Outcome::kSingular) {
      r.message = "simplex QP: the KKT system of the working set is singular (H not positive definite?)";
      break;
    }
    if (outcome == ActiveSetMethod::Outcome::kConverged) {
      r.converged = true;
      break;
    }
  }
  if (!r.converged && r.message.empty()) {
    r.message = "simplex QP: no optimum within " + std::to_string(max_iterations) + " working-set changes";
  }
  r.iterations = std::min(r.iterations, max_iterations);
  r.objective = 0.5 * r.w.dot(problem.H * r.w) + problem.h.dot(r.w);
  r.working_set = method.Export();
  return r;
}

}  // namespace stiction
