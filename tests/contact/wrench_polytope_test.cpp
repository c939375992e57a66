// The NMDP wrench polytope (engine/contact/wrench_polytope.h; [NMDP]
// Eq. (5) and Remark 4, docs/nmdp.md Sec. 2): the softplus activation and
// its slope, the pyramid's geometry, dD/dφ against finite differences, and
// ∂D/∂q = (dD/dφ)(nᵀ J) through the real kinematics of an arm and a free
// body against finite differences of the configuration.
#include "engine/contact/wrench_polytope.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/common/error.h"
#include "engine/multibody/kinematics.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

constexpr double kLength = 1e-3;  // ℓ [m].

TEST(WrenchPolytopeTest, ActivationIsASmoothRampThatNeverVanishes) {
  EXPECT_NEAR(SmoothActivation(0, kLength), kLength * std::log(2.0), 1e-18);
  // p ≫ ℓ: s(p) = p + ℓ log(1 + e^−p/ℓ) ≈ p + ℓ e^−20 (2e-12 m at 20ℓ).
  EXPECT_NEAR(SmoothActivation(20 * kLength, kLength), 20 * kLength, 3e-12);
  // p ≪ −ℓ: s ≈ ℓ e^(p/ℓ), tiny but positive (Remark 5's "small positive constant").
  EXPECT_NEAR(SmoothActivation(-20 * kLength, kLength), kLength * std::exp(-20.0), 1e-20);
  EXPECT_GT(SmoothActivation(-700 * kLength, kLength), 0.0);
  // No overflow where exp(p/ℓ) would: 1 m of penetration is 1000 ℓ.
  EXPECT_DOUBLE_EQ(SmoothActivation(1.0, kLength), 1.0);
  EXPECT_DOUBLE_EQ(SmoothActivationSlope(1.0, kLength), 1.0);
  EXPECT_EQ(SmoothActivationSlope(-1.0, kLength), 0.0);  // e^−1000 underflows to 0, not NaN.
  // The slope against central differences (h = 1e-4 ℓ: truncation ~h²/ℓ³ ≈
  // 1e-8 relative, round-off ~1e-16 ℓ/h ≈ 1e-12).
  for (double p = -8 * kLength; p <= 8 * kLength; p += 0.37 * kLength) {
    const double h = 1e-4 * kLength;
    const double fd = (SmoothActivation(p + h, kLength) - SmoothActivation(p - h, kLength)) / (2 * h);
    EXPECT_NEAR(SmoothActivationSlope(p, kLength), fd, 1e-8) << "p = " << p;
  }
}

TEST(WrenchPolytopeTest, VerticesAreThePyramidEdgesScaledByStiffnessTimesActivation) {
  WrenchPolytopeParameters params;
  params.stiffness = 2e4;
  params.activation_length = kLength;
  const double mu = 0.6, phi = -3e-3;  // 3 mm of penetration.
  const Vector3 n = Vector3(0.2, -0.3, 1).normalized();
  const Vector3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
  for (int K : {3, 4, 8}) {
    params.edges = K;
    const Matrix3X D = PolytopeVertices(params, mu, phi, n, t1, t2);
    ASSERT_EQ(D.cols(), K);
    const double fn = params.stiffness * SmoothActivation(-phi, kLength);  // ≈ 60 N.
    for (int k = 0; k < K; ++k) {
      // Each vertex on the friction cone's boundary, normal part k s(−φ).
      EXPECT_NEAR(n.dot(D.col(k)), fn, 1e-12 * fn);
      EXPECT_NEAR((D.col(k) - n.dot(D.col(k)) * n).norm(), mu * fn, 1e-12 * fn);
    }
    // The tangential parts cancel (K ≥ 3 equally spaced directions).
    EXPECT_LT((D.rowwise().sum() - K * fn * n).norm(), 1e-11 * fn);
  }
}

TEST(WrenchPolytopeTest, DerivativeInTheSignedDistanceMatchesFiniteDifferences) {
  WrenchPolytopeParameters params;
  params.activation_length = kLength;
  const Vector3 n = Vector3::UnitZ(), t1 = Vector3::UnitX(), t2 = Vector3::UnitY();
  for (double phi = -6 * kLength; phi <= 6 * kLength; phi += 0.41 * kLength) {
    Matrix3X dD;
    PolytopeVertices(params, 0.5, phi, n, t1, t2, &dD);
    const double h = 1e-4 * kLength;
    const Matrix3X fd = (PolytopeVertices(params, 0.5, phi + h, n, t1, t2) -
                         PolytopeVertices(params, 0.5, phi - h, n, t1, t2)) / (2 * h);
    // Entries up to k √(1 + μ²) ≈ 1.1e5 N/m; the slope's relative FD error
    // is ~1e-8 (see above).
    EXPECT_LT((dD - fd).cwiseAbs().maxCoeff(), 1e-8 * params.stiffness) << "phi = " << phi;
  }
}

TEST(WrenchPolytopeTest, ConfigurationDerivativeThroughKinematicsMatchesFiniteDifferences) {
  // A point fixed on a body against the half-space z ≥ z0: φ(q) = n·p(q) − z0,
  // so dD/dt along a velocity v is (dD/dφ) nᵀ J v. Checked against central
  // differences of D along q(h) = q + h N(q) v for every body of an arm
  // (hinges) and of a free body (quaternion).
  WrenchPolytopeParameters params;
  params.activation_length = kLength;
  const Vector3 n = Vector3::UnitZ(), t1 = Vector3::UnitX(), t2 = Vector3::UnitY();
  const Vector3 p_BP(0.03, -0.07, 0.11);
  for (const MultibodyModel& model : {test::MakeThreeLinkArm(), test::MakeFreeBody()}) {
    VectorX q, v;
    test::RandomState(model, 4, &q, &v);
    const auto phi_at = [&](const VectorX& qq, int b, double z0) {
      KinematicsCache cache(model);
      CalcKinematics(model, qq, v, BodyRange::All(model), &cache);
      return n.dot(cache.X_WB[b] * p_BP) - z0;
    };
    KinematicsCache cache(model);
    CalcKinematics(model, q, v, BodyRange::All(model), &cache);
    for (int b = 1; b < model.num_bodies(); ++b) {
      const Vector3 p_WP = cache.X_WB[b] * p_BP;
      const double z0 = p_WP.z() + 2e-3;  // 2 mm into the half-space: the activation's steep part.
      Matrix3X dD;
      PolytopeVertices(params, 0.5, phi_at(q, b, z0), n, t1, t2, &dD);
      const double dphi = n.dot(CalcPointJacobian(model, cache, b, p_WP) * v);
      const Matrix3X analytic = dD * dphi;
      VectorX qdot;
      model.MapVelocityToQDot(q, v, &qdot);
      const double h = 1e-7;
      const Matrix3X fd = (PolytopeVertices(params, 0.5, phi_at(q + h * qdot, b, z0), n, t1, t2) -
                           PolytopeVertices(params, 0.5, phi_at(q - h * qdot, b, z0), n, t1, t2)) / (2 * h);
      // |dD/dt| ~ k |v| ~ 1e5 N/s; central differences at h = 1e-7 s: the
      // O(h²) kinematic term and the curvature of s (1/ℓ) are below 1e-4
      // relative, round-off ~1e-16 × 1e2 N / 1e-7 s ≈ 1e-7 N/s.
      EXPECT_LT((analytic - fd).cwiseAbs().maxCoeff(), 1e-4 * std::max(1.0, analytic.cwiseAbs().maxCoeff()))
          << model.body(b).name;
    }
  }
}

TEST(WrenchPolytopeTest, OutOfRangeParametersAreRefusedByName) {
  WrenchPolytopeParameters p;
  EXPECT_NO_THROW(ValidateWrenchPolytopeParameters(p));
  p.stiffness = 0;
  EXPECT_THROW(ValidateWrenchPolytopeParameters(p), InputError);
  p = {};
  p.activation_length = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(ValidateWrenchPolytopeParameters(p), InputError);
  p = {};
  p.edges = 2;
  try {
    ValidateWrenchPolytopeParameters(p);
    ADD_FAILURE() << "edges = 2 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("edges"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace stiction
