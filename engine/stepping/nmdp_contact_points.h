#pragma once
// The contact points NMDP works with ([NMDP] Sec. VII: "a small set of known
// contact points"; docs/nmdp.md Sec. 2), read from a scene's collision
// geometry: every pair of a geometry on a moving body and a world half-space
// that may collide gives points fixed in the body, each a sphere against
// the half-space's plane:
//   sphere   its centre, with its radius;
//   capsule  the centres of its two end spheres, with its radius;
//   box      its eight corners (radius 0);
//   cylinder eight points on each rim circle (radius 0).
// Meshes against a half-space are refused (no small point set stands for
// them). Pairs of two moving bodies are not modelled: NMDP, as in the
// paper, is contact of a robot with its terrain.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/contact/contact_constraints.h"
#include "engine/geometry/collision_world.h"
#include "engine/stepping/nmdp_residual.h"

namespace stiction {

struct NmdpCandidatePoint {
  NmdpContactPoint point;
  /// Stable across steps (geometry, half-space, point of the shape), for
  /// warm starts.
  std::uint64_t key = 0;
  int geometry = 0;    ///< The collision geometry on the body.
  int half_space = 0;  ///< The world half-space geometry.
};

/// Every candidate point of `world`, friction from the pair's combined
/// materials. Throws InputError naming the geometry when a mesh may touch a
/// half-space.
std::vector<NmdpCandidatePoint> ListNmdpContactPoints(const CollisionWorld& world,
                                                      const GeometryMaterials& materials);

}  // namespace stiction
