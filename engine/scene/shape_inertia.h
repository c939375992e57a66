#pragma once
// Closed-form mass properties of the solid primitive shapes, used by the scene
// loader to compute a body's mass (from a density) and rotational inertia
// (from its collision geometry) when the file does not give them.
#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction {

/// True for the shapes with closed-form volume and inertia: sphere, box,
/// capsule, cylinder. Meshes and half-spaces have none.
bool HasClosedFormMassProperties(ShapeType type);

/// Volume of the solid shape [m³]. Throws std::invalid_argument for shapes
/// without closed-form mass properties.
double CalcShapeVolume(const ShapeDescription& shape);

/// Rotational inertia [kg m²] of the shape as a uniform solid of total mass
/// `mass` [kg], about its centroid (which is the shape frame origin G for every
/// supported shape), expressed in the shape frame G. Throws
/// std::invalid_argument for shapes without closed-form mass properties.
Matrix3 CalcShapeInertia(const ShapeDescription& shape, double mass);

}  // namespace stiction
