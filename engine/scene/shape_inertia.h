#pragma once
// Closed-form properties of the solid primitive shapes: mass properties, used
// by the scene loader to compute a body's mass (from a density) and
// rotational inertia (from its collision geometry) when the file does not
// give them, and the bounding radius the contact query and robot placement
// use.
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

/// Radius [m] of the smallest sphere about the shape frame origin G that
/// holds the primitive (sphere, box, capsule, cylinder). Throws
/// std::invalid_argument for meshes and half-spaces.
double CalcShapeBoundingRadius(const ShapeDescription& shape);

}  // namespace stiction
