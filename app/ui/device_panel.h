#pragma once
// The Gripper section's Device rows: the SpaceMouse's and the gamepad's
// status (connected, or the note why not), and for the one shown its
// sensitivity, dead zone, axis locks and mapping (docs/teleop.md "Input
// devices"). The settings apply from the next frame; the input file sets
// their values at start.
#include <string>

#include "app/ui/ui_state.h"

namespace stiction::app {

void DrawDeviceRows(UiState* ui);

/// "x <- z, y <- -x, …": where each teleop axis comes from.
std::string AxisMapText(const DeviceMapping& mapping);

}  // namespace stiction::app
