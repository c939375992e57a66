#pragma once
// The pressure-field contact patches of a snapshot as filled triangles for
// the Renderer: each polygon of each contact surface as a fan from its
// first vertex, every vertex at its own pressure's place on the legend's
// scale. The pressure is linear across a polygon (as in the tetrahedron it
// was cut from), so the place interpolated along the fan, coloured per
// fragment, shows the field as the engine has it.
#include "app/render/debug_draw.h"
#include "app/render/pressure_scale.h"
#include "app/snapshot.h"

namespace stiction::app {

/// Appends the patches of snapshot.contact_surfaces to debug->patch_triangles.
void AddPressurePatches(const Snapshot& snapshot, const PressureLegend& legend, DebugDraw* debug);

}  // namespace stiction::app
