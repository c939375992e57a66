#include "engine/multibody/spatial_algebra.h"

namespace stiction {

Vector6 CrossMotion(const Vector6& V, const Vector6& m) {
  const Vector3 w = V.head<3>();
  const Vector3 v = V.tail<3>();
  Vector6 r;
  r.head<3>() = w.cross(m.head<3>());
  r.tail<3>() = w.cross(m.tail<3>()) + v.cross(m.head<3>());
  return r;
}

Vector6 CrossForce(const Vector6& V, const Vector6& f) {
  const Vector3 w = V.head<3>();
  const Vector3 v = V.tail<3>();
  Vector6 r;
  r.head<3>() = w.cross(f.head<3>()) + v.cross(f.tail<3>());
  r.tail<3>() = w.cross(f.tail<3>());
  return r;
}

Matrix6 SpatialInertiaAboutWorldOrigin(double m, const Vector3& p_WBcm,
                                       const Matrix3& I_Bcm_W) {
  const Matrix3 C = Skew(p_WBcm);
  Matrix6 I;
  I.topLeftCorner<3, 3>() = I_Bcm_W + m * C * C.transpose();
  I.topRightCorner<3, 3>() = m * C;
  I.bottomLeftCorner<3, 3>() = m * C.transpose();
  I.bottomRightCorner<3, 3>() = m * Matrix3::Identity();
  return I;
}

}  // namespace stiction
