// SAP's frictional contact ([SAP] Eqs. 23, 27–30, 35, 37; App. C–D): the
// projection against a brute-force minimization in every region, impulse and
// G against finite differences, the boundary conventions, the line-search
// terms, the physical reading of Sec. V-A, the regularization of Eqs. 29–30
// and convexity.
#include "engine/contact/friction_cone_constraint.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

namespace stiction {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = std::numbers::pi;

// ---------------------------------------------------------------------------
// Helpers. R = diag(Rt, Rt, Rn); the "tilde" space is ỹ = R^½ y (App. C), in
// which the projection is Euclidean onto a cone with μ̃ = μ (Rt/Rn)^½ and is
// non-expansive, so dimensionless comparisons are made there.

Vector3 Rdiag(const SapFrictionConeParameters& p) { return {p.Rt, p.Rt, p.Rn}; }
Vector3 Rsqrt(const SapFrictionConeParameters& p) { return Rdiag(p).cwiseSqrt(); }

// y = −R⁻¹(v_c − v̂_c), computed exactly as the implementation does.
Vector3 YFromVc(const SapFrictionConeParameters& p, const Vector3& vc) {
  return {-vc.x() / p.Rt, -vc.y() / p.Rt, -(vc.z() - p.vn_hat) / p.Rn};
}
Vector3 VcFromY(const SapFrictionConeParameters& p, const Vector3& y) {
  return {-p.Rt * y.x(), -p.Rt * y.y(), p.vn_hat - p.Rn * y.z()};
}
double NormR(const SapFrictionConeParameters& p, const Vector3& x) {
  return Rsqrt(p).cwiseProduct(x).norm();
}

// Brute-force reference for Eq. (23): argmin_{γ ∈ F} ½(γ − y)ᵀR(γ − y),
// F = {‖γ_t‖ ≤ μ γ_n}. It uses no cone formula: for a fixed γ_n = n ≥ 0 the
// tangential part is the Euclidean projection of y_t onto the disk of radius
// μn (R is isotropic in t), and the remaining 1-D function
//   φ(n) = ½ Rt dist(y_t, disk(μn))² + ½ Rn (n − y_n)²
// is convex (partial minimization of a jointly convex problem), so a
// golden-section search over n ∈ [0, n_max] finds its minimizer. n_max comes
// from non-expansiveness of a projection onto a cone: ‖γ‖_R ≤ ‖y‖_R.
Vector3 BruteForceProjection(const SapFrictionConeParameters& p, const Vector3& y) {
  const Eigen::Vector2d yt = y.head<2>();
  const double yr = yt.norm();
  auto tangential = [&](double n) -> Eigen::Vector2d {
    const double radius = p.mu * n;
    return yr <= radius ? yt : Eigen::Vector2d(yt * (radius / yr));
  };
  auto phi = [&](double n) {
    return 0.5 * p.Rt * (tangential(n) - yt).squaredNorm() + 0.5 * p.Rn * (n - y.z()) * (n - y.z());
  };
  double a = 0, b = (1 + 1e-9) * NormR(p, y) / std::sqrt(p.Rn) + 1e-300;
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = phi(c), fd = phi(d);
  for (int it = 0; it < 300; ++it) {
    if (fc <= fd) {
      b = d, d = c, fd = fc;
      c = b - g * (b - a), fc = phi(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + g * (b - a), fd = phi(d);
    }
  }
  // Candidates: the bracket's midpoint and the end n = 0 (the minimizer may
  // be the apex, where the bracket only approaches it).
  double n = 0.5 * (a + b);
  if (phi(0) <= phi(n)) n = 0;
  const Eigen::Vector2d gt = tangential(n);
  return {gt.x(), gt.y(), n};
}

// A y in tilde space at polar angle α from the +n axis (α ∈ [0, π]) and
// azimuth θ, with tilde magnitude ρ, mapped back with R^{-½}.
Vector3 YFromAngles(const SapFrictionConeParameters& p, double rho, double alpha, double theta) {
  const Vector3 yt(rho * std::sin(alpha) * std::cos(theta), rho * std::sin(alpha) * std::sin(theta),
                   rho * std::cos(alpha));
  return yt.cwiseQuotient(Rsqrt(p));
}

// Region boundaries as polar angles in tilde space: ∂F at atan μ̃, ∂F° at
// π/2 + atan μ̃ (App. C, Fig. 22).
double ConeAngle(const SapFrictionConeParameters& p) {
  return std::atan(p.mu * std::sqrt(p.Rt / p.Rn));
}

struct Sample {
  SapFrictionConeParameters p;
  Vector3 vc;
  ConeRegion expected;
};

// Random parameters (μ ∈ [0, 2], Rt/Rn ∈ [1e-4, 1] log-uniform, Rn over six
// decades) and a y whose tilde angle is drawn inside the requested region,
// at least `margin` (fraction of the region's angular width) from its
// boundaries. For μ = 0 the stiction region is the ray y_t = 0, y_n > 0.
class SampleGenerator {
 public:
  explicit SampleGenerator(unsigned seed) : rng_(seed) {}
  double U(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }

  SapFrictionConeParameters RandomParameters(double mu_min = 0) {
    SapFrictionConeParameters p;
    p.mu = (count_++ % 8 == 0) ? 0.0 : U(mu_min, 2);
    p.Rn = std::pow(10.0, U(-3, 3));
    p.Rt = p.Rn * std::pow(10.0, U(-4, 0));
    p.vn_hat = U(-1, 1);
    return p;
  }

  // A point anywhere (random parameters, y at a random angle and scale), or
  // on sample i one of the special points: y_t = 0 (i % 5 == 1), μ = 0
  // (i % 5 == 2), the apex y = 0 (i % 50 == 3).
  std::pair<SapFrictionConeParameters, Vector3> Anywhere(int i) {
    SapFrictionConeParameters p = RandomParameters();
    Vector3 y = YFromAngles(p, std::pow(10.0, U(-3, 3)), U(0, kPi), U(-kPi, kPi));
    if (i % 5 == 1) y.head<2>().setZero();
    if (i % 5 == 2) p.mu = 0;
    if (i % 50 == 3) y.setZero();
    return {p, y};
  }

  Sample Draw(ConeRegion region, double margin, double mu_min = 0) {
    Sample s;
    s.p = RandomParameters(mu_min);
    s.expected = region;
    const double a0 = ConeAngle(s.p);
    double lo = 0, hi = 0;
    switch (region) {
      case ConeRegion::kStiction: lo = 0, hi = a0; break;
      case ConeRegion::kSliding: lo = a0, hi = kPi / 2 + a0; break;
      case ConeRegion::kNoContact: lo = kPi / 2 + a0, hi = kPi; break;
    }
    // The axis α = 0 lies inside F (μ > 0) and α = π inside F°: only the
    // region's other side needs a margin there.
    const double w = hi - lo;
    const double lo_m = (region == ConeRegion::kStiction) ? 0 : lo + margin * w;
    const double hi_m = (region == ConeRegion::kNoContact) ? kPi : hi - margin * w;
    const double alpha = (w > 0) ? U(lo_m, hi_m) : 0.0;  // μ = 0 stiction: the ray.
    const double rho = std::pow(10.0, U(-2, 2));
    // v̂_n on the scale of R y (as in a real contact), so that forming
    // v_c − v̂_c loses no digits of y.
    s.p.vn_hat = U(-1, 1) * rho * std::sqrt(s.p.Rn);
    const Vector3 y = YFromAngles(s.p, rho, alpha, U(-kPi, kPi));
    s.vc = VcFromY(s.p, y);
    return s;
  }

 private:
  std::mt19937 rng_;
  int count_ = 0;
};

// ℓ(v_c) alone.
double Cost(const SapFrictionConeParameters& p, const Vector3& vc) {
  ConstraintEvaluation e;
  EvaluateFrictionCone(p, vc, &e);
  return e.cost;
}

// Symmetric, and R^½ G R^½ = ∂γ̃/∂ỹ (the Jacobian of a Euclidean projection
// onto a convex cone) has eigenvalues in [0, 1].
void ExpectSymmetricPsdBounded(const SapFrictionConeParameters& p, const MatrixX& G) {
  ASSERT_EQ(G.rows(), 3);
  ASSERT_EQ(G.cols(), 3);
  ASSERT_TRUE(G.allFinite());
  EXPECT_EQ(G, G.transpose());  // Built entry-by-entry symmetric: exact.
  const Matrix3 S = Rsqrt(p).asDiagonal() * G * Rsqrt(p).asDiagonal();
  const Vector3 eig = Eigen::SelfAdjointEigenSolver<Matrix3>(S).eigenvalues();
  // 1e-12: round-off of a few operations on O(1) entries.
  EXPECT_GE(eig.minCoeff(), -1e-12) << "G =\n" << G;
  EXPECT_LE(eig.maxCoeff(), 1 + 1e-12) << "G =\n" << G;
}

const char* Name(ConeRegion r) {
  switch (r) {
    case ConeRegion::kStiction: return "stiction";
    case ConeRegion::kSliding: return "sliding";
    case ConeRegion::kNoContact: return "no contact";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// 1. Projection against brute force.

TEST(SapFrictionConeTest, ProjectionMatchesBruteForceInAllRegions) {
  SampleGenerator gen(1234);
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> unit(0, 1);
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 210; ++i) {
    const ConeRegion target = static_cast<ConeRegion>(i % 3);
    // Margin 1e-3 of the region's angular width: enough that the region
    // expected from the sampling angle is unambiguous.
    const Sample s = gen.Draw(target, 1e-3);
    const SapFrictionConeParameters& p = s.p;
    const Vector3 y = YFromVc(p, s.vc);
    ConeRegion region;
    const Vector3 gamma = CalcFrictionConeImpulse(p, s.vc, &region);
    const Vector3 ref = BruteForceProjection(p, y);
    const double scale = NormR(p, y);
    SCOPED_TRACE(testing::Message() << "sample " << i << " mu=" << p.mu << " Rt=" << p.Rt
                                    << " Rn=" << p.Rn << " y=" << y.transpose()
                                    << " target=" << Name(target));
    // 1e-6 relative in the R-norm: the golden-section reference resolves the
    // minimizer of a quadratic only to ~sqrt(ε) ≈ 1.5e-8 of ‖y‖_R.
    EXPECT_LE(NormR(p, gamma - ref), 1e-6 * scale);
    EXPECT_EQ(region, s.expected) << "got " << Name(region);
    ++counts[static_cast<int>(region)];

    // The region agrees with what γ is: y itself, 0, or on the cone wall.
    // 1e-12 relative: γ = y and γ = 0 are returned exactly; the wall
    // identity ‖γ_t‖ = μ γ_n holds to a few roundings.
    if (region == ConeRegion::kStiction) {
      EXPECT_EQ(gamma, y);
    }
    if (region == ConeRegion::kNoContact) {
      EXPECT_EQ(gamma, Vector3::Zero());
    }
    if (region == ConeRegion::kSliding) {
      EXPECT_NEAR(gamma.head<2>().norm(), p.mu * gamma.z(), 1e-12 * (1 + p.mu) * std::abs(gamma.z()));
      EXPECT_GT(gamma.z(), 0);
    }

    // Independent optimality check of the exact γ: the variational
    // inequality (y − γ)ᵀR(z − γ) ≤ 0 for random z ∈ F (incl. 0 and 2γ,
    // which for a cone give complementarity). Tolerance 1e-12 relative:
    // round-off in γ.
    std::vector<Vector3> zs = {Vector3::Zero(), 2 * gamma};
    for (int k = 0; k < 50; ++k) {
      const double n = unit(rng) * 2 * scale / std::sqrt(p.Rn);
      const double r = p.mu * n * unit(rng), th = 2 * kPi * unit(rng);
      zs.emplace_back(r * std::cos(th), r * std::sin(th), n);
    }
    for (const Vector3& z : zs) {
      const double vi = (y - gamma).dot(Rdiag(p).cwiseProduct(z - gamma));
      EXPECT_LE(vi, 1e-12 * scale * (scale + NormR(p, z)));
    }
  }
  // Every region is exercised (70 targets each).
  EXPECT_EQ(counts[0], 70);
  EXPECT_EQ(counts[1], 70);
  EXPECT_EQ(counts[2], 70);
}

TEST(SapFrictionConeTest, CalcAndEvaluateAgree) {
  SampleGenerator gen(7);
  ConstraintEvaluation e;
  for (int i = 0; i < 60; ++i) {
    const Sample s = gen.Draw(static_cast<ConeRegion>(i % 3), 0.0);
    EvaluateFrictionCone(s.p, s.vc, &e);
    EXPECT_EQ(e.gamma, CalcFrictionConeImpulse(s.p, s.vc));  // Same code path.
    // ℓ = ½‖γ‖²_R (Eq. 35 is this identity written per region); 1e-12: round-off.
    const double half_norm2 = 0.5 * std::pow(NormR(s.p, e.gamma), 2);
    EXPECT_NEAR(e.cost, half_norm2, 1e-12 * half_norm2);
  }
}

// ---------------------------------------------------------------------------
// 2. Derivatives by finite differences, and G symmetric PSD.

TEST(SapFrictionConeTest, ImpulseAndGMatchFiniteDifferencesPerRegion) {
  SampleGenerator gen(4321);
  ConstraintEvaluation e;
  for (int i = 0; i < 300; ++i) {
    const ConeRegion target = static_cast<ConeRegion>(i % 3);
    // μ ≥ 0.05 (plus exact μ = 0): keeps the stiction cone wide enough for
    // the step below; margin 2% of each region's angular width (≥ 0.03 rad
    // for sliding, so y_r ≥ 0.03‖ỹ‖ and t̂'s derivatives stay moderate).
    const Sample s = gen.Draw(target, 0.02, 0.05);
    const SapFrictionConeParameters& p = s.p;
    const Vector3 y = YFromVc(p, s.vc);
    const double rho = NormR(p, y);  // ‖ỹ‖.
    EvaluateFrictionCone(p, s.vc, &e);
    const Vector3 gamma = e.gamma;
    const Matrix3 G = e.G;
    SCOPED_TRACE(testing::Message() << "sample " << i << " " << Name(target) << " mu=" << p.mu
                                    << " Rt/Rn=" << p.Rt / p.Rn << " y=" << y.transpose());
    // Step in v_c whose effect on ỹ is 1e-7‖ỹ‖ per coordinate: stays inside
    // the region (margin ≥ 2% × (atan μ̃ ≥ 5e-4 rad) ≈ 1e-5 rad in stiction).
    const Vector3 h = 1e-7 * rho * Rsqrt(p);
    Vector3 gamma_fd;
    Matrix3 G_fd;
    for (int j = 0; j < 3; ++j) {
      Vector3 vp = s.vc, vm = s.vc;
      vp(j) += h(j);
      vm(j) -= h(j);
      const double two_h = vp(j) - vm(j);  // The step actually taken.
      gamma_fd(j) = -(Cost(p, vp) - Cost(p, vm)) / two_h;
      G_fd.col(j) = -(CalcFrictionConeImpulse(p, vp) - CalcFrictionConeImpulse(p, vm)) / two_h;
    }
    // Compared in tilde units (γ̃ = R^½γ, ∂γ̃/∂ỹ = R^½ G R^½, both O(1)).
    // 1e-6: central-difference truncation (h²·ℓ''' ~ 1e-14/0.03² ≈ 1e-11)
    // and round-off (ε ℓ / h ~ 2e-16/1e-7 ≈ 2e-9 relative) are far below it.
    EXPECT_LE(NormR(p, gamma_fd - gamma), 1e-6 * rho);
    const Matrix3 S = Rsqrt(p).asDiagonal() * (G_fd - G) * Rsqrt(p).asDiagonal();
    EXPECT_LE(S.norm(), 1e-6) << "G =\n" << G << "\nG_fd =\n" << G_fd;
    // Per-region closed forms.
    if (target == ConeRegion::kNoContact) {
      EXPECT_EQ(G, Matrix3::Zero());
    }
    if (target == ConeRegion::kStiction && p.mu > 0) {
      EXPECT_EQ(G, Matrix3(Rdiag(p).cwiseInverse().asDiagonal()));
    }
    ExpectSymmetricPsdBounded(p, G);
  }
}

// Powers of two for R so that y = −R⁻¹(v_c − v̂_c) is exact and exact
// boundary points can be constructed.
SapFrictionConeParameters BoundaryParameters(double mu) {
  SapFrictionConeParameters p;
  p.mu = mu;
  p.Rt = std::ldexp(1.0, -10);
  p.Rn = std::ldexp(1.0, -3);
  p.vn_hat = 0;
  return p;
}

TEST(SapFrictionConeTest, BoundaryConventions) {
  ConstraintEvaluation e;
  for (const double mu : {0.3, 1.0, 1.7}) {
    const SapFrictionConeParameters p = BoundaryParameters(mu);
    const Matrix3 Rinv = Rdiag(p).cwiseInverse().asDiagonal();
    const double mu_hat = p.mu * (p.Rt / p.Rn), mu_t2 = p.mu * p.mu * (p.Rt / p.Rn);
    for (const double yn : {0.75, 3.0}) {
      // ∂F: y_r = μ y_n exactly → stiction formula (App. D).
      for (const Vector3& y : {Vector3(mu * yn, 0, yn), Vector3(0, -(mu * yn), yn)}) {
        const Vector3 vc = VcFromY(p, y);
        ASSERT_EQ(YFromVc(p, vc), y);
        ConeRegion region;
        EXPECT_EQ(CalcFrictionConeImpulse(p, vc, &region), y);
        EXPECT_EQ(region, ConeRegion::kStiction);
        EvaluateFrictionCone(p, vc, &e);
        EXPECT_EQ(e.G, Rinv);
        ExpectSymmetricPsdBounded(p, e.G);
      }
      // ∂F°: y_n = −μ̂ y_r exactly (y_r = yn here) → sliding formula, γ = 0.
      const Vector3 y(yn, 0, -(mu_hat * yn));
      const Vector3 vc = VcFromY(p, y);
      ASSERT_EQ(YFromVc(p, vc), y);
      ConeRegion region;
      EXPECT_EQ(CalcFrictionConeImpulse(p, vc, &region), Vector3::Zero());
      EXPECT_EQ(region, ConeRegion::kSliding);
      EvaluateFrictionCone(p, vc, &e);
      EXPECT_EQ(e.cost, 0);
      // With s = y_n + μ̂ y_r = 0 Eq. (37) is the rank-one f̂ f̂ᵀ part only.
      Matrix3 G_expected = Matrix3::Zero();
      const Vector3 f(p.mu / p.Rn, 0, 1 / p.Rn);  // R⁻¹ [μ̂ t̂; 1] Rn, t̂ = x.
      G_expected = f * f.transpose() * p.Rn / (1 + mu_t2);
      // 1e-12 relative: a few roundings.
      EXPECT_LE((e.G - G_expected).norm(), 1e-12 * G_expected.norm()) << e.G;
      // …which is the limit from inside the sliding region (1e-6: the
      // P⊥ weight there is μγ_n/(Rt y_r) = O(1e-9)/Rt).
      ConstraintEvaluation inside;
      EvaluateFrictionCone(p, VcFromY(p, y + Vector3(0, 0, 1e-9 * yn)), &inside);
      const Matrix3 S = Rsqrt(p).asDiagonal() * (inside.G - e.G) * Rsqrt(p).asDiagonal();
      EXPECT_LE(S.norm(), 1e-6);
      ExpectSymmetricPsdBounded(p, e.G);
    }
    // Apex y = 0: ∂F takes precedence → stiction, G = R⁻¹.
    {
      const Vector3 vc = VcFromY(p, Vector3::Zero());
      ConeRegion region;
      EXPECT_EQ(CalcFrictionConeImpulse(p, vc, &region), Vector3::Zero());
      EXPECT_EQ(region, ConeRegion::kStiction);
      EvaluateFrictionCone(p, vc, &e);
      EXPECT_EQ(e.G, Rinv);
      EXPECT_EQ(e.cost, 0);
    }
    // The axis y_t = 0: inside F for y_n > 0, inside F° for y_n < 0.
    {
      ConeRegion region;
      EXPECT_EQ(CalcFrictionConeImpulse(p, VcFromY(p, Vector3(0, 0, 2)), &region), Vector3(0, 0, 2));
      EXPECT_EQ(region, ConeRegion::kStiction);
      EXPECT_EQ(CalcFrictionConeImpulse(p, VcFromY(p, Vector3(0, 0, -2)), &region), Vector3::Zero());
      EXPECT_EQ(region, ConeRegion::kNoContact);
    }
    // Subnormal y_r in sliding: everything finite, γ in F, G PSD.
    {
      const Vector3 vc = VcFromY(p, Vector3(1e-310, 0, 0));
      ConeRegion region;
      CalcFrictionConeImpulse(p, vc, &region);
      EXPECT_EQ(region, ConeRegion::kSliding);
      EvaluateFrictionCone(p, vc, &e);
      EXPECT_TRUE(e.gamma.allFinite());
      EXPECT_TRUE(std::isfinite(e.cost));
      EXPECT_LE(e.gamma.head<2>().norm(), p.mu * e.gamma.z() * (1 + 1e-12));
      ExpectSymmetricPsdBounded(p, e.G);
    }
  }
}

TEST(SapFrictionConeTest, FrictionlessConeIsARay) {
  // μ = 0: F = {γ_t = 0, γ_n ≥ 0}, P_F(y) = (0, 0, max(y_n, 0)). It is
  // differentiable except at y_n = 0, with −∂γ/∂v_c = diag(0, 0, 1/Rn) for
  // y_n > 0 (also on the ray y_t = 0 itself, where Eq. 27's "stiction"
  // applies but R⁻¹ would not be the derivative) and 0 for y_n < 0.
  ConstraintEvaluation e;
  for (const SapFrictionConeParameters& p :
       {BoundaryParameters(0.0), SapFrictionConeParameters{0.0, 3e-5, 0.7, -0.2}}) {
    const Matrix3 G_contact = Vector3(0, 0, 1 / p.Rn).asDiagonal();
    struct Case {
      Vector3 y;
      ConeRegion region;
      bool in_contact;
    };
    const Case cases[] = {
        {{0, 0, 1.5}, ConeRegion::kStiction, true},     // On the ray.
        {{0.5, -2, 1.5}, ConeRegion::kSliding, true},   // Friction-free sliding.
        {{1e-300, 0, 1.5}, ConeRegion::kSliding, true}, // Next to the ray.
        {{0.5, -2, 0}, ConeRegion::kSliding, true},     // ∂F° (y_n = 0): sliding formula.
        {{0, 0, 0}, ConeRegion::kStiction, true},       // Apex: ∂F.
        {{0, 0, -1.5}, ConeRegion::kNoContact, false},  // y_r ≤ 0·y_n holds, but y ∉ F.
        {{0.5, -2, -1.5}, ConeRegion::kNoContact, false},
    };
    for (const Case& c : cases) {
      SCOPED_TRACE(testing::Message() << "y = " << c.y.transpose() << " Rn = " << p.Rn);
      const Vector3 vc = VcFromY(p, c.y);
      const Vector3 y = YFromVc(p, vc);  // Exact for the power-of-two R only.
      ConeRegion region;
      const Vector3 gamma = CalcFrictionConeImpulse(p, vc, &region);
      EXPECT_EQ(region, c.region);
      EXPECT_EQ(gamma, Vector3(0, 0, std::max(y.z(), 0.0)));
      EvaluateFrictionCone(p, vc, &e);
      EXPECT_EQ(e.G, c.in_contact ? G_contact : Matrix3::Zero());
      EXPECT_DOUBLE_EQ(e.cost, 0.5 * p.Rn * gamma.z() * gamma.z());  // Up to 4 ulps.
      ExpectSymmetricPsdBounded(p, e.G);
    }
  }
}

TEST(SapFrictionConeTest, GIsSymmetricPsdEverywhere) {
  // Random points anywhere, plus points pushed exactly onto y_t = 0, the
  // apex, and μ = 0 (see BoundaryConventions for exact ∂F and ∂F° points).
  SampleGenerator gen(555);
  ConstraintEvaluation e;
  for (int i = 0; i < 600; ++i) {
    const auto [p, y] = gen.Anywhere(i);
    EvaluateFrictionCone(p, VcFromY(p, y), &e);
    ExpectSymmetricPsdBounded(p, e.G);
    EXPECT_GE(e.cost, 0);
  }
}

// The line-search form (ℓ, γᵀΔv_c, Δv_cᵀGΔv_c without γ or G) against the
// full evaluation, in every region and on the special points of
// GIsSymmetricPsdEverywhere; also where y_t² underflows or exceeds 1e280 (the
// square-root shortcut hands over to hypot there).
TEST(SapFrictionConeTest, LineTermsMatchTheFullEvaluation) {
  SampleGenerator gen(808);
  ConstraintEvaluation e;
  for (int i = 0; i < 600; ++i) {
    auto [p, y] = gen.Anywhere(i);
    if (i % 50 == 4) y.head<2>() *= 1e-160;  // y_t² underflows.
    if (i % 50 == 5) y.head<2>() *= 1e142;   // y_t² beyond 1e280 (the cost stays finite).
    const Vector3 vc = VcFromY(p, y);
    const Vector3 dvc(gen.U(-1, 1), gen.U(-1, 1), gen.U(-1, 1));
    EvaluateFrictionCone(p, vc, &e);
    const FrictionConeLineTerms t = EvaluateFrictionConeAlong(p, vc, dvc);
    // Same formulas in a different association order: 1e-12 relative to
    // the size of the terms summed.
    const double g_scale = e.gamma.cwiseAbs().dot(dvc.cwiseAbs());
    const double h_scale = dvc.cwiseAbs().dot(e.G.cwiseAbs() * dvc.cwiseAbs());
    EXPECT_NEAR(t.cost, e.cost, 1e-12 * e.cost) << "sample " << i;
    EXPECT_NEAR(t.gamma_dot_dvc, e.gamma.dot(dvc), 1e-12 * g_scale) << "sample " << i;
    EXPECT_NEAR(t.dvc_G_dvc, dvc.dot(e.G * dvc), 1e-12 * h_scale) << "sample " << i;
  }
}

// ---------------------------------------------------------------------------
// 3. Physical checks of Sec. V-A.

TEST(SapFrictionConeTest, PhysicalInterpretationOfSecVA) {
  // Compliant point contact: stiffness k, dissipation time scale τ_d,
  // previous signed distance φ0 < 0 (penetration), time step δt.
  const double dt = 1e-3, k = 1e5, tau_d = 2e-3, phi0 = -1e-4;
  SapFrictionConeParameters p;
  p.mu = 0.6;
  p.Rn = 1 / (dt * k * (dt + tau_d));  // Rn⁻¹ = δt k (δt + τ_d).
  p.Rt = 1e-2 * p.Rn;
  p.vn_hat = -phi0 / (dt + tau_d);  // v̂_n = −φ0 / (δt + τ_d).
  const double mu_t2 = p.mu * p.mu * p.Rt / p.Rn, mu_hat = p.mu * p.Rt / p.Rn;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1, 1);
  int n_stiction = 0, n_sliding = 0;
  for (int i = 0; i < 200; ++i) {
    // Slip speeds from 1e-8 to 1 m/s; normal velocities around v̂_n.
    const Eigen::Vector2d vt = Eigen::Vector2d(U(rng), U(rng)) * std::pow(10.0, 4 * U(rng) - 4);
    const double vn = 0.02 * U(rng);
    const Vector3 vc(vt.x(), vt.y(), vn);
    const Vector3 y = YFromVc(p, vc);
    ConeRegion region;
    const Vector3 gamma = CalcFrictionConeImpulse(p, vc, &region);
    const double phi = phi0 + dt * vn;  // φ ≈ signed distance at the next step.
    const double scale = std::abs(gamma.z()) + gamma.head<2>().norm() + 1e-300;
    // 1e-12 relative below: these are algebraic identities, equal up to a
    // handful of roundings (the φ-form sums terms of similar size).
    if (region == ConeRegion::kStiction) {
      ++n_stiction;
      EXPECT_LE((gamma.head<2>() + vt / p.Rt).norm(), 1e-12 * scale);
      EXPECT_NEAR(gamma.z(), -(vn - p.vn_hat) / p.Rn, 1e-12 * scale);
      EXPECT_NEAR(gamma.z(), -dt * k * (phi + tau_d * vn), 1e-12 * scale);  // Eq. (2).
    } else if (region == ConeRegion::kSliding) {
      ++n_sliding;
      // Friction opposes slip with the maximum magnitude μγ_n.
      EXPECT_LE((gamma.head<2>() + p.mu * gamma.z() * vt / vt.norm()).norm(), 1e-12 * scale);
      EXPECT_NEAR(gamma.z(), (y.z() + mu_hat * y.head<2>().norm()) / (1 + mu_t2), 1e-12 * scale);
      EXPECT_NEAR(gamma.z(),
                  -dt / (1 + mu_t2) * k * (phi - (dt + tau_d) * p.mu * vt.norm() + tau_d * vn),
                  1e-12 * scale);
    }
    if (region != ConeRegion::kNoContact && vt.norm() > 0) {
      // Regularized friction, Eq. (28): γ_t = min(‖v_t‖/Rt, μγ_n) t̂, t̂ = −v_t/‖v_t‖.
      const Eigen::Vector2d expected =
          -std::min(vt.norm() / p.Rt, p.mu * gamma.z()) * vt / vt.norm();
      EXPECT_LE((gamma.head<2>() - expected).norm(), 1e-12 * scale);
    }
  }
  EXPECT_GT(n_stiction, 10);
  EXPECT_GT(n_sliding, 10);
}

// ---------------------------------------------------------------------------
// 4. The regularization of Sec. V: near-rigid β, stiction σ, v̂_n.

TEST(SapFrictionConeTest, RegularizationIsEqs29And30) {
  const double dt = 0.01, w = 2.0, phi0 = -1e-3;
  ContactModelParameters params;
  params.near_rigid_threshold = 1.0;
  params.stiction_tolerance = 1e-3;
  // A stiff pair: the near-rigid term wins, Rn = β²/(4π²) w (Eq. 29): the
  // stiffness 1/(δt² Rn) on the effective mass 1/w has the period β δt.
  const double k_stiff = 1e12, tau_d = 0.0;
  SapFrictionConeParameters p = MakeFrictionConeParameters(w, k_stiff, tau_d, 0.4, phi0, dt, params);
  EXPECT_DOUBLE_EQ(p.Rn, w / (4 * kPi * kPi));
  EXPECT_DOUBLE_EQ(p.Rt, 1e-3 * w);  // Eq. (30): Rt = σ w.
  EXPECT_EQ(p.mu, 0.4);
  EXPECT_DOUBLE_EQ(p.vn_hat, -phi0 / (dt + tau_d));  // Sec. V-A.
  // A soft pair: the physical compliance 1/(δt k (δt + τd)) wins.
  const double k_soft = 1e3, tau_d_soft = 0.02;
  p = MakeFrictionConeParameters(w, k_soft, tau_d_soft, 0.4, phi0, dt, params);
  EXPECT_DOUBLE_EQ(p.Rn, 1 / (dt * k_soft * (dt + tau_d_soft)));
  EXPECT_DOUBLE_EQ(p.vn_hat, -phi0 / (dt + tau_d_soft));
  // β = 0 leaves only the physical compliance, even for the stiff pair.
  params.near_rigid_threshold = 0;
  p = MakeFrictionConeParameters(w, k_stiff, tau_d, 0.4, phi0, dt, params);
  EXPECT_DOUBLE_EQ(p.Rn, 1 / (dt * k_stiff * dt));
}

// ---------------------------------------------------------------------------
// 5. Convexity along random lines, and allocation-free reuse.

TEST(SapFrictionConeTest, CostIsConvexAlongRandomLines) {
  SampleGenerator gen(2024);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int line = 0; line < 200; ++line) {
    const SapFrictionConeParameters p = gen.RandomParameters();
    // Lines through random points, scaled so that they cross all regions.
    const Vector3 v0 = VcFromY(p, YFromAngles(p, 1, gen.U(0, kPi), gen.U(-kPi, kPi)));
    const Vector3 dir = Rsqrt(p).cwiseProduct(Vector3(U(rng), U(rng), U(rng)));
    std::vector<double> l;
    for (int k = -200; k <= 200; ++k) l.push_back(Cost(p, v0 + 0.02 * k * dir));
    const double scale = *std::max_element(l.begin(), l.end());
    for (size_t k = 1; k + 1 < l.size(); ++k) {
      // −1e-12·scale: round-off of ℓ (≈ 4 ε max ℓ) in a second difference.
      EXPECT_GE(l[k + 1] - 2 * l[k] + l[k - 1], -1e-12 * scale) << "line " << line << " k " << k;
    }
  }
}

TEST(SapFrictionConeTest, ReusedEvaluationDoesNotReallocate) {
  ConstraintEvaluation e;
  const SapFrictionConeParameters p = BoundaryParameters(0.5);
  EvaluateFrictionCone(p, Vector3(0.1, 0.2, -0.3), &e);
  const double* g = e.gamma.data();
  const double* G = e.G.data();
  for (const Vector3& vc : {Vector3(0, 0, -1), Vector3(1, 0, -0.1), Vector3(0, 0, 1)}) {
    EvaluateFrictionCone(p, vc, &e);
    EXPECT_EQ(e.gamma.data(), g);
    EXPECT_EQ(e.G.data(), G);
  }
}

}  // namespace
}  // namespace stiction
