#pragma once
// The Joints and Control sections of the right column (docs/viewer.md,
// "Joints and Control"), as MuJoCo simulate's Joint and Control panels:
// a slider per revolute or prismatic joint and one per PD actuator, each
// list in a scrolling table with a filter box so that a 60-joint robot stays
// usable. What a slider does is app/ui/joint_control.h; this file only
// draws.
#include "app/ui/panels.h"
#include "app/ui/ui_state.h"

namespace stiction::app {

/// The Joints section's body.
void DrawJointsSection(const AppView& view, UiState* ui, AppCommands* commands);
/// The Control section's body.
void DrawControlSection(const AppView& view, UiState* ui, AppCommands* commands);

}  // namespace stiction::app
