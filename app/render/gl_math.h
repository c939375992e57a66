#pragma once
// Single-precision matrices for OpenGL (column-major, like GLSL), built with
// Eigen. Right-handed world, clip space z in [-1, 1] (OpenGL convention).
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "engine/common/eigen_types.h"

namespace stiction::app {

using Vec3f = Eigen::Vector3f;
using Vec4f = Eigen::Vector4f;
using Vec4i = Eigen::Vector4i;
using Mat3f = Eigen::Matrix3f;
using Mat4f = Eigen::Matrix4f;

/// View matrix of a camera at `eye` looking at `target` with `up` roughly up.
Mat4f LookAt(const Vec3f& eye, const Vec3f& target, const Vec3f& up);
/// Perspective projection; fovy in radians, near/far > 0 [m].
Mat4f Perspective(float fovy_rad, float aspect, float near_m, float far_m);
/// Orthographic projection of the box [l, r] x [b, t] x [-n, -f] in view space.
Mat4f Ortho(float l, float r, float b, float t, float n, float f);
/// The 4x4 matrix of a rigid transform X_AB.
Mat4f ToMatrix(const RigidTransform& X_AB);

}  // namespace stiction::app
