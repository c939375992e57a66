#pragma once
// The colour bar of the pressure patches, drawn in the 3D view (bottom
// left) with ImGui's draw list: the title with its unit, the scale mode,
// the colour map from 0 (bottom) to the top of the scale, and labels at 0,
// the middle and the top. Drawn by ImGui, so like the info overlay it is in
// the window (and --screenshot-window pictures), not in the scene image.
#include <imgui.h>

#include "app/render/pressure_scale.h"
#include "app/ui/layout.h"

namespace stiction::app {

/// Draws `legend` into `draw` at the bottom left of `view` (window pixels).
void DrawPressureLegend(ImDrawList* draw, const PressureLegend& legend, const Rect& view);

}  // namespace stiction::app
