#pragma once
// Small hand-built models shared by the multibody and stepping tests.
#include <random>

#include "engine/multibody/multibody_model.h"

namespace stiction::test {

inline Matrix3 BoxInertia(double m, const Vector3& size) {
  const double x2 = size.x() * size.x(), y2 = size.y() * size.y(), z2 = size.z() * size.z();
  return (m / 12.0 * Vector3(y2 + z2, x2 + z2, x2 + y2)).asDiagonal();
}

/// A spatial 3-link arm: revolute about z, then y, then x, with offset joint
/// frames and COMs so that every coupling term is exercised; joint springs,
/// dampers and a rotor inertia on the middle joint.
inline MultibodyModel MakeThreeLinkArm() {
  MultibodyModel model;
  const Vector3 axes[3] = {Vector3::UnitZ(), Vector3::UnitY(), Vector3(1, 0.2, 0).normalized()};
  int parent = 0;
  for (int i = 0; i < 3; ++i) {
    Body b;
    b.name = "link" + std::to_string(i);
    b.mass = 1.0 + 0.5 * i;
    b.com_B = Vector3(0.1, 0.02 * i, 0.25);
    b.I_Bcm_B = BoxInertia(b.mass, Vector3(0.05, 0.07, 0.5));
    b.I_Bcm_B(0, 1) = b.I_Bcm_B(1, 0) = 0.001;
    Joint j;
    j.name = "joint" + std::to_string(i);
    j.type = JointType::kRevolute;
    j.parent = parent;
    j.X_PF.p = i == 0 ? Vector3(0, 0, 0.1) : Vector3(0.05, 0, 0.5);
    j.X_PF.R = Eigen::AngleAxisd(0.3 * i, Vector3::UnitX()).toRotationMatrix();
    j.X_CM.p = Vector3(0, 0.01, 0);
    j.axis_F = axes[i];
    j.spring_stiffness = 2.0 * i;
    j.damping = 0.1 * i;
    j.rotor_inertia = i == 1 ? 0.02 : 0.0;
    parent = model.AddBody(b, j);
  }
  model.Finalize();
  return model;
}

/// One free body whose COM is offset from its body frame origin.
inline MultibodyModel MakeFreeBody(const Vector3& com_B = Vector3(0.05, -0.02, 0.1)) {
  MultibodyModel model;
  Body b;
  b.name = "box";
  b.mass = 2.0;
  b.com_B = com_B;
  b.I_Bcm_B = BoxInertia(b.mass, Vector3(0.1, 0.2, 0.4));
  Joint j;
  j.name = "box_free";
  j.type = JointType::kFree;
  model.AddBody(b, j);
  model.Finalize();
  return model;
}

/// A free base with a ball-jointed and a prismatic child: every joint type in
/// one tree, plus a second tree welded to the world.
inline MultibodyModel MakeMixedForest() {
  MultibodyModel model;
  Body base;
  base.name = "base";
  base.mass = 3.0;
  base.com_B = Vector3(0.01, 0.02, -0.03);
  base.I_Bcm_B = BoxInertia(3.0, Vector3(0.3, 0.2, 0.1));
  Joint free;
  free.name = "base_free";
  free.type = JointType::kFree;
  const int b0 = model.AddBody(base, free);
  Body arm = base;
  arm.name = "arm";
  arm.mass = 1.0;
  arm.com_B = Vector3(0, 0, 0.2);
  arm.I_Bcm_B = BoxInertia(1.0, Vector3(0.05, 0.05, 0.4));
  Joint ball;
  ball.name = "ball";
  ball.type = JointType::kBall;
  ball.parent = b0;
  ball.X_PF.p = Vector3(0.15, 0, 0.05);
  const int b1 = model.AddBody(arm, ball);
  Body slider = arm;
  slider.name = "slider";
  slider.mass = 0.5;
  Joint prismatic;
  prismatic.name = "slide";
  prismatic.type = JointType::kPrismatic;
  prismatic.parent = b1;
  prismatic.axis_F = Vector3(0, 1, 1).normalized();
  prismatic.X_PF.p = Vector3(0, 0, 0.4);
  prismatic.spring_stiffness = 10;
  model.AddBody(slider, prismatic);
  Body post = arm;
  post.name = "post";
  Joint weld;
  weld.name = "weld";
  weld.type = JointType::kFixed;
  weld.X_PF.p = Vector3(1, 0, 0);
  model.AddBody(post, weld);
  model.Finalize();
  return model;
}

/// A random state with unit quaternions.
inline void RandomState(const MultibodyModel& model, unsigned seed, VectorX* q, VectorX* v) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  *q = VectorX::NullaryExpr(model.num_positions(), [&]() { return u(gen); });
  *v = VectorX::NullaryExpr(model.num_velocities(), [&]() { return 2 * u(gen); });
  model.NormalizeQuaternions(q);
}

}  // namespace stiction::test
