#include "engine/stepping/theta_method.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "engine/multibody/dynamics.h"
#include "engine/multibody/model_builder.h"
#include "engine/scene/scene_loader.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

TEST(ThetaMethodTest, ExplicitSchemesOnAFreeFallingBody) {
  // A free body under gravity only: k = m g in the linear rows, and with the
  // COM at the origin no rotational coupling. Explicit Euler advances q with
  // v0, symplectic Euler with v ([SAP] Sec. II-C presets).
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  VectorX q0 = model.DefaultPositions();
  q0.tail<3>() << 0, 0, 1;
  VectorX v0 = VectorX::Zero(6);
  v0.tail<3>() << 1, 0, 2;
  const double dt = 0.1;
  ThetaMethod method(model);
  KinematicsCache cache(model);
  MatrixX M;
  for (const ThetaParameters p : {ThetaParameters{0, 0}, ThetaParameters{0, 1}}) {
    VectorX v_star = v0;
    const FreeMotionStatus s = method.SolveFreeMotion(0, q0, v0, dt, p, nullptr, &v_star, &cache, &M);
    EXPECT_TRUE(s.converged);
    EXPECT_EQ(s.newton_iterations, 0);  // θ = 0: a single mass-matrix solve.
    EXPECT_NEAR(v_star[5], 2 - 9.81 * dt, 1e-14);
    VectorX q_theta = q0, q = q0;
    method.CalcPositions(0, q0, v0, v_star, dt, p, &q_theta, &q);
    const double vz = p.theta_vq == 0 ? v0[5] : v_star[5];
    EXPECT_NEAR(q[6], 1 + dt * vz, 1e-14);
    EXPECT_NEAR(q[4], dt * 1.0, 1e-14);
    EXPECT_EQ(q_theta, q0);  // θ = 0: mid-step positions are q0.
  }
}

// ‖m(v*)‖ / (1 + ‖M v*‖) for tree 0, Eq. (14) evaluated independently of
// the solver's own residual: M(q^θ)(v* − v0) − δt k(q^θ, v^θ) with q^θ from
// CalcPositions (written to *q_theta, and the end-of-step q to *q).
double RelativeMomentumResidual(const MultibodyModel& model, const ThetaMethod& method, const VectorX& q0,
                                const VectorX& v0, const VectorX& v_star, double dt, const ThetaParameters& p,
                                VectorX* q_theta, VectorX* q) {
  *q_theta = q0;
  *q = q0;
  method.CalcPositions(0, q0, v0, v_star, dt, p, q_theta, q);
  const VectorX v_theta = p.theta * v_star + (1 - p.theta) * v0;
  KinematicsCache c2(model);
  CalcKinematics(model, *q_theta, v_theta, BodyRange::All(model), &c2);
  MatrixX M2;
  CalcTreeMassMatrix(model, c2, 0, &M2);
  VectorX k = VectorX::Zero(model.num_velocities());
  CalcTreeGeneralizedForces(model, c2, 0, *q_theta, v_theta, nullptr, &k);
  const VectorX m = M2 * (v_star - v0) - dt * k;
  return m.norm() / (1 + (M2 * v_star).norm());
}

TEST(ThetaMethodTest, ImplicitStageOneSolvesTheMomentumResidual) {
  // Eq. (13)–(14): at v*, M(q^θ)(v* − v0) − δt k(q^θ, v^θ) = 0, checked
  // independently of the solver's own residual.
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q0, v0;
  test::RandomState(model, 3, &q0, &v0);
  const double dt = 0.01;
  for (const ThetaParameters p : {ThetaParameters{1, 1}, ThetaParameters{0.5, 0.5}}) {
    ThetaMethod method(model);
    KinematicsCache cache(model);
    MatrixX M;
    VectorX v_star = v0;
    const FreeMotionStatus s = method.SolveFreeMotion(0, q0, v0, dt, p, nullptr, &v_star, &cache, &M);
    ASSERT_TRUE(s.converged);
    // Quasi-Newton on A of Eq. (15): each iteration contracts the residual
    // by the neglected Coriolis and gravity derivatives, δt |ω| ~ 1e-2 in
    // this random state (5e-3 → 6e-13 in 6 iterations); a full Newton with a
    // forward-difference Jacobian took 5 iterations but nv + 1 evaluations
    // of m for each Jacobian.
    EXPECT_LE(s.newton_iterations, 7);
    VectorX q_theta, q;
    // Newton stops at a relative update of 1e-13; the residual is at round-off.
    EXPECT_LT(RelativeMomentumResidual(model, method, q0, v0, v_star, dt, p, &q_theta, &q), 1e-12);
    EXPECT_TRUE(q_theta.isApprox(p.theta * q + (1 - p.theta) * q0, 1e-14));
  }
}

TEST(ThetaMethodTest, MidpointQuaternionUpdatePreservesNorm) {
  // With θ = θ_vq = ½ the update q − q0 = ½ δt q^θ ⊗ [0, ω] is orthogonal to
  // q^θ = (q + q0)/2, so |q| = |q0| exactly (before any renormalization).
  const MultibodyModel model = test::MakeFreeBody();
  VectorX q0, v;
  test::RandomState(model, 12, &q0, &v);
  v.head<3>() << 5, -3, 8;  // Fast spin: the fixed point must still converge.
  ThetaMethod method(model);
  VectorX q_theta = q0, q = q0;
  method.CalcPositions(0, q0, v, v, 0.02, ThetaParameters{0.5, 0.5}, &q_theta, &q);
  EXPECT_NEAR(q.head<4>().norm(), 1.0, 1e-14);
  EXPECT_GT((q.head<4>() - q0.head<4>()).norm(), 1e-3);
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

TEST(ThetaMethodTest, AStandingRobotsStageOneNeedsNoForwardDifferences) {
  // The quadruped of quadruped_stand.yaml at its start (legs bent, at
  // rest), a midpoint step of 10 ms: the quasi-Newton steps on A0 contract
  // the residual ~1e-3 per iteration, so stage 1 converges in a few O(n)
  // evaluations and never forms a forward-difference Jacobian (18 more).
  const BuiltModel built = BuildModel(LoadSceneFile(STICTION_SOURCE_DIR "/assets/scenes/quadruped_stand.yaml"));
  const MultibodyModel& model = *built.model;
  ThetaMethod method(model);
  KinematicsCache cache(model);
  for (int t = 0; t < model.num_trees(); ++t) {
    if (model.tree(t).nv != 18) continue;
    MatrixX M;
    VectorX v_star = built.v0;
    const FreeMotionStatus s = method.SolveFreeMotion(t, built.q0, built.v0, 0.01, ThetaParameters{0.5, 0.5},
                                                      nullptr, &v_star, &cache, &M);
    ASSERT_TRUE(s.converged) << s.residual_norm;
    EXPECT_EQ(s.finite_difference_jacobians, 0);
    EXPECT_LE(s.newton_iterations, 4);
    return;
  }
  FAIL() << "no 18-DOF tree in quadruped_stand.yaml";
}

TEST(ThetaMethodTest, ASlowQuasiNewtonFallsBackToForwardDifferencesAndConverges) {
  // The three-link arm spinning at 15–25 rad/s with δt = 20 ms (0.3–0.5
  // rad per step): the Coriolis terms A0 leaves out are a large part of the
  // Jacobian, quasi-Newton stalls, and the forward-difference Jacobian takes
  // over; the answer still satisfies Eq. (14) (checked as in
  // ImplicitStageOneSolvesTheMomentumResidual).
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q0, v0;
  test::RandomState(model, 5, &q0, &v0);
  v0 << 20, -15, 25;
  const double dt = 0.02;
  const ThetaParameters p{0.5, 0.5};
  ThetaMethod method(model);
  KinematicsCache cache(model);
  MatrixX M;
  VectorX v_star = v0;
  const FreeMotionStatus s = method.SolveFreeMotion(0, q0, v0, dt, p, nullptr, &v_star, &cache, &M);
  ASSERT_TRUE(s.converged) << s.residual_norm;
  EXPECT_GE(s.finite_difference_jacobians, 1);
  VectorX q_theta, q;
  EXPECT_LT(RelativeMomentumResidual(model, method, q0, v0, v_star, dt, p, &q_theta, &q), 1e-11);
}

TEST(ThetaMethodTest, FastBodyFarFromTheOriginConverges) {
  // Spatial inertias about the world origin carry m|p|² terms that cancel
  // in M; 40 m away and spinning at 30 rad/s, the residual's round-off floor
  // is ~1e4 times that of a body at the origin. Stage 1 must recognise it
  // (a clutter without walls once failed here after objects rolled away).
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  VectorX q = model.DefaultPositions(), v = VectorX::Zero(6);
  q.tail<3>() << 40, -30, 0.05;
  v << 30, -20, 5, 1.5, 1.0, 0;
  ThetaMethod method(model);
  KinematicsCache cache(model);
  MatrixX M;
  for (int step = 0; step < 200; ++step) {
    VectorX v_star = v, q_theta = q, q_next = q;
    const FreeMotionStatus s =
        method.SolveFreeMotion(0, q, v, 0.01, ThetaParameters{0.5, 0.5}, nullptr, &v_star, &cache, &M);
    ASSERT_TRUE(s.converged) << "step " << step << " residual " << s.residual_norm;
    method.CalcPositions(0, q, v, v_star, 0.01, ThetaParameters{0.5, 0.5}, &q_theta, &q_next);
    model.NormalizeQuaternions(&q_next);
    q = q_next;
    v = v_star;
  }
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

// A free body whose joint frames are rotated and offset and whose COM is off
// M's origin: the closed-form M and k of the free-body path must match the
// generic CRBA/RNEA, and stage 1's answer must satisfy Eq. (14) evaluated by
// the generic path.
MultibodyModel MakeOffsetFreeBody(const Vector3& com_B) {
  MultibodyModel model;
  Body b;
  b.name = "brick";
  b.mass = 1.7;
  b.com_B = com_B;
  b.I_Bcm_B = test::BoxInertia(b.mass, Vector3(0.1, 0.25, 0.4));
  Joint j;
  j.name = "brick_free";
  j.type = JointType::kFree;
  j.X_PF.R = Eigen::AngleAxisd(0.3, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  j.X_PF.p = Vector3(0.2, -0.1, 0.5);
  j.X_CM.R = Eigen::AngleAxisd(-0.7, Vector3(-2, 1, 0.5).normalized()).toRotationMatrix();
  j.X_CM.p = Vector3(0.03, 0.01, -0.02);
  model.AddBody(b, j);
  model.Finalize();
  return model;
}

TEST(ThetaMethodTest, FreeBodyClosedFormMatchesTheGenericResidual) {
  for (const Vector3& com : {Vector3(0.04, -0.03, 0.06), Vector3(0, 0, 0)}) {
    const MultibodyModel model = MakeOffsetFreeBody(com);
    VectorX q0, v0;
    test::RandomState(model, 21, &q0, &v0);
    v0.head<3>() << 6, -4, 9;  // Fast asymmetric spin: large gyroscopic terms.
    VectorX tau = VectorX::Zero(6);
    tau << 0.3, -0.2, 0.1, 1.0, -2.0, 0.5;
    const double dt = 0.01;
    for (const ThetaParameters p : {ThetaParameters{1, 1}, ThetaParameters{0.5, 0.5},
                                    ThetaParameters{0, 0}}) {
      ThetaMethod method(model);
      KinematicsCache cache(model);
      MatrixX M;
      VectorX v_star = v0;
      const FreeMotionStatus s =
          method.SolveFreeMotion(0, q0, v0, dt, p, &tau, &v_star, &cache, &M);
      ASSERT_TRUE(s.converged);
      EXPECT_LE(s.newton_iterations, 6);
      VectorX q_theta = q0, q = q0;
      method.CalcPositions(0, q0, v0, v_star, dt, p, &q_theta, &q);
      const VectorX v_theta = p.theta * v_star + (1 - p.theta) * v0;
      const VectorX& q_eval = p.theta > 0 ? q_theta : q0;
      const VectorX& v_eval = p.theta > 0 ? v_theta : v0;
      KinematicsCache c2(model);
      CalcKinematics(model, q_eval, v_eval, BodyRange::All(model), &c2);
      MatrixX M2;
      CalcTreeMassMatrix(model, c2, 0, &M2);
      EXPECT_TRUE(M.isApprox(M2, 1e-13)) << "M =\n" << M << "\ngeneric\n" << M2;
      VectorX k = VectorX::Zero(6);
      CalcTreeGeneralizedForces(model, c2, 0, q_eval, v_eval, &tau, &k);
      const VectorX m = M2 * (v_star - v0) - dt * k;
      EXPECT_LT(m.norm(), 1e-12 * (1 + (M2 * v_star).norm())) << "theta " << p.theta;
    }
  }
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

TEST(ThetaMethodTest, AFastLightLinkNeverTakesStageOneToASpuriousRoot) {
  // The hand of hand_posture.yaml (16 DOF, 1e-5 kg·m² phalanges), one joint
  // at a time spinning at 300 rad/s, δt = 10 ms: ω δt = 3 rad, where
  // Eq. (14) has roots far from the motion (its Coriolis terms make ∂m/∂v
  // nearly singular). An undamped Newton step overshot by up to 1e4 rad/s
  // and converged there: v* at 118 times ‖v0‖ under midpoint, a free
  // motion that creates energy. Damped so that ‖m‖∞ never increases,
  // stage 1 either converges near the motion or reports that it did not
  // (the stepper then takes the step in halves: step_fallback_test).
  const BuiltModel built = BuildModel(LoadSceneFile(STICTION_SOURCE_DIR "/assets/scenes/hand_posture.yaml"));
  const MultibodyModel& model = *built.model;
  ThetaMethod method(model);
  KinematicsCache cache(model);
  ASSERT_EQ(model.num_trees(), 1);
  const Tree& tree = model.tree(0);
  for (const ThetaParameters p : {ThetaParameters{0.5, 0.5}, ThetaParameters{1, 1}}) {
    int converged = 0, damped = 0;
    double worst = 0;
    for (int j = 0; j < tree.nv; ++j) {
      for (const double speed : {300.0, -300.0}) {
        VectorX v0 = built.v0;
        v0[tree.v_start + j] = speed;
        VectorX v_star = v0;
        MatrixX M;
        const FreeMotionStatus s = method.SolveFreeMotion(0, built.q0, v0, 0.01, p, nullptr, &v_star, &cache, &M);
        damped += s.damped_steps;
        if (!s.converged) continue;
        ++converged;
        worst = std::max(worst, v_star.lpNorm<Eigen::Infinity>() / 300.0);
        VectorX q_theta, q;
        EXPECT_LT(RelativeMomentumResidual(model, method, built.q0, v0, v_star, 0.01, p, &q_theta, &q), 1e-11);
      }
    }
    std::printf("theta %.1f: %d of %d solves converged, largest |v*| / |v0| %.3f, %d damped Newton steps\n", p.theta,
                converged, 2 * tree.nv, worst, damped);
    EXPECT_GT(damped, 0);  // The damping acted.
    EXPECT_LE(worst, 1.0);  // Joint limits aside, the free motion only turns and damps the spin.
    EXPECT_GE(converged, tree.nv);  // Most do converge; the rest fall back to halves.
  }
}

TEST(ThetaMethodTest, StageOneHistoryMovesTheFirstGuessNotTheSolution) {
  // The three-link arm swinging freely under gravity and its joint springs
  // for 100 midpoint steps of 10 ms, stage 1 alone (v0 ← v*, q ← q(v*)):
  // once with a FreeMotionHistory, once without. The history only moves
  // where Newton starts (free_motion_history.h), so both runs solve Eq. (14)
  // to round-off at every step and stay together, while the extrapolated
  // guess needs fewer quasi-Newton iterations.
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q_start, v_start;
  test::RandomState(model, 7, &q_start, &v_start);
  v_start.setZero();  // Released at rest: it swings at up to a few rad/s.
  const double dt = 0.01;
  const ThetaParameters p{0.5, 0.5};
  FreeMotionHistory history;
  history.Resize(model.num_velocities(), model.num_trees());
  struct Run {
    VectorX q, v;
    int iterations = 0;
  };
  Run plain{q_start, v_start}, guessed{q_start, v_start};
  ThetaMethod method(model);
  KinematicsCache cache(model);
  MatrixX M;
  double largest_gap = 0;
  for (int step = 0; step < 100; ++step) {
    for (Run* run : {&plain, &guessed}) {
      VectorX v_star = run->v;
      const FreeMotionStatus s = method.SolveFreeMotion(0, run->q, run->v, dt, p, nullptr, &v_star, &cache, &M,
                                                        nullptr, run == &guessed ? &history : nullptr);
      ASSERT_TRUE(s.converged) << "step " << step;
      run->iterations += s.newton_iterations;
      VectorX q_theta, q;
      EXPECT_LT(RelativeMomentumResidual(model, method, run->q, run->v, v_star, dt, p, &q_theta, &q), 1e-12)
          << "step " << step;
      run->q = q;
      run->v = v_star;
    }
    largest_gap = std::max(largest_gap, (plain.v - guessed.v).lpNorm<Eigen::Infinity>());
  }
  // The two runs differ by the stopping tolerance (1e-13 relative), grown
  // by 100 steps of a chaotic triple pendulum.
  EXPECT_LT(largest_gap, 1e-9);
  // Swinging at a few rad/s, each quasi-Newton iteration contracts by only
  // ~δt |ω| / 2 (the Coriolis terms A0 leaves out), so a start nearer the
  // solution saves about one of the ~6 iterations per step: at least half
  // an iteration per step on average.
  EXPECT_LE(guessed.iterations, plain.iterations - 50)
      << "with the history " << guessed.iterations << ", without " << plain.iterations;
  std::printf("stage-1 Newton iterations over 100 steps: %d without the history, %d with it; largest gap %.2e\n",
              plain.iterations, guessed.iterations, largest_gap);
}

TEST(ThetaMethodTest, StageOneHistoryOfAnotherStepSizeIsNotUsed) {
  // A history recorded at δt = 10 ms says nothing about a 5 ms step (a
  // halved retry): the step starts from the plain guess, bit for bit.
  const MultibodyModel model = test::MakeThreeLinkArm();
  VectorX q0, v0;
  test::RandomState(model, 11, &q0, &v0);
  const ThetaParameters p{0.5, 0.5};
  FreeMotionHistory history;
  history.Resize(model.num_velocities(), model.num_trees());
  ThetaMethod method(model);
  KinematicsCache cache(model);
  MatrixX M;
  VectorX v_star = v0;
  ASSERT_TRUE(method.SolveFreeMotion(0, q0, v0, 0.01, p, nullptr, &v_star, &cache, &M, nullptr, &history).converged);
  VectorX with_history = v0, without = v0;
  const FreeMotionStatus a =
      method.SolveFreeMotion(0, q0, v0, 0.005, p, nullptr, &with_history, &cache, &M, nullptr, &history);
  const FreeMotionStatus b = method.SolveFreeMotion(0, q0, v0, 0.005, p, nullptr, &without, &cache, &M);
  EXPECT_EQ(a.newton_iterations, b.newton_iterations);
  EXPECT_EQ(with_history, without);
  // And a cleared history is no history.
  history.Clear();
  VectorX cleared = v0;
  method.SolveFreeMotion(0, q0, v0, 0.005, p, nullptr, &cleared, &cache, &M, nullptr, &history);
  EXPECT_EQ(cleared, without);
}

}  // namespace
}  // namespace stiction
