// Near-rigid constraints under heavy loads (issue 21): the carried-load
// estimate of engine/contact/near_rigid.h (Eq. L1, docs/contact-model.md).
// Its analytic prediction: a contact, joint limit or weld that carries more
// than its own effective mass weighs settles to the violation of a body
// resting under its own weight,
//   φ₀ = β²/(4π²) g δt (δt + τd)   (32.76 µm at β = 1, δt = 10 ms, τd = δt/π),
// whatever the load; with the switch off ([SAP] Eq. 29 as published) it
// sinks in proportion to the load ("pile of books", [SAP] Sec. VIII).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/common/constants.h"
#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kDt = 0.01;
constexpr double kG = 9.81;
// τd of every shipped near-rigid material and of limits and welds: β δt/π.
constexpr double kTauD = kDt / kPi;
// φ₀ at β = 1 [m].
const double kPhi0 = kG * kDt * (kDt + kTauD) / (4 * kPi * kPi);

const std::vector<std::string> kPaperEstimate = {"solver.load_aware_regularization=false"};

double MaxPenetration(const Simulation& sim) {
  double p = 0;
  for (const ContactReport& c : sim.contacts()) p = std::max(p, -c.phi);
  return p;
}

// Heavy box (5 kg) on a light one (5 g) on the ground: the light box's two
// faces carry 1000 and 1001 times its weight.
struct HeavyOnLight {
  double penetration = 0;   // Largest penetration at the end [m].
  double sink = 0;          // The heavy box's drop from 1 s to the end [m].
  double heavy_drop = 0;    // The heavy box below its resting height at the end [m].
};

HeavyOnLight RunHeavyOnLight(const std::vector<std::string>& overrides, double duration) {
  Simulation sim = Simulation::FromFile(test::ScenePath("heavy_on_light.yaml"), overrides);
  double z_at_1s = 0;
  test::Run(&sim, duration, [&] {
    if (std::abs(sim.time() - 1.0) < 0.5 * kDt) z_at_1s = test::BodyNamed(sim, "heavy").position.z();
  });
  HeavyOnLight r;
  r.penetration = MaxPenetration(sim);
  const double z = test::BodyNamed(sim, "heavy").position.z();
  r.sink = z_at_1s - z;
  r.heavy_drop = 0.15 - z;
  return r;
}

TEST(SapHeavyLoadTest, HeavyBoxOnALightBoxSettlesAsIfRestingUnderItsOwnWeight) {
  const HeavyOnLight r = RunHeavyOnLight({}, 10.0);
  std::printf("heavy on light: penetration %.4e m (phi0 %.4e m), heavy box %.4e m low, sink 1-10 s %.3e m\n",
              r.penetration, kPhi0, r.heavy_drop, r.sink);
  // The issue's targets: penetration <= 1 mm, no sinking after the first second.
  EXPECT_LT(r.penetration, 1e-3);
  EXPECT_LT(std::abs(r.sink), 1e-7);
  // The analytic steady state: both faces at φ₀ (symmetric corners carry
  // equal shares). 1%: the stack is at rest to round-off after 10 s, and
  // the corners differ only by round-off.
  EXPECT_NEAR(r.penetration, kPhi0, 0.01 * kPhi0);
  EXPECT_NEAR(r.heavy_drop, 2 * kPhi0, 0.02 * kPhi0);
}

TEST(SapHeavyLoadTest, ThePaperEstimateSinksInProportionToTheLoad) {
  // The switch reproduces [SAP] Eq. (29): the light box's contacts are sized
  // by its own 5 g and the heavy box sinks centimetres deep.
  const HeavyOnLight paper = RunHeavyOnLight(kPaperEstimate, 2.0);
  std::printf("heavy on light, paper estimate: penetration %.4e m, heavy box %.4e m low\n", paper.penetration,
              paper.heavy_drop);
  EXPECT_GT(paper.penetration, 100 * kPhi0);
  // λ_max = 1 is the same switch: no constraint may be stiffened.
  Simulation off = Simulation::FromFile(test::ScenePath("heavy_on_light.yaml"), kPaperEstimate);
  Simulation capped = Simulation::FromFile(test::ScenePath("heavy_on_light.yaml"), {"solver.max_load_factor=1"});
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(off.Step().status, StepStatus::kSuccess);
    ASSERT_EQ(capped.Step().status, StepStatus::kSuccess);
  }
  EXPECT_EQ(off.positions(), capped.positions());
  EXPECT_EQ(off.velocities(), capped.velocities());
}

TEST(SapHeavyLoadTest, StackWithMassesDoublingUpwardsStands) {
  // 10 g at the bottom, 5.12 kg on top: the bottom face carries 1023 times
  // its box's weight.
  Simulation sim = Simulation::FromFile(test::ScenePath("stack_mass_ratio.yaml"));
  double top_at_1s = 0, max_tilt = 0;
  test::Run(&sim, 10.0, [&] {
    const BodyState top = test::BodyNamed(sim, "box_9");
    if (std::abs(sim.time() - 1.0) < 0.5 * kDt) top_at_1s = top.position.z();
    for (const BodyState& b : sim.CalcBodyStates()) {
      max_tilt = std::max(max_tilt, Eigen::AngleAxisd(b.orientation).angle());
    }
  });
  const BodyState top = test::BodyNamed(sim, "box_9");
  const double compression = 0.95 - top.position.z();
  std::printf("mass-ratio stack: compression %.4e m (10 phi0 = %.4e m), tilt %.2e rad, top x %.2e m\n",
              compression, 10 * kPhi0, max_tilt, top.position.x());
  // The issue's target: stands, total compression <= 1 mm, no sinking.
  EXPECT_LT(compression, 1e-3);
  EXPECT_LT(std::abs(top_at_1s - top.position.z()), 1e-7);
  EXPECT_LT(max_tilt, 1e-6);
  EXPECT_LT(std::abs(top.position.x()), 1e-6);
  // Ten faces at φ₀ each (1%: at rest, symmetric corners).
  EXPECT_NEAR(compression, 10 * kPhi0, 0.1 * kPhi0);
}

TEST(SapHeavyLoadTest, LightBoxesHeldInAStrongGraspDoNotSinkIntoThePads) {
  // grasp_hold.yaml: two 0.5 kg pads pressed with 20 N each, μ = 1, σ = 1e-3.
  for (const double mass : {0.1, 0.01}) {
    Simulation sim = Simulation::FromFile(test::ScenePath("grasp_hold.yaml"), {"bodies.box.mass=" + test::Num(mass)});
    double steady_penetration = 0, transient = 0, z_half = 0;
    test::Run(&sim, 2.0, [&] {
      transient = std::max(transient, MaxPenetration(sim));
      if (sim.time() >= 0.5) steady_penetration = std::max(steady_penetration, MaxPenetration(sim));
      if (std::abs(sim.time() - 1.0) < 0.5 * kDt) z_half = test::BodyNamed(sim, "box").position.z();
    });
    const double slip_speed = std::abs(test::BodyNamed(sim, "box").position.z() - z_half) / 1.0;
    // [SAP] Eq. (31): stiction creeps at most μ σ g δt [m/s].
    const double creep_bound = 1.0 * 1e-3 * kG * kDt;
    std::printf("grasp of %.3g kg: penetration %.3e m after 0.5 s (%.3e m in the first steps), slip %.3e m/s "
                "(bound %.3e m/s)\n",
                mass, steady_penetration, transient, slip_speed, creep_bound);
    // The issue's target: <= 0.1 mm; the box still holds.
    EXPECT_LT(steady_penetration, 1e-4);
    EXPECT_LT(slip_speed, creep_bound);
  }
}

// Sudden loads (issue 36): the load-aware λ comes from the previous step, so
// a load that appears within one step (the heavy box set on the light one at
// t = 0, the 20 N grasp closing on a 10 g box) met contacts sized for the old
// load and sank 0.79 mm and 1.51 mm in the first steps. The stepper now
// solves such a step again with its own impulses as the load
// (solver.max_load_resolves). Target: ≤ 0.1 mm over the whole run; the
// lagged estimate alone (max_load_resolves = 0) is shown to miss it.
double MaxPenetrationOverRun(const std::string& scene, std::vector<std::string> overrides, int* resolved_steps) {
  Simulation sim = Simulation::FromFile(test::ScenePath(scene), overrides);
  double deepest = 0;
  const int steps = static_cast<int>(std::lround(10.0 / sim.time_step()));  // Both scenes' duration: 10 s.
  for (int i = 0; i < steps; ++i) {
    const StepResult r = sim.Step();
    EXPECT_EQ(r.status, StepStatus::kSuccess) << scene << " step " << i << ": " << r.message;
    if (r.status != StepStatus::kSuccess) break;
    deepest = std::max(deepest, MaxPenetration(sim));
    if (r.stats.load_resolves > 0) ++*resolved_steps;
  }
  return deepest;
}

TEST(SapHeavyLoadTest, SuddenLoadsAreHeldFromTheFirstStep) {
  const struct {
    std::string scene;
    std::vector<std::string> overrides;
  } cases[] = {{"grasp_hold.yaml", {"bodies.box.mass=0.01"}}, {"heavy_on_light.yaml", {}}};
  for (const auto& c : cases) {
    int resolved = 0, resolved_lagged = 0;
    const double deepest = MaxPenetrationOverRun(c.scene, c.overrides, &resolved);
    std::vector<std::string> lagged = c.overrides;
    lagged.push_back("solver.max_load_resolves=0");
    const double deepest_lagged = MaxPenetrationOverRun(c.scene, lagged, &resolved_lagged);
    std::printf("%s: deepest over the run %.4f mm (%d steps solved again); lagged estimate alone %.4f mm\n",
                c.scene.c_str(), 1e3 * deepest, resolved, 1e3 * deepest_lagged);
    EXPECT_LE(deepest, 1e-4) << c.scene;
    EXPECT_GT(resolved, 0) << c.scene;
    EXPECT_GT(deepest_lagged, 5e-4) << c.scene << ": the case no longer shows a sudden load";
    EXPECT_EQ(resolved_lagged, 0) << c.scene;
  }
}

// Gravity, δt = 10 ms and the shipped near-rigid material (τd = δt/π) of
// the scenes below, up to their first body.
constexpr const char* kScenePreamble = R"(
gravity: [0, 0, -9.81]
time_step: 0.01
materials:
  - {name: rigid, friction: 0.5, stiffness: 1.0e12, dissipation: 0.003183098861837907}
default_material: rigid
bodies:
)";

// A 10 g platform on a vertical prismatic joint resting on its lower limit
// (q = 0), or welded to the world, with a 5 kg box on top.
std::string PlatformScene(bool weld) {
  std::string scene = kScenePreamble;  // Appended: GCC PR 105651 (-Warray-bounds).
  scene += R"(  - name: platform
    mass: 0.01
    geometry: [{shape: {type: box, size: [0.2, 0.2, 0.02]}}]
)";
  if (weld) scene += "    pose: {position: [0, 0, 0.5]}\n";
  scene += R"(  - name: box
    mass: 5
    geometry: [{shape: {type: box, size: [0.1, 0.1, 0.1]}}]
    pose: {position: [0, 0, 0.56]}
)";
  if (weld) {
    scene += R"(constraints:
  - {name: hold, type: weld, body_a: world, body_b: platform, frame_a: {position: [0, 0, 0.5]}}
)";
  } else {
    scene += R"(joints:
  - {name: lift, type: prismatic, parent: world, child: platform, parent_frame: {position: [0, 0, 0.5]},
     axis: [0, 0, 1], limits: {lower: 0, upper: 1}}
)";
  }
  return scene;
}

// A simulation of `scene` with the carried-load estimate on or off.
Simulation MakeSimulation(const std::string& scene, bool paper_estimate) {
  Simulation sim(LoadSceneString(scene, "scene.yaml", "."));
  ContactModelParameters p = sim.contact_model_parameters();
  p.load_aware_regularization = !paper_estimate;
  sim.SetContactModelParameters(p);
  return sim;
}

// How far the platform sits below its limit or weld after 3 s [m].
double PlatformSag(bool weld, bool paper_estimate) {
  Simulation sim = MakeSimulation(PlatformScene(weld), paper_estimate);
  test::Run(&sim, 3.0, [] {});
  return 0.5 - test::BodyNamed(sim, "platform").position.z();
}

TEST(SapHeavyLoadTest, JointLimitAndWeldCarryingAHeavyBoxHoldLikeAContact) {
  for (const bool weld : {false, true}) {
    const double sag = PlatformSag(weld, false);
    const double paper = PlatformSag(weld, true);
    std::printf("%s under 5 kg: sag %.4e m (phi0 %.4e m), paper estimate %.4e m\n", weld ? "weld" : "limit", sag,
                kPhi0, paper);
    // A translational row: exactly a contact's φ₀ (τd = β δt/π as for the
    // contacts; 1%: at rest after 3 s).
    EXPECT_NEAR(sag, kPhi0, 0.01 * kPhi0);
    // The paper's estimate sizes the row by the 10 g platform alone.
    EXPECT_GT(paper, 100 * kPhi0);
  }
}

TEST(SapHeavyLoadTest, RevoluteLimitCarriesALoadAtTheRadiusOfGyration) {
  // A 10 g, 50 cm bar hinged at one end resting on its lower limit
  // (horizontal), a 5 kg box resting on it 40 cm from the hinge. The limit's
  // angular impulse acts at ℓ = 1/√(w m) (joint_limit_constraints.cpp), so
  // Eq. (L1) predicts the angle violation φ₀/ℓ = φ₀ √(w m), w = 1/I_hinge.
  std::string scene = kScenePreamble;  // Appended: GCC PR 105651 (-Warray-bounds).
  scene += R"(  - name: bar
    mass: 0.01
    geometry: [{shape: {type: box, size: [0.5, 0.1, 0.02]}, pose: {position: [0.25, 0, 0]}}]
  - name: box
    mass: 5
    geometry: [{shape: {type: box, size: [0.1, 0.1, 0.1]}}]
    pose: {position: [0.4, 0, 0.56]}
joints:
  - {name: hinge, type: revolute, parent: world, child: bar, parent_frame: {position: [0, 0, 0.5]},
     axis: [0, -1, 0], limits: {lower: 0, upper: 1}}
)";
  auto run = [&](bool paper) {
    Simulation sim = MakeSimulation(scene, paper);
    test::Run(&sim, 3.0, [] {});
    return -sim.positions()[0];  // Below the lower limit θ = 0 [rad].
  };
  const double m = 0.01, L = 0.5, t = 0.02;
  // Inertia about the hinge (y axis): box bar about its centre plus m (L/2)².
  const double I = m * (L * L + t * t) / 12 + m * (L / 2) * (L / 2);
  const double predicted = kPhi0 * std::sqrt(m / I);
  const double violation = run(false), paper = run(true);
  std::printf("revolute limit under 5 kg: %.4e rad (predicted %.4e rad), paper estimate %.4e rad\n", violation,
              predicted, paper);
  // 2%: at rest after 3 s; the bar's rotor inertia is zero, so w = 1/I exactly.
  EXPECT_NEAR(violation, predicted, 0.02 * predicted);
  EXPECT_GT(paper, 100 * predicted);
}

}  // namespace
}  // namespace stiction
