// The supernodal-by-tree block Cholesky against a dense LLT of the same
// matrix, on random block-sparse SPD matrices with and without fill; and
// the Newton-matrix assembly over it (BlockNewtonMatrix) against a dense
// H = A + Σ JᵀGJ for every factorization choice.
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <Eigen/QR>

#include "engine/solvers/block_cholesky.h"
#include "engine/solvers/block_newton_matrix.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {
namespace {

struct BlockSparse {
  std::vector<int> sizes;
  std::vector<std::pair<int, int>> pairs;
  std::vector<MatrixX> diagonal, off;  // off[p]: rows of pairs[p].first.
  MatrixX Dense() const {
    std::vector<int> offset(sizes.size() + 1, 0);
    for (std::size_t b = 0; b < sizes.size(); ++b) offset[b + 1] = offset[b] + sizes[b];
    MatrixX H = MatrixX::Zero(offset.back(), offset.back());
    for (std::size_t b = 0; b < sizes.size(); ++b) H.block(offset[b], offset[b], sizes[b], sizes[b]) = diagonal[b];
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const auto [r, c] = pairs[p];
      H.block(offset[r], offset[c], sizes[r], sizes[c]) = off[p];
      H.block(offset[c], offset[r], sizes[c], sizes[r]) = off[p].transpose();
    }
    return H;
  }
};

// Random blocks on the given pattern, made SPD by diagonal dominance: each
// diagonal block gets a random SPD part plus the sum of the norms of its row's
// off-diagonal blocks times the identity (Gershgorin).
BlockSparse MakeRandom(std::vector<int> sizes, std::vector<std::pair<int, int>> pairs, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  BlockSparse m{std::move(sizes), std::move(pairs), {}, {}};
  std::vector<double> row_norm(m.sizes.size(), 0);
  for (const auto& [r, c] : m.pairs) {
    MatrixX B(m.sizes[r], m.sizes[c]);
    for (int i = 0; i < B.size(); ++i) B.data()[i] = u(random);
    row_norm[r] += B.norm();
    row_norm[c] += B.norm();
    m.off.push_back(B);
  }
  for (std::size_t b = 0; b < m.sizes.size(); ++b) {
    MatrixX M(m.sizes[b], m.sizes[b]);
    for (int i = 0; i < M.size(); ++i) M.data()[i] = u(random);
    m.diagonal.push_back(M * M.transpose() + (1 + row_norm[b]) * MatrixX::Identity(m.sizes[b], m.sizes[b]));
  }
  return m;
}

double SolveError(const BlockSparse& m, BlockCholesky* chol, unsigned seed) {
  std::vector<const MatrixX*> d, o;
  for (const MatrixX& x : m.diagonal) d.push_back(&x);
  for (const MatrixX& x : m.off) o.push_back(&x);
  EXPECT_TRUE(chol->Factor(d, o));
  const MatrixX H = m.Dense();
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  VectorX b(H.rows());
  for (int i = 0; i < b.size(); ++i) b[i] = u(random);
  VectorX x;
  chol->Solve(b, &x);
  const VectorX reference = H.llt().solve(b);
  return (x - reference).norm() / reference.norm();
}

// Diagonal dominance keeps cond(H) to a few hundred here, so a backward-
// stable Cholesky agrees with the dense one to ~cond·ε ≈ 1e-13.
constexpr double kTolerance = 1e-11;

TEST(BlockCholesky, RandomGraphWithFillMatchesDenseLlt) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    std::mt19937 random(seed);
    const int n = 30;
    std::vector<int> sizes(n);
    std::uniform_int_distribution<int> size(1, 8), node(0, n - 1);
    for (int& s : sizes) s = size(random);
    std::vector<std::pair<int, int>> pairs;
    for (int e = 0; e < 60; ++e) {
      const int r = node(random), c = node(random);
      bool seen = r == c;
      for (const auto& [a, b] : pairs) seen = seen || (a == r && b == c) || (a == c && b == r);
      if (!seen) pairs.emplace_back(r, c);
    }
    const BlockSparse m = MakeRandom(sizes, pairs, seed);
    BlockCholesky chol;
    chol.Analyze(m.sizes, m.pairs);
    EXPECT_GE(chol.num_factor_blocks(), static_cast<int>(pairs.size()));
    EXPECT_LT(SolveError(m, &chol, seed), kTolerance) << "seed " << seed;
  }
}

TEST(BlockCholesky, FreeBodyBlocksUseTheSixBySixKernelsAndAgree) {
  std::vector<int> sizes(40, 6);
  std::vector<std::pair<int, int>> pairs;
  for (int b = 1; b < 40; ++b) pairs.emplace_back(b, b / 2);  // A binary tree.
  for (int b = 0; b + 5 < 40; b += 5) pairs.emplace_back(b, b + 5);  // Plus cycles: fill.
  const BlockSparse m = MakeRandom(sizes, pairs, 11);
  BlockCholesky chol;
  chol.Analyze(m.sizes, m.pairs);
  EXPECT_LT(SolveError(m, &chol, 3), kTolerance);
  // Refactoring new values on the same pattern reuses the analysis.
  const BlockSparse m2 = MakeRandom(sizes, pairs, 12);
  EXPECT_LT(SolveError(m2, &chol, 4), kTolerance);
}

TEST(BlockCholesky, MinimumDegreeEliminatesAStarAndAChainWithoutFill) {
  // A star (centre 0) and a chain: eliminating leaves first creates no fill,
  // so L has exactly the input's off-diagonal blocks. A bad order (the
  // centre first) would fill in every leaf pair.
  std::vector<std::pair<int, int>> star, chain;
  for (int b = 1; b < 10; ++b) star.emplace_back(0, b);
  for (int b = 1; b < 10; ++b) chain.emplace_back(b - 1, b);
  for (const auto& pattern : {star, chain}) {
    const BlockSparse m = MakeRandom(std::vector<int>(10, 3), pattern, 5);
    BlockCholesky chol;
    chol.Analyze(m.sizes, m.pairs);
    EXPECT_EQ(chol.num_factor_blocks(), static_cast<int>(pattern.size()));
    EXPECT_LT(SolveError(m, &chol, 6), kTolerance);
  }
}

TEST(BlockCholesky, NotPositiveDefiniteIsReported) {
  BlockSparse m = MakeRandom({3, 3}, {{1, 0}}, 7);
  m.diagonal[1] = -MatrixX::Identity(3, 3);
  BlockCholesky chol;
  chol.Analyze(m.sizes, m.pairs);
  std::vector<const MatrixX*> d{&m.diagonal[0], &m.diagonal[1]}, o{&m.off[0]};
  EXPECT_FALSE(chol.Factor(d, o));
}

TEST(BlockCholesky, SixBySixKernelMatchesEigenLltOnRandomSpdBlocks) {
  // One 6×6 block (the hand-written Cholesky alone), SPD with eigenvalues
  // spread over 1e-4 … 1e4: the solve agrees with Eigen's LLT to cond·ε.
  std::mt19937 random(21);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 50; ++trial) {
    MatrixX M(6, 6);
    for (int i = 0; i < M.size(); ++i) M.data()[i] = u(random);
    const Eigen::HouseholderQR<MatrixX> qr(M);
    const MatrixX Q = qr.householderQ();
    VectorX eigenvalues(6);
    for (int i = 0; i < 6; ++i) eigenvalues[i] = std::pow(10.0, 4 * u(random));
    BlockSparse m{{6}, {}, {Q * eigenvalues.asDiagonal() * Q.transpose()}, {}};
    BlockCholesky chol;
    chol.Analyze(m.sizes, m.pairs);
    const double cond = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
    EXPECT_LT(SolveError(m, &chol, trial), 1e-14 * cond) << "trial " << trial;
  }
}

TEST(BlockCholesky, SixBySixBlocksReadOnlyTheLowerTriangleOfDiagonalBlocks) {
  // The Newton-matrix assembly forms only the lower triangle of H's diagonal
  // blocks; whatever is above the diagonal must not matter.
  std::vector<int> sizes(12, 6);
  std::vector<std::pair<int, int>> pairs;
  for (int b = 1; b < 12; ++b) pairs.emplace_back(b, b - 1);
  pairs.emplace_back(0, 11);  // A cycle: fill.
  pairs.emplace_back(3, 8);
  const BlockSparse m = MakeRandom(sizes, pairs, 13);
  std::vector<MatrixX> poisoned = m.diagonal;
  for (MatrixX& D : poisoned) D.triangularView<Eigen::StrictlyUpper>().setConstant(std::nan(""));
  std::vector<const MatrixX*> d, o;
  for (const MatrixX& x : poisoned) d.push_back(&x);
  for (const MatrixX& x : m.off) o.push_back(&x);
  BlockCholesky chol;
  chol.Analyze(m.sizes, m.pairs);
  ASSERT_TRUE(chol.Factor(d, o));
  const MatrixX H = m.Dense();
  const VectorX b = VectorX::LinSpaced(H.rows(), -1, 1);
  VectorX x;
  chol.Solve(b, &x);
  const VectorX reference = H.llt().solve(b);
  EXPECT_LT((x - reference).norm() / reference.norm(), kTolerance);
}

TEST(BlockCholesky, SixBySixNotPositiveDefiniteIsReported) {
  // Indefinite diagonal block, a singular one (zero pivot, which Eigen's LLT
  // also rejects), and blocks that are each SPD but whose Schur complement
  // is not (the failure shows only after the right-looking update).
  const BlockSparse base = MakeRandom({6, 6}, {{1, 0}}, 17);
  BlockSparse indefinite = base;
  indefinite.diagonal[0](4, 4) = -1;
  BlockSparse singular{{6}, {}, {base.diagonal[1]}, {}};  // Pivot 3 is exactly 0.
  singular.diagonal[0].row(3).setZero();
  singular.diagonal[0].col(3).setZero();
  BlockSparse schur = base;
  schur.diagonal[0] = MatrixX::Identity(6, 6);
  schur.diagonal[1] = MatrixX::Identity(6, 6);
  schur.off[0] = 2 * MatrixX::Identity(6, 6);  // [I 2I; 2I I] is indefinite.
  for (const BlockSparse* m : {&indefinite, &singular, &schur}) {
    EXPECT_FALSE(m->Dense().llt().info() == Eigen::Success);  // Eigen agrees.
    BlockCholesky chol;
    chol.Analyze(m->sizes, m->pairs);
    std::vector<const MatrixX*> d, o;
    for (const MatrixX& x : m->diagonal) d.push_back(&x);
    for (const MatrixX& x : m->off) o.push_back(&x);
    EXPECT_FALSE(chol.Factor(d, o));
  }
  // And the same pattern with SPD values factors again afterwards.
  BlockCholesky chol;
  chol.Analyze(base.sizes, base.pairs);
  std::vector<const MatrixX*> d{&schur.diagonal[0], &schur.diagonal[1]}, o{&schur.off[0]};
  EXPECT_FALSE(chol.Factor(d, o));
  EXPECT_LT(SolveError(base, &chol, 2), kTolerance);
}

// A problem with free-body trees (6 velocities: the fixed-size assembly
// kernels) and smaller trees (dynamic ones), 3-row constraints on one or two
// trees, 1-row constraints, and a random symmetric PSD weight G per
// constraint (as SAP's G = ∂γ/∂v_c), some of them zero (null: skipped).
struct NewtonCase {
  ContactProblem problem;
  std::vector<MatrixX> G;
  std::vector<bool> active;
};

NewtonCase MakeNewtonCase(unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  auto random_matrix = [&](int rows, int cols) {
    MatrixX M(rows, cols);
    for (int i = 0; i < M.size(); ++i) M.data()[i] = u(random);
    return M;
  };
  NewtonCase c;
  ContactProblem& p = c.problem;
  const std::vector<int> nv = {6, 6, 3, 6, 6, 1, 6, 6};
  int start = 0;
  for (int n : nv) {
    p.tree_v_start.push_back(start);
    p.tree_nv.push_back(n);
    const MatrixX M = random_matrix(n, n);
    p.A.push_back(M * M.transpose() + MatrixX::Identity(n, n));
    start += n;
  }
  p.v_star = VectorX::Zero(start);
  std::uniform_int_distribution<int> tree(0, static_cast<int>(nv.size()) - 2);  // Tree 7 stays out.
  for (int k = 0; k < 40; ++k) {
    Constraint con;
    con.num_rows = k % 7 == 6 ? 1 : 3;
    const int a = tree(random), b = tree(random);
    con.blocks.push_back({a, random_matrix(con.num_rows, nv[a])});
    if (b != a && k % 3 != 0) con.blocks.push_back({b, random_matrix(con.num_rows, nv[b])});
    const MatrixX W = random_matrix(con.num_rows, con.num_rows);
    c.G.push_back(W * W.transpose());
    c.active.push_back(k % 5 != 4);
    p.constraints.push_back(std::move(con));
  }
  return c;
}

TEST(BlockNewtonMatrix, EveryFactorizationSolvesTheAssembledMatrix) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const NewtonCase c = MakeNewtonCase(seed);
    const ContactProblem& p = c.problem;
    SolverLayout layout;
    layout.Build(p);
    // Reference: H = A + Σ_k J_kᵀ G_k J_k on the participating trees.
    MatrixX H = MatrixX::Zero(layout.n, layout.n);
    for (int t : layout.trees) H.block(layout.local_start[t], layout.local_start[t], p.tree_nv[t], p.tree_nv[t]) = p.A[t];
    for (std::size_t k = 0; k < p.constraints.size(); ++k) {
      if (!c.active[k]) continue;
      MatrixX J = MatrixX::Zero(p.constraints[k].num_rows, layout.n);
      for (const ConstraintJacobianBlock& b : p.constraints[k].blocks) {
        J.middleCols(layout.local_start[b.tree], p.tree_nv[b.tree]) += b.J;
      }
      H += J.transpose() * c.G[k] * J;
    }
    const VectorX b = VectorX::LinSpaced(layout.n, -2, 3);
    const VectorX reference = H.llt().solve(b);
    for (LinearSolverKind kind : {LinearSolverKind::kDense, LinearSolverKind::kSparse, LinearSolverKind::kBlock,
                                  LinearSolverKind::kAuto}) {
      BlockNewtonMatrix newton;
      newton.Analyze(p, layout, kind, 24);
      // Twice on the same pattern: the second assembly must not keep
      // anything from the first.
      for (int repeat = 0; repeat < 2; ++repeat) {
        newton.Assemble(p, layout, [&](int k) { return c.active[k] ? &c.G[k] : nullptr; });
        ASSERT_TRUE(newton.Factor());
        VectorX x;
        newton.Solve(b, &x);
        EXPECT_LT((x - reference).norm() / reference.norm(), kTolerance)
            << "seed " << seed << " kind " << static_cast<int>(kind) << " repeat " << repeat;
      }
    }
  }
}

TEST(BlockNewtonMatrix, FreeBodiesOnlyTakeTheFixedSizeBlockPath) {
  // All trees 6×6 and only 3-row constraints: the fixed-size assembly and
  // the 6×6 Cholesky kernels throughout.
  NewtonCase c = MakeNewtonCase(9);
  ContactProblem& p = c.problem;
  for (std::size_t t = 0; t < p.A.size(); ++t) {
    if (p.tree_nv[t] == 6) continue;
    p.tree_nv[t] = 6;
    p.A[t] = 4 * MatrixX::Identity(6, 6);
  }
  int start = 0;
  for (std::size_t t = 0; t < p.A.size(); ++t) p.tree_v_start[t] = start, start += 6;
  p.v_star = VectorX::Zero(start);
  std::mt19937 random(10);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t k = 0; k < p.constraints.size(); ++k) {
    Constraint& con = p.constraints[k];
    con.num_rows = 3;
    for (ConstraintJacobianBlock& blk : con.blocks) {
      blk.J.resize(3, 6);
      for (int i = 0; i < blk.J.size(); ++i) blk.J.data()[i] = u(random);
    }
    MatrixX W(3, 3);
    for (int i = 0; i < W.size(); ++i) W.data()[i] = u(random);
    c.G[k] = W * W.transpose();
  }
  SolverLayout layout;
  layout.Build(p);
  BlockNewtonMatrix block, dense;
  block.Analyze(p, layout, LinearSolverKind::kBlock, 24);
  dense.Analyze(p, layout, LinearSolverKind::kDense, 24);
  const VectorX b = VectorX::LinSpaced(layout.n, 1, -1);
  VectorX xb, xd;
  for (BlockNewtonMatrix* m : {&block, &dense}) {
    m->Assemble(p, layout, [&](int k) { return c.active[k] ? &c.G[k] : nullptr; });
    ASSERT_TRUE(m->Factor());
  }
  block.Solve(b, &xb);
  dense.Solve(b, &xd);
  EXPECT_LT((xb - xd).norm() / xd.norm(), kTolerance);
}

}  // namespace
}  // namespace stiction
