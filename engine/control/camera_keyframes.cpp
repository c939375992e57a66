#include "engine/control/camera_keyframes.h"

#include <algorithm>
#include <cmath>

namespace stiction {

CameraPose InterpolateCameraKeyframes(const std::vector<CameraKeyframe>& keyframes, double t) {
  if (keyframes.empty()) return CameraPose{};
  if (!(t > keyframes.front().time_s)) return keyframes.front().pose;  // Also NaN.
  if (t >= keyframes.back().time_s) return keyframes.back().pose;
  // The segment [t_k, t_{k+1}) holding t: the first keyframe after t ends it.
  const auto next = std::upper_bound(keyframes.begin(), keyframes.end(), t,
                                     [](double time, const CameraKeyframe& k) { return time < k.time_s; });
  const CameraKeyframe& b = *next;
  const CameraKeyframe& a = *(next - 1);
  if (t == a.time_s) return a.pose;  // Exactly, without rounding through w = 0.
  const double s = (t - a.time_s) / (b.time_s - a.time_s);
  // Smoothstep: the cubic Hermite with zero end slopes; w in [0, 1) here.
  const double w = s * s * (3.0 - 2.0 * s);
  auto lerp = [w](double x0, double x1) { return x0 + (x1 - x0) * w; };
  CameraPose out;
  out.lookat = a.pose.lookat + (b.pose.lookat - a.pose.lookat) * w;
  // Log space: equal steps of w scale the distance by equal factors.
  out.distance = std::exp(lerp(std::log(a.pose.distance), std::log(b.pose.distance)));
  out.azimuth_deg = lerp(a.pose.azimuth_deg, b.pose.azimuth_deg);
  out.elevation_deg = lerp(a.pose.elevation_deg, b.pose.elevation_deg);
  out.fovy_deg = lerp(a.pose.fovy_deg, b.pose.fovy_deg);
  return out;
}

}  // namespace stiction
