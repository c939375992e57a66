#include "engine/solvers/solver_layout.h"

#include <algorithm>
#include <string>

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

std::optional<SolverStatus> SolverLayout::StartSolve(const ContactProblem& problem, const VectorX& v_guess,
                                                     const char* solver, VectorX* v_star, VectorX* v,
                                                     SolverResult* result) {
  SolverResult& r = *result;
  r = SolverResult{};
  r.v = problem.v_star;
  Build(problem);
  r.gamma = VectorX::Zero(rows);
  if (n == 0) {
    r.usable = true;
    return SolverStatus::kConverged;
  }
  Gather(problem, problem.v_star, v_star);
  Gather(problem, v_guess, v);  // The warm start of v (SAP Alg. 2 line 1, [CANAL] Sec. V-D).
  if (!v->allFinite() || !v_star->allFinite()) {
    r.message = std::string(solver) + ": non-finite input velocities";
    return SolverStatus::kNonFinite;
  }
  return std::nullopt;
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

namespace {

// Calls f(rows, row, J, o, nv) for every Jacobian block of every constraint:
// its constraint's rows and first stacked row, the block, and the local
// offset and size of its tree. `fixed(J, row, o)` instead for the common
// 3 × 6 block of a contact on a free body (fixed-size kernels).
template <typename Fixed, typename General>
void ForEachBlock(const ContactProblem& problem, const SolverLayout& layout, Fixed fixed, General general) {
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const Constraint& c = problem.constraints[i];
    for (const ConstraintJacobianBlock& b : c.blocks) {
      const int o = layout.local_start[b.tree];
      if (c.num_rows == 3 && b.J.cols() == 6) {
        fixed(Eigen::Map<const Eigen::Matrix<double, 3, 6>>(b.J.data()), layout.row_start[i], o);
      } else {
        general(b.J, layout.row_start[i], c.num_rows, o, problem.tree_nv[b.tree]);
      }
    }
  }
}

}  // namespace

void SolverLayout::MultiplyJ(const ContactProblem& problem, const VectorX& v, VectorX* vc) const {
  vc->setZero(rows);
  ForEachBlock(
      problem, *this,
      [&](const auto& J, int row, int o) { vc->segment<3>(row).noalias() += J * v.segment<6>(o); },
      [&](const MatrixX& J, int row, int m, int o, int nv) {
        // Coefficient-wise: a few rows by tens of columns is below where a
        // blocked matrix-vector kernel pays for its dispatch.
        vc->segment(row, m).noalias() += J.lazyProduct(v.segment(o, nv));
      });
}

void SolverLayout::MultiplyJTranspose(const ContactProblem& problem, const VectorX& gamma,
                                      VectorX* y) const {
  y->setZero(n);
  ForEachBlock(
      problem, *this,
      [&](const auto& J, int row, int o) { y->segment<6>(o).noalias() += J.transpose() * gamma.segment<3>(row); },
      [&](const MatrixX& J, int row, int m, int o, int nv) {
        y->segment(o, nv).noalias() += J.transpose().lazyProduct(gamma.segment(row, m));
      });
}

void SolverLayout::CalcScaling(const ContactProblem& problem, VectorX* D) const {
  D->resize(n);
  for (int t : trees) {
    D->segment(local_start[t], problem.tree_nv[t]) = problem.A[t].diagonal().cwiseSqrt().cwiseInverse();
  }
}

MomentumResidual SolverLayout::CalcMomentumResidual(const VectorX& gradient, const VectorX& p, const VectorX& jc,
                                                    const VectorX& D) {
  MomentumResidual residual;
  residual.gradient_norm = gradient.cwiseProduct(D).norm();
  residual.scale = std::max(p.cwiseProduct(D).norm(), jc.cwiseProduct(D).norm());
  return residual;
}

double SolverLayout::CalcMomentumError(const ContactProblem& problem, const VectorX& v,
                                       const VectorX& v_star, const VectorX& gamma) const {
  VectorX Adv, Av, jt, scale;
  MultiplyA(problem, v - v_star, &Adv);
  MultiplyA(problem, v, &Av);
  MultiplyJTranspose(problem, gamma, &jt);
  CalcScaling(problem, &scale);
  return CalcMomentumResidual(Adv - jt, Av, jt, scale).relative();
}

}  // namespace stiction
