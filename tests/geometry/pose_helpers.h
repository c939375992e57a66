#pragma once
// Pose shorthands for the geometry tests.
#include "engine/common/eigen_types.h"

namespace stiction::test {

inline RigidTransform Pose(const Vector3& p, const Matrix3& R = Matrix3::Identity()) {
  RigidTransform X;
  X.R = R;
  X.p = p;
  return X;
}

inline Matrix3 Rot(double angle, const Vector3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

}  // namespace stiction::test
