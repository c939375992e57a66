// The MuJoCo adapter of stiction-bench (issue 8) against analytic references:
// free flight (MuJoCo's semi-implicit Euler, exactly), the initial state and
// actuators as mapped, a box resting on a plane (penetration bounded by
// MuJoCo's default soft-contact parameters), the Coulomb slide on an incline,
// and the benchmark scenes running. scripts/setup-deps.sh installs MuJoCo, so
// the adapter must be built in: a nullptr engine fails these tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/side_by_side/peer_engine.h"
#include "engine/common/text.h"
#include "engine/scene/scene_loader.h"

namespace stiction::bench {
namespace {

constexpr double kG = 9.81;
constexpr MujocoConfig kConfigs[] = {MujocoConfig::kPyramidalNewton, MujocoConfig::kEllipticNewton,
                                     MujocoConfig::kEllipticNoslip};

std::unique_ptr<PeerEngine> Make(const SceneDescription& scene, MujocoConfig config) {
  std::string why_not;
  std::unique_ptr<PeerEngine> engine = MakeMujocoEngine(scene, config, &why_not);
  EXPECT_NE(engine, nullptr) << why_not;
  return engine;
}

std::unique_ptr<PeerEngine> Make(const std::string& yaml, MujocoConfig config) {
  return Make(LoadSceneString(yaml, "scene.yaml"), config);
}

std::string Num(double x) { return FormatNumber(x, kRoundTripDigits); }

// Appended rather than `std::string(...) + "..."`, which g++ 12 misreads
// as an out-of-bounds copy at -O1 (-Warray-bounds, GCC PR 105651).
std::string ScenePath(const std::string& name) {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/assets/scenes/").append(name);
  return path;
}

void StepOrFail(PeerEngine* engine) {
  std::string error;
  ASSERT_TRUE(engine->Step(&error)) << error;
}

TEST(MujocoEngineTest, LabelsNameVersionAndConfig) {
  const std::string yaml = "bodies:\n  - {name: s, mass: 1, geometry: [{shape: {type: sphere, radius: 0.1}}]}\n";
  EXPECT_EQ(Make(yaml, MujocoConfig::kPyramidalNewton)->label(), "MuJoCo 2.2.2 pyramidal Newton");
  EXPECT_EQ(Make(yaml, MujocoConfig::kEllipticNewton)->label(), "MuJoCo 2.2.2 elliptic Newton");
  EXPECT_EQ(Make(yaml, MujocoConfig::kEllipticNoslip)->label(),
            "MuJoCo 2.2.2 elliptic Newton + noslip");
}

// A 5 cm sphere at z0 = 1 m, nothing to hit, δt = 10 ms.
constexpr const char* kFreeSphere = R"(
time_step: 0.01
bodies:
  - name: ball
    mass: 0.5
    geometry: [{shape: {type: sphere, radius: 0.05}}]
    pose: {position: [0, 0, 1]}
    velocity: {linear: [1.5, 0, 0]}
)";

TEST(MujocoEngineTest, FreeFlightIsSemiImplicitEulerExactly) {
  // MuJoCo's Euler: v_{n+1} = v_n − g δt, z_{n+1} = z_n + δt v_{n+1}, so
  // z_n = z0 − g δt² n(n+1)/2 and v_n = −g δt n; x_n = v0 n δt (initial
  // linear velocity honored). Tolerance: round-off only. Each step adds a few
  // rounding errors of size ε·|z| ≈ 2.2e-16 m (and ε·g δt ≈ 2e-17 m/s to v);
  // over 30 steps that stays below 30 · 4 · 2.2e-16 ≈ 3e-14 m; 1e-12 m
  // leaves room for MuJoCo's mass-matrix solve (m · (1/m) ≠ 1 exactly).
  const double dt = 0.01, z0 = 1, v0 = 1.5;
  for (const MujocoConfig config : kConfigs) {
    std::unique_ptr<PeerEngine> engine = Make(kFreeSphere, config);
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(engine->BodyVelocity(0), Vector3(v0, 0, 0));
    for (int n = 1; n <= 30; ++n) {
      StepOrFail(engine.get());
      const Vector3 p = engine->BodyPosition(0);
      const Vector3 v = engine->BodyVelocity(0);
      EXPECT_NEAR(p.z(), z0 - kG * dt * dt * n * (n + 1) / 2, 1e-12) << n;
      EXPECT_NEAR(v.z(), -kG * dt * n, 1e-12) << n;
      EXPECT_NEAR(p.x(), v0 * n * dt, 1e-12) << n;
      EXPECT_NEAR(v.x(), v0, 1e-12) << n;
      EXPECT_EQ(engine->LastMaxPenetration(), 0.0);
      EXPECT_EQ(engine->LastIterations(), 0.0);  // No constraint, no solver.
    }
  }
}

TEST(MujocoEngineTest, InitialAngularVelocityIsInTheWorldFrame) {
  // A body turned by Rz(90°) with its COM 0.1 m along its own x (world +y),
  // spinning at ω_W = (2, 0, 0) rad/s, isotropic inertia, no gravity: the COM
  // moves uniformly and ω stays constant, so the origin's acceleration is
  // ω × (ω × r) with r = p_origin − p_COM = (0, −0.1, 0): (0, 0.4, 0) m/s².
  // One Euler step: v1 = v0 + δt (0, 0.4, 0). Had ω been passed in the wrong
  // frame (R_WB ω_W = (0, 2, 0), parallel to r) the origin would not
  // accelerate at all. Tolerance: round-off of products of O(1) numbers.
  const std::string yaml = R"(
time_step: 0.01
gravity: [0, 0, 0]
bodies:
  - name: b
    mass: 1
    com: [0.1, 0, 0]
    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}
    pose: {position: [0, 0, 1], rpy: [0, 0, 1.5707963267948966]}
    velocity: {linear: [0.3, 0, 0], angular: [2, 0, 0]}
)";
  std::unique_ptr<PeerEngine> engine = Make(yaml, MujocoConfig::kPyramidalNewton);
  ASSERT_NE(engine, nullptr);
  EXPECT_NEAR((engine->BodyVelocity(0) - Vector3(0.3, 0, 0)).norm(), 0, 1e-15);
  StepOrFail(engine.get());
  EXPECT_NEAR((engine->BodyVelocity(0) - Vector3(0.3, 0.004, 0)).norm(), 0, 1e-14);
}

TEST(MujocoEngineTest, PrismaticInitialStateAndPdActuator) {
  // A 2 kg slider on a prismatic x joint, starting at q0 = 0.1 m, v0 = 0.5
  // m/s, driven by τ = clamp(−kp(q − q_d) − kd(v − v_d), ±limit) with kp =
  // 100, q_d = 0.3, kd = 10, v_d = 0: 100·0.2 − 10·0.5 = 15 N. MuJoCo's
  // Euler step (actuator force explicit): v1 = v0 + δt F/m, x1 = x0 + δt v1.
  // With limit 4 N the force saturates: F = 4 N. Tolerance: round-off.
  const std::string yaml = R"(
time_step: 0.01
bodies:
  - {name: slider, mass: 2, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}
joints:
  - name: rail
    type: prismatic
    parent: world
    child: slider
    parent_frame: {position: [0, 0, 1]}
    axis: [1, 0, 0]
    initial: {position: 0.1, velocity: 0.5}
actuators:
  - {name: motor, joint: rail, kp: 100, kd: 10, effort_limit: LIMIT, target: {position: 0.3, velocity: 0}}
)";
  for (const double limit : {1e3, 4.0}) {
    std::string text = yaml;
    text.replace(text.find("LIMIT"), 5, Num(limit));
    std::unique_ptr<PeerEngine> engine = Make(text, MujocoConfig::kEllipticNewton);
    ASSERT_NE(engine, nullptr);
    EXPECT_NEAR((engine->BodyPosition(0) - Vector3(0.1, 0, 1)).norm(), 0, 1e-15);
    EXPECT_NEAR((engine->BodyVelocity(0) - Vector3(0.5, 0, 0)).norm(), 0, 1e-15);
    StepOrFail(engine.get());
    const double force = std::min(15.0, limit);
    const double v1 = 0.5 + 0.01 * force / 2;
    EXPECT_NEAR(engine->BodyVelocity(0).x(), v1, 1e-14) << limit;
    EXPECT_NEAR(engine->BodyPosition(0).x(), 0.1 + 0.01 * v1, 1e-14) << limit;
    EXPECT_NEAR(engine->BodyPosition(0).z(), 1, 1e-14);  // The rail holds it up.
  }
}

TEST(MujocoEngineTest, BoxRestsOnThePlaneWithinTheSoftContactBound) {
  // 1 kg, 10 cm box placed touching the ground (n_c = 4 corner contacts),
  // μ = 0.5, δt = 10 ms. MuJoCo's soft contact with its defaults solref =
  // (τ = 0.02 s, ζ = 1), solimp = (d0 = 0.9, dmax = 0.95, width 1 mm):
  // K = 1/(dmax² τ² ζ²) = 2770 s⁻², aref = −B v − K d r, regularizer
  // R = (1 − d)/d · A with A = 1/m (the box's translational inverse weight,
  // MuJoCo's diagonal approximation).
  // - Step 1: MuJoCo makes a contact only for dist < margin = 0, so the box
  //   falls freely for one step: δ1 = g δt², v1 = −g δt. From there the
  //   reference acceleration (B g δt + K d δ1 ≈ 13 m/s² > g) turns it
  //   upwards at once, so no later step goes deeper than δ1.
  // - At rest (J a = 0, v = 0) an elliptic contact carries f = aref/R =
  //   K d² δ m/(1 − d); n_c f = m g gives δ = (1 − d) g/(n_c K d²), with
  //   d ∈ [d0, dmax] (noslip changes friction forces only). A pyramidal
  //   contact's four edges share the regularizer 2μ²(1 + μ²)(1 − d)/(d m)
  //   (MuJoCo 2.2's pyramid scaling), which gives μ²(1 + μ²)/2 = 0.156 of
  //   that depth. Checked from 1 s on, when the settling has decayed.
  const std::string yaml = R"(
time_step: 0.01
materials: [{name: m, friction: 0.5}]
default_material: m
world_geometry: [{name: ground, shape: {type: half_space}}]
bodies:
  - name: box
    mass: 1
    geometry: [{shape: {type: box, size: [0.1, 0.1, 0.1]}}]
    pose: {position: [0.2, -0.1, 0.05]}
)";
  const double dt = 0.01, mu = 0.5, n_c = 4, d0 = 0.9, dmax = 0.95;
  const double K = 1 / (dmax * dmax * 0.02 * 0.02);
  const double free_fall = kG * dt * dt;
  for (const MujocoConfig config : kConfigs) {
    const double scale = config == MujocoConfig::kPyramidalNewton ? mu * mu * (1 + mu * mu) / 2 : 1;
    const double deepest = scale * (1 - d0) * kG / (n_c * K * d0 * d0);
    const double shallowest = scale * (1 - dmax) * kG / (n_c * K * dmax * dmax);
    std::unique_ptr<PeerEngine> engine = Make(yaml, config);
    ASSERT_NE(engine, nullptr);
    double max_iterations = 0;
    for (int n = 1; n <= 200; ++n) {
      StepOrFail(engine.get());
      max_iterations = std::max(max_iterations, engine->LastIterations());
      const Vector3 p = engine->BodyPosition(0);
      // Round-off of one Euler step of O(0.1) numbers.
      if (n == 1) {
        EXPECT_NEAR(p.z(), 0.05 - free_fall, 1e-15);
        EXPECT_EQ(engine->LastMaxPenetration(), 0.0);
      }
      EXPECT_LE(engine->LastMaxPenetration(), free_fall + 1e-15) << n;
      EXPECT_GE(p.z(), 0.05 - free_fall - 1e-15) << n;
      EXPECT_LE(p.z(), 0.05) << n;
      // Horizontal: the four corner contacts are symmetric, so tangential
      // forces vanish up to round-off (≈ 1e-16 N); over 2 s that moves the
      // box by < ½ · 1e-16 · 2² m ≪ 1e-12 m.
      EXPECT_NEAR(p.x(), 0.2, 1e-12) << n;
      EXPECT_NEAR(p.y(), -0.1, 1e-12) << n;
      if (n >= 100) {
        EXPECT_LE(engine->LastMaxPenetration(), deepest) << n;
        EXPECT_GE(engine->LastMaxPenetration(), shallowest) << n;
        EXPECT_GE(p.z(), 0.05 - deepest) << n;
      }
    }
    // At rest after 2 s: the settling decays at ≥ 20 s⁻¹ (the continuous
    // rate d/(dmax τ) ≈ 47 s⁻¹, slowed by the Euler step), so the 0.1 m/s
    // of the first step are below 0.1 e⁻³⁸ m/s; what is left is round-off.
    EXPECT_LT(engine->BodyVelocity(0).norm(), 1e-9);
    // The contact needs the solver (at least on the steps that settle it).
    EXPECT_GT(max_iterations, 0.0);
  }
}

TEST(MujocoEngineTest, BoxOnTheInclineObeysTheFrictionCone) {
  // assets/scenes/incline.yaml tilted to tan α = 0.6 (the overrides its
  // header names): μ = 0.5 < tan α, so a rigid box slides with the Coulomb
  // acceleration g (sin α − μ cos α) = 0.841 m/s². MuJoCo at δt = 10 ms with
  // its default soft contact does not do that: the friction rows' damping
  // (aref = −B v_t, B = 105 s⁻¹) pushes through the cone coupling into the
  // normal direction, and the box rocks, hops and tumbles down the ramp
  // (the same box sliding at 3 m/s on flat ground hops 8 cm). What holds
  // exactly is momentum balance with forces in the friction cone: over a
  // window T, with the box's downhill and normal velocity changes Δv_d, Δv_n,
  // the normal impulse is m (g cos α T + Δv_n) and every contact force obeys
  // |f_t| ≤ μ f_n (elliptic cone; the pyramid's edges n ± μ t_i too), so
  //   |Δv_d/T − g sin α| ≤ μ (g cos α + Δv_n/T).
  // The lower side is the Coulomb law plus the normal-momentum correction;
  // it is attained when friction is saturated against the slide throughout.
  // Tolerance 1e-9 m/s²: round-off of 200 Euler velocity updates of O(10)
  // m/s² terms (≈ 200 · 4 ε · 10 · δt / T ≈ 1e-14), with margin.
  const double alpha = std::atan(0.6), mu = 0.5;
  const std::string rpy = "[0," + Num(alpha) + ",0]";
  const std::vector<std::string> overrides = {
      "world_geometry.ramp.pose.rpy=" + rpy, "bodies.box.pose.rpy=" + rpy,
      "bodies.box.pose.position=[" + Num(0.05 * std::sin(alpha)) + ",0," +
          Num(0.05 * std::cos(alpha)) + "]"};
  const SceneDescription scene = LoadSceneFile(ScenePath("incline.yaml"), overrides);
  const Vector3 downhill(std::cos(alpha), 0, -std::sin(alpha));
  const Vector3 normal(std::sin(alpha), 0, std::cos(alpha));
  const double coulomb = kG * (std::sin(alpha) - mu * std::cos(alpha));
  EXPECT_NEAR(coulomb, 0.841, 5e-4);
  for (const MujocoConfig config : kConfigs) {
    std::unique_ptr<PeerEngine> engine = Make(scene, config);
    ASSERT_NE(engine, nullptr);
    Vector3 v1 = Vector3::Zero(), v3 = Vector3::Zero();
    for (int n = 1; n <= 300; ++n) {
      StepOrFail(engine.get());
      if (n == 100) v1 = engine->BodyVelocity(0);
      if (n == 300) v3 = engine->BodyVelocity(0);
    }
    const double T = 2.0;
    const double a = (v3 - v1).dot(downhill) / T;
    const double normal_impulse_rate = kG * std::cos(alpha) + (v3 - v1).dot(normal) / T;
    std::printf("incline tan a = 0.6, %s: mean a over 1-3 s = %.4f m/s^2 (Coulomb %.4f), "
                "cone bounds [%.4f, %.4f]\n",
                engine->label().c_str(), a, coulomb, kG * std::sin(alpha) - mu * normal_impulse_rate,
                kG * std::sin(alpha) + mu * normal_impulse_rate);
    EXPECT_GE(normal_impulse_rate, -1e-9) << engine->label();  // Contact only pushes.
    EXPECT_GE(a, kG * std::sin(alpha) - mu * normal_impulse_rate - 1e-9) << engine->label();
    EXPECT_LE(a, kG * std::sin(alpha) + mu * normal_impulse_rate + 1e-9) << engine->label();
    EXPECT_GT(a, 0.0) << engine->label();  // It slides down.
  }
}

TEST(MujocoEngineTest, BenchmarkScenesRunWithFiniteState) {
  for (const char* name : {"grasp_hold.yaml", "clutter.yaml"}) {
    const SceneDescription scene = LoadSceneFile(ScenePath(name));
    for (const MujocoConfig config : kConfigs) {
      std::unique_ptr<PeerEngine> engine = Make(scene, config);
      ASSERT_NE(engine, nullptr) << name;
      for (int n = 0; n < 100; ++n) {
        std::string error;
        ASSERT_TRUE(engine->Step(&error)) << name << " " << engine->label() << ": " << error;
      }
      for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
        const int i = static_cast<int>(b);
        EXPECT_TRUE(engine->BodyPosition(i).allFinite()) << name << " " << scene.bodies[b].name;
        EXPECT_TRUE(engine->BodyVelocity(i).allFinite()) << name << " " << scene.bodies[b].name;
      }
      EXPECT_TRUE(std::isfinite(engine->LastMaxPenetration()));
    }
  }
}

TEST(MujocoEngineTest, UnmappableScenesAndLoadErrorsGiveReasons) {
  SceneDescription scene = LoadSceneString(kFreeSphere, "scene.yaml");
  scene.bodies[0].geometries[0].name = "bunny";
  scene.bodies[0].geometries[0].shape.type = ShapeType::kMesh;
  scene.bodies[0].geometries[0].where = {"scene.yaml", 7};
  std::string why_not;
  EXPECT_EQ(MakeMujocoEngine(scene, MujocoConfig::kPyramidalNewton, &why_not), nullptr);
  EXPECT_EQ(why_not, "geometry 'bunny' (scene.yaml:7): meshes are not mapped to MuJoCo");
  // A free body with mass but zero inertia passes the writer (which refuses
  // only massless moving bodies) but not MuJoCo's compiler: its message
  // comes back.
  scene = LoadSceneString(kFreeSphere, "scene.yaml");
  scene.bodies[0].I_Bcm_B.setZero();
  why_not.clear();
  EXPECT_EQ(MakeMujocoEngine(scene, MujocoConfig::kPyramidalNewton, &why_not), nullptr);
  EXPECT_EQ(why_not.find("MuJoCo could not load the generated MJCF: "), 0u) << why_not;
  EXPECT_GT(why_not.size(), std::string("MuJoCo could not load the generated MJCF: ").size());
}

}  // namespace
}  // namespace stiction::bench
