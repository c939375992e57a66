#include "engine/solvers/block_newton_matrix.h"

#include <algorithm>
#include <chrono>

#include "engine/common/stopwatch.h"

namespace stiction {

namespace {
// A contact on one or two free bodies (3 rows, 6 velocities per tree): the
// fixed-size kernels of AddProducts.
bool UsesFixedKernels(const Constraint& c) {
  return c.num_rows == 3 && c.blocks.size() <= 2 &&
         std::all_of(c.blocks.begin(), c.blocks.end(), [](const auto& b) { return b.J.cols() == 6; });
}
}  // namespace

void BlockNewtonMatrix::Analyze(const ContactProblem& problem, const SolverLayout& layout,
                                LinearSolverKind kind, int dense_max_size) {
  n_ = layout.n;
  ChooseFactorization(kind, layout.n, dense_max_size);
  pattern_analyzed_ = false;
  BuildPairBlocks(problem, layout);
  if (use_dense_) return;
  if (use_block_) {
    AnalyzeBlockPattern(problem, layout);
  } else {
    AnalyzeSparsePattern(layout);
  }
}

void BlockNewtonMatrix::ChooseFactorization(LinearSolverKind kind, int n, int dense_max_size) {
  use_block_ = false;
  switch (kind) {
    case LinearSolverKind::kDense: use_dense_ = true; break;
    case LinearSolverKind::kSparse: use_dense_ = false; break;
    case LinearSolverKind::kBlock: use_dense_ = false, use_block_ = true; break;
    case LinearSolverKind::kAuto:
      use_dense_ = n <= dense_max_size;
      use_block_ = !use_dense_;
      break;
  }
}

int BlockNewtonMatrix::PairBlockOf(const ContactProblem& problem, int row_tree, int col_tree) {
  for (const auto& [col, block] : pairs_of_row_tree_[row_tree]) {
    if (col == col_tree) return block;
  }
  const int block = num_pair_blocks_++;
  if (static_cast<int>(pair_blocks_.size()) < num_pair_blocks_) pair_blocks_.emplace_back();
  PairBlock& pb = pair_blocks_[block];
  pb.row_tree = row_tree;
  pb.col_tree = col_tree;
  pb.H.setZero(problem.tree_nv[row_tree], problem.tree_nv[col_tree]);
  pb.value_index.clear();
  pairs_of_row_tree_[row_tree].emplace_back(col_tree, block);
  return block;
}

void BlockNewtonMatrix::BuildPairBlocks(const ContactProblem& problem, const SolverLayout& layout) {
  // Dense blocks of H: one per participating tree (diagonal) and one per
  // pair of trees coupled by a constraint, stored with the later tree (in
  // the local order) as the row tree so that the block is in the lower part.
  // Storage is reused across calls (one call per solve and island): blocks
  // keep their allocation when their size is unchanged, and the lookup of a
  // tree pair scans the row tree's short list of column trees.
  num_pair_blocks_ = 0;
  diagonal_block_.assign(problem.num_trees(), -1);
  pairs_of_row_tree_.resize(problem.num_trees());
  for (int t : layout.trees) pairs_of_row_tree_[t].clear();
  for (int t : layout.trees) diagonal_block_[t] = PairBlockOf(problem, t, t);
  constraint_pairs_.resize(problem.constraints.size());
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    std::vector<int>& pairs = constraint_pairs_[i];
    pairs.clear();
    for (const ConstraintJacobianBlock& bi : problem.constraints[i].blocks) {
      for (const ConstraintJacobianBlock& bj : problem.constraints[i].blocks) {
        // Term J_jᵀ G J_i lands in rows of tree j, columns of tree i; keep
        // only the one in the lower part (row tree later than column tree).
        const bool lower = layout.local_start[bj.tree] >= layout.local_start[bi.tree];
        pairs.push_back(lower ? PairBlockOf(problem, bj.tree, bi.tree) : PairBlockOf(problem, bi.tree, bj.tree));
      }
    }
  }
  // Each block on its nonzero columns, for AddProducts' general shapes: a
  // foot's contact touches its leg and the floating base (9 of a
  // quadruped's 18 velocities), a joint row one column. The pattern holds
  // for every Newton iteration of this problem.
  compact_.resize(problem.constraints.size());
  for (size_t i = 0; i < problem.constraints.size(); ++i) {
    const std::vector<ConstraintJacobianBlock>& blocks = problem.constraints[i].blocks;
    if (UsesFixedKernels(problem.constraints[i])) continue;
    compact_[i].resize(blocks.size());
    for (size_t a = 0; a < blocks.size(); ++a) {
      const MatrixX& J = blocks[a].J;
      CompactJacobian& cj = compact_[i][a];
      cj.columns.clear();
      for (int col = 0; col < J.cols(); ++col) {
        if (!J.col(col).isZero(0)) cj.columns.push_back(col);
      }
      cj.J = J(Eigen::all, cj.columns);
    }
  }
}

void BlockNewtonMatrix::AnalyzeBlockPattern(const ContactProblem& problem, const SolverLayout& layout) {
  // Blocks are the participating trees in layout order; pair blocks with
  // two different trees are the off-diagonal ones.
  tree_block_.assign(problem.num_trees(), -1);
  std::vector<int>& sizes = block_sizes_;
  sizes.clear();
  for (int t : layout.trees) {
    tree_block_[t] = static_cast<int>(sizes.size());
    sizes.push_back(problem.tree_nv[t]);
  }
  std::vector<std::pair<int, int>>& off = block_pairs_;
  off.clear();
  block_diagonal_.assign(sizes.size(), nullptr);
  block_off_.clear();
  for (const PairBlock& pb : ActiveBlocks()) {
    if (pb.row_tree == pb.col_tree) {
      block_diagonal_[tree_block_[pb.row_tree]] = &pb.H;
    } else {
      off.emplace_back(tree_block_[pb.row_tree], tree_block_[pb.col_tree]);
      block_off_.push_back(&pb.H);
    }
  }
  block_llt_.Analyze(sizes, off);
}

void BlockNewtonMatrix::AnalyzeSparsePattern(const SolverLayout& layout) {
  // The sparse pattern (lower triangle of the blocks) is fixed for the whole
  // solve: build it once and remember where each block entry lives in the
  // value array, so that Assemble writes values in place (no triplets, no
  // sorting per Newton iteration).
  std::vector<Eigen::Triplet<double>> pattern;
  for (const PairBlock& pb : ActiveBlocks()) {
    const int orow = layout.local_start[pb.row_tree], ocol = layout.local_start[pb.col_tree];
    for (int col = 0; col < pb.H.cols(); ++col) {
      for (int row = 0; row < pb.H.rows(); ++row) {
        if (orow + row >= ocol + col) pattern.emplace_back(orow + row, ocol + col, 0.0);
      }
    }
  }
  H_.resize(layout.n, layout.n);
  H_.setFromTriplets(pattern.begin(), pattern.end());
  H_.makeCompressed();
  const int* outer = H_.outerIndexPtr();
  const int* inner = H_.innerIndexPtr();
  for (PairBlock& pb : ActiveBlocks()) {
    const int orow = layout.local_start[pb.row_tree], ocol = layout.local_start[pb.col_tree];
    pb.value_index.assign(pb.H.size(), -1);
    for (int col = 0; col < pb.H.cols(); ++col) {
      const int j = ocol + col;
      for (int row = 0; row < pb.H.rows(); ++row) {
        const int i = orow + row;
        if (i < j) continue;
        const int* at = std::lower_bound(inner + outer[j], inner + outer[j + 1], i);
        pb.value_index[col * pb.H.rows() + row] = static_cast<int>(at - inner);
      }
    }
  }
}

namespace {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Matrix63 = Eigen::Matrix<double, 6, 3>;

// H += Jᵀ_row (G J_col) for a 3-row constraint on two 6-velocity trees, given
// Jt = Jᵀ_row (6×3) and X = (G J_col)ᵀ (6×3): H(:, c) += Σ_m X(c, m) Jt(:, m),
// so that every operand is read down contiguous columns of six (vectorized).
void AddJtGJ(const Matrix63& Jt, const Matrix63& X, double* h) {
  Eigen::Map<Matrix6>(h).noalias() += Jt * X.transpose();
}

// The same for a diagonal pair (row and column block the same Jacobian): the
// Cholesky reads only the lower triangle of H's diagonal blocks, so only it
// is formed, by panels of two columns (rows 0–5 of columns 0–1, rows 2–5 of
// 2–3, rows 4–5 of 4–5): 72 multiply-adds instead of 108. The three entries
// just above the diagonal inside the panels are written too, never read.
void AddJtGJLower(const Matrix63& Jt, const Matrix63& X, double* h) {
  Eigen::Map<Matrix6> H(h);
  H.block<6, 2>(0, 0).noalias() += Jt * X.topRows<2>().transpose();
  H.block<4, 2>(2, 2).noalias() += Jt.bottomRows<4>() * X.middleRows<2>(2).transpose();
  H.block<2, 2>(4, 4).noalias() += Jt.bottomRows<2>() * X.bottomRows<2>().transpose();
}

}  // namespace

void BlockNewtonMatrix::AddProducts(const Constraint& c, const MatrixX& G, const std::vector<int>& pairs,
                                    const std::vector<CompactJacobian>& compact) {
  // The common case, a contact on one or two free bodies (3 rows, 6
  // velocities per tree), with fixed-size kernels; any other shape with
  // dynamic ones. Term (i, j) is J_jᵀ G J_i (rows of tree j, columns of
  // tree i); only the orientation stored in the lower part is formed.
  const int nb = static_cast<int>(c.blocks.size());
  if (UsesFixedKernels(c)) {
    // Jt[a] = J_aᵀ and X[a] = (G J_a)ᵀ = J_aᵀ Gᵀ, each formed once.
    Matrix63 Jt[2], X[2];
    const Eigen::Map<const Eigen::Matrix3d> Gm(G.data());
    for (int a = 0; a < nb; ++a) {
      Jt[a] = Eigen::Map<const Eigen::Matrix<double, 3, 6>>(c.blocks[a].J.data()).transpose();
      X[a].noalias() = Jt[a] * Gm.transpose();
    }
    for (int a = 0; a < nb; ++a) {      // i: column block.
      for (int b = 0; b < nb; ++b) {    // j: row block.
        PairBlock& pb = pair_blocks_[pairs[a * nb + b]];
        if (c.blocks[b].tree != pb.row_tree || c.blocks[a].tree != pb.col_tree) continue;
        if (a == b) {
          AddJtGJLower(Jt[b], X[a], pb.H.data());
        } else {
          AddJtGJ(Jt[b], X[a], pb.H.data());
        }
      }
    }
    return;
  }
  // Other shapes on the columns their blocks touch (compact_, from
  // BuildPairBlocks), with coefficient-wise products: a few rows against
  // tens of velocities, where a blocked GEMM's packing costs more than it
  // saves.
  int p = 0;
  for (int a = 0; a < nb; ++a) {
    const CompactJacobian& ca = compact[a];
    Eigen::Map<MatrixX> gj = gj_.Get(G.rows(), ca.J.cols());
    gj.noalias() = G.lazyProduct(ca.J);
    for (int b = 0; b < nb; ++b) {
      PairBlock& pb = pair_blocks_[pairs[p++]];
      // pb holds rows of tree pb.row_tree, columns of pb.col_tree.
      if (c.blocks[b].tree != pb.row_tree || c.blocks[a].tree != pb.col_tree) continue;
      const CompactJacobian& cb = compact[b];
      if (a == b) {
        // A block with itself lands on the diagonal pair block, of which
        // the factorizations read the lower triangle only (Factor): its
        // entries on or below the diagonal, column by column (the column
        // lists ascend, so row i ≥ column j in the compact numbering).
        const int m = static_cast<int>(gj.rows());
        for (int j = 0; j < gj.cols(); ++j) {
          double* column = &pb.H(0, ca.columns[j]);
          const double* g = &gj(0, j);
          for (int i = j; i < cb.J.cols(); ++i) {
            const double* Ji = &cb.J(0, i);
            double sum = 0;
            for (int k = 0; k < m; ++k) sum += Ji[k] * g[k];
            column[cb.columns[i]] += sum;
          }
        }
        continue;
      }
      Eigen::Map<MatrixX> jtgj = jtgj_.Get(cb.J.cols(), gj.cols());
      jtgj.noalias() = cb.J.transpose().lazyProduct(gj);
      for (int j = 0; j < jtgj.cols(); ++j) {
        double* column = &pb.H(0, ca.columns[j]);
        for (int i = 0; i < jtgj.rows(); ++i) column[cb.columns[i]] += jtgj(i, j);
      }
    }
  }
}

void BlockNewtonMatrix::Assemble(const ContactProblem& problem, const SolverLayout& layout,
                                 const std::function<const MatrixX*(int)>& G) {
  // Block-sparse by trees ([SAP] Sec. IV-D): one dense block per pair of
  // coupled trees, summed over the pair's constraints, then only the lower
  // triangle goes to the Cholesky (which reads the lower part). The pattern
  // depends only on which trees each constraint couples, so it is the same
  // at every Newton iteration.
  for (PairBlock& pb : ActiveBlocks()) {
    if (pb.row_tree != pb.col_tree) pb.H.setZero();
  }
  for (int t : layout.trees) pair_blocks_[diagonal_block_[t]].H = problem.A[t];
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const MatrixX* Gk = G(static_cast<int>(k));
    if (Gk == nullptr) continue;
    AddProducts(problem.constraints[k], *Gk, constraint_pairs_[k], compact_[k]);
  }
  if (use_block_) return;  // Factor() reads the pair blocks directly.
  if (use_dense_) {
    H_dense_.setZero(layout.n, layout.n);
    for (const PairBlock& pb : ActiveBlocks()) {
      const int orow = layout.local_start[pb.row_tree], ocol = layout.local_start[pb.col_tree];
      H_dense_.block(orow, ocol, pb.H.rows(), pb.H.cols()) = pb.H;  // Lower part suffices.
    }
    return;
  }
  // In place, on the pattern fixed by Analyze.
  double* values = H_.valuePtr();
  for (const PairBlock& pb : ActiveBlocks()) {
    const double* h = pb.H.data();
    for (std::size_t e = 0; e < pb.value_index.size(); ++e) {
      if (pb.value_index[e] >= 0) values[pb.value_index[e]] = h[e];
    }
  }
}

bool BlockNewtonMatrix::Factor() {
  if (use_dense_) {
    dense_llt_.compute(H_dense_);  // Reads the lower triangle.
    return dense_llt_.info() == Eigen::Success;
  }
  if (use_block_) return block_llt_.Factor(block_diagonal_, block_off_);
  if (!pattern_analyzed_) {
    llt_.analyzePattern(H_);
    pattern_analyzed_ = true;
  }
  llt_.factorize(H_);
  return llt_.info() == Eigen::Success;
}

bool BlockNewtonMatrix::CalcNewtonDirection(const ContactProblem& problem, const SolverLayout& layout,
                                            const std::function<const MatrixX*(int)>& G, const VectorX& gradient,
                                            VectorX* dv, SolverResult* r) {
  auto t0 = std::chrono::steady_clock::now();
  Assemble(problem, layout, G);
  r->assembly_time_s += SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  if (!Factor()) return false;
  Solve(gradient, dv);
  *dv = -*dv;
  r->factorization_time_s += SecondsSince(t0);
  return true;
}

void BlockNewtonMatrix::Solve(const VectorX& b, VectorX* x) const {
  if (use_block_) {
    block_llt_.Solve(b, x);  // b is in layout order = the blocks' order.
    return;
  }
  *x = use_dense_ ? VectorX(dense_llt_.solve(b)) : VectorX(llt_.solve(b));
}

}  // namespace stiction
