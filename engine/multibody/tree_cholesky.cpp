#include "engine/multibody/tree_cholesky.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stiction {

TreeCholesky::TreeCholesky(std::vector<int> parent) {
  BuildAncestors(parent, &tree_start_, &tree_list_);
  const int n = static_cast<int>(parent.size());
  on_pattern_.assign(static_cast<std::size_t>(n) * n, 0);
  for (int k = 0; k < n; ++k) {
    on_pattern_[static_cast<std::size_t>(k) * n + k] = 1;
    for (int i = tree_start_[k]; i < tree_start_[k + 1]; ++i) {
      on_pattern_[static_cast<std::size_t>(k) * n + tree_list_[i]] = 1;
    }
  }
}

void TreeCholesky::BuildAncestors(const std::vector<int>& parent, std::vector<int>* start, std::vector<int>* list) {
  const int n = static_cast<int>(parent.size());
  start->assign(n + 1, 0);
  list->clear();
  for (int k = 0; k < n; ++k) {
    (*start)[k] = static_cast<int>(list->size());
    for (int i = parent[k]; i >= 0; i = parent[i]) list->push_back(i);
  }
  (*start)[n] = static_cast<int>(list->size());
}

std::vector<int> TreeCholesky::VelocityParents(const MultibodyModel& model, int tree) {
  const Tree& t = model.tree(tree);
  std::vector<int> parent(t.nv, -1);
  // Per body: the last velocity of the body or of its nearest ancestor with one.
  std::vector<int> last(t.body_end - t.body_begin, -1);
  for (int b = t.body_begin; b < t.body_end; ++b) {
    const Body& body = model.body(b);
    const Joint& j = model.joint(body.joint);
    const int inherited = body.parent >= t.body_begin ? last[body.parent - t.body_begin] : -1;
    for (int k = 0; k < j.nv; ++k) {
      const int local = j.v_start - t.v_start + k;
      if (local < 0 || local >= t.nv) return {};
      parent[local] = k == 0 ? inherited : local - 1;
      if (parent[local] >= local) return {};
    }
    last[b - t.body_begin] = j.nv > 0 ? j.v_start - t.v_start + j.nv - 1 : inherited;
  }
  return parent;
}

bool TreeCholesky::Factor(const MatrixX& A) {
  const int n = static_cast<int>(A.rows());
  if (static_cast<int>(dense_start_.size()) != n + 1) {
    std::vector<int> chain(n);
    for (int k = 0; k < n; ++k) chain[k] = k - 1;
    BuildAncestors(chain, &dense_start_, &dense_list_);
  }
  // The tree's pattern when A keeps to it (an exact zero off it).
  sparse_ = static_cast<int>(tree_start_.size()) == n + 1;
  for (int k = 0; sparse_ && k < n; ++k) {
    const unsigned char* row = on_pattern_.data() + static_cast<std::size_t>(k) * n;
    for (int i = 0; i < k; ++i) {
      if (row[i] == 0 && A(k, i) != 0) {
        sparse_ = false;
        break;
      }
    }
  }
  U_.resize(n, n);
  for (int k = 0; k < n; ++k) {
    U_(k, k) = A(k, k);
    for (int i : Ancestors(k)) U_(i, k) = A(k, i);
  }
  // From the leaves up: eliminating k updates only its ancestors' entries,
  // all inside the pattern ([RBDA] Ch. 6, the LTL factorization).
  for (int k = n - 1; k >= 0; --k) {
    const double d = U_(k, k);
    if (!(d > 0) || !std::isfinite(d)) {
      // Every solve with a failed factor is NaN, which the step reports.
      U_.setConstant(std::numeric_limits<double>::quiet_NaN());
      return false;
    }
    const double a = std::sqrt(d);
    U_(k, k) = a;
    const std::span<const int> ancestors = Ancestors(k);
    for (int i : ancestors) U_(i, k) /= a;
    for (int i : ancestors) {
      const double l_ki = U_(i, k);
      U_(i, i) -= l_ki * l_ki;
      for (int j : Ancestors(i)) U_(j, i) -= l_ki * U_(j, k);
    }
  }
  return true;
}

template <typename Rhs>
void TreeCholesky::HalfSolve(int last, Rhs* Y) const {
  // Lᵀ y = b from the last row up; a zero row of b stays zero unless a
  // descendant's row updates it.
  for (int i = last; i >= 0; --i) {
    auto row = Y->row(i);
    if ((row.array() == 0).all()) continue;
    row /= U_(i, i);
    for (int j : Ancestors(i)) Y->row(j) -= U_(j, i) * row;
  }
}

void TreeCholesky::Solve(Eigen::Ref<VectorX> x) const {
  const int n = size();
  HalfSolve(n - 1, &x);
  for (int i = 0; i < n; ++i) {
    double s = x[i];
    for (int j : Ancestors(i)) s -= U_(j, i) * x[j];
    x[i] = s / U_(i, i);
  }
}

Eigen::Block<TreeCholesky::RowMajorMatrix> TreeCholesky::Scratch(int rows, int cols) const {
  if (Y_.rows() < rows || Y_.cols() < cols) {
    Y_.resize(std::max<Eigen::Index>(Y_.rows(), rows), std::max<Eigen::Index>(Y_.cols(), cols));
  }
  return Y_.topLeftCorner(rows, cols);
}

double TreeCholesky::InverseDiagonal(int k) const {
  if (e_.size() < k + 1) e_.resize(k + 1);
  auto y = e_.head(k + 1);
  y.setZero();
  y[k] = 1;
  HalfSolve(k, &y);
  return y.squaredNorm();
}

template <int R>
void TreeCholesky::AddDelassus(const MatrixX& J, Eigen::Matrix<double, R, R>* W) const {
  int last = static_cast<int>(J.cols()) - 1;
  while (last >= 0 && (J.col(last).array() == 0).all()) --last;
  if (last < 0) return;
  auto Y = Scratch(last + 1, static_cast<int>(J.rows()));
  Y = J.leftCols(last + 1).transpose();
  HalfSolve(last, &Y);
  for (int i = 0; i <= last; ++i) {
    const auto y = Y.row(i);
    if ((y.array() == 0).all()) continue;
    if constexpr (R == Eigen::Dynamic) {
      W->noalias() += y.transpose() * y;
    } else {
      const Eigen::Matrix<double, 1, R> y_fixed = y;
      W->noalias() += y_fixed.transpose() * y_fixed;
    }
  }
}

void TreeCholesky::Inverse(MatrixX* A_inverse) const {
  const int n = size();
  A_inverse->setIdentity(n, n);
  for (int k = 0; k < n; ++k) Solve(A_inverse->col(k));
}

template void TreeCholesky::AddDelassus<1>(const MatrixX&, Eigen::Matrix<double, 1, 1>*) const;
template void TreeCholesky::AddDelassus<3>(const MatrixX&, Eigen::Matrix<double, 3, 3>*) const;
template void TreeCholesky::AddDelassus<Eigen::Dynamic>(const MatrixX&, MatrixX*) const;

}  // namespace stiction
