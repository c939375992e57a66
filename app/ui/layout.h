#pragma once
// Where the panel columns and the 3D view go in the window, as in MuJoCo's
// `simulate`: a left column (scene, simulation, recording, contact, solver,
// visualization), a right column (plots, gripper, contacts) and the scene
// view in between. Pure geometry in window pixels (origin top left, y down),
// so that tests can check it at any window size without a window.
#include <algorithm>

namespace stiction::app {

struct Rect {
  float x = 0, y = 0, width = 0, height = 0;
  float right() const { return x + width; }
  float bottom() const { return y + height; }
  bool Contains(float px, float py) const { return px >= x && px < right() && py >= y && py < bottom(); }
  /// True when the interiors intersect (touching edges do not overlap).
  bool Overlaps(const Rect& o) const {
    return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
  }
};

/// What the user chose (persisted in the viewer settings).
struct LayoutSettings {
  bool show_left = true;    ///< Tab hides / shows the left column.
  bool show_right = true;   ///< Shift+Tab hides / shows the right column.
  float left_width = 340;   ///< Unscaled pixels (× ui scale on screen).
  float right_width = 320;
};

struct Layout {
  bool left_visible = false, right_visible = false;
  Rect left, right;  ///< The columns (empty when hidden).
  Rect scene;        ///< The 3D view: the window minus the visible columns.
};

/// Narrowest column and the share of the window width one column may take.
inline constexpr float kMinColumnWidth = 220;      // Unscaled pixels.
inline constexpr float kMaxColumnShare = 0.34f;

/// Column width on screen for a chosen width: × scale, clamped to
/// [kMinColumnWidth × scale, kMaxColumnShare × window width] (the minimum
/// gives way on a window too narrow for it), so the scene keeps at least a
/// third of the width at any size.
inline float ColumnWidth(float chosen, float scale, float window_width) {
  const float max_width = kMaxColumnShare * window_width;
  return std::min(std::max(chosen * scale, kMinColumnWidth * scale), max_width);
}

/// The layout for a window of width × height pixels at UI scale `scale`.
inline Layout ComputeLayout(float width, float height, const LayoutSettings& s, float scale) {
  Layout l;
  width = std::max(width, 1.0f);
  height = std::max(height, 1.0f);
  float left = 0, right = 0;
  if (s.show_left) left = ColumnWidth(s.left_width, scale, width);
  if (s.show_right) right = ColumnWidth(s.right_width, scale, width);
  l.left_visible = left > 0;
  l.right_visible = right > 0;
  if (l.left_visible) l.left = Rect{0, 0, left, height};
  if (l.right_visible) l.right = Rect{width - right, 0, right, height};
  l.scene = Rect{left, 0, width - left - right, height};
  return l;
}

/// The largest rectangle of aspect content_width : content_height centred in
/// `area` (letterboxing: how a recording's fixed-size frame is shown in the
/// scene view while recording).
inline Rect FitAspect(const Rect& area, float content_width, float content_height) {
  if (content_width <= 0 || content_height <= 0 || area.width <= 0 || area.height <= 0) return area;
  const float s = std::min(area.width / content_width, area.height / content_height);
  const float w = content_width * s, h = content_height * s;
  return Rect{area.x + 0.5f * (area.width - w), area.y + 0.5f * (area.height - h), w, h};
}

}  // namespace stiction::app
