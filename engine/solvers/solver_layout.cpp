#include "engine/solvers/solver_layout.h"

#include <algorithm>

namespace stiction {

void SolverLayout::Build(const ContactProblem& problem) {
  local_start.assign(problem.num_trees(), -1);
  trees.clear();
  row_start.resize(problem.constraints.size());
  rows = 0;
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    row_start[i] = rows;
    rows += problem.constraints[i].num_rows;
    for (const ConstraintJacobianBlock& b : problem.constraints[i].blocks) {
      local_start[b.tree] = 0;  // Mark; offsets assigned below in tree order.
    }
  }
  n = 0;
  for (int t = 0; t < problem.num_trees(); ++t) {
    if (local_start[t] < 0) continue;
    local_start[t] = n;
    trees.push_back(t);
    n += problem.tree_nv[t];
  }
}

void SolverLayout::Gather(const ContactProblem& problem, const VectorX& global,
                          VectorX* local) const {
  local->resize(n);
  for (int t : trees) {
    local->segment(local_start[t], problem.tree_nv[t]) =
        global.segment(problem.tree_v_start[t], problem.tree_nv[t]);
  }
}

void SolverLayout::Scatter(const ContactProblem& problem, const VectorX& local,
                           VectorX* global) const {
  for (int t : trees) {
    global->segment(problem.tree_v_start[t], problem.tree_nv[t]) =
        local.segment(local_start[t], problem.tree_nv[t]);
  }
}

void SolverLayout::MultiplyA(const ContactProblem& problem, const VectorX& x, VectorX* y) const {
  y->resize(n);
  for (int t : trees) {
    const int o = local_start[t], nt = problem.tree_nv[t];
    y->segment(o, nt).noalias() = problem.A[t] * x.segment(o, nt);
  }
}

void SolverLayout::MultiplyJ(const ContactProblem& problem, const VectorX& v, VectorX* vc) const {
  vc->setZero(rows);
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    for (const ConstraintJacobianBlock& b : c.blocks) {
      const int o = local_start[b.tree];
      if (c.num_rows == 3 && b.J.cols() == 6) {
        // A contact on a free body, the common case: fixed-size kernel.
        vc->segment<3>(row_start[i]).noalias() +=
            Eigen::Map<const Eigen::Matrix<double, 3, 6>>(b.J.data()) * v.segment<6>(o);
      } else {
        vc->segment(row_start[i], c.num_rows).noalias() += b.J * v.segment(o, problem.tree_nv[b.tree]);
      }
    }
  }
}

void SolverLayout::MultiplyJTranspose(const ContactProblem& problem, const VectorX& gamma,
                                      VectorX* y) const {
  y->setZero(n);
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    for (const ConstraintJacobianBlock& b : c.blocks) {
      const int o = local_start[b.tree];
      if (c.num_rows == 3 && b.J.cols() == 6) {
        y->segment<6>(o).noalias() +=
            Eigen::Map<const Eigen::Matrix<double, 3, 6>>(b.J.data()).transpose() * gamma.segment<3>(row_start[i]);
      } else {
        y->segment(o, problem.tree_nv[b.tree]).noalias() +=
            b.J.transpose() * gamma.segment(row_start[i], c.num_rows);
      }
    }
  }
}

double SolverLayout::CalcMomentumError(const ContactProblem& problem, const VectorX& v,
                                       const VectorX& v_star, const VectorX& gamma) const {
  VectorX Adv, Av, jt;
  MultiplyA(problem, v - v_star, &Adv);
  MultiplyA(problem, v, &Av);
  MultiplyJTranspose(problem, gamma, &jt);
  VectorX scale(n);
  for (int t : trees) {
    scale.segment(local_start[t], problem.tree_nv[t]) =
        problem.A[t].diagonal().cwiseSqrt().cwiseInverse();
  }
  const double g = (Adv - jt).cwiseProduct(scale).norm();
  const double ref = std::max(Av.cwiseProduct(scale).norm(), jt.cwiseProduct(scale).norm());
  return ref > 0 ? g / ref : g;
}

}  // namespace stiction
