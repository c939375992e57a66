#pragma once
// Where the 3D view is in the window this frame: the window minus the
// visible panel columns (app/ui/layout.h), and while recording the video
// frame letterboxed into that area, so that what is shown is what is
// recorded. Mouse positions map to the camera through it, and the scene is
// rendered at its size.
#include "app/record/video_session.h"
#include "app/render/window.h"
#include "app/ui/layout.h"
#include "app/ui/ui_state.h"

namespace stiction::app {

class PanelLayout {
 public:
  /// `window`, `ui` (the columns and the UI scale) and `video` (the frame
  /// size while recording) outlive the layout.
  PanelLayout(const Window& window, const UiState& ui, const VideoSession& video)
      : window_(window), ui_(ui), video_(video) {}

  /// Window size in pixels (input coordinates).
  void WindowSize(int* width, int* height) const { window_.WindowSize(width, height); }
  /// The 3D view in window pixels (origin top left).
  Rect SceneViewRect() const;
  /// The scene view in framebuffer pixels, origin bottom left (OpenGL's).
  void SceneViewInFramebuffer(int* x, int* y, int* width, int* height) const;
  /// The scene view's size in window pixels, rounded.
  void ViewSize(int* width, int* height) const;

 private:
  const Window& window_;
  const UiState& ui_;
  const VideoSession& video_;
};

}  // namespace stiction::app
