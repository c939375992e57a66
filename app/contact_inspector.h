#pragma once
// Which contact the inspector (the Contacts window) shows: picked with
// Alt+click, then followed from step to step (the same body pair, the point
// nearest where it was) until the pair no longer touches. The index lives in
// UiState::selected_contact, where the panels read it.
#include "app/render/camera.h"
#include "app/ui/layout.h"
#include "app/ui/ui_state.h"
#include "app/viewer_scene.h"

namespace stiction::app {

class ContactInspector {
 public:
  /// How near the cursor a contact's projection must be to be picked [pixels].
  static constexpr double kPickPixels = 10.0;

  /// `scene` and `ui` outlive the inspector.
  ContactInspector(const ViewerScene& scene, UiState& ui) : scene_(scene), ui_(ui) {}
  ContactInspector(const ContactInspector&) = delete;
  ContactInspector& operator=(const ContactInspector&) = delete;

  /// The contact nearest to window pixel (x, y) among those whose projection
  /// through `camera` into the scene view `view` (window pixels) is within
  /// `max_pixels`; −1 if none (what Alt+click selects).
  int Pick(const Camera& camera, const Rect& view, double x, double y, double max_pixels = kPickPixels) const;
  /// Shows contact `index` of the snapshot in the inspector (−1: none).
  void Select(int index);
  /// The inspected contact, or nullptr.
  const ContactSnapshot* selected() const;
  /// After a new snapshot: follow the inspected contact of `previous` (same
  /// body pair, nearest point to where it was) or drop it.
  void Follow(const Snapshot& previous);

 private:
  const ViewerScene& scene_;
  UiState& ui_;
};

}  // namespace stiction::app
