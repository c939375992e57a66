#pragma once
// The `revolved` shape (docs/scene-format.md, "Revolved shapes"): a wall of
// thickness t centred on a profile polyline in the (r, z) half-plane,
// revolved about the geometry's z axis in `segments` sectors. Each profile
// segment in each sector is one convex piece (a tile), except that a flat
// bottom or lid on the axis is one piece for all sectors; neighbouring
// pieces share faces exactly, so the wall is closed and none overlap. This
// is how jars, lids, bowls, cups and plates are made of convex pieces.
#include <stdexcept>
#include <vector>

#include "engine/scene/convex_solid.h"

namespace stiction {

/// Why a profile cannot be made into a wall; `point` is the index of the
/// profile point at fault.
class RevolvedShapeError : public std::invalid_argument {
 public:
  RevolvedShapeError(int point, const std::string& what) : std::invalid_argument(what), point_(point) {}
  int point() const { return point_; }

 private:
  int point_;
};

/// The pieces: first one convex solid per profile segment with an end on
/// the axis whose section, mirrored across it, is convex (a flat bottom or
/// lid: the union of its sectors' tiles, in profile order), then the tiles
/// of the other segments, segment by segment within each sector. The wall's two sides are
/// the profile offset by ±t/2 along its normals, mitred at the inner points.
/// Throws RevolvedShapeError when two consecutive points coincide, the
/// profile turns by more than 150° at a point, the wall would cross the axis
/// (r − t/2 < 0 at a side), or a segment's section is not a proper convex
/// quadrilateral (the thickness is too large for the bend).
/// `whole_caps` false: those segments are tiled by sector too (a compliant
/// wall: each tile's pressure field from its own depth, as tested).
std::vector<ConvexPolyhedron> MakeRevolvedTiles(const std::vector<ProfilePoint>& profile, double thickness,
                                                int segments, bool whole_caps = true);

}  // namespace stiction
