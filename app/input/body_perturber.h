#pragma once
// The body the user selected (double-click) and the mouse spring that
// perturbs it (Ctrl+drag, app/input/perturbation.h): the spring's target
// follows the mouse, and its wrench goes to the engine before each step
// until the button is released (docs/viewer.md "The perturbation spring").
#include <vector>

#include "app/input/perturbation.h"
#include "app/render/camera.h"
#include "app/render/debug_draw.h"
#include "app/ui/ui_state.h"
#include "app/viewer_scene.h"

namespace stiction::app {

class BodyPerturber {
 public:
  /// `scene` and `ui` (status messages, what is drawn) outlive the perturber.
  BodyPerturber(ViewerScene& scene, UiState& ui) : scene_(scene), ui_(ui) {}
  BodyPerturber(const BodyPerturber&) = delete;
  BodyPerturber& operator=(const BodyPerturber&) = delete;

  /// The selected model body (−1: none).
  int selected_body() const { return selected_body_; }
  /// Where the selection picked it, in its body frame [m].
  const Vector3& selected_point_B() const { return selected_point_B_; }
  const Perturbation& perturbation() const { return perturbation_; }
  /// The wrenches the engine currently applies (empty when not perturbing).
  const std::vector<ExternalWrench>& applied_wrenches() const { return applied_wrenches_; }

  /// Selects the body `ray` hits first (none, or the world: deselects) and
  /// remembers the hit point on it.
  void SelectAlong(const Ray& ray);
  void Deselect() { selected_body_ = -1; }
  /// Grabs the selected body (which must be > 0) at its picked point.
  void Begin(PerturbMode mode);
  /// Moves the spring's target by a mouse drag of (dx, dy) window pixels
  /// (Shift: the grab point moves in the horizontal plane) in a view
  /// `view_height` pixels high seen through `camera`.
  void Drag(double dx, double dy, int mods, const Camera& camera, int view_height);
  /// Before each step: the spring's wrench at the current state to the
  /// engine (nothing when not perturbing).
  void ApplyWrench();
  /// Releases the body: no wrench from the next step on.
  void End();
  /// The picked point and, while perturbing, the spring and the force
  /// (as the Visualization section asks).
  void AddGlyphs(const VisualizationState& viz, DebugDraw* debug) const;

 private:
  ViewerScene& scene_;
  UiState& ui_;
  int selected_body_ = -1;
  Vector3 selected_point_B_ = Vector3::Zero();  // Picked point, body frame [m].
  Perturbation perturbation_;
  PerturbSpring spring_;
  std::vector<ExternalWrench> applied_wrenches_;
};

}  // namespace stiction::app
