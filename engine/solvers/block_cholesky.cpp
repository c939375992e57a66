#include "engine/solvers/block_cholesky.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace stiction {
namespace {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Map6 = Eigen::Map<Matrix6>;
using ConstMap6 = Eigen::Map<const Matrix6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

// X ← X L⁻ᵀ for a 6×6 lower-triangular L: column j of X Lᵀ = B reads
// Σ_{m ≤ j} X(:, m) L(j, m) = B(:, j), solved column by column (forward
// substitution on all six rows at once). Eigen's solveInPlace takes its
// general blocked path even for fixed 6×6 sizes; this is the same
// arithmetic without the blocking overhead.
void SolveRightLowerTranspose6(const ConstMap6& L, Map6* X) {
  for (int j = 0; j < 6; ++j) {
    for (int m = 0; m < j; ++m) X->col(j) -= L(j, m) * X->col(m);
    X->col(j) /= L(j, j);
  }
}

}  // namespace

void BlockCholesky::Analyze(const std::vector<int>& sizes,
                            const std::vector<std::pair<int, int>>& off_diagonal) {
  const int n = static_cast<int>(sizes.size());
  sizes_ = sizes;
  offsets_.assign(n + 1, 0);
  for (int b = 0; b < n; ++b) offsets_[b + 1] = offsets_[b] + sizes[b];
  all_six_ = std::all_of(sizes.begin(), sizes.end(), [](int s) { return s == 6; });

  // Minimum-degree elimination on the block graph: eliminating a block makes
  // its remaining neighbours a clique (the fill). Ties go to the lowest
  // index, so the order is deterministic. Scratch and factor storage are
  // members reused across calls (one call per solve and island).
  std::vector<std::vector<int>>& adjacent = adjacent_;
  adjacent.resize(n);
  for (auto& a : adjacent) a.clear();
  for (const auto& [r, c] : off_diagonal) {
    assert(r != c && r >= 0 && c >= 0 && r < n && c < n);
    adjacent[r].push_back(c);
    adjacent[c].push_back(r);
  }
  for (auto& a : adjacent) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  eliminated_.assign(n, 0);
  order_.clear();
  std::vector<std::vector<int>>& column_rows = column_rows_;  // By original block: its L row blocks.
  column_rows.resize(n);
  for (int step = 0; step < n; ++step) {
    int best = -1;
    std::size_t best_degree = std::numeric_limits<std::size_t>::max();
    for (int b = 0; b < n; ++b) {
      if (!eliminated_[b] && adjacent[b].size() < best_degree) best = b, best_degree = adjacent[b].size();
    }
    eliminated_[best] = 1;
    order_.push_back(best);
    const std::vector<int>& neighbours = column_rows[best] = adjacent[best];
    for (int u : neighbours) {
      std::vector<int>& a = adjacent[u];
      a.erase(std::remove(a.begin(), a.end(), best), a.end());
      for (int w : neighbours) {
        if (w != u && !std::binary_search(a.begin(), a.end(), w)) a.insert(std::upper_bound(a.begin(), a.end(), w), w);
      }
    }
    adjacent[best].clear();
  }
  position_.assign(n, -1);
  for (int k = 0; k < n; ++k) position_[order_[k]] = k;

  columns_.resize(n);
  for (int k = 0; k < n; ++k) {
    Column& col = columns_[k];
    col.block = order_[k];
    col.D.setZero(sizes[col.block], sizes[col.block]);
    const std::vector<int>& rows_of = column_rows[col.block];
    col.slots.resize(rows_of.size());
    for (std::size_t r = 0; r < rows_of.size(); ++r) col.slots[r].row = position_[rows_of[r]];
    std::sort(col.slots.begin(), col.slots.end(), [](const Slot& a, const Slot& b) { return a.row < b.row; });
    for (Slot& slot : col.slots) slot.L.setZero(sizes[order_[slot.row]], sizes[col.block]);
  }
  // Right-looking updates: for rows i ≤ j of column k, L(j, i) −= L(j, k) L(i, k)ᵀ.
  // The fill guarantees L(j, i) exists.
  for (int k = 0; k < n; ++k) {
    Column& col = columns_[k];
    col.updates.clear();
    for (int a = 0; a < static_cast<int>(col.slots.size()); ++a) {
      for (int b = a; b < static_cast<int>(col.slots.size()); ++b) {
        const int i = col.slots[a].row, j = col.slots[b].row;
        col.updates.push_back({a, b, i, i == j ? -1 : SlotOf(i, j)});
      }
    }
  }
  placement_.clear();
  for (const auto& [r, c] : off_diagonal) {
    const int pr = position_[r], pc = position_[c];
    // L's block (row later, column earlier) receives H_rc or H_rcᵀ.
    placement_.push_back(pr > pc ? Placement{pc, SlotOf(pc, pr), false} : Placement{pr, SlotOf(pr, pc), true});
  }
  column_start_.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) column_start_[k + 1] = column_start_[k] + sizes[order_[k]];
  work_.resize(offsets_[n]);
}

int BlockCholesky::SlotOf(int column, int row) const {
  const std::vector<Slot>& slots = columns_[column].slots;
  const auto it = std::lower_bound(slots.begin(), slots.end(), row,
                                   [](const Slot& s, int r) { return s.row < r; });
  assert(it != slots.end() && it->row == row);
  return static_cast<int>(it - slots.begin());
}

int BlockCholesky::num_factor_blocks() const {
  int count = 0;
  for (const Column& c : columns_) count += static_cast<int>(c.slots.size());
  return count;
}

bool BlockCholesky::Factor(const std::vector<const MatrixX*>& diagonal,
                           const std::vector<const MatrixX*>& off_diagonal) {
  assert(diagonal.size() == columns_.size() && off_diagonal.size() == placement_.size());
  for (Column& col : columns_) {
    col.D = *diagonal[col.block];
    for (Slot& s : col.slots) s.L.setZero();
  }
  for (std::size_t p = 0; p < placement_.size(); ++p) {
    const Placement& at = placement_[p];
    MatrixX& L = columns_[at.column].slots[at.slot].L;
    if (at.transpose) {
      L = off_diagonal[p]->transpose();
    } else {
      L = *off_diagonal[p];
    }
  }
  for (Column& col : columns_) {
    // D ← L_kk (lower triangle; LLT reads only the lower triangle of H_kk),
    // then L(i, k) = H(i, k) L_kk⁻ᵀ, i.e. X L_kkᵀ = H(i, k).
    if (all_six_) {
      const Eigen::LLT<Matrix6> llt(ConstMap6(col.D.data()));
      if (llt.info() != Eigen::Success) return false;
      Map6(col.D.data()) = llt.matrixLLT();
      const ConstMap6 Lkk(col.D.data());
      for (Slot& s : col.slots) {
        Map6 X(s.L.data());
        SolveRightLowerTranspose6(Lkk, &X);
      }
    } else {
      col.llt.compute(col.D);
      if (col.llt.info() != Eigen::Success) return false;
      col.D = col.llt.matrixLLT();
      const MatrixX& D = col.D;
      for (Slot& s : col.slots) D.transpose().triangularView<Eigen::Upper>().solveInPlace<Eigen::OnTheRight>(s.L);
    }
    for (const Update& u : col.updates) {
      const MatrixX& Li = col.slots[u.a].L;
      const MatrixX& Lj = col.slots[u.b].L;
      Column& target = columns_[u.column];
      MatrixX& T = u.slot < 0 ? target.D : target.slots[u.slot].L;
      if (all_six_) {
        Map6(T.data()).noalias() -= ConstMap6(Lj.data()) * ConstMap6(Li.data()).transpose();
      } else {
        T.noalias() -= Lj * Li.transpose();
      }
    }
  }
  return true;
}

void BlockCholesky::Solve(const VectorX& b, VectorX* x) const {
  assert(b.size() == offsets_.back());
  VectorX& y = work_;  // By elimination position, blocks contiguous per column.
  const std::vector<int>& start = column_start_;
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const int blk = columns_[k].block;
    y.segment(start[k], sizes_[blk]) = b.segment(offsets_[blk], sizes_[blk]);
  }
  if (all_six_) {
    // The same two sweeps with fixed 6×6 kernels.
    for (std::size_t k = 0; k < columns_.size(); ++k) {
      const Column& col = columns_[k];
      auto yk = y.segment<6>(start[k]);
      ConstMap6(col.D.data()).triangularView<Eigen::Lower>().solveInPlace(yk);
      for (const Slot& s : col.slots) y.segment<6>(start[s.row]).noalias() -= ConstMap6(s.L.data()) * yk;
    }
    for (std::size_t k = columns_.size(); k-- > 0;) {
      const Column& col = columns_[k];
      auto yk = y.segment<6>(start[k]);
      for (const Slot& s : col.slots) {
        yk.noalias() -= ConstMap6(s.L.data()).transpose() * y.segment<6>(start[s.row]);
      }
      ConstMap6(col.D.data()).transpose().triangularView<Eigen::Upper>().solveInPlace(yk);
    }
  } else {
    SolveSweeps(&y);
  }
  x->resize(b.size());
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const int blk = columns_[k].block;
    x->segment(offsets_[blk], sizes_[blk]) = y.segment(start[k], sizes_[blk]);
  }
}

void BlockCholesky::SolveSweeps(VectorX* y_ptr) const {
  VectorX& y = *y_ptr;
  const std::vector<int>& start = column_start_;
  // L y' = y.
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const Column& col = columns_[k];
    auto yk = y.segment(start[k], col.D.rows());
    col.D.triangularView<Eigen::Lower>().solveInPlace(yk);
    for (const Slot& s : col.slots) y.segment(start[s.row], s.L.rows()).noalias() -= s.L * yk;
  }
  // Lᵀ x = y'.
  for (std::size_t k = columns_.size(); k-- > 0;) {
    const Column& col = columns_[k];
    auto yk = y.segment(start[k], col.D.rows());
    for (const Slot& s : col.slots) yk.noalias() -= s.L.transpose() * y.segment(start[s.row], s.L.rows());
    col.D.transpose().triangularView<Eigen::Upper>().solveInPlace(yk);
  }
}

}  // namespace stiction
