// Pressure-field ("hydroelastic") contact scenarios (issue 16;
// docs/contact-model.md "Pressure-field patches"): what a patch does that a
// point contact cannot, against closed forms where there is one.
//
//  a. A soft ball resting on a table sinks to the depth at which its field's
//     force 2 pi E [a^2/2 - (R^3 - h^3)/(3R)] equals its weight.
//  b. A soft puck spinning on a plane decelerates under the torsional
//     friction mu * int p rho dA of its patch (Lagged model: SAP's gliding
//     lifts a spinning patch); a rigid ball (one contact point on its spin
//     axis) does not.
//  c. A rod held near one end between two soft pads keeps its pitch; held
//     between two point contacts (a hinge) it swings down.
//  d. [SAP] Sec. VI-D slip control with patches (slip_control_patches.yaml).
//
// Every test prints its figures; the docs quote them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/grasp_readout.h"
#include "engine/scene/scene_loader.h"
#include "tests/scenarios/gripper_helpers.h"

namespace stiction {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The root of an increasing f on [lo, hi] by bisection (to round-off).
double Bisect(const std::function<double(double)>& f, double lo, double hi) {
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) < 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// ------------------------------------------------------------------- a.
// The force of the field e = 1 − r/R of a sphere pressed a depth d into a
// flat face: h = R − d, a² = R² − h², F = 2πE [a²/2 − (R³ − h³)/(3R)].
double SphereForce(double E, double R, double d) {
  const double h = R - d, a2 = R * R - h * h;
  return 2 * kPi * E * (0.5 * a2 - (R * R * R - h * h * h) / (3 * R));
}

// The ball settles where SphereForce(d) = m g. At rest every polygon's
// impulse is exactly p A δt (SAP: v̂_n/R_n; Lagged: k x0 δt), so the only
// approximation left is the mesh's (contact_surface_test: the force is
// within 0.1 % at this resolution, i.e. ~0.05 % in d since F ∝ d²).
// Tolerance 2 % of d (the issue's): leaves room for what is left of the
// landing after 2 s (damped by τd = 0.02 s, resp. d = 10 s/m).
TEST(PressureFieldTest, SoftBallRestsAtTheAnalyticPenetration) {
  const auto start = std::chrono::steady_clock::now();
  const double R = 0.05, m = 0.5, E = 1e5;
  const double d = Bisect([&](double x) { return SphereForce(E, R, x) - m * kG; }, 0.0, R);
  std::printf("soft ball R = %.2f m, m = %.1f kg, E = %.0e Pa: analytic penetration d = %.4f mm (d/R = %.3f)\n", R,
              m, E, 1e3 * d, d / R);

  // (1) The shipped scene: the ball dropped 3 cm onto the rigid table (the
  // table's box faces clipped by the ball's cells), SAP. Its first body is
  // the ball analysed here.
  Simulation scene = Simulation::FromFile(test::ScenePath("soft_ball.yaml"));
  ASSERT_EQ(scene.scene().bodies[0].name, "soft_ball");
  ASSERT_EQ(scene.scene().bodies[0].mass, m);
  test::Run(&scene, 2.0, [] {});
  const BodyState ball = test::BodyNamed(scene, "soft_ball");
  const double table_top = 0.40;
  const double d_table = table_top + R - ball.position.z();

  // (2) The same ball on a half-space (the plane's section of the mesh), with
  // the Lagged Hunt & Crossley model: the same depth, a different model.
  const std::string plane = R"(
gravity: [0, 0, -9.81]
time_step: 0.005
contact_model: lagged
materials:
  - {name: rubber, friction: 0.5, hc_dissipation: 10, hydroelastic_modulus: 1.0e5}
default_material: rubber
world_geometry:
  - {name: ground, shape: {type: half_space}}
bodies:
  - name: ball
    mass: 0.5
    geometry: [{shape: {type: sphere, radius: 0.05}, compliant: true}]
    pose: {position: [0, 0, 0.06]}
)";
  Simulation lagged(LoadSceneString(plane, "soft_ball_plane.yaml"));
  test::Run(&lagged, 2.0, [] {});
  const BodyState ball2 = test::BodyNamed(lagged, "ball");
  const double d_plane = R - ball2.position.z();

  std::printf("  resting depth: table (SAP) %.4f mm (%+.3f %%), plane (Lagged) %.4f mm (%+.3f %%); "
              "speeds %.1e, %.1e m/s\n",
              1e3 * d_table, 100 * (d_table / d - 1), 1e3 * d_plane, 100 * (d_plane / d - 1),
              ball.linear_velocity.norm(), ball2.linear_velocity.norm());
  std::printf("  (%.2f s)\n", Seconds(start));
  EXPECT_NEAR(d_table, d, 0.02 * d);
  EXPECT_NEAR(d_plane, d, 0.02 * d);
  // At rest: the landing at 0.77 m/s has died out.
  EXPECT_LT(ball.linear_velocity.norm(), 1e-3);
  EXPECT_LT(ball2.linear_velocity.norm(), 1e-3);
}

// ------------------------------------------------------------------- b.
// A compliant cylinder (radius R, half height hz) standing on its cap, the
// cap pressed δ into a plane: there e = 1 − max(ρ/R, |z|/hz) with
// |z|/hz = 1 − δ/hz, so p(ρ) = E min(δ/hz, 1 − ρ/R): flat at E δ/hz out to
// ρ* = R (1 − δ/hz), then falling linearly to 0 at the rim. Closed forms of
// ∫p dA and ∫p ρ dA over the cap:
struct PuckIntegrals {
  double force, torque_per_mu;  // [N], [N m]
};
PuckIntegrals PuckPatch(double E, double R, double hz, double delta) {
  const double s = delta / hz, rs = R * (1 - s);
  const double r2 = rs * rs, r3 = r2 * rs, r4 = r3 * rs;
  PuckIntegrals out;
  // 2π ∫ p ρ dρ: s ρ*²/2 + [ρ²/2 − ρ³/(3R)] from ρ* to R.
  out.force = 2 * kPi * E * (s * r2 / 2 + R * R / 6 - r2 / 2 + r3 / (3 * R));
  // 2π ∫ p ρ² dρ: s ρ*³/3 + [ρ³/3 − ρ⁴/(4R)] from ρ* to R.
  out.torque_per_mu = 2 * kPi * E * (s * r3 / 3 + R * R * R / 12 - r3 / 3 + r4 / (4 * R));
  return out;
}

struct SpinDown {
  double alpha = 0;  // Fitted dω_z/dt while sliding [rad/s²].
  int samples = 0;
};

// Steps `sim` for `duration` and fits ω_z(t) of `body` by least squares over
// the samples with 0.9 ω0 ≥ ω ≥ 0.2 ω0 after 0.02 s: well within sliding
// (every polygon's slip speed ω ρ is far above the stiction speed), before
// the stop.
SpinDown MeasureSpinDown(Simulation* sim, const std::string& body, double omega0, double duration) {
  std::vector<double> t, w;
  test::Run(sim, duration, [&] {
    const double wz = test::BodyNamed(*sim, body).angular_velocity.z();
    if (sim->time() >= 0.02 && wz <= 0.9 * omega0 && wz >= 0.2 * omega0) {
      t.push_back(sim->time());
      w.push_back(wz);
    }
  });
  SpinDown out;
  out.samples = static_cast<int>(t.size());
  if (t.size() < 2) return out;
  double st = 0, sw = 0, stt = 0, stw = 0;
  const double n = static_cast<double>(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    st += t[i];
    sw += w[i];
    stt += t[i] * t[i];
    stw += t[i] * w[i];
  }
  out.alpha = (n * stw - st * sw) / (n * stt - st * st);
  return out;
}

// A body of 0.2 kg spinning at ω0 about the vertical on a half-space, μ = 0.3.
std::string SpinScene(const std::string& geometry, double z0, double omega0, const std::string& model) {
  return R"(
gravity: [0, 0, -9.81]
time_step: 0.002
contact_model: )" + model + R"(
materials:
  - {name: rubber, friction: 0.3, dissipation: 0.005, hc_dissipation: 10, hydroelastic_modulus: 1.0e5}
default_material: rubber
world_geometry:
  - {name: ground, shape: {type: half_space}}
bodies:
  - name: spinner
    mass: 0.2
    geometry: [)" + geometry + R"(]
    pose: {position: [0, 0, )" + test::Num(z0) + R"(]}
    velocity: {angular: [0, 0, )" + test::Num(omega0) + R"(]}
)";
}

// The Lagged Hunt & Crossley model: friction μ times the normal impulse of
// the step start, and no gliding. SAP's convex relaxation makes a sliding
// contact separate at μ‖v_t‖ (docs/solvers.md "gliding"): the puck's rim
// slides at 1.2 m/s, so SAP would lift it μ δt ‖v_t‖ = 0.7 mm per step off
// a patch only 0.04 mm deep, and it hops (printed for comparison).
TEST(PressureFieldTest, SpinningSoftPuckDeceleratesUnderItsPatchsTorsionalFriction) {
  const auto start = std::chrono::steady_clock::now();
  const double R = 0.04, L = 0.02, hz = L / 2, m = 0.2, E = 1e5, mu = 0.3, omega0 = 30;
  // The equilibrium depth (∫p dA = m g) and the patch's friction torque there.
  const double delta = Bisect([&](double x) { return PuckPatch(E, R, hz, x).force - m * kG; }, 0.0, hz);
  const double torque = mu * PuckPatch(E, R, hz, delta).torque_per_mu;
  const double Izz = 0.5 * m * R * R;  // The loader's closed form for a solid cylinder.
  const double alpha = torque / Izz;
  std::printf("soft puck R = %.0f mm, 2hz = %.0f mm, m = %.1f kg, E = %.0e Pa, mu = %.1f: delta = %.4f mm, "
              "patch torque mu int p rho dA = %.5f N m (uniform pressure: mu m g 2R/3 = %.5f), "
              "alpha = tau / Izz = %.2f rad/s^2\n",
              1e3 * R, 1e3 * L, m, E, mu, 1e3 * delta, torque, mu * m * kG * 2 * R / 3, alpha);

  // Started at the equilibrium depth, so that the patch carries m g from
  // the first step.
  const std::string puck = "{shape: {type: cylinder, radius: 0.04, length: 0.02}, compliant: true}";
  Simulation soft_sim(LoadSceneString(SpinScene(puck, hz - delta, omega0, "lagged"), "spinning_puck.yaml"));
  const SpinDown soft = MeasureSpinDown(&soft_sim, "spinner", omega0, 0.5);
  std::printf("  compliant puck (Lagged): alpha = %.2f rad/s^2 (%+.2f %% of the analytic), torque %.5f N m, "
              "over %d samples\n",
              -soft.alpha, 100 * (-soft.alpha / alpha - 1), -soft.alpha * Izz, soft.samples);
  Simulation sap_sim(LoadSceneString(SpinScene(puck, hz - delta, omega0, "sap"), "spinning_puck_sap.yaml"));
  const SpinDown sap = MeasureSpinDown(&sap_sim, "spinner", omega0, 0.5);
  std::printf("  compliant puck (SAP, gliding: it hops): alpha = %.2f rad/s^2 (%+.2f %%)\n", -sap.alpha,
              100 * (-sap.alpha / alpha - 1));

  // A rigid ball of the same mass and radius spinning about the vertical:
  // one contact point, on the spin axis, where the surface does not slide;
  // a point contact has no torque about its normal.
  Simulation ball(LoadSceneString(SpinScene("{shape: {type: sphere, radius: 0.04}}", R, omega0, "lagged"),
                                  "spinning_ball.yaml"));
  const double I_ball = 0.4 * m * R * R;
  std::vector<double> w_ball;
  test::Run(&ball, 0.5, [&] { w_ball.push_back(test::BodyNamed(ball, "spinner").angular_velocity.z()); });
  const double torque_ball = I_ball * (w_ball.front() - w_ball.back()) / 0.5;
  std::printf("  rigid ball (one point contact): omega %.3f -> %.3f rad/s in 0.5 s, mean torque %.2e N m "
              "(%.2f %% of the patch's)\n",
              w_ball.front(), w_ball.back(), torque_ball, 100 * torque_ball / torque);

  // For comparison, a rigid puck: its cap touches the plane at points on the
  // rim (the manifold's corners), which then carry the whole weight:
  // μ m g R, 3/2 of the patch's torque.
  Simulation rigid_sim(LoadSceneString(
      SpinScene("{shape: {type: cylinder, radius: 0.04, length: 0.02}}", hz, omega0, "lagged"), "spinning_rigid.yaml"));
  const SpinDown rigid = MeasureSpinDown(&rigid_sim, "spinner", omega0, 0.5);
  std::printf("  rigid puck (point contacts on the rim): torque %.5f N m (mu m g R = %.5f)\n", -rigid.alpha * Izz,
              mu * m * kG * R);
  std::printf("  (%.2f s)\n", Seconds(start));

  // The issue's tolerance, 2 %: what is left is the polygons' discretization
  // (a polygon's torque is μ p A ρ at its centroid) and the 32-gon.
  ASSERT_GE(soft.samples, 20);
  EXPECT_NEAR(-soft.alpha, alpha, 0.02 * alpha);
  // Essentially none at one point (the issue: < 10 % of the patch's).
  EXPECT_LT(std::abs(torque_ball), 0.1 * torque);
}

// ------------------------------------------------------------------- c.
// A 30 x 2 x 2 cm rod (0.15 kg) held horizontally 2 cm from one end between
// two pads pressed together with 16 N each (saturated PD actuators on
// damped prismatic joints, as in grasp_hold.yaml), μ = 1, δt = 5 ms. Its
// gravity torque about the grip is m g 0.13 m = 0.19 N m.
//  * Soft pads (the pad of includes/gripper_soft_pads.yaml: 3 x 1.2 x 6 cm,
//    E = 1.75e5 Pa, field 6 mm deep). Each pad's patch covers the 3 x 2 cm
//    overlap under a nearly uniform pressure; its torsional friction is
//    μ F ρ̄ with ρ̄ = 9.7 mm the mean distance from the centre of a 3 x 2 cm
//    rectangle: 2 μ F ρ̄ = 0.31 N m for both, 1.6 times the load. (A pad
//    carries at most E A / 4 = 26 N on this overlap, see the include's
//    header; 16 N sinks it 1.1 mm.)
//  * Point-contact pads: rigid balls (R = 1 cm), same place, force and μ.
//    Each touches the rod at one point, both on the grip's line along y: a
//    hinge about that line. A point contact has no friction torque about
//    its normal, so nothing resists the gravity torque. (Rigid box pads
//    would not be a fair "point" case: their face contact is a 4-point
//    manifold at the corners, which does resist it.)
std::string RodScene(const std::string& pad_geometry, double initial, double sigma) {
  return R"(
gravity: [0, 0, -9.81]
time_step: 0.005
solver: {stiction_tolerance: )" + test::Num(sigma) + R"(}
materials:
  - {name: pad, friction: 1.0, dissipation: 0.01, hydroelastic_modulus: 1.75e5}
  - {name: rod, friction: 1.0}
bodies:
  - name: rod
    mass: 0.15
    color: [0.75, 0.2, 0.2, 1]
    geometry: [{shape: {type: box, size: [0.3, 0.02, 0.02]}, material: rod}]
    pose: {position: [0.13, 0, 0.5]}
  - {name: pad_left, mass: 0.1, geometry: [)" + pad_geometry + R"(]}
  - {name: pad_right, mass: 0.1, geometry: [)" + pad_geometry + R"(]}
joints:
  # Joint coordinate = the pad's face from the rod's side (y = +-1 cm).
  - {name: slide_left, type: prismatic, parent: world, child: pad_left, damping: 200,
     parent_frame: {position: [0, 0.01, 0.5]}, axis: [0, 1, 0], initial: {position: )" + test::Num(initial) + R"(}}
  - {name: slide_right, type: prismatic, parent: world, child: pad_right, damping: 200,
     parent_frame: {position: [0, -0.01, 0.5], rpy: [0, 0, 3.141592653589793]}, axis: [0, 1, 0],
     initial: {position: )" + test::Num(initial) + R"(}}
actuators:
  # kp = 0 and a closing velocity never reached: the effort saturates at 16 N.
  - {name: press_left, joint: slide_left, kp: 0, kd: 1000, effort_limit: 16, target: {velocity: -1}}
  - {name: press_right, joint: slide_right, kp: 0, kd: 1000, effort_limit: 16, target: {velocity: -1}}
)";
}

struct RodRun {
  double max_abs_pitch = 0, final_pitch = 0;
  // Between the left pad and the rod: Σ γ_n/δt [N] and the contact count,
  // at t = 0.1 s (before a hinged rod has gone far) and at the end.
  double force_early = 0, force_final = 0;
  int contacts_early = 0, contacts_final = 0;
};

void LeftPadContact(const Simulation& sim, double* force, int* contacts) {
  const int rod = sim.model().FindBody("rod"), left = sim.model().FindBody("pad_left");
  for (const ContactReport& c : sim.contacts()) {
    if ((c.body_a == left && c.body_b == rod) || (c.body_a == rod && c.body_b == left)) {
      *force += c.gamma_C.z() / sim.time_step();
      ++*contacts;
    }
  }
}

// `initial`: the pads' starting coordinate (< 0: pressed into the rod).
RodRun RunRod(const std::string& pad_geometry, double initial, double sigma, const std::string& label) {
  Simulation sim(LoadSceneString(RodScene(pad_geometry, initial, sigma), label));
  RodRun out;
  test::Run(&sim, 5.0, [&] {
    const double p = test::PitchDegrees(test::BodyNamed(sim, "rod"));
    out.max_abs_pitch = std::max(out.max_abs_pitch, std::abs(p));
    out.final_pitch = p;
    if (std::abs(sim.time() - 0.1) < 0.5 * sim.time_step()) LeftPadContact(sim, &out.force_early, &out.contacts_early);
  });
  LeftPadContact(sim, &out.force_final, &out.contacts_final);
  return out;
}

TEST(PressureFieldTest, RodHeldBetweenSoftPadsKeepsItsPitchBetweenPointContactsItPivots) {
  const auto start = std::chrono::steady_clock::now();
  // Pad frame = its face; the pad lies behind it (+y of the pad frame). The
  // soft pads start 0.5 mm into the rod (about their 16 N sink, 1.1 mm), so
  // the rod is held from the first step; the balls start touching it.
  const std::string soft_pad =
      "{shape: {type: box, size: [0.03, 0.012, 0.06]}, pose: {position: [0, 0.006, 0]}, material: pad, "
      "compliant: true}";
  const RodRun soft = RunRod(soft_pad, -0.0005, 1e-3, "rod_soft_pads.yaml");
  const RodRun soft_tight = RunRod(soft_pad, -0.0005, 1e-4, "rod_soft_pads_sigma.yaml");
  const RodRun point = RunRod("{shape: {type: sphere, radius: 0.01}, pose: {position: [0, 0.01, 0]}, material: pad}",
                              0.0, 1e-3, "rod_ball_pads.yaml");
  std::printf("rod 0.15 kg held 2 cm from its end, 16 N per pad, mu = 1 (gravity torque %.3f N m):\n",
              0.15 * kG * 0.13);
  std::printf("  soft pads:  max |pitch| over 5 s %.3f deg (final %.3f; sigma = 1e-4: %.3f), %d polygons on a pad "
              "pressing %.2f N\n",
              soft.max_abs_pitch, soft.final_pitch, soft_tight.max_abs_pitch, soft.contacts_final, soft.force_final);
  std::printf("  ball pads:  max |pitch| over 5 s %.1f deg, %d contact per pad pressing %.2f N at 0.1 s (%d at 5 s)\n",
              point.max_abs_pitch, point.contacts_early, point.force_early, point.contacts_final);
  std::printf("  (%.2f s)\n", Seconds(start));
  // The issue's target: within 1° for 5 s, from the first step. What moves
  // it is SAP's regularized stiction: sticking contacts creep at a speed
  // ∝ σ δt (docs/solvers.md "creep"), here a steady 0.16°/s at the default
  // σ = 1e-3; ten times less with σ = 1e-4, which shows that it is creep and
  // not the patch giving way.
  EXPECT_LT(soft.max_abs_pitch, 1.0);
  EXPECT_LT(soft_tight.max_abs_pitch, 0.15 * soft.max_abs_pitch);
  EXPECT_NEAR(soft.force_final, 16.0, 0.16);  // The actuators' 16 N (1 %), carried by the patch.
  // The hinge lets it swing down: well past 45° (it swings about the grip
  // line as a pendulum, and, with nothing to damp it, falls out).
  EXPECT_GT(point.max_abs_pitch, 45.0);
  EXPECT_EQ(point.contacts_early, 1);
}

// ------------------------------------------------------------------- d.
// [SAP] Sec. VI-D with patches: slip_control_patches.yaml (soft pads, the
// spatula of slip_control.yaml held 2.6 cm from its centre of mass, grip
// force 16 N / 1 N, δt = 5 ms, ε_r = 1e-3).
TEST(PressureFieldTest, SlipControlWithPatchesPitchesOnlyInTheLowForcePhases) {
  const auto start = std::chrono::steady_clock::now();
  Simulation sim = Simulation::FromFile(test::ScenePath("slip_control_patches.yaml"));
  ASSERT_DOUBLE_EQ(sim.time_step(), 0.005);  // The paper's δt.
  const double eps_r = sim.solver_parameters().relative_tolerance;
  ASSERT_DOUBLE_EQ(eps_r, 1e-3);  // The paper's ε_r.
  GripperController gripper(sim);
  CommandPlayer player(LoadCommandFile(sim.scene().commands_file), sim.time_step());
  const int spatula = sim.model().FindBody("spatula");

  // High phases are measured from 0.5 s after the force rises, as in
  // slip_control_test: the pads take up the extra 0.5 mm of sink within
  // ~10 ms (15 N more on finger slides damped at 200 N s/m: 7.5 cm/s), and
  // the spatula, slipping at a few degrees per second, stops as soon as the
  // patches hold 16 N (printed below: the change in the first 0.5 s).
  struct Phase {
    double start, end;
    bool high;
  };
  const std::vector<Phase> phases = {{0.0, 4.5, true},    {4.5, 6.0, false}, {6.0, 10.5, true},
                                     {10.5, 12.0, false}, {12.0, 16.5, true}, {16.5, 18.0, false}};
  const double settle = 0.5;
  long total_iterations = 0, steps = 0;
  double max_em = 0;
  double stick_constraints = 0, slip_constraints = 0;
  long stick_steps = 0, slip_steps = 0;
  std::printf("slip control with patches (slip_control_patches.yaml):\n");
  for (const Phase& phase : phases) {
    double pitch_start = test::PitchDegrees(sim.CalcBodyStates()[spatula - 1]);
    double pitch_settled = pitch_start, lo = 1e9, hi = -1e9;
    double min_force = 1e9, max_force = 0;
    bool held = true;
    const int n = static_cast<int>(std::lround((phase.end - phase.start) / sim.time_step()));
    for (int i = 0; i < n; ++i) {
      PrepareGripperStep(&sim, &gripper, &player);
      const StepResult r = sim.Step();
      ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
      ++steps;
      total_iterations += r.stats.iterations;
      if (r.stats.num_contacts > 0) max_em = std::max(max_em, r.stats.momentum_error);
      const double t = sim.time() - phase.start;
      const double p = test::PitchDegrees(sim.CalcBodyStates()[spatula - 1]);
      const GraspReadout g = CalcGraspReadout(sim, gripper, sim.time_step());
      held = held && g.holding();
      if (t >= settle - 1e-9) {
        if (std::abs(t - settle) < 0.5 * sim.time_step()) pitch_settled = p;
        lo = std::min(lo, p);
        hi = std::max(hi, p);
        min_force = std::min(min_force, g.fingers[0].normal_force);
        max_force = std::max(max_force, g.fingers[0].normal_force);
        // Constraint counts where the grasp is in its steady state.
        if (phase.high) {
          stick_constraints += r.stats.num_contacts;
          ++stick_steps;
        } else {
          slip_constraints += r.stats.num_contacts;
          ++slip_steps;
        }
      }
    }
    const double pitch_end = test::PitchDegrees(sim.CalcBodyStates()[spatula - 1]);
    std::printf("  %4.1f-%4.1f s %s: pitch %6.2f -> %6.2f deg (change %+.2f; %.3f in the first %.1f s, range %.3f "
                "after), finger force %.2f-%.2f N\n",
                phase.start, phase.end, phase.high ? "16 N" : " 1 N", pitch_start, pitch_end, pitch_end - pitch_start,
                pitch_settled - pitch_start, settle, hi - lo, min_force, max_force);
    SCOPED_TRACE(testing::Message() << "phase " << phase.start << "-" << phase.end << " s");
    if (phase.high) {
      // Issue 16 (as issue 5): constant within 0.5° once the force is up.
      EXPECT_LT(hi - lo, 0.5);
      EXPECT_NEAR(min_force, 16.0, 0.16);  // Force control holds 16 N (1 %).
    } else {
      // The spatula pitches nose down in every low-force phase: its gravity
      // torque m g d = 0.026 N m is just above what the patches hold at 1 N.
      EXPECT_GT(pitch_end - pitch_start, 1.0);
      EXPECT_NEAR(max_force, 1.0, 0.05);  // The commanded 1 N.
    }
    EXPECT_TRUE(held);  // Never dropped.
  }
  const double mean_iterations = static_cast<double>(total_iterations) / static_cast<double>(steps);
  std::printf("  constraints: %.0f in the slip (1 N) phases, %.0f in the stick (16 N) phases "
              "(paper: about 60 and 160)\n",
              slip_constraints / slip_steps, stick_constraints / stick_steps);
  std::printf("  SAP iterations per step %.2f (paper 0.62); largest e_m %.3e (eps_r = %.0e)\n", mean_iterations,
              max_em, eps_r);
  std::printf("  (%.2f s)\n", Seconds(start));
  // e_m is SAP's stopping quantity: every converged step has e_m ≤ ε_r.
  EXPECT_LE(max_em, eps_r);
}

}  // namespace
}  // namespace stiction
