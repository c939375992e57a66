#pragma once
// Lines, points and filled triangles collected during a frame (body frames,
// centres of mass, the perturbation spring, contact glyphs, pressure
// patches) and drawn by the Renderer.
#include <vector>

#include "app/render/gl_math.h"

namespace stiction::app {

/// Plain floats (no Eigen alignment padding): uploaded as is.
struct DebugVertex {
  float p_W[3];
  float color[4];
  DebugVertex(const Vec3f& p, const Vec4f& c) : p_W{p.x(), p.y(), p.z()}, color{c.x(), c.y(), c.z(), c.w()} {}
};

/// A pressure patch's vertex: where, and its place on the colour map
/// (pressure / top of the scale, in [0, 1]). The fragment shader maps the
/// interpolated place to a colour, so that the colours show the linear
/// pressure field itself (interpolating the vertices' colours would bend
/// through the map's chords: too dark between its stops).
struct PatchVertex {
  float p_W[3];
  float fraction;
  PatchVertex(const Vec3f& p, float t) : p_W{p.x(), p.y(), p.z()}, fraction(t) {}
};

/// The colours of a frame's x, y and z axes (body frames, the rotate
/// perturbation's target).
inline const Vec4f kAxisColors[3] = {Vec4f(0.9f, 0.15f, 0.15f, 1), Vec4f(0.1f, 0.75f, 0.1f, 1),
                                     Vec4f(0.15f, 0.3f, 0.95f, 1)};

struct DebugDraw {
  std::vector<DebugVertex> lines;          ///< Pairs; depth tested.
  std::vector<DebugVertex> overlay_lines;  ///< Pairs; drawn on top.
  std::vector<DebugVertex> points;         ///< Drawn on top.
  /// Pressure patches: triples, filled, drawn on top of the scene and under
  /// the overlay lines and points (a contact surface lies inside its
  /// compliant body, so a depth-tested patch would always be hidden by it).
  std::vector<PatchVertex> patch_triangles;

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
    patch_triangles.clear();
  }
};

}  // namespace stiction::app
