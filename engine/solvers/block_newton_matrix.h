#pragma once
// The Newton matrix H = A + Σ_k J_kᵀ G_k J_k of the primal solvers ([SAP]
// Sec. IV-A/D; [CANAL] Eq. 24 with G_k = β ∂λ_k/∂λ̃*_k): one dense block
// per participating tree and per pair of trees coupled by a constraint,
// factored by a dense LLT (small problems), the supernodal-by-tree block
// Cholesky (block_cholesky.h; the default above 24 velocities) or Eigen's
// simplicial Cholesky, each on a pattern analyzed once per problem. Only the
// lower triangle of the diagonal blocks is assembled and read. Shared by
// SAP and CANAL.
#include <functional>
#include <span>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/block_cholesky.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/solver_layout.h"
#include "engine/parameters/sap_parameters.h"

namespace stiction {

class BlockNewtonMatrix {
 public:
  /// Sets up the block pattern of `problem` on `layout` and picks the
  /// factorization (kAuto: dense up to `dense_max_size` local velocities).
  void Analyze(const ContactProblem& problem, const SolverLayout& layout, LinearSolverKind kind,
               int dense_max_size);
  /// H = A + Σ_k J_kᵀ G_k J_k. `G(k)` returns constraint k's rows × rows
  /// weight, or null when it is zero (the constraint adds nothing).
  void Assemble(const ContactProblem& problem, const SolverLayout& layout,
                const std::function<const MatrixX*(int)>& G);
  /// Cholesky of the assembled H; false when H is not positive definite.
  bool Factor();
  /// x = H⁻¹ b (after a successful Factor()).
  void Solve(const VectorX& b, VectorX* x) const;
  /// The Newton direction dv = −H⁻¹ g ([SAP] Alg. 2 line 3, [CANAL] Eq. 25)
  /// at `gradient` g: Assemble with `G`, Factor and Solve, the seconds spent
  /// added to r->assembly_time_s and r->factorization_time_s. False (dv
  /// unset) when H is not positive definite.
  bool CalcNewtonDirection(const ContactProblem& problem, const SolverLayout& layout,
                           const std::function<const MatrixX*(int)>& G, const VectorX& gradient, VectorX* dv,
                           SolverResult* r);
  bool dense() const { return use_dense_; }

 private:
  struct PairBlock {
    int row_tree, col_tree;
    MatrixX H;  // nv_row × nv_col block of H.
    // Sparse path: index into H_'s value array of each entry (column-major
    // over H), −1 for entries above the diagonal (not stored).
    std::vector<int> value_index;
  };
  // The steps of Analyze: the factorization, the dense blocks of H and the
  // pattern of the block or sparse factorization.
  void ChooseFactorization(LinearSolverKind kind, int n, int dense_max_size);
  void BuildPairBlocks(const ContactProblem& problem, const SolverLayout& layout);
  /// The block holding rows of `row_tree` and columns of `col_tree`, added
  /// (zero) when the pattern has none yet.
  int PairBlockOf(const ContactProblem& problem, int row_tree, int col_tree);
  void AnalyzeBlockPattern(const ContactProblem& problem, const SolverLayout& layout);
  void AnalyzeSparsePattern(const SolverLayout& layout);
  // A constraint's block on the columns it touches.
  struct CompactJacobian {
    std::vector<int> columns;  // Nonzero columns of the block's J.
    MatrixX J;                 // J on those columns.
  };
  void AddProducts(const Constraint& c, const MatrixX& G, const std::vector<int>& pairs,
                   const std::vector<CompactJacobian>& compact);
  // The blocks of the current pattern are the first num_pair_blocks_ of
  // pair_blocks_ (the rest keep their storage for later calls).
  std::span<PairBlock> ActiveBlocks() { return {pair_blocks_.data(), static_cast<std::size_t>(num_pair_blocks_)}; }
  std::vector<PairBlock> pair_blocks_;
  int num_pair_blocks_ = 0;
  std::vector<std::vector<std::pair<int, int>>> pairs_of_row_tree_;  // Per row tree: (column tree, block).
  std::vector<int> diagonal_block_;                 // Per tree: its diagonal block.
  std::vector<std::vector<int>> constraint_pairs_;  // Per constraint: block per (i, j).
  ScratchMatrix gj_;                                // G J scratch.
  ScratchMatrix jtgj_;                              // Jᵀ G J scratch.
  std::vector<std::vector<CompactJacobian>> compact_;  // Per constraint, per block.
  Eigen::SparseMatrix<double> H_;
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt_;
  bool pattern_analyzed_ = false;
  bool use_dense_ = false;
  bool use_block_ = false;
  BlockCholesky block_llt_;
  std::vector<int> tree_block_;                 // Tree → block index (layout order).
  std::vector<int> block_sizes_;                // Scratch for block_llt_.Analyze.
  std::vector<std::pair<int, int>> block_pairs_;
  std::vector<const MatrixX*> block_diagonal_;  // Per block: its diagonal H block.
  std::vector<const MatrixX*> block_off_;       // Per off-diagonal pair block.
  int n_ = 0;
  MatrixX H_dense_;
  Eigen::LLT<MatrixX> dense_llt_;
};

}  // namespace stiction
