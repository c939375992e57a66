// AndersonAccelerator (engine/solvers/anderson_acceleration.h) on affine
// fixed-point maps, where type-II Anderson acceleration is GMRES in disguise
// ([Anderson]): with memory m ≥ n on an n-dimensional affine map it
// reaches the fixed point in at most n + 1 steps (up to round-off), where
// the plain iteration converges only as ρ(M)^k.
#include <gtest/gtest.h>

#include <random>

#include "engine/solvers/anderson_acceleration.h"

namespace stiction {
namespace {

struct AffineMap {
  MatrixX M;
  VectorX b;
  VectorX operator()(const VectorX& x) const { return M * x + b; }
  VectorX FixedPoint() const {
    return (MatrixX::Identity(b.size(), b.size()) - M).partialPivLu().solve(b);
  }
};

// A random nonsymmetric contraction with spectral radius ≤ `radius`: the
// slow case, as CANAL's De Saxcé mode (a factor ~0.85 per iteration).
AffineMap RandomContraction(int n, double radius, std::mt19937* rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  MatrixX Q = MatrixX::NullaryExpr(n, n, [&]() { return g(*rng); });
  const Eigen::HouseholderQR<MatrixX> qr(Q);
  Q = qr.householderQ();
  VectorX d(n);
  for (int i = 0; i < n; ++i) d[i] = radius * (0.5 + 0.5 * (i + 1.0) / n);  // Eigenvalues in (radius/2, radius].
  AffineMap map;
  map.M = Q * d.asDiagonal() * Q.transpose();
  map.b = VectorX::NullaryExpr(n, [&]() { return g(*rng); });
  return map;
}

int Iterate(const AffineMap& map, AndersonAccelerator* aa, double tol, int cap) {
  const VectorX star = map.FixedPoint();
  VectorX x = VectorX::Zero(map.b.size());
  for (int k = 1; k <= cap; ++k) {
    x = aa->Next(x, map(x));
    if ((x - star).norm() <= tol * star.norm()) return k;
  }
  return cap + 1;
}

TEST(AndersonAccelerationTest, SolvesAnAffineMapInAtMostDimensionPlusOneSteps) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 2 + trial % 4;
    const AffineMap map = RandomContraction(n, 0.95, &rng);
    AndersonAccelerator aa(6);
    // GMRES on an n-dimensional system terminates in n steps; one more for
    // the first, plain step. 1e-10: the least-squares problem loses a few
    // digits as its columns become dependent near the fixed point.
    EXPECT_LE(Iterate(map, &aa, 1e-10, 100), n + 2) << "trial " << trial;
    AndersonAccelerator plain(0);
    // 0.95^k ≤ 1e-10 needs k ≥ 449: the plain iteration is far slower.
    EXPECT_GT(Iterate(map, &plain, 1e-10, 100), 100) << "trial " << trial;
  }
}

TEST(AndersonAccelerationTest, ShortMemoryStillBeatsThePlainIterationOnALargeMap) {
  std::mt19937 rng(11);
  const AffineMap map = RandomContraction(60, 0.9, &rng);
  AndersonAccelerator aa(5), plain(0);
  const int accelerated = Iterate(map, &aa, 1e-8, 1000);
  const int unaccelerated = Iterate(map, &plain, 1e-8, 1000);
  // Plain: 0.9^k ≤ 1e-8 at k ≈ 175. Memory 5 on 60 dimensions is no longer
  // exact but must still cut the count at least by half.
  EXPECT_GT(unaccelerated, 150);
  EXPECT_LT(2 * accelerated, unaccelerated) << accelerated << " vs " << unaccelerated;
}

TEST(AndersonAccelerationTest, MemoryZeroIsThePlainIterationAndABadExtrapolationIsRejected) {
  AndersonAccelerator plain(0);
  const VectorX x = VectorX::Constant(2, 1.0), g = VectorX::Constant(2, 2.0);
  EXPECT_EQ(plain.Next(x, g), g);
  // G(x) = x/2 on a map that turns nonsmooth: from the extrapolated point G
  // jumps far away (‖f‖ grows), so that point is rejected and the iteration
  // goes on from the plain step of the last accepted point.
  AndersonAccelerator aa(3);
  const VectorX x0 = VectorX::Constant(2, 4.0), g0 = x0 / 2;
  EXPECT_EQ(aa.Next(x0, g0), g0);  // No difference yet: the plain step.
  const VectorX g1 = VectorX::Constant(2, 1.5);  // Not G(g0) = 1: a kink.
  const VectorX x2 = aa.Next(g0, g1);           // Extrapolated.
  EXPECT_NE(x2, g1);
  const VectorX g2 = x2 + VectorX::Constant(2, 100.0);  // G moves far from x2.
  EXPECT_EQ(aa.Next(x2, g2), g1);
  EXPECT_EQ(aa.restarts(), 1);
}

}  // namespace
}  // namespace stiction
