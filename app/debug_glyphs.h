#pragma once
// What the debug draw shows over the scene besides the pressure patches
// (app/render/pressure_patches.h) and the perturbation (BodyPerturber): the
// contacts of the last step (points, normal and friction forces, friction
// cones coloured stick/slip, the inspected contact highlighted), each
// pressure patch's net force, and the bodies' frames and centres of mass,
// as the Visualization section asks.
#include "app/render/debug_draw.h"
#include "app/render/render_scene.h"
#include "app/snapshot.h"
#include "app/ui/ui_state.h"

namespace stiction::app {

/// The contacts' glyphs; `selected_contact` (−1: none) is drawn highlighted
/// with its cone, and, for a pressure-field polygon, its outline.
void AddContactGlyphs(const Snapshot& snapshot, const VisualizationState& viz, int selected_contact,
                      DebugDraw* debug);

/// Each body's frame axes (scaled by its size) and centre of mass.
void AddBodyGlyphs(const Snapshot& snapshot, const RenderScene& scene, const VisualizationState& viz,
                   DebugDraw* debug);

}  // namespace stiction::app
