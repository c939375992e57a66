#pragma once
// Cholesky factorization P H Pᵀ = L Lᵀ (P a block permutation) of a
// symmetric positive definite matrix that is sparse by dense blocks: the
// Newton matrix of the primal solvers has one dense block per tree and one
// per pair of trees coupled by a constraint ([SAP] Sec. IV-D, Figs. 2-3,
// whose solver uses supernodal algebra at the tree level). The blocks are
// the supernodes: the elimination order is a minimum-degree order of the tree
// graph, computed once per pattern with its fill, and the numeric
// factorization works on whole dense blocks (fixed-size kernels when every
// block is a free body's 6×6), never on single entries.
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

#include "engine/common/eigen_types.h"

namespace stiction {

class BlockCholesky {
 public:
  /// Sets the pattern: block sizes (block b spans sizes[b] rows and columns,
  /// blocks laid out in this order) and the non-zero off-diagonal blocks
  /// (r, c), r ≠ c, each pair once in either orientation. Computes the
  /// elimination order and the fill. O(blocks · degree²).
  void Analyze(const std::vector<int>& sizes, const std::vector<std::pair<int, int>>& off_diagonal);

  /// Factors from the caller's blocks: diagonal[b] = H_bb (only its lower
  /// triangle is read) and off_diagonal[p] = H_rc of Analyze's pair p (rows
  /// of r, columns of c). Returns false when H is not positive definite.
  /// Allocates nothing once the first factorization of a pattern is done.
  bool Factor(const std::vector<const MatrixX*>& diagonal, const std::vector<const MatrixX*>& off_diagonal);

  /// x = H⁻¹ b after a successful Factor(). x may not alias b.
  void Solve(const VectorX& b, VectorX* x) const;

  int num_blocks() const { return static_cast<int>(sizes_.size()); }
  /// Off-diagonal blocks of L (pattern plus fill), for tests and benchmarks.
  int num_factor_blocks() const;

 private:
  struct Slot {
    int row = -1;  // Position (elimination order) of the row block, > column.
    MatrixX L;     // size(row) × size(column).
    bool fill = true;  // No H block lands here: Factor() starts it from zero.
  };
  struct Update {  // L(j, i) −= L(j, k) L(i, k)ᵀ for the rows i ≤ j of column k.
    int a, b;      // Slots of column k holding i (a) and j (b).
    int column;    // Position i.
    int slot;      // Slot of row j in column i, or −1 for the diagonal (i = j).
  };
  struct Column {
    int block = -1;  // Original block index.
    MatrixX D;       // H_kk, then its Cholesky factor L_kk in the lower triangle.
    Eigen::Matrix<double, 6, 1> inv_diagonal;  // 1 / L_kk(j, j) (6×6 blocks only).
    Eigen::LLT<MatrixX> llt;  // Workspace for blocks other than 6×6.
    std::vector<Slot> slots;  // Sorted by row position.
    std::vector<Update> updates;
  };
  struct Placement {  // Where an off-diagonal H block goes.
    int column, slot;
    bool transpose;   // Stored as H_rcᵀ (c is eliminated after r).
  };
  // The steps of Analyze: the adjacency of the block graph, the
  // minimum-degree order with its fill (order_, position_, column_rows_),
  // the factor's storage, the right-looking updates and where each H
  // block lands in L.
  void BuildBlockGraph(int n, const std::vector<std::pair<int, int>>& off_diagonal);
  void EliminateMinimumDegree(int n);
  void AllocateColumns(const std::vector<int>& sizes);
  void ScheduleUpdates();
  void PlaceBlocks(const std::vector<std::pair<int, int>>& off_diagonal);
  int SlotOf(int column, int row) const;
  // The forward and backward sweeps of Solve() for blocks of any size, on
  // y ordered by elimination position.
  void SolveSweeps(VectorX* y) const;

  std::vector<int> sizes_, offsets_;  // Original order.
  std::vector<int> position_;         // Block → elimination position.
  std::vector<Column> columns_;       // By elimination position.
  std::vector<int> column_start_;     // Offset of each column's segment, elimination order.
  std::vector<Placement> placement_;  // Per Analyze off-diagonal pair.
  bool all_six_ = false;
  // Analyze() scratch, kept for its capacity.
  std::vector<std::vector<int>> adjacent_, column_rows_;
  std::vector<char> eliminated_;
  std::vector<int> order_;
  mutable VectorX work_;
};

}  // namespace stiction
