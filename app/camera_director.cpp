#include "app/camera_director.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "app/input/picking.h"

namespace stiction::app {

void CameraDirector::Script(std::vector<CameraKeyframe> keyframes) {
  keyframes_ = std::move(keyframes);
  script_on_ = true;
}

void CameraDirector::Follow() {
  FollowScript();
  TrackBody();
}

void CameraDirector::FollowScript() {
  if (!scripted()) return;
  const CameraPose pose = InterpolateCameraKeyframes(keyframes_, scene_.sim->time());
  camera_.lookat = pose.lookat.cast<float>();
  camera_.distance = static_cast<float>(pose.distance);
  camera_.azimuth_deg = static_cast<float>(pose.azimuth_deg);
  camera_.elevation_deg = static_cast<float>(pose.elevation_deg);
  camera_.fovy_deg = static_cast<float>(pose.fovy_deg);
}

void CameraDirector::TrackBody() {
  int body = -1;
  if (!ui_.track_body.empty()) {
    body = scene_.sim->model().FindBody(ui_.track_body);
    if (body <= 0) ui_.track_body.clear();  // Not in this scene (or the world).
  }
  if (body < 0 || body >= static_cast<int>(scene_.snapshot.X_WB.size())) {
    tracked_body_ = -1;
    return;
  }
  const Vector3 p = scene_.snapshot.X_WB[body].p;
  if (body == tracked_body_) camera_.lookat += (p - tracked_position_).cast<float>();
  tracked_body_ = body;
  tracked_position_ = p;
}

void CameraDirector::ApplySceneCamera(int view_width, int view_height) {
  const std::optional<CameraDescription>& c = scene_.sim->scene().camera;
  if (c) {
    camera_.azimuth_deg = static_cast<float>(c->azimuth_deg);
    camera_.elevation_deg = static_cast<float>(c->elevation_deg);
    camera_.fovy_deg = static_cast<float>(c->fovy_deg);
  }
  Fit(view_width, view_height);  // From the scene's angles; lookat and distance the scene gives win.
  if (!c) return;
  if (c->lookat) camera_.lookat = c->lookat->cast<float>();
  if (c->distance) camera_.distance = static_cast<float>(*c->distance);
  ui_.track_body = c->track;
}

void CameraDirector::Fit(int view_width, int view_height) {
  // The bodies' bounding box (each drawable's bounding sphere), so that
  // walls or a large fixed floor do not shrink the objects of interest.
  const Snapshot& snapshot = scene_.snapshot;
  Vector3 lo = Vector3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int pass = 0; pass < 2 && !(lo.array() <= hi.array()).all(); ++pass) {
    for (const Drawable& d : scene_.render.drawables) {
      if (!std::isfinite(d.bounding_radius) || d.body >= static_cast<int>(snapshot.X_WB.size())) continue;
      if (pass == 0 && d.body <= 0) continue;  // Second pass: the world's finite geometry too.
      const Vector3 p = snapshot.X_WB[d.body] * d.X_BG.p;
      lo = lo.cwiseMin(p - Vector3::Constant(d.bounding_radius));
      hi = hi.cwiseMax(p + Vector3::Constant(d.bounding_radius));
    }
  }
  if (!(lo.array() <= hi.array()).all()) {
    camera_.Fit(Vec3f::Zero(), 1.0f);
    return;
  }
  const float aspect = view_width > 0 && view_height > 0
                           ? static_cast<float>(view_width) / static_cast<float>(view_height)
                           : 16.0f / 9.0f;
  camera_.FitBox(lo.cast<float>(), hi.cast<float>(), aspect);
}

void CameraDirector::CenterOn(const Ray& ray) {
  const PickResult pick = Pick(scene_.render, scene_.snapshot.X_WB, ray.origin.cast<double>(),
                               ray.direction.cast<double>(), /*include_world=*/true);
  if (pick.hit() && std::isfinite(pick.distance)) {
    const Vec3f eye = camera_.Eye();
    camera_.lookat = pick.p_W.cast<float>();
    camera_.distance = std::max((camera_.lookat - eye).norm(), 1e-3f);
  }
}

}  // namespace stiction::app
