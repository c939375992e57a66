#pragma once
// Every mouse and key binding, as the F1 window and docs/viewer.md list them,
// with the keys in effect (UiState::keys: the defaults or the user's input
// file) and the input devices' buttons. The handlers are
// InputController::HandleKey / HandleMouseButton / HandleCursor /
// HandleScroll and InputDevices; this table is their documentation and must
// match them.
#include <string>
#include <vector>

#include "app/input/devices/device_ui.h"
#include "app/input/key_map.h"

namespace stiction::app {

struct Binding {
  std::string input;
  std::string action;
};

/// The F1 list for the key map `keys` (docs/viewer.md lists the defaults),
/// then the devices' button maps.
std::vector<Binding> KeyBindings(const KeyMap& keys, const DeviceUi& devices);
/// With the default keys and device maps.
std::vector<Binding> KeyBindings();

/// The teleop motion keys for the Gripper section: "W/S x, A/D y, R/F z,
/// Q/E yaw" (and ", Z/X tilt" when `can_tilt`).
std::string MotionKeysText(const KeyMap& keys, bool can_tilt);
/// The move keys for the scene view's hint: "WASD/RF" with the default
/// keys (x+ y+ x- y- / z+ z-); the first key of each, names joined.
std::string HintMoveKeys(const KeyMap& keys);
/// The first key of `action` ("G"), for one-line hints.
std::string FirstKeyName(const KeyMap& keys, KeyAction action);

}  // namespace stiction::app
