#pragma once
// Who moves the camera besides the mouse: the scene's `camera:` key at load,
// the fit to the bodies, a command file's scripted keyframes (until the user
// takes the camera), tracking a body (Visualization > track body), and the
// right double-click that centres the view on a point. The mouse's own
// orbit, pan and zoom act on camera() directly (InputController).
#include <string>
#include <vector>

#include "app/render/camera.h"
#include "app/ui/ui_state.h"
#include "app/viewer_scene.h"
#include "engine/control/camera_keyframes.h"

namespace stiction::app {

class CameraDirector {
 public:
  /// `scene` and `ui` (its track_body field, which the Visualization section
  /// edits) outlive the director.
  CameraDirector(const ViewerScene& scene, UiState& ui) : scene_(scene), ui_(ui) {}
  CameraDirector(const CameraDirector&) = delete;
  CameraDirector& operator=(const CameraDirector&) = delete;

  Camera& camera() { return camera_; }
  const Camera& camera() const { return camera_; }

  /// True while the camera follows a command file's keyframes.
  bool scripted() const { return script_on_ && !keyframes_.empty(); }
  /// Follows `keyframes` (a command file's camera) from now on.
  void Script(std::vector<CameraKeyframe> keyframes);
  /// Forgets the keyframes (a new scene, before its own command file).
  void ClearScript() { keyframes_.clear(); }
  /// The script starts over with the replay (reset to t = 0).
  void RestartScript() { script_on_ = true; }
  /// The user moved the camera: the script lets go of it.
  void TakeOver() { script_on_ = false; }

  /// Each frame before rendering: the script's pose at the simulated time,
  /// then the tracked body's motion added to the look-at point.
  void Follow();
  /// After a load: the scene's `camera:` key (angles, field of view, then
  /// look-at, distance and tracking over the fit), else the fit. The view is
  /// view_width x view_height window pixels.
  void ApplySceneCamera(int view_width, int view_height);
  /// Frames the bodies (the world's finite geometry when there are none) at
  /// their current poses: aims at the centre of their bounding box and fits
  /// the box into the view.
  void Fit(int view_width, int view_height);
  /// Aims at the first geometry `ray` hits (bodies or ground), keeping the eye.
  void CenterOn(const Ray& ray);

 private:
  void FollowScript();
  void TrackBody();

  const ViewerScene& scene_;
  UiState& ui_;
  Camera camera_;
  std::vector<CameraKeyframe> keyframes_;  // Of the command file being replayed.
  bool script_on_ = false;
  // Tracking: the body and where it was last frame.
  int tracked_body_ = -1;
  Vector3 tracked_position_ = Vector3::Zero();
};

}  // namespace stiction::app
