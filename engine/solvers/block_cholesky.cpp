#include "engine/solvers/block_cholesky.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace stiction {
namespace {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Map6 = Eigen::Map<Matrix6>;
using ConstMap6 = Eigen::Map<const Matrix6>;

// The 6×6 kernels below unroll their column loops at compile time (index
// sequences) so that every block expression has fixed sizes: Eigen then
// emits straight-line vectorized code instead of its dynamic-size paths.
template <typename F>
void ForColumns6(F&& f) {
  [&]<int... J>(std::integer_sequence<int, J...>) { (f(std::integral_constant<int, J>{}), ...); }(
      std::make_integer_sequence<int, 6>{});
}

// In-place Cholesky A = L Lᵀ of a 6×6 block, reading and writing only the
// lower triangle; inv_diagonal ← 1 / L(j, j). Left-looking, column by
// column: L(j:5, j) = (A(j:5, j) − L(j:5, 0:j−1) L(j, 0:j−1)ᵀ) / L(j, j) with
// L(j, j) = √(A(j, j) − ‖L(j, 0:j−1)‖²) (the pivot is the first entry of the
// updated column). Fails like Eigen's LLT (its unblocked kernel tests
// pivot ≤ 0) on a non-positive pivot. Eigen's LLT<Matrix6> runs the same
// recurrence with dynamic-size blocks and also computes an L1 norm.
bool Cholesky6(double* a, double* inv_diagonal) {
  Map6 A(a);
  bool ok = true;
  ForColumns6([&](auto j_constant) {
    constexpr int j = decltype(j_constant)::value, rows = 6 - j;
    if (!ok) return;
    if constexpr (j > 0) {
      A.col(j).template tail<rows>().noalias() -=
          A.template block<rows, j>(j, 0) * A.row(j).template head<j>().transpose();
    }
    const double pivot = A(j, j);
    if (pivot <= 0) {
      ok = false;
      return;
    }
    const double l = std::sqrt(pivot), inv = 1 / l;
    A(j, j) = l;
    inv_diagonal[j] = inv;
    if constexpr (rows > 1) A.col(j).template tail<rows - 1>() *= inv;
  });
  return ok;
}

// X ← X L⁻ᵀ for a 6×6 lower-triangular L: column j of X Lᵀ = B reads
// Σ_{m ≤ j} X(:, m) L(j, m) = B(:, j), solved column by column (forward
// substitution on all six rows at once). Eigen's solveInPlace takes its
// general blocked path even for fixed 6×6 sizes.
void SolveRightLowerTranspose6(const double* l, const double* inv_diagonal, double* x) {
  const ConstMap6 L(l);
  Map6 X(x);
  ForColumns6([&](auto j_constant) {
    constexpr int j = decltype(j_constant)::value;
    if constexpr (j > 0) {
      X.col(j).noalias() -= X.template leftCols<j>() * L.row(j).template head<j>().transpose();
    }
    X.col(j) *= inv_diagonal[j];
  });
}

// y ← L⁻¹ y for a 6×6 lower-triangular L (forward substitution).
void ForwardSubstitute6(const double* L, const double* inv_diagonal, double* y) {
  for (int j = 0; j < 6; ++j) {
    double yj = y[j];
    for (int m = 0; m < j; ++m) yj -= L[j + 6 * m] * y[m];
    y[j] = yj * inv_diagonal[j];
  }
}

// y ← L⁻ᵀ y for a 6×6 lower-triangular L (back substitution on Lᵀ).
void BackSubstitute6(const double* L, const double* inv_diagonal, double* y) {
  for (int j = 5; j >= 0; --j) {
    double yj = y[j];
    const double* cj = L + 6 * j;
    for (int m = j + 1; m < 6; ++m) yj -= cj[m] * y[m];
    y[j] = yj * inv_diagonal[j];
  }
}

// T ← T − Li Liᵀ on the lower triangle only (a diagonal block of the
// right-looking update, i = j), by panels of two columns: rows 0–5 of
// columns 0–1, rows 2–5 of columns 2–3, rows 4–5 of columns 4–5. 144
// multiply-adds instead of 216; the three entries above the diagonal inside
// the panels are written too, and never read.
void SymmetricUpdateLower6(const double* li, double* t) {
  const ConstMap6 Li(li);
  Map6 T(t);
  T.block<6, 2>(0, 0).noalias() -= Li * Li.block<2, 6>(0, 0).transpose();
  T.block<4, 2>(2, 2).noalias() -= Li.block<4, 6>(2, 0) * Li.block<2, 6>(2, 0).transpose();
  T.block<2, 2>(4, 4).noalias() -= Li.block<2, 6>(4, 0) * Li.block<2, 6>(4, 0).transpose();
}

// T ← T − Lj Liᵀ for 6×6 blocks.
void Update6(const double* lj, const double* li, double* t) {
  Map6(t).noalias() -= ConstMap6(lj) * ConstMap6(li).transpose();
}

}  // namespace

void BlockCholesky::Analyze(const std::vector<int>& sizes,
                            const std::vector<std::pair<int, int>>& off_diagonal) {
  const int n = static_cast<int>(sizes.size());
  sizes_ = sizes;
  offsets_.assign(n + 1, 0);
  for (int b = 0; b < n; ++b) offsets_[b + 1] = offsets_[b] + sizes[b];
  all_six_ = std::all_of(sizes.begin(), sizes.end(), [](int s) { return s == 6; });
  // Scratch and factor storage are members reused across calls (one call
  // per solve and island).
  BuildBlockGraph(n, off_diagonal);
  EliminateMinimumDegree(n);
  AllocateColumns(sizes);
  ScheduleUpdates();
  PlaceBlocks(off_diagonal);
  column_start_.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) column_start_[k + 1] = column_start_[k] + sizes[order_[k]];
  work_.resize(offsets_[n]);
}

void BlockCholesky::BuildBlockGraph(int n, const std::vector<std::pair<int, int>>& off_diagonal) {
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
}

void BlockCholesky::EliminateMinimumDegree(int n) {
  // Eliminating a block makes its remaining neighbours a clique (the fill).
  // Ties go to the lowest index, so the order is deterministic.
  std::vector<std::vector<int>>& adjacent = adjacent_;
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
}

void BlockCholesky::AllocateColumns(const std::vector<int>& sizes) {
  const int n = static_cast<int>(sizes.size());
  columns_.resize(n);
  for (int k = 0; k < n; ++k) {
    Column& col = columns_[k];
    col.block = order_[k];
    col.D.setZero(sizes[col.block], sizes[col.block]);
    const std::vector<int>& rows_of = column_rows_[col.block];
    col.slots.resize(rows_of.size());
    for (std::size_t r = 0; r < rows_of.size(); ++r) col.slots[r].row = position_[rows_of[r]];
    std::sort(col.slots.begin(), col.slots.end(), [](const Slot& a, const Slot& b) { return a.row < b.row; });
    for (Slot& slot : col.slots) slot.L.setZero(sizes[order_[slot.row]], sizes[col.block]);
  }
}

void BlockCholesky::ScheduleUpdates() {
  // Right-looking updates: for rows i ≤ j of column k, L(j, i) −= L(j, k) L(i, k)ᵀ.
  // The fill guarantees L(j, i) exists.
  for (Column& col : columns_) {
    col.updates.clear();
    for (int a = 0; a < static_cast<int>(col.slots.size()); ++a) {
      for (int b = a; b < static_cast<int>(col.slots.size()); ++b) {
        const int i = col.slots[a].row, j = col.slots[b].row;
        col.updates.push_back({a, b, i, i == j ? -1 : SlotOf(i, j)});
      }
    }
  }
}

void BlockCholesky::PlaceBlocks(const std::vector<std::pair<int, int>>& off_diagonal) {
  placement_.clear();
  for (const auto& [r, c] : off_diagonal) {
    const int pr = position_[r], pc = position_[c];
    // L's block (row later, column earlier) receives H_rc or H_rcᵀ.
    placement_.push_back(pr > pc ? Placement{pc, SlotOf(pc, pr), false} : Placement{pr, SlotOf(pr, pc), true});
  }
  for (Column& col : columns_) {
    for (Slot& slot : col.slots) slot.fill = true;
  }
  for (const Placement& at : placement_) columns_[at.column].slots[at.slot].fill = false;
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
  // Load H into the factor storage: diagonal blocks, H blocks at their
  // placements, zeros in the fill blocks only.
  for (Column& col : columns_) {
    if (all_six_) {
      Map6(col.D.data()) = ConstMap6(diagonal[col.block]->data());
    } else {
      col.D = *diagonal[col.block];
    }
    for (Slot& s : col.slots) {
      if (s.fill) s.L.setZero();
    }
  }
  for (std::size_t p = 0; p < placement_.size(); ++p) {
    const Placement& at = placement_[p];
    MatrixX& L = columns_[at.column].slots[at.slot].L;
    if (all_six_) {
      if (at.transpose) {
        Map6(L.data()) = ConstMap6(off_diagonal[p]->data()).transpose();
      } else {
        Map6(L.data()) = ConstMap6(off_diagonal[p]->data());
      }
    } else if (at.transpose) {
      L = off_diagonal[p]->transpose();
    } else {
      L = *off_diagonal[p];
    }
  }
  for (Column& col : columns_) {
    // D ← L_kk (lower triangle; LLT reads only the lower triangle of H_kk),
    // then L(i, k) = H(i, k) L_kk⁻ᵀ, i.e. X L_kkᵀ = H(i, k).
    if (all_six_) {
      double* Lkk = col.D.data();
      if (!Cholesky6(Lkk, col.inv_diagonal.data())) return false;
      for (Slot& s : col.slots) SolveRightLowerTranspose6(Lkk, col.inv_diagonal.data(), s.L.data());
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
        // Diagonal targets are read only in their lower triangle (Cholesky6).
        if (u.slot < 0) {
          SymmetricUpdateLower6(Li.data(), T.data());
        } else {
          Update6(Lj.data(), Li.data(), T.data());
        }
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
    // The same two sweeps with fixed 6×6 kernels (the diagonal solves
    // multiply by the reciprocal pivots Factor() kept).
    for (std::size_t k = 0; k < columns_.size(); ++k) {
      const Column& col = columns_[k];
      double* yk = y.data() + start[k];
      ForwardSubstitute6(col.D.data(), col.inv_diagonal.data(), yk);
      const Eigen::Map<const Eigen::Matrix<double, 6, 1>> ykv(yk);
      for (const Slot& s : col.slots) y.segment<6>(start[s.row]).noalias() -= ConstMap6(s.L.data()) * ykv;
    }
    for (std::size_t k = columns_.size(); k-- > 0;) {
      const Column& col = columns_[k];
      double* yk = y.data() + start[k];
      Eigen::Map<Eigen::Matrix<double, 6, 1>> ykv(yk);
      for (const Slot& s : col.slots) {
        ykv.noalias() -= ConstMap6(s.L.data()).transpose() * y.segment<6>(start[s.row]);
      }
      BackSubstitute6(col.D.data(), col.inv_diagonal.data(), yk);
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
