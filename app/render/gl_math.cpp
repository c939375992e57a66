#include "app/render/gl_math.h"

#include <cmath>

namespace stiction::app {

Mat4f LookAt(const Vec3f& eye, const Vec3f& target, const Vec3f& up) {
  const Vec3f f = (target - eye).normalized();
  Vec3f s = f.cross(up);
  if (s.squaredNorm() < 1e-12f) s = f.cross(Vec3f::UnitY());  // up ∥ f
  s.normalize();
  const Vec3f u = s.cross(f);
  Mat4f m = Mat4f::Identity();
  m.block<1, 3>(0, 0) = s.transpose();
  m.block<1, 3>(1, 0) = u.transpose();
  m.block<1, 3>(2, 0) = -f.transpose();
  m(0, 3) = -s.dot(eye);
  m(1, 3) = -u.dot(eye);
  m(2, 3) = f.dot(eye);
  return m;
}

Mat4f Perspective(float fovy_rad, float aspect, float near_m, float far_m) {
  const float t = 1.0f / std::tan(0.5f * fovy_rad);
  Mat4f m = Mat4f::Zero();
  m(0, 0) = t / aspect;
  m(1, 1) = t;
  m(2, 2) = -(far_m + near_m) / (far_m - near_m);
  m(2, 3) = -2.0f * far_m * near_m / (far_m - near_m);
  m(3, 2) = -1.0f;
  return m;
}

Mat4f Ortho(float l, float r, float b, float t, float n, float f) {
  Mat4f m = Mat4f::Identity();
  m(0, 0) = 2.0f / (r - l);
  m(1, 1) = 2.0f / (t - b);
  m(2, 2) = -2.0f / (f - n);
  m(0, 3) = -(r + l) / (r - l);
  m(1, 3) = -(t + b) / (t - b);
  m(2, 3) = -(f + n) / (f - n);
  return m;
}

Mat4f ToMatrix(const RigidTransform& X_AB) {
  Mat4f m = Mat4f::Identity();
  m.block<3, 3>(0, 0) = X_AB.R.cast<float>();
  m.block<3, 1>(0, 3) = X_AB.p.cast<float>();
  return m;
}

}  // namespace stiction::app
