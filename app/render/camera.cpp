#include "app/render/camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace stiction::app {
namespace {
constexpr float kDegToRad = std::numbers::pi_v<float> / 180.0f;
// A drag across the full window height turns the view by this much [deg].
constexpr double kOrbitDegPerViewport = 180.0;
}  // namespace

Vec3f Camera::Forward() const {
  const float az = azimuth_deg * kDegToRad, el = elevation_deg * kDegToRad;
  return Vec3f(std::cos(el) * std::cos(az), std::cos(el) * std::sin(az), std::sin(el));
}

Vec3f Camera::Right() const {
  const float az = azimuth_deg * kDegToRad;
  return Vec3f(std::sin(az), -std::cos(az), 0.0f);  // Forward × z, normalized.
}

Vec3f Camera::Up() const { return Right().cross(Forward()).normalized(); }

Vec3f Camera::Eye() const { return lookat - distance * Forward(); }

float Camera::NearPlane() const { return std::max(1e-3f, 0.01f * distance); }
float Camera::FarPlane() const { return std::max(100.0f, 200.0f * distance); }

Mat4f Camera::View() const { return LookAt(Eye(), lookat, Vec3f::UnitZ()); }

Mat4f Camera::Projection(float aspect) const {
  return Perspective(fovy_deg * kDegToRad, aspect, NearPlane(), FarPlane());
}

Mat4f Camera::ViewProjection(int width, int height) const {
  const float aspect = static_cast<float>(std::max(width, 1)) / static_cast<float>(std::max(height, 1));
  return Projection(aspect) * View();
}

void Camera::Orbit(double dx, double dy, int viewport_height) {
  const double scale = kOrbitDegPerViewport / std::max(viewport_height, 1);
  azimuth_deg -= static_cast<float>(dx * scale);
  azimuth_deg = std::fmod(azimuth_deg, 360.0f);
  elevation_deg = std::clamp(elevation_deg - static_cast<float>(dy * scale), -89.0f, 89.0f);
}

void Camera::Pan(double dx, double dy, int viewport_height, bool horizontal) {
  const float s = PixelSize(distance, viewport_height);
  if (horizontal) {
    Vec3f heading = Forward();
    heading.z() = 0;
    heading.normalize();
    lookat += s * (-static_cast<float>(dx) * Right() + static_cast<float>(dy) * heading);
  } else {
    lookat += s * (-static_cast<float>(dx) * Right() + static_cast<float>(dy) * Up());
  }
}

void Camera::Zoom(double scroll) {
  distance = std::clamp(distance * static_cast<float>(std::exp(-0.1 * scroll)), 1e-3f, 1e4f);
}

void Camera::Fit(const Vec3f& center, float radius) {
  lookat = center;
  const float half = 0.5f * fovy_deg * kDegToRad;
  distance = std::max(1.0f * radius / std::sin(half), 0.05f);
}

void Camera::FitBox(const Vec3f& lo, const Vec3f& hi, float aspect, float margin) {
  lookat = 0.5f * (lo + hi);
  const float tan_y = std::tan(0.5f * fovy_deg * kDegToRad) / margin;
  const float tan_x = tan_y * std::max(aspect, 1e-3f);
  const Vec3f f = Forward(), r = Right(), u = Up();
  // A corner at camera coordinates (x, y, z) relative to the lookat point is
  // inside the frustum when |x| <= tan_x (d + z) and |y| <= tan_y (d + z).
  float d = 0.05f;
  for (int i = 0; i < 8; ++i) {
    const Vec3f c((i & 1) ? hi.x() : lo.x(), (i & 2) ? hi.y() : lo.y(), (i & 4) ? hi.z() : lo.z());
    const Vec3f rel = c - lookat;
    const float z = rel.dot(f);
    d = std::max({d, std::abs(rel.dot(r)) / tan_x - z, std::abs(rel.dot(u)) / tan_y - z});
  }
  // Keep the eye out of the box (and the near plane in front of it).
  distance = std::max(d, 1.05f * 0.5f * (hi - lo).norm());
}

Ray Camera::PixelRay(double x, double y, int width, int height) const {
  const Mat4f inv = ViewProjection(width, height).inverse();
  const float ndc_x = static_cast<float>(2.0 * x / std::max(width, 1) - 1.0);
  const float ndc_y = static_cast<float>(1.0 - 2.0 * y / std::max(height, 1));
  Vec4f a = inv * Vec4f(ndc_x, ndc_y, -1.0f, 1.0f);
  Vec4f b = inv * Vec4f(ndc_x, ndc_y, 1.0f, 1.0f);
  const Vec3f pa = a.head<3>() / a.w(), pb = b.head<3>() / b.w();
  return Ray{pa, (pb - pa).normalized()};
}

bool Camera::Project(const Vec3f& p, int width, int height, Vec3f* pixel) const {
  const Vec4f c = ViewProjection(width, height) * Vec4f(p.x(), p.y(), p.z(), 1.0f);
  if (c.w() <= 0) return false;
  const Vec3f ndc = c.head<3>() / c.w();
  *pixel = Vec3f(0.5f * (ndc.x() + 1.0f) * static_cast<float>(width),
                 0.5f * (1.0f - ndc.y()) * static_cast<float>(height), ndc.z());
  return true;
}

float Camera::PixelSize(float depth, int viewport_height) const {
  return 2.0f * depth * std::tan(0.5f * fovy_deg * kDegToRad) /
         static_cast<float>(std::max(viewport_height, 1));
}

}  // namespace stiction::app
