#pragma once
// Lines and points collected during a frame (body frames, centres of mass,
// the perturbation spring; contact glyphs later) and drawn by the Renderer.
#include <vector>

#include "app/render/gl_math.h"

namespace stiction::app {

/// Plain floats (no Eigen alignment padding): uploaded as is.
struct DebugVertex {
  float p_W[3];
  float color[4];
  DebugVertex(const Vec3f& p, const Vec4f& c) : p_W{p.x(), p.y(), p.z()}, color{c.x(), c.y(), c.z(), c.w()} {}
};

struct DebugDraw {
  std::vector<DebugVertex> lines;          ///< Pairs; depth tested.
  std::vector<DebugVertex> overlay_lines;  ///< Pairs; drawn on top.
  std::vector<DebugVertex> points;         ///< Drawn on top.

  void Line(const Vec3f& a, const Vec3f& b, const Vec4f& color, bool overlay = false) {
    auto& v = overlay ? overlay_lines : lines;
    v.push_back({a, color});
    v.push_back({b, color});
  }
  void Point(const Vec3f& p, const Vec4f& color) { points.push_back({p, color}); }
  void Clear() {
    lines.clear();
    overlay_lines.clear();
    points.clear();
  }
};

}  // namespace stiction::app
