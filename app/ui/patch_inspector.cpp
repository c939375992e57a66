#include "app/ui/patch_inspector.h"

#include "engine/common/text.h"

namespace stiction::app {

std::vector<std::string> DescribePatch(const ContactSurfaceSnapshot& s, int surface_index, int polygon) {
  std::vector<std::string> lines;
  const Vector3& f = s.force_W;
  const Vector3& m = s.moment_W;
  const Vector3& c = s.centroid_W;
  lines.push_back(StringPrintf("pressure patch %d: %s (A) - %s (B)", surface_index, s.name_a.c_str(), s.name_b.c_str()));
  lines.push_back(StringPrintf("polygons  %zu (this: %d)", s.polygons.size(), polygon));
  lines.push_back(StringPrintf("area      %.4g cm^2", s.area * 1e4));
  lines.push_back(StringPrintf("f_n       %.4g N (net, on B)", s.normal_force()));
  lines.push_back(StringPrintf("|f_t|     %.4g N", s.tangential_force()));
  lines.emplace_back("net force on B [N]:");
  lines.push_back(StringPrintf("  (%.4g, %.4g, %.4g)", f.x(), f.y(), f.z()));
  lines.emplace_back("net moment about the centroid [N m]:");
  lines.push_back(StringPrintf("  (%.3g, %.3g, %.3g)", m.x(), m.y(), m.z()));
  lines.push_back(StringPrintf("centroid  (%.4f, %.4f, %.4f) m", c.x(), c.y(), c.z()));
  lines.push_back(StringPrintf("peak pressure  %.4g kPa", s.peak_pressure * 1e-3));
  if (s.area > 0) lines.push_back(StringPrintf("mean f_n / A   %.4g kPa", s.normal_force() / s.area * 1e-3));
  if (polygon >= 0 && polygon < static_cast<int>(s.polygons.size())) {
    const ContactPolygon& p = s.polygons[polygon];
    lines.push_back(StringPrintf("this polygon   %.4g mm^2 at %.4g kPa", p.area * 1e6, p.pressure * 1e-3));
  }
  return lines;
}

}  // namespace stiction::app
