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

/// Whether the section a, b, c, d (a segment's, in order around it) has
/// an edge on the axis and, mirrored across the axis, stays convex (its
/// corners on the axis at most 90°): then its solid of revolution is convex.
/// If so, `profile` is its boundary from the lower axis point to the upper
/// one (MakeRevolvedConvex's form).
bool IsDisk(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d, double tolerance,
            std::vector<ProfilePoint>* profile) {
  std::vector<Vec2> quad = {a, b, c, d};
  double area = 0;
  for (int i = 0; i < 4; ++i) area += Cross(quad[i], quad[(i + 1) % 4]);
  if (area < 0) std::reverse(quad.begin(), quad.end());  // Counter-clockwise in (r, z).
  // The edge on the axis: two consecutive corners with r = 0.
  int first = -1;
  for (int i = 0; i < 4; ++i) {
    if (quad[i].r <= tolerance && quad[(i + 1) % 4].r <= tolerance) first = i;
  }
  if (first < 0) return false;
  // Counter-clockwise with the interior at r > 0, the axis edge runs down:
  // from the upper axis corner (first) to the lower one (first + 1).
  const Vec2& top = quad[first];
  const Vec2& bottom = quad[(first + 1) % 4];
  const Vec2& after_bottom = quad[(first + 2) % 4];
  const Vec2& before_top = quad[(first + 3) % 4];
  if (!(top.z > bottom.z)) return false;
  // Corner angles at the axis ≤ 90°: from the lower corner the section's
  // edge runs level or up, from the upper one level or down (a cone shell's
  // corner of more than 90° would make a notch with its mirror image).
  if (after_bottom.z < bottom.z - tolerance || before_top.z > top.z + tolerance) return false;
  *profile = {{0, bottom.z}, {after_bottom.r, after_bottom.z}, {before_top.r, before_top.z}, {0, top.z}};
  return true;
}

}  // namespace

std::vector<ConvexPolyhedron> MakeRevolvedTiles(const std::vector<ProfilePoint>& profile, double thickness,
                                                int segments, bool whole_caps) {
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
  // A segment with an end on the axis whose section, mirrored across the
  // axis, stays convex (a flat bottom, a lid): its sectors' tiles make one
  // convex solid, kept as one piece (fewer pieces, and no contacts doubled
  // at the seams between sectors, e.g. a marble at the centre of a bottom
  // touching every sector's tip).
  std::vector<char> whole(static_cast<std::size_t>(count - 1), 0);
  std::vector<ConvexPolyhedron> tiles;
  for (int k = 0; k + 1 < count; ++k) {
    std::vector<ProfilePoint> revolved;
    if (whole_caps && IsDisk(inner[k], inner[k + 1], outer[k + 1], outer[k], tolerance, &revolved)) {
      whole[static_cast<std::size_t>(k)] = 1;
      tiles.push_back(MakeRevolvedConvex(revolved, segments));
    }
  }
  for (int j = 0; j < segments; ++j) {
    for (int k = 0; k + 1 < count; ++k) {
      if (whole[static_cast<std::size_t>(k)]) continue;
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
