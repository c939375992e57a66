#pragma once
// Scripted cameras for recordings: keyframes of the viewer's orbit camera
// (app/render/camera.h: lookat, distance, azimuth, elevation, fovy) at given
// times, from a command file's `camera:` list (docs/teleop.md), and the
// smooth camera between them.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction {

/// An orbit camera: the eye at lookat − distance · f, where the view
/// direction is f = (cos el cos az, cos el sin az, sin el), world z up (the
/// scene key `camera:`'s convention, scene_description.h).
struct CameraPose {
  Vector3 lookat = Vector3::Zero();                   ///< Point looked at, world [m].
  double distance = 1.0;                              ///< Eye to lookat [m], > 0.
  double azimuth_deg = kDefaultCameraAzimuthDeg;      ///< Heading of f about world z [deg].
  double elevation_deg = kDefaultCameraElevationDeg;  ///< Pitch of f [deg], in (−90, 90).
  double fovy_deg = kDefaultCameraFovyDeg;            ///< Vertical field of view [deg], in [5, 150].
};

/// The camera at a simulated time.
struct CameraKeyframe {
  double time_s = 0;  ///< [s], ≥ 0; strictly increasing along a list.
  CameraPose pose;
  int line = 0;       ///< 1-based line in the command file (0: not from a file).
};

/// The camera at simulated time `t` [s] along `keyframes` (times strictly
/// increasing, as ParseCommandText guarantees). Before the first keyframe:
/// the first; from the last on: the last; at a keyframe's time: exactly it.
/// Between keyframes k and k+1 every component moves from its value at k
/// to its value at k+1 by smoothstep w = 3s² − 2s³ of s = (t − t_k) /
/// (t_{k+1} − t_k): the cubic Hermite curve with zero slopes at both ends,
/// so the camera is C1 (it comes to rest at each keyframe) and each
/// component stays between its two keyframe values, moving monotonically.
/// lookat, azimuth, elevation and fovy are interpolated linearly in w; the
/// azimuth as written, without wrapping (0 → 360 is a full turn, 350 → 10
/// turns 340° back); the distance in log space, d = d_k^(1−w) d_{k+1}^w, so
/// a zoom changes the apparent size at a steady rate. An empty list gives
/// CameraPose{}.
CameraPose InterpolateCameraKeyframes(const std::vector<CameraKeyframe>& keyframes, double t);

}  // namespace stiction
