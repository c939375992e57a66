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
  void Row(int i, Eigen::Ref<VectorX> row) const {
    row.setZero();
    if (i < n) {
      row[i] = 1;
    } else {
      const int g = i - n;
      row.segment(group_start[g], group_size[g]).setConstant(-1);
    }
  }
};

void ProjectStart(const Constraints& c, VectorX* w) {
  *w = w->cwiseMax(0.0);
  for (std::size_t g = 0; g < c.group_start.size(); ++g) {
    auto seg = w->segment(c.group_start[g], c.group_size[g]);
    const double sum = seg.sum();
    if (sum > 1) seg /= sum;
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
  ProjectStart(c, &r.w);
  const int m_all = c.count();
  const double scale = 1 + problem.H.cwiseAbs().maxCoeff() + problem.h.cwiseAbs().maxCoeff();
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
  }

  std::vector<int> set;
  MatrixX kkt;
  VectorX rhs, row(n);
  for (r.iterations = 1; r.iterations <= max_iterations; ++r.iterations) {
    set.clear();
    for (int i = 0; i < m_all; ++i) {
      if (in_set[static_cast<std::size_t>(i)]) set.push_back(i);
    }
    const int m = static_cast<int>(set.size());
    // [H Aᵀ; A 0] [p; μ] = [−(H w + h); 0]; the multipliers of c ≥ 0 are λ = −μ.
    kkt.setZero(n + m, n + m);
    kkt.topLeftCorner(n, n) = problem.H;
    for (int k = 0; k < m; ++k) {
      c.Row(set[static_cast<std::size_t>(k)], row);
      kkt.block(0, n + k, n, 1) = row;
      kkt.block(n + k, 0, 1, n) = row.transpose();
    }
    rhs.setZero(n + m);
    rhs.head(n) = -(problem.H * r.w + problem.h);
    const Eigen::FullPivLU<MatrixX> lu(kkt);
    if (!lu.isInvertible()) {
      r.message = "simplex QP: the KKT system of the working set is singular (H not positive definite?)";
      break;
    }
    const VectorX x = lu.solve(rhs);
    const VectorX p = x.head(n);
    if (p.cwiseAbs().maxCoeff() <= step_tol * (1 + r.w.cwiseAbs().maxCoeff())) {
      // The working set's optimum: done when every multiplier is ≥ 0,
      // otherwise drop the most negative one.
      int drop = -1;
      double most_negative = -multiplier_tol;
      for (int k = 0; k < m; ++k) {
        const double lambda = -x[n + k];
        if (lambda < most_negative) {
          most_negative = lambda;
          drop = set[static_cast<std::size_t>(k)];
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
    ProjectStart(c, &r.w);  // Round-off only: the step stays feasible.
    if (blocking >= 0) in_set[static_cast<std::size_t>(blocking)] = 1;
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
