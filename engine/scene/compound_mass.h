#pragma once
// A body's solid from its collision pieces (docs/contact-geometry.md,
// "Concave bodies as compounds of convex pieces"): the volume integrals of
// the union of its pieces, so that where pieces overlap the overlap counts
// once. Used by body_section.cpp for `density` and for an inertia the file
// does not give.
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/scene/convex_solid.h"
#include "engine/scene/scene_description.h"

namespace stiction {

/// The convex polyhedron of a closed, convex triangle mesh scaled per axis,
/// in its geometry frame; empty with *why_not set (", not closed: ..." style
/// reason) when the mesh is open, inconsistently oriented or not convex.
ConvexPolyhedron PolyhedronOfConvexMesh(const MeshData& mesh, const Vector3& scale, std::string* why_not);

/// True for the pieces whose volume the loader computes: sphere, box,
/// capsule, cylinder, and a mesh given in memory (a revolved shape's tile, a
/// piece of an OBJ file; IntegrateUnion checks that it is closed and convex).
/// Else false with *why_not set.
bool HasComputableMassProperties(const ShapeDescription& shape, std::string* why_not);

/// IntegrateUnion's refusal of one piece: a mesh that is not closed or not
/// convex. what() is "geometry '<name>' (<mesh name>): <reason>".
class UnusablePieceError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct UnionIntegrals {
  SolidIntegrals integrals;     ///< Of the union, in the body frame.
  int overlapping_pairs = 0;    ///< Pairs of pieces that share volume.
  int intersection_terms = 0;   ///< Intersections of two or more pieces summed.
};

/// The union of `pieces` (each HasComputableMassProperties), by inclusion and
/// exclusion: each piece's exact integrals, less the intersections of two,
/// plus those of three, .... Intersections are of convex polyhedra: exact for
/// boxes and meshes; spheres, capsules and cylinders stand in as polyhedra
/// of 32 sectors and 16 rings, so an overlap with one of them is computed to
/// about 1% of the overlap's own integrals. Throws UnusablePieceError for a
/// mesh piece that is not closed and convex, std::invalid_argument when more
/// than `max_terms` intersections overlap.
UnionIntegrals IntegrateUnion(const std::vector<const GeometryDescription*>& pieces, int max_terms = 10000);

}  // namespace stiction
