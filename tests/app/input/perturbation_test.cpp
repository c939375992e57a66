#include "app/input/perturbation.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stiction::app {
namespace {

Body MakeBody(double mass) {
  Body b;
  b.mass = mass;
  b.I_Bcm_B = Matrix3::Identity() * 0.01 * mass;
  return b;
}

// A point mass under the spring alone, integrated finely: with critical
// damping it reaches the target without overshoot, whatever the mass.
TEST(PerturbationTest, TranslationSpringIsCriticallyDampedForAnyMass) {
  for (double mass : {0.1, 1.0, 50.0}) {
    const Body body = MakeBody(mass);
    RigidTransform X_WB;
    Perturbation p = BeginPerturbation(PerturbMode::kTranslate, 1, X_WB, Vector3::Zero(), X_WB.p);
    p.target_W = Vector3(0.1, 0, 0);
    PerturbSpring spring;
    Vector3 v = Vector3::Zero();
    double max_x = 0;
    const double dt = 1e-4;
    for (int i = 0; i < 20000; ++i) {
      const ExternalWrench w = CalcPerturbationWrench(p, body, X_WB, v, Vector3::Zero(), spring);
      v += dt * w.f_W / mass;
      X_WB.p += dt * v;
      max_x = std::max(max_x, X_WB.p.x());
    }
    EXPECT_NEAR(X_WB.p.x(), 0.1, 1e-6) << "mass " << mass;
    EXPECT_LE(max_x, 0.1 + 1e-9) << "overshoot, mass " << mass;
  }
}

TEST(PerturbationTest, DisplacementAndAngleAreCapped) {
  const Body body = MakeBody(2.0);
  const RigidTransform X_WB;
  PerturbSpring spring;
  Perturbation p = BeginPerturbation(PerturbMode::kTranslate, 1, X_WB, Vector3::Zero(), Vector3(0.1, 0, 0));
  EXPECT_TRUE(p.p_BP.isApprox(Vector3(0.1, 0, 0)));
  p.target_W = Vector3(100, 0, 0);
  Vector3 p_WP;
  const ExternalWrench w = CalcPerturbationWrench(p, body, X_WB, Vector3::Zero(), Vector3::Zero(), spring, &p_WP);
  EXPECT_NEAR(w.f_W.norm(), 2.0 * spring.omega * spring.omega * spring.max_displacement, 1e-9);
  EXPECT_TRUE(p_WP.isApprox(Vector3(0.1, 0, 0)));

  Perturbation r = BeginPerturbation(PerturbMode::kRotate, 1, X_WB, Vector3::Zero(), Vector3::Zero());
  r.target_R_WB = Quaternion(Eigen::AngleAxisd(3.0, Vector3::UnitZ()));
  const ExternalWrench wr = CalcPerturbationWrench(r, body, X_WB, Vector3::Zero(), Vector3::Zero(), spring);
  const Matrix3 I = body.I_Bcm_B;
  EXPECT_TRUE(wr.tau_W.isApprox(I * Vector3::UnitZ() * spring.omega * spring.omega * spring.max_angle));
  EXPECT_NEAR(wr.f_W.norm(), 0, 1e-12);  // COM already where it is held.
}

}  // namespace
}  // namespace stiction::app
