#include "app/render/pressure_patches.h"

namespace stiction::app {

void AddPressurePatches(const Snapshot& snapshot, const PressureLegend& legend, DebugDraw* debug) {
  size_t triangles = 0;
  for (const ContactSurfaceSnapshot& s : snapshot.contact_surfaces) {
    for (const ContactPolygon& p : s.polygons) triangles += p.count > 2 ? p.count - 2 : 0;
  }
  debug->patch_triangles.reserve(debug->patch_triangles.size() + 3 * triangles);
  for (const ContactSurfaceSnapshot& s : snapshot.contact_surfaces) {
    const int num_vertices = static_cast<int>(s.vertices_W.size());
    auto vertex = [&](int i) {
      const double t = i < static_cast<int>(s.pressures.size()) ? legend.Fraction(s.pressures[i]) : 0.0;
      return PatchVertex(s.vertices_W[i].cast<float>(), static_cast<float>(t));
    };
    for (const ContactPolygon& p : s.polygons) {
      if (p.count < 3 || p.first < 0 || p.first + p.count > num_vertices) continue;
      const int v0 = p.first;
      for (int k = 1; k + 1 < p.count; ++k) {
        const int v1 = p.first + k, v2 = p.first + k + 1;
        debug->patch_triangles.push_back(vertex(v0));
        debug->patch_triangles.push_back(vertex(v1));
        debug->patch_triangles.push_back(vertex(v2));
      }
    }
  }
}

}  // namespace stiction::app
