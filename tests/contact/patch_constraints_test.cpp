// The point constraints of pressure-field polygons (docs/contact-model.md
// "Pressure-field patches") as the stepper builds them for a soft ball on
// the ground: each carries its polygon's force p A at zero relative
// velocity, and its cost, impulse and Hessian agree with finite
// differences, for SAP and for the Lagged Hunt & Crossley model. Also the
// scene keys' errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "engine/common/error.h"
#include "engine/geometry/contact_surface.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"

namespace stiction {
namespace {

std::string BallScene(const std::string& model, const std::string& modulus = "1.0e5") {
  return R"(
gravity: [0, 0, -9.81]
time_step: 0.005
contact_model: )" +
         model + R"(
materials:
  - {name: rubber, friction: 0.8, hydroelastic_modulus: )" +
         modulus + R"(, dissipation: 0.01, hc_dissipation: 5}
  - {name: table, friction: 0.8, stiffness: 1.0e12, dissipation: 0.003}
default_material: table
world_geometry:
  - {name: ground, shape: {type: half_space}}
bodies:
  - name: ball
    mass: 0.5
    geometry:
      - {shape: {type: sphere, radius: 0.05}, material: rubber, compliant: true}
    pose: {position: [0, 0, 0.046]}
    velocity: {linear: [0.1, 0, -0.05], angular: [0, 0, 2]}
)";
}

Simulation StepOnce(const std::string& yaml) {
  Simulation sim(LoadSceneString(yaml, "ball.yaml"));
  const StepResult r = sim.Step();
  EXPECT_EQ(r.status, StepStatus::kSuccess) << r.message;
  return sim;
}

// γ = −∂ℓ/∂v_c and G = −∂γ/∂v_c by central differences at random v_c.
void ExpectDerivativesMatch(const Constraint& c, std::mt19937* rng, double scale) {
  std::normal_distribution<double> n(0, scale);
  const int rows = c.num_rows;
  for (int trial = 0; trial < 5; ++trial) {
    VectorX vc(rows);
    for (int r = 0; r < rows; ++r) vc[r] = n(*rng);
    ConstraintEvaluation e, plus, minus;
    c.Evaluate(vc, &e);
    const double h = 1e-7 * scale;
    for (int r = 0; r < rows; ++r) {
      VectorX vp = vc, vm = vc;
      vp[r] += h;
      vm[r] -= h;
      c.Evaluate(vp, &plus);
      c.Evaluate(vm, &minus);
      // Central differences of smooth pieces: O(h²) truncation plus
      // round-off ℓ ε / h; 1e-6 relative to the largest entry covers both
      // (a point on a kink between regions would differ by O(1): none of
      // the random v_c land on one in practice).
      const double fd_gamma = -(plus.cost - minus.cost) / (2 * h);
      EXPECT_NEAR(e.gamma[r], fd_gamma, 1e-6 * (e.gamma.cwiseAbs().maxCoeff() + 1e-12)) << "row " << r;
      for (int k = 0; k < rows; ++k) {
        const double fd_G = -(plus.gamma[k] - minus.gamma[k]) / (2 * h);
        EXPECT_NEAR(e.G(k, r), fd_G, 1e-5 * (e.G.cwiseAbs().maxCoeff() + 1e-12)) << k << "," << r;
      }
    }
  }
}

TEST(PatchConstraintsTest, SapPolygonsCarryTheirPressureForceAndMatchFiniteDifferences) {
  Simulation sim = StepOnce(BallScene("sap"));
  ASSERT_EQ(sim.contact_surfaces().size(), 1u);
  const ContactSurface& s = sim.contact_surfaces()[0];
  const ContactProblem& problem = sim.last_contact_problem();
  const double dt = sim.time_step();
  int patch = 0;
  std::mt19937 rng(3);
  for (size_t i = 0; i < sim.contacts().size(); ++i) {
    const ContactReport& r = sim.contacts()[i];
    if (r.surface < 0) continue;
    ++patch;
    const ContactPolygon& p = s.polygons[r.polygon];
    const Constraint& c = problem.constraints[i];
    // At zero relative velocity the normal impulse is v̂_n / R_n =
    // −φ0 δt k = p A δt ([SAP] Sec. V-A with k = A g, φ0 = −p/g) unless the
    // near-rigid bound of Eq. (29) took over (not for these soft polygons).
    ConstraintEvaluation e;
    c.Evaluate(Vector3::Zero(), &e);
    EXPECT_NEAR(e.gamma[2] / dt, p.pressure * p.area, 1e-9 * (p.pressure * p.area) + 1e-12) << "polygon " << r.polygon;
    ExpectDerivativesMatch(c, &rng, 0.01);
  }
  EXPECT_EQ(patch, static_cast<int>(s.polygons.size()));
  EXPECT_GT(patch, 20);
}

TEST(PatchConstraintsTest, HuntCrossleyPolygonsUseThePatchStiffnessAndMatchFiniteDifferences) {
  Simulation sim = StepOnce(BallScene("lagged"));
  ASSERT_EQ(sim.contact_surfaces().size(), 1u);
  const ContactProblem& problem = sim.last_contact_problem();
  std::mt19937 rng(5);
  int checked = 0;
  for (size_t i = 0; i < sim.contacts().size() && checked < 40; ++i) {
    if (sim.contacts()[i].surface < 0) continue;
    const Constraint& c = problem.constraints[i];
    EXPECT_EQ(c.kind, ConstraintKind::kHuntCrossley);
    ExpectDerivativesMatch(c, &rng, 0.01);
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST(PatchConstraintsTest, BadCompliantInputNamesFileLineAndKey) {
  auto error_of = [](const std::string& yaml) {
    try {
      Simulation sim(LoadSceneString(yaml, "bad.yaml"));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A compliant half-space.
  const std::string half = R"(
world_geometry:
  - {name: ground, shape: {type: half_space}, compliant: true}
)";
  std::string e = error_of(half);
  EXPECT_NE(e.find("bad.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("half_space cannot be compliant"), std::string::npos) << e;
  // E ≤ 0 and non-finite.
  for (const std::string value : {"0", "-5", ".nan", ".inf"}) {
    e = error_of(BallScene("sap", value));
    EXPECT_NE(e.find("hydroelastic_modulus"), std::string::npos) << value << ": " << e;
    EXPECT_NE(e.find("bad.yaml:"), std::string::npos) << value << ": " << e;
  }
  // A negative resolution, an unknown key, a resolution too fine.
  const std::string ball = BallScene("sap");
  auto with = [&](const std::string& compliant) {
    std::string s = ball;
    s.replace(s.find("compliant: true"), std::string("compliant: true").size(), compliant);
    return s;
  };
  e = error_of(with("compliant: {resolution: -0.01}"));
  EXPECT_NE(e.find("resolution"), std::string::npos) << e;
  EXPECT_NE(e.find("bad.yaml:"), std::string::npos) << e;
  e = error_of(with("compliant: {resolutoin: 0.01}"));
  EXPECT_NE(e.find("resolutoin"), std::string::npos) << e;
  e = error_of(with("compliant: {resolution: 1.0e-6}"));
  EXPECT_NE(e.find("coarser"), std::string::npos) << e;
  EXPECT_NE(e.find("bad.yaml:"), std::string::npos) << e;
  // Live: SetMaterial refuses E ≤ 0 and keeps the old one.
  Simulation sim(LoadSceneString(ball, "ball.yaml"));
  ContactMaterial m = sim.GetMaterial("rubber");
  m.hydroelastic_modulus = -1;
  EXPECT_THROW(sim.SetMaterial("rubber", m), InputError);
  EXPECT_EQ(sim.GetMaterial("rubber").hydroelastic_modulus, 1e5);
}

// Editing E between steps reaches the pressure field: doubling it doubles
// the pressure of the same pose.
TEST(PatchConstraintsTest, LiveModulusEditScalesThePressure) {
  Simulation sim(LoadSceneString(BallScene("sap"), "ball.yaml"));
  ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  const double peak = sim.contact_surfaces().at(0).PeakPressure();
  sim.Reset();
  ContactMaterial m = sim.GetMaterial("rubber");
  m.hydroelastic_modulus *= 2;
  sim.SetMaterial("rubber", m);
  ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  EXPECT_NEAR(sim.contact_surfaces().at(0).PeakPressure(), 2 * peak, 1e-9 * peak);
}

}  // namespace
}  // namespace stiction
