#include "engine/solvers/one_contact_solver.h"

#include <cmath>
#include <numbers>

#include <Eigen/Cholesky>

#include "engine/solvers/ncp_constraints.h"

namespace stiction {

namespace {

// Slip directions sampled to bracket the roots of the slide equation: a
// root between samples 2π/64 apart is found unless two roots fall within
// one interval (then neither changes the sign; the next sweep of the outer
// Gauss–Seidel meets a different c).
constexpr int kSlipSamples = 64;
constexpr int kBisections = 60;
// Halvings of a sample interval that holds a pole of γ_n(θ): 2π/64/2^30 ≈
// 1e-10 rad from the pole, where γ_n is ~1e10 times its scale.
constexpr int kPoleSplits = 30;

struct Slide {
  double gamma_n = 0;
  Eigen::Vector2d u_t = Eigen::Vector2d::Zero();
  bool valid = false;
};

// The slide case along s = (cos θ, sin θ): γ = γ_n (−μ s, 1), γ_n from
// u_n = 0, and the tangential velocity that follows.
Slide SlideAt(const Matrix3& W, const Vector3& c, double mu, double theta) {
  const Vector3 d(-mu * std::cos(theta), -mu * std::sin(theta), 1.0);
  const double denom = W.row(2).dot(d);
  Slide s;
  if (!(denom > 0)) return s;
  s.gamma_n = -c.z() / denom;
  s.u_t = c.head<2>() + s.gamma_n * (W.topRows<2>() * d);
  s.valid = s.gamma_n >= 0;
  return s;
}

// The slide equation: u_t × s = 0 (u_t parallel to s).
double Cross(const Slide& s, double theta) {
  return s.u_t.x() * std::sin(theta) - s.u_t.y() * std::cos(theta);
}

}  // namespace

double OneContactResidual(const Matrix3& W, const Vector3& c, double mu, const Vector3& gamma) {
  const Vector3 u = c + W * gamma;
  return (gamma - ProjectStrict(gamma - u, mu)).norm();
}

OneContactSolution SolveOneContact(const Matrix3& W, const Vector3& c, double mu) {
  OneContactSolution out;
  if (c.z() >= 0) {  // Take-off: no impulse keeps u_n ≥ 0.
    out.exact = true;
    return out;
  }
  double best = OneContactResidual(W, c, mu, out.gamma);
  const auto consider = [&](const Vector3& g) {
    if (!g.allFinite()) return;
    const double r = OneContactResidual(W, c, mu, g);
    if (r < best) {
      best = r;
      out.gamma = g;
    }
  };
  const Eigen::LLT<Matrix3> llt(W);
  if (llt.info() == Eigen::Success) {  // Stick: u = 0.
    const Vector3 g = -llt.solve(c);
    if (g.z() >= 0 && g.head<2>().norm() <= mu * g.z()) {
      out.gamma = g;
      out.exact = true;
      return out;
    }
    consider(g);
  }
  if (mu > 0) {
    // Slide: bracket u_t × s = 0 over θ, keep roots with u_t along +s.
    // Where W_n·d changes sign, γ_n runs to ±∞ and roots crowd the pole:
    // intervals with one valid end are split until the pole is resolved.
    const auto try_root = [&](double a, double b, double fa) {
      for (int k = 0; k < kBisections; ++k) {
        const double m = 0.5 * (a + b);
        const double fm = Cross(SlideAt(W, c, mu, m), m);
        if (fa * fm <= 0) {
          b = m;
        } else {
          a = m;
          fa = fm;
        }
      }
      const double theta = 0.5 * (a + b);
      const Slide s = SlideAt(W, c, mu, theta);
      const Eigen::Vector2d dir(std::cos(theta), std::sin(theta));
      if (s.valid && s.u_t.dot(dir) >= 0) {
        const Vector3 g(-mu * s.gamma_n * dir.x(), -mu * s.gamma_n * dir.y(), s.gamma_n);
        consider(g);
      }
    };
    const auto scan = [&](auto&& self, double t0, double t1, int depth) -> void {
      const Slide s0 = SlideAt(W, c, mu, t0), s1 = SlideAt(W, c, mu, t1);
      const double f0 = Cross(s0, t0), f1 = Cross(s1, t1);
      if (s0.valid && s1.valid) {
        if (f0 * f1 <= 0) try_root(t0, t1, f0);
      } else if (s0.valid != s1.valid && depth < kPoleSplits) {
        const double m = 0.5 * (t0 + t1);
        self(self, t0, m, depth + 1);
        self(self, m, t1, depth + 1);
      }
    };
    for (int i = 0; i < kSlipSamples; ++i) {
      scan(scan, 2 * std::numbers::pi * i / kSlipSamples, 2 * std::numbers::pi * (i + 1) / kSlipSamples, 0);
    }
    // Round-off of u = c + W γ relative to its terms.
    if (best <= 1e-10 * (c.norm() + out.gamma.norm())) out.exact = true;
  } else {
    // Frictionless: γ_t = 0, u_n = 0.
    if (W(2, 2) > 0) {
      out.gamma = Vector3(0, 0, -c.z() / W(2, 2));
      out.exact = true;
    }
  }
  return out;
}

}  // namespace stiction
