#pragma once
// Ray casts against the drawn geometry, for double-click selection and for
// centring the view: exact ray-primitive tests for spheres, boxes, capsules,
// cylinders and half-spaces; the bounding sphere for meshes.
#include <limits>
#include <vector>

#include "app/render/render_scene.h"

namespace stiction::app {

struct PickResult {
  int body = -1;      ///< Model body hit (0 = world geometry); -1 = nothing.
  int drawable = -1;  ///< Index into RenderScene::drawables.
  Vector3 p_W = Vector3::Zero();  ///< Hit point, world [m].
  double distance = std::numeric_limits<double>::infinity();  ///< Along the ray [m].
  bool hit() const { return body >= 0; }
};

/// Smallest t ≥ 0 at which origin + t·dir (G frame, dir unit) enters the
/// shape; +inf when it misses. `bounding_radius` stands in for meshes.
double RayCastShape(const ShapeDescription& shape, double bounding_radius, const Vector3& origin_G,
                    const Vector3& dir_G);

/// Nearest hit along the world ray over the drawables (visual ones, plus the
/// collision-only ones when `include_hidden`), at poses X_WB (index = model
/// body). World geometry is skipped unless `include_world`.
PickResult Pick(const RenderScene& scene, const std::vector<RigidTransform>& X_WB,
                const Vector3& origin_W, const Vector3& dir_W, bool include_world,
                bool include_hidden = false);

}  // namespace stiction::app
