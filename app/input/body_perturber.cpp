#include "app/input/body_perturber.h"

#include <algorithm>
#include <numbers>

#include "app/input/picking.h"
#include "app/render/gl.h"
#include "engine/common/error.h"

namespace stiction::app {

void BodyPerturber::SelectAlong(const Ray& ray) {
  const Snapshot& snapshot = scene_.snapshot;
  const PickResult pick = Pick(scene_.render, snapshot.X_WB, ray.origin.cast<double>(), ray.direction.cast<double>(),
                               /*include_world=*/false, ui_.viz.render.show_collision_only);
  if (pick.hit() && pick.body > 0) {
    selected_body_ = pick.body;
    selected_point_B_ = snapshot.X_WB[pick.body].inverse() * pick.p_W;
    ui_.Info("selected " + scene_.sim->model().body(pick.body).name + " (Ctrl+drag to perturb)");
  } else {
    selected_body_ = -1;
  }
}

void BodyPerturber::Begin(PerturbMode mode) {
  const RigidTransform& X_WB = scene_.snapshot.X_WB[selected_body_];
  perturbation_ = BeginPerturbation(mode, selected_body_, X_WB, scene_.sim->model().body(selected_body_).com_B,
                                    X_WB * selected_point_B_);
}

void BodyPerturber::Drag(double dx, double dy, int mods, const Camera& camera, int view_height) {
  const int h = view_height;
  if (perturbation_.mode == PerturbMode::kTranslate) {
    const Vec3f target = perturbation_.target_W.cast<float>();
    const float depth = std::max((target - camera.Eye()).dot(camera.Forward()), 1e-3f);
    const float s = camera.PixelSize(depth, h);
    Vec3f move;
    if ((mods & GLFW_MOD_SHIFT) != 0) {
      Vec3f heading = camera.Forward();
      heading.z() = 0;
      heading.normalize();
      move = s * (static_cast<float>(dx) * camera.Right() - static_cast<float>(dy) * heading);
    } else {
      move = s * (static_cast<float>(dx) * camera.Right() - static_cast<float>(dy) * camera.Up());
    }
    perturbation_.target_W += move.cast<double>();
  } else if (perturbation_.mode == PerturbMode::kRotate) {
    // A drag across the window height turns the target half a turn, about
    // the screen axes (like turning a trackball).
    const double k = std::numbers::pi / std::max(h, 1);
    const Quaternion turn(Eigen::AngleAxisd(dx * k, camera.Up().cast<double>()) *
                          Eigen::AngleAxisd(dy * k, camera.Right().cast<double>()));
    perturbation_.target_R_WB = (turn * perturbation_.target_R_WB).normalized();
  }
}

void BodyPerturber::ApplyWrench() {
  if (!perturbation_.active()) return;
  Simulation& sim = *scene_.sim;
  const int b = perturbation_.body;
  const std::vector<BodyState> states = sim.CalcBodyStates();
  const BodyState& s = states[b - 1];
  const RigidTransform X_WB{s.orientation.toRotationMatrix(), s.position};
  const ExternalWrench wrench = CalcPerturbationWrench(perturbation_, sim.model().body(b), X_WB,
                                                      s.linear_velocity, s.angular_velocity, spring_);
  try {
    sim.SetExternalWrenches({wrench});
    applied_wrenches_ = {wrench};
  } catch (const InputError& e) {
    ui_.Error(std::string("perturbation stopped: ") + e.what());
    End();
  }
}

void BodyPerturber::End() {
  const bool was_active = perturbation_.active() || !applied_wrenches_.empty();
  perturbation_ = {};
  applied_wrenches_.clear();
  if (was_active && scene_.sim != nullptr) scene_.sim->SetExternalWrenches({});
}

void BodyPerturber::AddGlyphs(const VisualizationState& viz, DebugDraw* debug) const {
  const Snapshot& snapshot = scene_.snapshot;
  const int nb = static_cast<int>(snapshot.X_WB.size());
  if (selected_body_ > 0 && selected_body_ < nb) {
    debug->Point((snapshot.X_WB[selected_body_] * selected_point_B_).cast<float>(), Vec4f(1, 1, 1, 1));
  }
  if (!perturbation_.active() || !viz.perturbation_force || perturbation_.body >= nb) return;
  const RigidTransform& X = snapshot.X_WB[perturbation_.body];
  const Vec4f spring_color(1.0f, 1.0f, 1.0f, 0.9f), force_color(1.0f, 0.55f, 0.0f, 1.0f);
  if (perturbation_.mode == PerturbMode::kTranslate) {
    const Vector3 p_WP = X * perturbation_.p_BP;
    debug->Line(p_WP.cast<float>(), perturbation_.target_W.cast<float>(), spring_color, true);
    debug->Point(perturbation_.target_W.cast<float>(), spring_color);
  } else {
    const Vector3 p = X * scene_.sim->model().body(perturbation_.body).com_B;
    const Matrix3 R = perturbation_.target_R_WB.toRotationMatrix();
    const double size = scene_.render.body_size[perturbation_.body];
    for (int i = 0; i < 3; ++i) {
      debug->Line(p.cast<float>(), (p + 1.8 * size * R.col(i)).cast<float>(), kAxisColors[i], true);
    }
  }
  // The force itself: 0.2 m per body weight (m·9.81 N).
  for (const ExternalWrench& w : applied_wrenches_) {
    const double weight = scene_.sim->model().body(w.body).mass * 9.81;
    debug->Line(w.p_WP.cast<float>(), (w.p_WP + 0.2 * w.f_W / weight).cast<float>(), force_color, true);
  }
}

}  // namespace stiction::app
