// Spatial algebra (engine/multibody/spatial_algebra.h) checked against its
// definitions, built here independently of the engine: the cross products
// as the 6×6 matrices of RBDA Eqs. 2.31–2.32, the spatial inertia through
// kinetic energy and momentum of a rigid body, and point velocities through
// a finite rigid motion.
#include "engine/multibody/spatial_algebra.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <random>

namespace stiction {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

/// [a]× written out entry by entry (not the engine's Skew, which the
/// inertia under test uses).
Matrix3 Hat(const Vector3& a) {
  Matrix3 S = Matrix3::Zero();
  S(0, 1) = -a.z();
  S(0, 2) = a.y();
  S(1, 0) = a.z();
  S(1, 2) = -a.x();
  S(2, 0) = -a.y();
  S(2, 1) = a.x();
  return S;
}

/// The motion cross-product operator V×ₘ as a matrix (RBDA Eq. 2.31):
///   [ [ω]×   0   ]
///   [ [v]×  [ω]× ]
Matrix6 MotionCrossMatrix(const Vector6& V) {
  Matrix6 X = Matrix6::Zero();
  X.topLeftCorner<3, 3>() = Hat(V.head<3>());
  X.bottomLeftCorner<3, 3>() = Hat(V.tail<3>());
  X.bottomRightCorner<3, 3>() = Hat(V.head<3>());
  return X;
}

Vector6 Spatial(const Vector3& angular, const Vector3& linear) {
  Vector6 V;
  V << angular, linear;
  return V;
}

struct Random {
  explicit Random(unsigned seed) : gen(seed) {}
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  Vector3 Vec3(double scale = 1) {
    return scale * Vector3(Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1));
  }
  Vector6 Vec6(double scale = 1) { return Spatial(Vec3(scale), Vec3(scale)); }
  /// A symmetric positive definite rotational inertia [kg m²] (a random
  /// rotation of positive principal moments that satisfy the triangle
  /// inequality, like a real body).
  Matrix3 Inertia() {
    const Matrix3 R = Eigen::Quaterniond(Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1),
                                         Uniform(-1, 1)).normalized().toRotationMatrix();
    const double a = Uniform(0.5, 1.0), b = Uniform(0.5, 1.0), c = Uniform(0.5, 1.0);
    // Principal moments of a solid with second moments a, b, c: all positive,
    // each below the sum of the other two.
    const Vector3 moments(b + c, a + c, a + b);
    return R * moments.asDiagonal() * R.transpose();
  }
  /// A rigid body: mass m ∈ [0.1, 10] kg, COM c (entries in [−2, 2] m, from
  /// Wo) and rotational inertia I_cm about the COM.
  struct RigidBody {
    double m;
    Vector3 c;
    Matrix3 I_cm;
  };
  RigidBody Body() {
    const double m = Uniform(0.1, 10.0);
    const Vector3 c = Vec3(2.0);
    return {m, c, Inertia()};
  }
  /// Body() moving with V (entries in [−3, 3]): its angular velocity ω and
  /// the COM velocity v_cm = v_Wo + ω × c.
  struct MovingBody {
    double m;
    Vector3 c;
    Matrix3 I_cm;
    Vector6 V;
    Vector3 w, v_cm;
  };
  MovingBody Moving() {
    const auto [m, c, I_cm] = Body();
    const Vector6 V = Vec6(3.0);
    const Vector3 w = V.head<3>();
    return {m, c, I_cm, V, w, V.tail<3>() + w.cross(c)};
  }
  std::mt19937 gen;
};

TEST(SpatialAlgebraTest, CrossProductsOfBasisVectors) {
  // Hand-evaluated cases, exact in floating point; each picks out one block
  // of Eq. 2.31/2.32, so a swapped or misplaced block fails here.
  const Vector3 x = Vector3::UnitX(), y = Vector3::UnitY(), z = Vector3::UnitZ(), o = Vector3::Zero();
  // Angular × angular → angular: x̂ × ŷ = ẑ.
  EXPECT_EQ(CrossMotion(Spatial(x, o), Spatial(y, o)), Spatial(z, o));
  // Angular × linear → linear (ω × m_v).
  EXPECT_EQ(CrossMotion(Spatial(x, o), Spatial(o, y)), Spatial(o, z));
  // Linear × angular → linear (v × m_ω).
  EXPECT_EQ(CrossMotion(Spatial(o, x), Spatial(y, o)), Spatial(o, z));
  // Linear × linear vanishes: translations commute.
  EXPECT_EQ(CrossMotion(Spatial(o, x), Spatial(o, y)), Spatial(o, o));
  // Force: ω × τ and ω × f.
  EXPECT_EQ(CrossForce(Spatial(x, o), Spatial(y, o)), Spatial(z, o));
  EXPECT_EQ(CrossForce(Spatial(x, o), Spatial(o, y)), Spatial(o, z));
  // Force: a linear velocity turns a force into a moment (v × f), not a force.
  EXPECT_EQ(CrossForce(Spatial(o, x), Spatial(o, y)), Spatial(z, o));
  EXPECT_EQ(CrossForce(Spatial(o, x), Spatial(y, o)), Spatial(o, o));
}

TEST(SpatialAlgebraTest, CrossMotionIsTheMatrixOfEq231) {
  Random rnd(1);
  for (int i = 0; i < 20; ++i) {
    const Vector6 V = rnd.Vec6(3.0), m = rnd.Vec6(2.0);
    const Vector6 expected = MotionCrossMatrix(V) * m;
    // Each entry is a sum of two products of O(6) numbers: a few ulps of 6·|V||m|.
    EXPECT_LT((CrossMotion(V, m) - expected).norm(), 10 * kEps * V.norm() * m.norm())
        << "V = " << V.transpose() << ", m = " << m.transpose();
  }
}

TEST(SpatialAlgebraTest, CrossForceIsMinusTheTransposeOfTheMotionCross) {
  // RBDA Eq. 2.32: V ×f = −(V ×ₘ)ᵀ.
  Random rnd(2);
  for (int i = 0; i < 20; ++i) {
    const Vector6 V = rnd.Vec6(3.0), f = rnd.Vec6(2.0);
    const Vector6 expected = -MotionCrossMatrix(V).transpose() * f;
    // As above: sums of two products, a few ulps.
    EXPECT_LT((CrossForce(V, f) - expected).norm(), 10 * kEps * V.norm() * f.norm())
        << "V = " << V.transpose() << ", f = " << f.transpose();
  }
}

TEST(SpatialAlgebraTest, CrossProductsAreDual) {
  // (V ×ₘ m) · f = −m · (V ×f f): the power of a force on a motion is
  // invariant when both move with V.
  Random rnd(3);
  for (int i = 0; i < 20; ++i) {
    const Vector6 V = rnd.Vec6(), m = rnd.Vec6(), f = rnd.Vec6();
    const double lhs = CrossMotion(V, m).dot(f);
    const double rhs = -m.dot(CrossForce(V, f));
    // Two dot products of 6 terms, each ≲ |V||m||f|: round-off of that size.
    EXPECT_NEAR(lhs, rhs, 20 * kEps * V.norm() * m.norm() * f.norm());
  }
}

TEST(SpatialAlgebraTest, CrossMotionIsAntisymmetricAndVanishesOnItself) {
  Random rnd(4);
  for (int i = 0; i < 20; ++i) {
    const Vector6 V = rnd.Vec6(5.0), m = rnd.Vec6();
    // V ×ₘ V = 0 (a body's velocity does not change as seen from itself).
    // ω×ω and ω×v + v×ω cancel term by term; allow a few ulps of |V|² in case
    // the compiler fuses a multiply-add.
    EXPECT_LT(CrossMotion(V, V).norm(), 4 * kEps * V.squaredNorm()) << V.transpose();
    // The Lie bracket is antisymmetric: V ×ₘ m = −(m ×ₘ V).
    EXPECT_LT((CrossMotion(V, m) + CrossMotion(m, V)).norm(), 10 * kEps * V.norm() * m.norm());
  }
}

TEST(SpatialAlgebraTest, InertiaGivesTheKineticEnergyOfTheBody) {
  // ½ Vᵀ I V = ½ m |v_cm|² + ½ ωᵀ I_cm ω with v_cm = v_Wo + ω × c (König).
  Random rnd(5);
  for (int i = 0; i < 20; ++i) {
    const auto [m, c, I_cm, V, w, v_cm] = rnd.Moving();
    const double expected = 0.5 * m * v_cm.squaredNorm() + 0.5 * w.dot(I_cm * w);
    const Matrix6 I = SpatialInertiaAboutWorldOrigin(m, c, I_cm);
    // The two sides differ by cancellations of terms up to m|c|²|ω|² (the
    // inertia about Wo is larger than about the COM): 1e-12 of the energy is
    // far above that round-off and far below any wrong term.
    EXPECT_NEAR(0.5 * V.dot(I * V), expected, 1e-12 * (expected + m * c.squaredNorm() * w.squaredNorm()));
  }
}

TEST(SpatialAlgebraTest, InertiaGivesTheMomentumOfTheBody) {
  // I V = [h_Wo; p]: linear momentum p = m v_cm and angular momentum about Wo
  // h_Wo = I_cm ω + c × m v_cm. This fixes every entry of I (energy alone
  // would not see an antisymmetric error).
  Random rnd(6);
  for (int i = 0; i < 20; ++i) {
    const auto [m, c, I_cm, V, w, v_cm] = rnd.Moving();
    const Vector6 expected = Spatial(I_cm * w + c.cross(m * v_cm), m * v_cm);
    const Vector6 h = SpatialInertiaAboutWorldOrigin(m, c, I_cm) * V;
    // Round-off of sums of products of size m|c|²|ω|, m|v|: 1e-12 relative.
    EXPECT_LT((h - expected).norm(), 1e-12 * (expected.norm() + m * c.squaredNorm() * w.norm()))
        << "h = " << h.transpose() << "\nexpected = " << expected.transpose();
  }
}

TEST(SpatialAlgebraTest, PointMassInertia) {
  // A point mass m at p: rotational inertia about Wo m(|p|²𝟙 − p pᵀ) (the
  // parallel-axis theorem), momentum [p × m v_p; m v_p], and no inertia at all
  // for the motions that leave p at rest (rotations about axes through p).
  const double m = 2.5;
  const Vector3 p(0.3, -1.2, 0.7);
  const Matrix6 I = SpatialInertiaAboutWorldOrigin(m, p, Matrix3::Zero());
  const Matrix3 expected_rot = m * (p.squaredNorm() * Matrix3::Identity() - p * p.transpose());
  // Entries are sums of a few products of O(1) numbers: 1e-14 absolute.
  EXPECT_LT((I.topLeftCorner<3, 3>() - expected_rot).norm(), 1e-14);
  EXPECT_LT((I.bottomRightCorner<3, 3>() - m * Matrix3::Identity()).norm(), 1e-14);

  const Vector6 V = Spatial(Vector3(0.4, 0.1, -2.0), Vector3(1.0, 0.5, -0.3));
  const Vector3 v_p = V.tail<3>() + V.head<3>().cross(p);
  const Vector6 expected = Spatial(p.cross(m * v_p), m * v_p);
  EXPECT_LT((I * V - expected).norm(), 1e-13);  // O(10) entries: 1e-14 relative.

  // Rotation about the axis ω through p: V = [ω; p × ω] moves p not at all.
  for (const Vector3& w : {Vector3(1, 0, 0), Vector3(0.2, -0.7, 0.4)}) {
    const Vector6 rotation_about_p = Spatial(w, p.cross(w));
    EXPECT_LT((I * rotation_about_p).norm(), 1e-14) << w.transpose();
  }
  // So the point mass has exactly a 3-dimensional null space: rank 3.
  Eigen::SelfAdjointEigenSolver<Matrix6> eig(I);
  const Vector6 lambda = eig.eigenvalues();  // Ascending.
  EXPECT_LT(lambda.head<3>().cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_GT(lambda(3), 0.1 * m);  // Well away from zero (not round-off).
}

TEST(SpatialAlgebraTest, InertiaIsSymmetricPositiveDefinite) {
  Random rnd(7);
  for (int i = 0; i < 20; ++i) {
    const auto [m, c, I_cm] = rnd.Body();
    const Matrix6 I = SpatialInertiaAboutWorldOrigin(m, c, I_cm);
    // Symmetric up to the round-off of the products that build each entry.
    EXPECT_LT((I - I.transpose()).norm(), 1e-14 * I.norm());
    // Positive definite: Cholesky succeeds and the smallest eigenvalue is
    // positive (kinetic energy > 0 for every non-zero motion).
    EXPECT_EQ(Eigen::LLT<Matrix6>(I).info(), Eigen::Success);
    Eigen::SelfAdjointEigenSolver<Matrix6> eig(I);
    EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
  }
}

TEST(SpatialAlgebraTest, PointVelocityOfARigidMotion) {
  // Independent construction: a body rotates with ω about point A, which
  // moves with v_A. After time h a body point P is at
  //   A + v_A h + R(ω h) (P − A);
  // its velocity is the central difference of that (O(h²) accurate). The
  // body's V has v_Wo = v_A − ω × A (the velocity of the body point at Wo).
  Random rnd(8);
  for (int i = 0; i < 10; ++i) {
    const Vector3 w = rnd.Vec3(2.0), A = rnd.Vec3(), v_A = rnd.Vec3(), P = rnd.Vec3(1.5);
    const auto position = [&](double t) -> Vector3 {
      return A + v_A * t + Eigen::AngleAxisd(w.norm() * t, w.normalized()) * (P - A);
    };
    const double h = 1e-5;
    const Vector3 expected = (position(h) - position(-h)) / (2 * h);
    const Vector6 V = Spatial(w, v_A - w.cross(A));
    // Truncation |ω|³|P − A| h²/6 ≈ 1e-9 plus round-off ε|P|/h ≈ 1e-10.
    EXPECT_LT((PointVelocity(V, P) - expected).norm(), 1e-8)
        << PointVelocity(V, P).transpose() << " vs " << expected.transpose();
  }
}

TEST(SpatialAlgebraTest, PointVelocitySpecialMotions) {
  const Vector3 w(0.3, -0.8, 1.1), A(0.5, 0.2, -0.4), v(1.0, 2.0, -3.0);
  // Points on the rotation axis through A are at rest.
  const Vector6 rotation = Spatial(w, A.cross(w));
  for (double s : {0.0, 1.0, -2.5}) {
    // A × ω and ω × (A + s ω) cancel up to the round-off of products of
    // O(1 + |s|) numbers.
    EXPECT_LT(PointVelocity(rotation, A + s * w).norm(), 1e-14 * (1 + std::abs(s))) << s;
  }
  // In a translation every point has the same velocity (exactly: ω = 0).
  const Vector6 translation = Spatial(Vector3::Zero(), v);
  EXPECT_EQ(PointVelocity(translation, Vector3(7, -3, 2)), v);
  // The origin's velocity is v_Wo itself.
  const Vector6 general = Spatial(w, v);
  EXPECT_EQ(PointVelocity(general, Vector3::Zero()), v);
  // Hand-evaluated: ω = ẑ, v_Wo = 0, P = x̂ → v_P = ẑ × x̂ = ŷ.
  EXPECT_EQ(PointVelocity(Spatial(Vector3::UnitZ(), Vector3::Zero()), Vector3::UnitX()),
            Vector3::UnitY());
}

}  // namespace
}  // namespace stiction
