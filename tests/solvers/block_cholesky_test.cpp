// The supernodal-by-tree block Cholesky against a dense LLT of the same
// matrix, on random block-sparse SPD matrices with and without fill.
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/solvers/block_cholesky.h"

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

}  // namespace
}  // namespace stiction
