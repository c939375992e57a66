// CANAL's building blocks ([CANAL] Sec. IV–V): the strict operator of
// Eqs. (16)–(17), the friction-cone projection and its derivative (Eq. 23),
// and the inner problem h(v) of Eq. (22) with its gradient (Eq. 21) and
// Hessian (Eq. 24), against finite differences on random data.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <Eigen/Eigenvalues>

#include "engine/common/error.h"
#include "engine/solvers/canal_solver.h"
#include "engine/solvers/ncp_constraints.h"
#include "tests/solvers/test_problems.h"

namespace stiction {
namespace {

Vector3 RandomVector(std::mt19937* rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vector3(u(*rng), u(*rng), u(*rng));
}

TEST(CanalSolverTest, StrictOperatorSatisfiesSignoriniCoulombExactly) {
  // Prop. 2: with λ = T(λ*) and the "velocity" w = λ − λ* (J v + e at the
  // fixed point with β = 1, Eq. 18 with u = −λ), the conditions of Eq. (5):
  // 0 ≤ λ_n ⟂ w_n ≥ 0; ‖λ_t‖ ≤ μλ_n; sticking (w_t = 0) or sliding with
  // λ_t = −μλ_n w_t/‖w_t‖. Checked to round-off on 10000 random inputs.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> mu_dist(0.0, 2.0);
  for (int k = 0; k < 10000; ++k) {
    const Vector3 star = RandomVector(&rng, 1.0);
    const double mu = k % 10 == 0 ? 0.0 : mu_dist(rng);
    const Vector3 l = ProjectStrict(star, mu);
    const Vector3 w = l - star;
    const double tol = 1e-14;
    EXPECT_GE(l.z(), 0.0);
    EXPECT_GE(w.z(), -tol);
    EXPECT_NEAR(l.z() * w.z(), 0.0, tol);
    const double lt = l.head<2>().norm(), wt = w.head<2>().norm();
    EXPECT_LE(lt, mu * l.z() + tol);
    if (wt > tol) {
      // Sliding: on the cone's boundary, opposite to the slip.
      EXPECT_NEAR(lt, mu * l.z(), tol);
      EXPECT_NEAR(l.head<2>().dot(w.head<2>()), -lt * wt, 1e-12);
    }
  }
}

TEST(CanalSolverTest, ConeProjectionIsTheEuclideanProjectionAndItsDerivativeMatches) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> mu_dist(0.05, 2.0);
  int regions[3] = {0, 0, 0};
  for (int k = 0; k < 2000; ++k) {
    const Vector3 y = RandomVector(&rng, 1.0);
    const double mu = mu_dist(rng);
    ConeRegion region;
    Matrix3 D;
    const Vector3 p = ProjectCone(y, mu, &region, &D);
    ++regions[static_cast<int>(region)];
    // Moreau: p ∈ C, y − p in the polar cone (−(y − p) ∈ C*), p ⟂ (y − p).
    const Vector3 q = y - p;
    EXPECT_LE(p.head<2>().norm(), mu * p.z() + 1e-12);
    EXPECT_LE(mu * q.head<2>().norm(), -q.z() + 1e-12);
    EXPECT_NEAR(p.dot(q), 0.0, 1e-12);
    // Eq. (23) against central differences (h = 1e-6, away from region
    // boundaries the projection is smooth: error O(h²) ≈ 1e-12).
    const double h = 1e-6;
    Matrix3 fd;
    bool near_boundary = false;
    for (int j = 0; j < 3; ++j) {
      ConeRegion rp, rm;
      const Vector3 pp = ProjectCone(y + h * Vector3::Unit(j), mu, &rp);
      const Vector3 pm = ProjectCone(y - h * Vector3::Unit(j), mu, &rm);
      near_boundary = near_boundary || rp != region || rm != region;
      fd.col(j) = (pp - pm) / (2 * h);
    }
    // The line search's form: the same λ, and dᵀ ∂Π d in closed form.
    const Vector3 d = RandomVector(&rng, 1.0);
    double d_D_d = -1;
    const Vector3 p_along = ProjectConeAlong(y, mu, d, &d_D_d);
    EXPECT_EQ(p_along, p);
    EXPECT_NEAR(d_D_d, d.dot(D * d), 1e-12 * (1 + std::abs(d.dot(D * d))));
    if (near_boundary) continue;
    EXPECT_LT((fd - D).norm(), 1e-7) << "y = " << y.transpose() << ", mu = " << mu;
  }
  // The random inputs cover every region.
  EXPECT_GT(regions[0], 100);
  EXPECT_GT(regions[1], 100);
  EXPECT_GT(regions[2], 100);
}

// Two trees of 6 velocities with random SPD A, coupled by a contact; a
// contact of tree 0 with the world; a joint limit and a PD row (soft) on
// tree 1. Random J, v*, φ0.
ContactProblem RandomProblem(std::mt19937* rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  auto random = [&](int rows, int cols) {
    MatrixX m(rows, cols);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) m(i, j) = n(*rng);
    }
    return m;
  };
  ContactProblem p;
  p.dt = 0.01;
  p.tree_v_start = {0, 6};
  p.tree_nv = {6, 6};
  for (int t = 0; t < 2; ++t) {
    const MatrixX B = random(6, 6);
    p.A.push_back(B * B.transpose() + MatrixX::Identity(6, 6));
  }
  p.v_star = random(12, 1);
  Constraint c;
  c.kind = ConstraintKind::kFrictionCone;
  c.origin = ConstraintOrigin::kContact;
  c.num_rows = 3;
  c.mu = 0.6;
  c.phi0 = 0.002;
  c.blocks = {{0, random(3, 6)}, {1, random(3, 6)}};
  p.constraints.push_back(c);
  c.mu = 0.3;
  c.phi0 = -0.001;
  c.blocks = {{0, random(3, 6)}};
  p.constraints.push_back(c);
  Constraint limit;
  limit.kind = ConstraintKind::kClamped;
  limit.origin = ConstraintOrigin::kJointLimit;
  limit.num_rows = 1;
  limit.phi0 = 0.001;
  limit.blocks = {{1, random(1, 6)}};
  limit.clamped.lower = 0;
  limit.clamped.R = 1e-3;
  p.constraints.push_back(limit);
  Constraint pd;
  pd.kind = ConstraintKind::kClamped;
  pd.origin = ConstraintOrigin::kActuator;
  pd.num_rows = 1;
  pd.blocks = {{1, random(1, 6)}};
  pd.clamped.R = 0.5;
  pd.clamped.v_hat = 0.3;
  pd.clamped.lower = -0.2;
  pd.clamped.upper = 0.2;
  p.constraints.push_back(pd);
  return p;
}

TEST(CanalSolverTest, InnerGradientAndHessianMatchFiniteDifferencesAndHessianIsSpd) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n(0.0, 1.0);
  CanalSolver solver;
  int checked = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const ContactProblem problem = RandomProblem(&rng);
    const int rows = problem.num_rows();
    VectorX v(12), u(rows), e(rows);
    for (int i = 0; i < 12; ++i) v[i] = n(rng);
    for (int i = 0; i < rows; ++i) {
      u[i] = 0.1 * n(rng);
      e[i] = 0.1 * n(rng);
    }
    const double rho = 10.0;  // β_i = ρ m_i.
    VectorX g;
    MatrixX H;
    solver.EvaluateInner(problem, v, rho, u, e, &g, &H);
    // SPD (Eq. 24: A SPD plus PSD terms).
    const Eigen::SelfAdjointEigenSolver<MatrixX> eig(H);
    EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
    EXPECT_LT((H - H.transpose()).norm(), 1e-12 * H.norm());
    // Central differences of h (gradient) and of the gradient (Hessian).
    // h is piecewise smooth: samples with a region change (a kink) within
    // ±h of v are skipped, detected as an O(1) jump of the Hessian (within a
    // region it changes by O(h) only).
    const double h = 1e-6;
    VectorX fd_g(12);
    MatrixX fd_H(12, 12);
    bool kink = false;
    for (int j = 0; j < 12; ++j) {
      VectorX vp = v, vm = v, gp, gm;
      MatrixX Hp, Hm;
      vp[j] += h;
      vm[j] -= h;
      const double hp = solver.EvaluateInner(problem, vp, rho, u, e, &gp, &Hp);
      const double hm = solver.EvaluateInner(problem, vm, rho, u, e, &gm, &Hm);
      kink = kink || (Hp - H).norm() > 1e-3 * H.norm() || (Hm - H).norm() > 1e-3 * H.norm();
      fd_g[j] = (hp - hm) / (2 * h);
      fd_H.col(j) = (gp - gm) / (2 * h);
    }
    if (kink) continue;
    ++checked;
    EXPECT_LT((fd_g - g).norm(), 1e-6 * (1 + g.norm()));
    EXPECT_LT((fd_H - H).norm(), 1e-6 * H.norm());
  }
  EXPECT_GT(checked, 30);
}

TEST(CanalSolverTest, RejectsInvalidParameters) {
  CanalSolverParameters p;
  EXPECT_NO_THROW(ValidateCanalParameters(p));
  p.initial_penalty_ratio = std::nan("");
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
  p = {};
  p.penalty_growth = 1.0;
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
  p = {};
  p.max_penalty_ratio = 0.5 * p.initial_penalty_ratio;
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
  p = {};
  p.warm_penalty_ratio = 0;
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
  p = {};
  p.warm_penalty_ratio = 2 * p.max_penalty_ratio;
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
  p = {};
  p.acceleration_memory = -1;
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
  p = {};
  p.residual_ratio = 1.0;
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
  p = {};
  p.penetration_recovery = 0;
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
}

TEST(CanalSolverTest, AWarmStartedSolveStartsFromTheWarmPenaltyAndConvergesSooner) {
  // A 5 kg pot on a 10 g coaster (mass ratio 500), the previous step solved,
  // and the pot now pushed sideways (v*_x = 2.5 cm/s: 0.125 N s of friction
  // holds it, below μ γ_n = 0.245 N s, so everything sticks). The warm start
  // is close, not exact. The AL error contracts by ~1/(1 + ρ λ_min) per
  // iteration, λ_min the smallest eigenvalue of the mass-scaled Delassus
  // operator (small for a heavy body on a light one), so the stiff warm
  // penalty needs fewer iterations than the cold one (measured: 4 and 7).
  const double dt = 0.01;
  ContactProblem p = test::PointMassStack(0.01, 5.0, dt);
  CanalSolverParameters params;
  params.tolerance = 1e-9;
  params.max_iterations = 100;
  SolverResult previous;
  ASSERT_EQ(CanalSolver(params).Solve(p, p.v_star, &previous), SolverStatus::kConverged) << previous.message;
  p.v_star[3] = 0.025;
  for (size_t k = 0; k < p.constraints.size(); ++k) {
    p.constraints[k].warm_gamma = previous.gamma.segment(3 * k, 3);
    p.constraints[k].warm_slack = previous.slack.segment(3 * k, 3);
  }
  SolverResult stiff, soft;
  ASSERT_EQ(CanalSolver(params).Solve(p, p.v_star, &stiff), SolverStatus::kConverged) << stiff.message;
  EXPECT_GE(stiff.penalty, params.warm_penalty_ratio);
  CanalSolverParameters soft_params = params;
  soft_params.warm_penalty_ratio = soft_params.initial_penalty_ratio;
  ASSERT_EQ(CanalSolver(soft_params).Solve(p, p.v_star, &soft), SolverStatus::kConverged) << soft.message;
  SCOPED_TRACE(testing::Message() << "AL iterations: warm ratio " << stiff.outer_iterations << ", cold ratio "
                                  << soft.outer_iterations);
  EXPECT_LT(stiff.outer_iterations, soft.outer_iterations);
  // Both reach the same sticking answer: the pot's friction holds the push.
  EXPECT_NEAR(stiff.gamma[3], soft.gamma[3], 1e-8);
  EXPECT_NEAR(stiff.v[3], 0.0, 1e-8);
}

}  // namespace
}  // namespace stiction
