#include "app/ui/panel_layout.h"

#include <cmath>

namespace stiction::app {

Rect PanelLayout::SceneViewRect() const {
  int w = 0, h = 0;
  WindowSize(&w, &h);
  const Layout layout = ComputeLayout(static_cast<float>(w), static_cast<float>(h), ui_.settings.layout, ui_.ui_scale);
  if (!video_.recording()) return layout.scene;
  return FitAspect(layout.scene, static_cast<float>(video_.width()), static_cast<float>(video_.height()));
}

void PanelLayout::SceneViewInFramebuffer(int* x, int* y, int* width, int* height) const {
  int fw = 0, fh = 0, ww = 0, wh = 0;
  window_.FramebufferSize(&fw, &fh);
  WindowSize(&ww, &wh);
  const Rect view = SceneViewRect();
  const double px = ww > 0 ? static_cast<double>(fw) / ww : 1.0;  // Framebuffer pixels per window pixel.
  *x = static_cast<int>(std::lround(view.x * px));
  *y = fh - static_cast<int>(std::lround(view.bottom() * px));  // OpenGL: origin bottom left.
  *width = static_cast<int>(std::lround(view.width * px));
  *height = static_cast<int>(std::lround(view.height * px));
}

void PanelLayout::ViewSize(int* width, int* height) const {
  const Rect r = SceneViewRect();
  *width = static_cast<int>(std::lround(r.width));
  *height = static_cast<int>(std::lround(r.height));
}

}  // namespace stiction::app
