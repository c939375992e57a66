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

}  // namespace

SimplexQpResult SolveSimplexQp(const SimplexQpProblem& problem, const VectorX* start,
                               const SimplexQpWorkingSet* working_set, int max_iterations) {
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

  SimplexQpResult r;
  r.w = start != nullptr ? *start : VectorX::Zero(n);
  ProjectStart(c, problem.equality, &r.w);
  const int m_all = c.count();
  // Relative to the data: a QP whose forces are tiny (contact points far
  // from their plane) has tiny H and h, and must still be solved.
  const double scale = std::max(problem.H.cwiseAbs().maxCoeff() + problem.h.cwiseAbs().maxCoeff(), 1e-300);
  const double active_tol = 1e-14;         // A constraint value this small counts as active.
  const double step_tol = 1e-13;           // ‖p‖∞ below this: the working-set optimum.
  const double multiplier_tol = 1e-12 * scale;

  // The working set: at the start, the constraints the warm start names
  // (or, without one, every constraint) that are active at the start.
  std::vector<char> in_set(static_cast<std::size_t>(m_all), 0);
  for (int i = 0; i < m_all; ++i) {
    bool wanted = true;
    if (working_set != nullptr) {
      const auto& flags = i < n ? working_set->at_zero : working_set->at_cap;
      const int k = i < n ? i : i - n;
      wanted = k < static_cast<int>(flags.size()) && flags[static_cast<std::size_t>(k)] != 0;
    }
    in_set[static_cast<std::size_t>(i)] = wanted && std::abs(c.Value(i, r.w)) <= active_tol;
    if (problem.equality && i >= n) in_set[static_cast<std::size_t>(i)] = 1;  // Σ w = 1 always holds.
  }

  // After a step that no constraint blocked, w is the working set's
  // optimum by construction: the next solve only supplies multipliers (its
  // p is round-off, which on an ill-conditioned H can exceed step_tol and
  // would otherwise be stepped along forever).
  bool at_working_set_optimum = false;
  const int num_groups = static_cast<int>(c.group_start.size());
  std::vector<int> group_of(static_cast<std::size_t>(n));
  for (int g = 0; g < num_groups; ++g) {
    for (int j = 0; j < c.group_size[g]; ++j) group_of[static_cast<std::size_t>(c.group_start[g] + j)] = g;
  }
  std::vector<int> free_vars, caps, cap_row(static_cast<std::size_t>(num_groups));
  // The cap rows enter the KKT matrix scaled to H's size, so that a pivot
  // test relative to its largest entry sees both blocks (the multipliers
  // are scaled back below).
  const double cap_scale = problem.H.diagonal().cwiseAbs().maxCoeff() > 0
                               ? problem.H.diagonal().cwiseAbs().maxCoeff()
                               : 1.0;
  MatrixX kkt;
  VectorX rhs, p(n);
  for (r.iterations = 1; r.iterations <= max_iterations; ++r.iterations) {
    // The weights at zero in the working set stay at zero: the equality QP
    // lives on the free weights F and the working caps C,
    //   [H_FF  B_Fᵀ; B_F  0] [p_F; μ] = [−g_F; 0],   g = H w + h,
    // B_F holding −s on the free weights of each working cap's group (s the
    // scale above); the multipliers of c ≥ 0 are λ = −s μ for the caps and,
    // for a weight i at zero, λ_i = g_i + λ_cap of its group (when that cap
    // is working).
    free_vars.clear();
    caps.clear();
    for (int i = 0; i < n; ++i) {
      if (!in_set[static_cast<std::size_t>(i)]) free_vars.push_back(i);
    }
    for (int g = 0; g < num_groups; ++g) {
      cap_row[static_cast<std::size_t>(g)] = -1;
      if (in_set[static_cast<std::size_t>(n + g)]) {
        cap_row[static_cast<std::size_t>(g)] = static_cast<int>(caps.size());
        caps.push_back(g);
      }
    }
    const int nf = static_cast<int>(free_vars.size()), m = static_cast<int>(caps.size());
    const VectorX grad = problem.H * r.w + problem.h;
    kkt.setZero(nf + m, nf + m);
    rhs.setZero(nf + m);
    for (int a = 0; a < nf; ++a) {
      const int i = free_vars[static_cast<std::size_t>(a)];
      for (int b = 0; b < nf; ++b) kkt(a, b) = problem.H(i, free_vars[static_cast<std::size_t>(b)]);
      const int row = cap_row[static_cast<std::size_t>(group_of[static_cast<std::size_t>(i)])];
      if (row >= 0) kkt(a, nf + row) = kkt(nf + row, a) = -cap_scale;
      rhs[a] = -grad[i];
    }
    const Eigen::FullPivLU<MatrixX> lu(kkt);
    if (nf + m > 0 && !lu.isInvertible()) {
      r.message = "simplex QP: the KKT system of the working set is singular (H not positive definite?)";
      break;
    }
    const VectorX x = nf + m > 0 ? VectorX(lu.solve(rhs)) : VectorX();
    p.setZero();
    for (int a = 0; a < nf; ++a) p[free_vars[static_cast<std::size_t>(a)]] = x[a];
    if (at_working_set_optimum || p.cwiseAbs().maxCoeff() <= step_tol * (1 + r.w.cwiseAbs().maxCoeff())) {
      at_working_set_optimum = false;
      // The working set's optimum: done when every multiplier is ≥ 0,
      // otherwise drop the most negative one.
      int drop = -1;
      double most_negative = -multiplier_tol;
      for (int k = 0; k < m && !problem.equality; ++k) {  // Equality caps have free multipliers.
        const double lambda = -cap_scale * x[nf + k];
        if (lambda < most_negative) {
          most_negative = lambda;
          drop = n + caps[static_cast<std::size_t>(k)];
        }
      }
      for (int i = 0; i < n; ++i) {
        if (!in_set[static_cast<std::size_t>(i)]) continue;
        const int row = cap_row[static_cast<std::size_t>(group_of[static_cast<std::size_t>(i)])];
        const double lambda = grad[i] + (row >= 0 ? -cap_scale * x[nf + row] : 0.0);
        if (lambda < most_negative) {
          most_negative = lambda;
          drop = i;
        }
      }
      if (drop < 0) {
        r.converged = true;
        break;
      }
      in_set[static_cast<std::size_t>(drop)] = 0;
      continue;
    }
    // Step along p to the nearest constraint outside the set that blocks it.
    double alpha = 1;
    int blocking = -1;
    for (int i = 0; i < m_all; ++i) {
      if (in_set[static_cast<std::size_t>(i)]) continue;
      const double along = c.Along(i, p);
      if (along >= 0) continue;
      const double ratio = std::max(c.Value(i, r.w), 0.0) / -along;
      if (ratio < alpha) {
        alpha = ratio;
        blocking = i;
      }
    }
    r.w += alpha * p;
    ProjectStart(c, problem.equality, &r.w);  // Round-off only: the step stays feasible.
    if (blocking >= 0) {
      in_set[static_cast<std::size_t>(blocking)] = 1;
    } else {
      at_working_set_optimum = true;
    }
  }
  if (!r.converged && r.message.empty()) {
    r.message = "simplex QP: no optimum within " + std::to_string(max_iterations) + " working-set changes";
  }
  r.iterations = std::min(r.iterations, max_iterations);
  r.objective = 0.5 * r.w.dot(problem.H * r.w) + problem.h.dot(r.w);
  r.working_set.at_zero.assign(static_cast<std::size_t>(n), 0);
  r.working_set.at_cap.assign(c.group_start.size(), 0);
  for (int i = 0; i < m_all; ++i) {
    if (!in_set[static_cast<std::size_t>(i)]) continue;
    if (i < n) {
      r.working_set.at_zero[static_cast<std::size_t>(i)] = 1;
    } else {
      r.working_set.at_cap[static_cast<std::size_t>(i - n)] = 1;
    }
  }
  return r;
}

}  // namespace stiction
