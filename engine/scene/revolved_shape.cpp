#include "engine/scene/revolved_shape.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace stiction {
namespace {

struct Vec2 {
  double r = 0;
  double z = 0;
};

double Cross(const Vec2& a, const Vec2& b) { return a.r * b.z - a.z * b.r; }

/// The unit normal to the right of segment a → b in the (r, z) plane.
Vec2 RightNormal(const ProfilePoint& a, const ProfilePoint& b) {
  const double dr = b.r - a.r;
  const double dz = b.z - a.z;
  const double length = std::hypot(dr, dz);
  return {dz / length, -dr / length};
}

}  // namespace

std::vector<ConvexPolyhedron> MakeRevolvedTiles(const std::vector<ProfilePoint>& profile, double thickness,
                                                int segments) {
  const int count = static_cast<int>(profile.size());
  double extent = 0;
  for (const ProfilePoint& p : profile) extent = std::max({extent, p.r, std::abs(p.z)});
  const double tolerance = 1e-9 * std::max(extent, thickness);
  for (int k = 0; k + 1 < count; ++k) {
    if (std::hypot(profile[k + 1].r - profile[k].r, profile[k + 1].z - profile[k].z) <= tolerance) {
      throw RevolvedShapeError(k + 1, "repeats the point before it");
    }
  }
  // Mitred offsets: at an inner point the side lines of both segments meet
  // at p ± (t/2) (m_a + m_b)/(1 + m_a·m_b), m the segments' unit normals.
  // An end on the axis is mitred with its mirror image across the axis (the
  // wall continues through it), so its sides stay on the axis; another end
  // is cut square.
  auto mitre = [](const Vec2& a, const Vec2& b, int k) {
    const double cosine = a.r * b.r + a.z * b.z;
    if (1.0 + cosine < 1.0 + std::cos(150.0 * 3.14159265358979323846 / 180.0)) {
      throw RevolvedShapeError(k, "the profile turns back by more than 150 degrees here (counting the "
                                  "mirror image of a segment that leaves the axis)");
    }
    return Vec2{(a.r + b.r) / (1.0 + cosine), (a.z + b.z) / (1.0 + cosine)};
  };
  std::vector<Vec2> outer(count), inner(count);
  for (int k = 0; k < count; ++k) {
    Vec2 w;
    if (k == 0 || k == count - 1) {
      const Vec2 m = k == 0 ? RightNormal(profile[0], profile[1]) : RightNormal(profile[k - 1], profile[k]);
      w = profile[k].r <= tolerance ? mitre(m, Vec2{-m.r, m.z}, k) : m;
    } else {
      w = mitre(RightNormal(profile[k - 1], profile[k]), RightNormal(profile[k], profile[k + 1]), k);
    }
    const double h = 0.5 * thickness;
    outer[k] = {profile[k].r + h * w.r, profile[k].z + h * w.z};
    inner[k] = {profile[k].r - h * w.r, profile[k].z - h * w.z};
    for (Vec2* side : {&outer[k], &inner[k]}) {
      if (side->r < -tolerance) {
        throw RevolvedShapeError(k, "the wall crosses the axis here (a side " + std::to_string(-side->r) +
                                        " m past it); move the point away from the axis or make the wall thinner");
      }
      side->r = std::max(side->r, 0.0);
    }
  }
  constexpr double kTwoPi = 2.0 * 3.14159265358979323846;
  std::vector<ConvexPolyhedron> tiles;
  tiles.reserve(static_cast<std::size_t>(segments) * (count - 1));
  for (int j = 0; j < segments; ++j) {
    for (int k = 0; k + 1 < count; ++k) {
      std::vector<Vec2> quad = {inner[k], inner[k + 1], outer[k + 1], outer[k]};
      // A proper convex quadrilateral: every corner turns the same way.
      double area = 0;
      for (int i = 0; i < 4; ++i) area += Cross(quad[i], quad[(i + 1) % 4]);
      if (area < 0) std::reverse(quad.begin(), quad.end());
      for (int i = 0; i < 4; ++i) {
        const Vec2& a = quad[i];
        const Vec2& b = quad[(i + 1) % 4];
        const Vec2& c = quad[(i + 2) % 4];
        if (Cross({b.r - a.r, b.z - a.z}, {c.r - b.r, c.z - b.z}) <= tolerance * tolerance) {
          throw RevolvedShapeError(k + 1, "the wall folds over itself between this point and the one before "
                                          "(the thickness is too large for the bend)");
        }
      }
      std::vector<ProfilePoint> section;
      for (const Vec2& v : quad) section.push_back({v.r, v.z});
      tiles.push_back(SweepSection(section, kTwoPi * j / segments, kTwoPi * (j + 1) / segments));
    }
  }
  return tiles;
}

}  // namespace stiction
