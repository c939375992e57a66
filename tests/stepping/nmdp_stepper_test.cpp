// The NMDP time-stepping schemes (engine/stepping/nmdp_stepper.h; [NMDP]
// Alg. 1, Alg. 2, Eq. 3; docs/nmdp.md): the stable PD inside the
// backward-Euler dynamics against its closed form, a box coming to rest
// where its polytopes hold its weight (with a free normal force and with the
// penalty one), NE-MDP's explicit penalty losing stability above ω δt = 2
// where backward Euler does not, maximal dissipation (the chosen forces never
// leave more kinetic energy than the neutral weights), Alg. 2's subdivision
// and its failure reported with the state untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/contact/wrench_polytope.h"
#include "engine/multibody/kinematics.h"
#include "engine/stepping/nmdp_manifold_projection.h"
#include "engine/stepping/nmdp_stepper.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

constexpr SteppingScheme kNmdpSchemes[] = {SteppingScheme::kNmdpPgm, SteppingScheme::kNmdpZopgm,
                                           SteppingScheme::kNeMdp};

// A slider: one body on a prismatic joint along x, so gravity (−z) does no
// work on it; mass 2 kg.
MultibodyModel MakeSlider() {
  MultibodyModel model;
  Body b;
  b.name = "slider";
  b.mass = 2.0;
  b.I_Bcm_B = test::BoxInertia(b.mass, Vector3(0.1, 0.1, 0.1));
  Joint j;
  j.name = "slide";
  j.type = JointType::kPrismatic;
  j.axis_F = Vector3::UnitX();
  model.AddBody(b, j);
  model.Finalize();
  return model;
}

// The eight corners of a flat box (0.4 × 0.3 × 0.1 m) on the free body,
// against the ground z ≥ 0, friction 0.5.
std::vector<NmdpCandidatePoint> BoxCorners() {
  std::vector<NmdpCandidatePoint> out;
  for (int c = 0; c < 8; ++c) {
    NmdpCandidatePoint p;
    p.point.body = 1;
    p.point.p_BP = Vector3((c & 1) ? 0.2 : -0.2, (c & 2) ? 0.15 : -0.15, (c & 4) ? 0.05 : -0.05);
    p.point.friction = 0.5;
    p.key = static_cast<std::uint64_t>(c);
    out.push_back(p);
  }
  return out;
}

NmdpParameters Params() {
  NmdpParameters p;
  p.stiffness = 1e5;           // [N/m]
  p.activation_length = 1e-4;  // [m]
  p.pyramid_edges = 4;
  return p;
}

// The free box (2 kg, COM at its centre) at height z of its centre, level.
void BoxAt(const MultibodyModel& model, double z, VectorX* q, VectorX* v) {
  *q = model.DefaultPositions();
  q->tail<3>() = Vector3(0, 0, z);
  *v = VectorX::Zero(6);
}

TEST(NmdpStepperTest, StablePdMatchesItsBackwardEulerClosedForm) {
  // m (v₊ − v)/δt = −kp (q + δt v₊ − q̄) − kd (v₊ − v̄) on the slider,
  // linear in v₊: every scheme must return its root. With an effort limit L
  // the law is L tanh(u/L), whose root the bisection below finds.
  const MultibodyModel model = MakeSlider();
  const double m = 2.0, dt = 0.02, q0 = 0.1, v0 = -0.3;
  for (const double limit : {std::numeric_limits<double>::infinity(), 5.0}) {
    NmdpJointPd pd{0, 0, 400.0, 10.0, limit, 0.5, 0.2};
    auto residual = [&](double vp) {
      return m * (vp - v0) / dt - pd.Saturate(-pd.kp * (q0 + dt * vp - pd.target_position) -
                                              pd.kd * (vp - pd.target_velocity));
    };
    double lo = -100, hi = 100;  // residual is increasing in v₊.
    for (int i = 0; i < 200; ++i) (residual(0.5 * (lo + hi)) > 0 ? hi : lo) = 0.5 * (lo + hi);
    const double expected = 0.5 * (lo + hi);
    for (const SteppingScheme scheme : kNmdpSchemes) {
      NmdpStepper stepper(model);
      VectorX q(1), v(1), qn, vn;
      q << q0;
      v << v0;
      StepStats stats;
      std::string message;
      ASSERT_EQ(stepper.StepPoints(scheme, Params(), dt, {}, {pd}, q, v, nullptr, &qn, &vn, &stats, &message),
                StepStatus::kSuccess)
          << message;
      if (std::isfinite(limit) && scheme == SteppingScheme::kNeMdp) {
        // NE-MDP linearizes the saturation at v₊ = v (docs/nmdp.md Sec. 7):
        // it is exact only without a limit. Its one Newton step from v0
        // still lands within 10 % of the change.
        EXPECT_NEAR(vn[0], expected, 0.1 * std::abs(expected - v0)) << SteppingSchemeName(scheme);
      } else {
        // Backward Euler's root up to the projection's 1e-8 N tolerance
        // over m/δt = 100 kg/s, and the central differences' round-off.
        EXPECT_NEAR(vn[0], expected, 1e-9) << SteppingSchemeName(scheme) << " limit " << limit;
      }
      EXPECT_NEAR(qn[0], q0 + dt * vn[0], 1e-15);
    }
  }
}

TEST(NmdpStepperTest, WithAFreeNormalForceADroppedBoxRestsCarryingItsWeight) {
  // free_normal_force: the weights sum to at most one, so maximal
  // dissipation chooses the normal force too. At rest it picks forces that
  // cancel gravity exactly
  // (any other force moves the box and raises its kinetic energy), and a
  // point's polytope bounds its normal force by k s(−φ): the box stops at
  // or below the height where its four bottom corners can hold it,
  // k s(−φ*) = m g / 4. It cannot rest above φ* and it may stop below it
  // (the step at which its capacity first absorbs its momentum).
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  NmdpParameters p = Params();
  p.free_normal_force = true;
  const double m = 2.0, g = 9.81;
  const double s_star = m * g / 4 / p.stiffness;
  const double phi_star = -p.activation_length * std::log(std::expm1(s_star / p.activation_length));
  for (const SteppingScheme scheme : kNmdpSchemes) {
    NmdpStepper stepper(model);
    VectorX q, v;
    BoxAt(model, 0.05 + 0.005, &q, &v);  // Bottom 5 mm above the ground.
    StepStats stats;
    std::string message;
    const double dt = 0.005;
    for (int step = 0; step < 200; ++step) {
      VectorX qn, vn;
      ASSERT_EQ(stepper.StepPoints(scheme, p, dt, BoxCorners(), {}, q, v, nullptr, &qn, &vn, &stats, &message),
                StepStatus::kSuccess)
          << SteppingSchemeName(scheme) << " step " << step << ": " << message;
      q = qn;
      v = vn;
    }
    const double phi = q[6] - 0.05;  // Bottom face height; the box stays level.
    // At rest: up to the projection's 1e-8 N tolerance over m/δt = 400 kg/s.
    EXPECT_LT(v.norm(), 1e-6) << SteppingSchemeName(scheme);
    EXPECT_LE(phi, phi_star + 1e-9) << SteppingSchemeName(scheme);
    // How far below φ* it may stop: at the impact speed v (5 mm of fall
    // plus one step of gravity), the polytopes stop the box within a step
    // once 4 k s(p) ≥ m (g + v/δt), and it travels at most v δt more in the
    // step that gets there (with D at the step's end or, NE-MDP, its start).
    const double v_impact = std::sqrt(2 * g * 0.005) + g * dt;
    const double deepest = m * (g + v_impact / dt) / (4 * p.stiffness) + v_impact * dt;
    EXPECT_GT(phi, -deepest) << SteppingSchemeName(scheme);
    Vector3 total = Vector3::Zero();
    for (const NmdpPointForce& f : stepper.forces()) total += f.f_W;
    // Σ f = −m g: the equilibrium of a body at rest, to the 1e-8 N tolerance
    // (NE-MDP: up to the bias of its QP's proximal term, proximal_ratio =
    // 1e-6 of its largest curvature, on the weights).
    EXPECT_NEAR(total.z(), m * g, 1e-5) << SteppingSchemeName(scheme);
    EXPECT_NEAR(total.head<2>().norm(), 0, 1e-5) << SteppingSchemeName(scheme);
  }
}

// The height of the box's bottom face [m] (level box, centre at q[6]).
double BottomHeight(const VectorX& q) { return q[6] - 0.05; }

// φ* where the four bottom corners' penalty forces carry m g:
// k s(−φ*) = m g / 4.
double PenaltyRestHeight(const NmdpParameters& p, double m) {
  const double s_star = m * 9.81 / 4 / p.stiffness;
  return -p.activation_length * std::log(std::expm1(s_star / p.activation_length));
}

TEST(NmdpStepperTest, WithThePenaltyNormalForceADroppedBoxRestsWhereItsWeightIsCarried) {
  // Weights summing to one (the default): each point's normal force is the
  // penalty k s(−φ), so the box comes to rest exactly at φ*, where
  // 4 k s(−φ*) = m g, backward Euler damping its bounce.
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  const NmdpParameters p = Params();
  const double m = 2.0, phi_star = PenaltyRestHeight(p, m);
  for (const SteppingScheme scheme : {SteppingScheme::kNmdpPgm, SteppingScheme::kNmdpZopgm}) {
    NmdpStepper stepper(model);
    VectorX q, v;
    BoxAt(model, 0.05 + 0.005, &q, &v);
    StepStats stats;
    std::string message;
    for (int step = 0; step < 200; ++step) {
      VectorX qn, vn;
      ASSERT_EQ(stepper.StepPoints(scheme, p, 0.005, BoxCorners(), {}, q, v, nullptr, &qn, &vn, &stats, &message),
                StepStatus::kSuccess)
          << SteppingSchemeName(scheme) << " step " << step << ": " << message;
      q = qn;
      v = vn;
    }
    // The projection's 1e-8 N over the stiffness is 1e-13 m; what is left
    // after 1 s is the decayed bounce: backward Euler shrinks the vertical
    // mode (ω ≈ 280 rad/s with s' ≈ 0.39 at φ*, ω δt ≈ 1.4) by
    // 1/√(1 + (ω δt)²) per step, below 1e-20 after 200 steps.
    EXPECT_NEAR(BottomHeight(q), phi_star, 1e-9) << SteppingSchemeName(scheme);
    EXPECT_LT(v.norm(), 1e-6) << SteppingSchemeName(scheme);
    Vector3 total = Vector3::Zero();
    for (const NmdpPointForce& f : stepper.forces()) total += f.f_W;
    EXPECT_NEAR(total.z(), m * 9.81, 1e-6) << SteppingSchemeName(scheme);
  }
}

// The largest |φ − φ*| of the box's bottom over the last 0.1 s of a 0.6 s
// run from φ* with a downward kick of 0.1 m/s, or infinity when a step
// failed.
double BounceAfter(SteppingScheme scheme, const NmdpParameters& p, double dt) {
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  const double phi_star = PenaltyRestHeight(p, 2.0);
  VectorX q, v;
  BoxAt(model, 0.05 + phi_star, &q, &v);
  v[5] = -0.1;
  NmdpStepper stepper(model);
  StepStats stats;
  std::string message;
  double largest = 0;
  const int steps = static_cast<int>(std::lround(0.6 / dt));
  for (int i = 0; i < steps; ++i) {
    VectorX qn, vn;
    if (stepper.StepPoints(scheme, p, dt, BoxCorners(), {}, q, v, nullptr, &qn, &vn, &stats, &message) !=
        StepStatus::kSuccess) {
      return std::numeric_limits<double>::infinity();
    }
    q = qn;
    v = vn;
    if ((i + 1) * dt > 0.5) largest = std::max(largest, std::abs(BottomHeight(q) - phi_star));
  }
  return largest;
}

TEST(NmdpStepperTest, TheLinearizedSchemeLosesThePenaltyAboveItsStabilityLimitBackwardEulerDoesNot) {
  // [NMDP] Sec. VI: NE-MDP "is only stable when δt is small and explodes
  // under larger δt". With Σ w = 1 its normal force is the penalty spring
  // evaluated at the start of the step, i.e. symplectic Euler on
  // ω = √(4 k / m) = 141 rad/s (k = 1e4 N/m, s' ≈ 1 at the rest depth of
  // 4.9 ℓ), stable only for ω δt < 2. Backward Euler is stable for every δt.
  NmdpParameters p = Params();
  p.stiffness = 1e4;
  p.activation_length = 1e-4;
  const double kick = 0.1 / 141;  // The kick's amplitude at ω [m].
  // δt = 5 ms (ω δt = 0.71): NE-MDP (symplectic Euler) keeps the bounce
  // bounded, neither damping nor growing it: its amplitude stays near the
  // kick's (the softplus's s' < 1 above the rest depth softens the spring
  // and lengthens the swing: measured 1.19 × the kick); backward Euler damps it.
  EXPECT_LT(BounceAfter(SteppingScheme::kNeMdp, p, 0.005), 1.5 * kick);
  EXPECT_LT(BounceAfter(SteppingScheme::kNmdpPgm, p, 0.005), kick);
  // δt = 20 ms (ω δt = 2.8): NE-MDP's bounce grows past the kick (or its
  // step fails); backward Euler's has died out.
  EXPECT_GT(BounceAfter(SteppingScheme::kNeMdp, p, 0.02), 3 * kick);
  EXPECT_LT(BounceAfter(SteppingScheme::kNmdpPgm, p, 0.02), 0.01 * kick);
}

TEST(NmdpStepperTest, ChosenForcesNeverAddKineticEnergy) {
  // Maximal dissipation ([NMDP] Eq. 6): the step's kinetic energy at q₊ is
  // at most the one of the neutral weights projected onto the same
  // dynamics: no contact force with a free normal force, the frictionless
  // penalty (uniform weights) with Σ w = 1. Random throws of the box into
  // the ground with spin.
  const MultibodyModel model = test::MakeFreeBody(Vector3(0.02, -0.01, 0.0));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const double dt = 0.01;
  int throws_with_force = 0, compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    VectorX q, v;
    BoxAt(model, 0.05 + 0.002 * u(rng), &q, &v);
    q.head<4>() = Vector4(1, 0.05 * u(rng), 0.05 * u(rng), 0.05 * u(rng)).normalized();
    v.head<3>() = 2 * Vector3(u(rng), u(rng), u(rng));
    v.tail<3>() = Vector3(u(rng), u(rng), -1 - u(rng));
    for (const bool free_normal : {true, false}) {
      NmdpParameters p = Params();
      p.free_normal_force = free_normal;
      std::vector<NmdpContactPoint> points;
      for (const NmdpCandidatePoint& c : BoxCorners()) points.push_back(c.point);
      const WrenchPolytopeParameters poly{p.stiffness, p.activation_length, p.pyramid_edges};
      NmdpResidual neutral_step(model, points, poly, q, v, dt);
      const VectorX neutral =
          VectorX::Constant(neutral_step.num_weights(), free_normal ? 0.0 : 1.0 / p.pyramid_edges);
      const ManifoldProjectionResult r = ProjectOntoManifold(neutral_step, neutral, v, false, {});
      ASSERT_EQ(r.status, ManifoldProjectionStatus::kConverged) << r.message;
      const double E_neutral = neutral_step.KineticEnergy(r.v);
      for (const SteppingScheme scheme : {SteppingScheme::kNmdpPgm, SteppingScheme::kNmdpZopgm}) {
        NmdpStepper stepper(model);
        VectorX qn, vn;
        StepStats stats;
        std::string message;
        ASSERT_EQ(stepper.StepPoints(scheme, p, dt, BoxCorners(), {}, q, v, nullptr, &qn, &vn, &stats, &message),
                  StepStatus::kSuccess)
            << message;
        // A subdivided step (Alg. 2) is a different integration: its
        // energy is not comparable with one backward-Euler step's.
        if (stats.subdivisions > 0) continue;
        ++compared;
        NmdpResidual chosen(model, points, poly, q, v, dt);
        const double E = chosen.KineticEnergy(vn);
        // Alg. 1 accepts only decreasing steps from the neutral start (or a
        // lower warm start); 1e-9 J is the projections' round-off.
        EXPECT_LE(E, E_neutral + 1e-9) << SteppingSchemeName(scheme) << " trial " << trial;
        if (E < 0.9 * E_neutral) ++throws_with_force;
      }
    }
  }
  // Every first-order step went without subdivision (ZOPGM's chord
  // iteration does not converge against this stiff contact at δt = 10 ms:
  // Alg. 2 subdivides those steps); and the throws reach the ground: the
  // forces took energy out of most of them.
  EXPECT_GE(compared, 40);
  EXPECT_GT(throws_with_force, 30);
}

TEST(NmdpStepperTest, DivergingProjectionSubdividesTheStep) {
  // A box tumbling at 30 rad/s about a non-principal axis, out of contact,
  // with δt = 40 ms: backward Euler's gyroscopic term turns it by 1.2 rad in
  // a step, and Newton capped at 3 steps does not bring ‖F‖∞ to 1e-8 N m
  // from the start of the step: the projection of Alg. 1's start fails, and
  // Alg. 2 halves δt until 3 steps suffice.
  const MultibodyModel model = test::MakeFreeBody(Vector3::Zero());
  NmdpParameters p = Params();
  p.projection_max_iterations = 3;
  VectorX q, v;
  BoxAt(model, 1.0, &q, &v);
  v.head<3>() = Vector3(24, 15, 10);
  const double dt = 0.04;
  NmdpResidual energy(model, {}, WrenchPolytopeParameters{}, q, v, dt);
  const double E0 = 0.5 * v.dot(energy.MassMatrix(VectorX::Zero(6)) * v);
  NmdpStepper stepper(model);
  VectorX qn, vn;
  StepStats stats;
  std::string message;
  ASSERT_EQ(stepper.StepPoints(SteppingScheme::kNmdpPgm, p, dt, BoxCorners(), {}, q, v, nullptr, &qn, &vn, &stats,
                         &message),
            StepStatus::kSuccess)
      << message;
  EXPECT_GT(stats.subdivisions, 0);
  EXPECT_LT(stats.smallest_dt_s, dt);
  EXPECT_GE(stats.smallest_dt_s, dt / (1 << p.max_subdivisions));
  // Backward Euler dissipates rotational energy, it never adds it (the
  // mass matrix of a free body does not depend on its pose).
  NmdpResidual after(model, {}, WrenchPolytopeParameters{}, qn, vn, dt);
  EXPECT_LE(0.5 * vn.dot(after.MassMatrix(VectorX::Zero(6)) * vn), E0);

  // With no halving allowed the same step fails, says why, and leaves the
  // outputs untouched.
  p.max_subdivisions = 0;
  VectorX q_out = VectorX::Constant(7, 42), v_out = VectorX::Constant(6, 42);
  NmdpStepper fresh(model);
  EXPECT_EQ(fresh.StepPoints(SteppingScheme::kNmdpPgm, p, dt, BoxCorners(), {}, q, v, nullptr, &q_out, &v_out, &stats,
                       &message),
            StepStatus::kSolverFailed);
  EXPECT_NE(message.find("NMDP-PGM"), std::string::npos) << message;
  EXPECT_NE(message.find("diverged at dt = 40 ms"), std::string::npos) << message;
  EXPECT_EQ(q_out, VectorX::Constant(7, 42));
  EXPECT_EQ(v_out, VectorX::Constant(6, 42));
}

}  // namespace
}  // namespace stiction
