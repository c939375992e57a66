#include "app/debug_glyphs.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace stiction::app {
namespace {

const Vec4f kPointColor(1.0f, 0.2f, 0.2f, 1), kNormalColor(0.2f, 0.55f, 1.0f, 1),
    kFrictionColor(1.0f, 0.2f, 0.85f, 1), kStickColor(0.15f, 0.9f, 0.2f, 1), kSlipColor(1.0f, 0.55f, 0.0f, 1),
    kSeparatingColor(0.6f, 0.6f, 0.6f, 1), kHighlight(1, 1, 1, 1);

// The outline of the pressure-field polygon contact `c` stands for.
void AddPolygonOutline(const Snapshot& snapshot, const ContactSnapshot& c, DebugDraw* debug) {
  if (c.surface < 0 || c.surface >= static_cast<int>(snapshot.contact_surfaces.size())) return;
  const ContactSurfaceSnapshot& s = snapshot.contact_surfaces[c.surface];
  const ContactPolygon* poly =
      c.polygon >= 0 && c.polygon < static_cast<int>(s.polygons.size()) ? &s.polygons[c.polygon] : nullptr;
  if (poly == nullptr || poly->first < 0 || poly->first + poly->count > static_cast<int>(s.vertices_W.size())) return;
  for (int k = 0; k < poly->count; ++k) {
    debug->Line(s.vertices_W[poly->first + k].cast<float>(),
                s.vertices_W[poly->first + (k + 1) % poly->count].cast<float>(), kHighlight, true);
  }
}

// Generators of half-angle atan μ about the normal (forces on B lie inside),
// and the rim.
void AddFrictionCone(const ContactSnapshot& c, const VisualizationState& viz, bool selected, DebugDraw* debug) {
  constexpr int kGenerators = 8;
  const Vec3f p = c.p_W.cast<float>();
  const Vec4f color = selected              ? kHighlight
                      : IsSeparating(c)     ? kSeparatingColor
                      : c.region == ConeRegion::kStiction ? kStickColor
                                                          : kSlipColor;
  const double h = viz.cone_size;
  const double alpha = std::atan(std::max(c.mu, 0.0));
  const Vector3 n = c.R_WC.col(2), t1 = c.R_WC.col(0), t2 = c.R_WC.col(1);
  Vector3 rim_prev = Vector3::Zero();
  for (int k = 0; k <= kGenerators; ++k) {
    const double a = 2.0 * std::numbers::pi * k / kGenerators;
    const Vector3 dir = std::cos(alpha) * n + std::sin(alpha) * (std::cos(a) * t1 + std::sin(a) * t2);
    // Height h along the normal; for μ > 3 the slant length is capped (rim radius ≤ 3.2 h).
    const Vector3 rim = c.p_W + h / std::max(std::cos(alpha), 0.3) * dir;
    if (k < kGenerators) debug->Line(p, rim.cast<float>(), color, true);
    if (k > 0) debug->Line(rim_prev.cast<float>(), rim.cast<float>(), color, true);
    rim_prev = rim;
  }
  if (selected) debug->Line(p, (c.p_W + 1.5 * h * n).cast<float>(), kHighlight, true);
}

// Each pressure patch: a point at its pressure centroid with its net force
// on B (the sum over its polygons) as the arrow, and the normal and friction
// parts with their toggles.
void AddPatchForces(const Snapshot& snapshot, const VisualizationState& viz, double scale, DebugDraw* debug) {
  for (const ContactSurfaceSnapshot& s : snapshot.contact_surfaces) {
    const Vec3f p = s.centroid_W.cast<float>();
    const Vector3 f_n = s.normal_force() * s.normal_W;
    if (viz.contact_points) {
      debug->Point(p, kPointColor);
      debug->Line(p, (s.centroid_W + s.force_W / scale).cast<float>(), kPointColor, true);
    }
    if (viz.normal_forces) debug->Line(p, (s.centroid_W + f_n / scale).cast<float>(), kNormalColor, true);
    if (viz.friction_forces) {
      debug->Line(p, (s.centroid_W + (s.force_W - f_n) / scale).cast<float>(), kFrictionColor, true);
    }
  }
}

}  // namespace

void AddContactGlyphs(const Snapshot& snapshot, const VisualizationState& viz, int selected_contact,
                      DebugDraw* debug) {
  const double scale = std::max(viz.force_scale, 1e-12);  // N per metre.
  for (size_t i = 0; i < snapshot.contacts.size(); ++i) {
    const ContactSnapshot& c = snapshot.contacts[i];
    const bool selected = static_cast<int>(i) == selected_contact;
    // A pressure-field polygon: its patch has one glyph (AddPatchForces), not
    // one per polygon (a patch has tens to thousands); the selected one is outlined.
    if (c.surface >= 0 && !selected) continue;
    AddPolygonOutline(snapshot, c, debug);
    const Vec3f p = c.p_W.cast<float>();
    if (viz.contact_points || selected) debug->Point(p, selected ? kHighlight : kPointColor);
    if (viz.normal_forces) debug->Line(p, (c.p_W + c.normal_force_W() / scale).cast<float>(), kNormalColor, true);
    if (viz.friction_forces) {
      debug->Line(p, (c.p_W + c.friction_force_W() / scale).cast<float>(), kFrictionColor, true);
    }
    if (viz.friction_cones || selected) AddFrictionCone(c, viz, selected, debug);
  }
  AddPatchForces(snapshot, viz, scale, debug);
}

void AddBodyGlyphs(const Snapshot& snapshot, const RenderScene& scene, const VisualizationState& viz,
                   DebugDraw* debug) {
  const int nb = static_cast<int>(snapshot.X_WB.size());
  for (int b = 1; b < nb; ++b) {
    const RigidTransform& X = snapshot.X_WB[b];
    const float size =
        static_cast<float>(b < static_cast<int>(scene.body_size.size()) ? scene.body_size[b] : 0.1);
    if (viz.body_frames) {
      for (int i = 0; i < 3; ++i) {
        debug->Line(X.p.cast<float>(), (X.p + 1.5 * size * X.R.col(i)).cast<float>(), kAxisColors[i]);
      }
    }
    if (viz.centers_of_mass) debug->Point(snapshot.p_WBcm[b].cast<float>(), Vec4f(1.0f, 0.85f, 0.1f, 1));
  }
}

}  // namespace stiction::app
