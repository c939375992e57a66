#pragma once
// What the Gripper panel's Device rows show and edit (UiState::devices):
// each backend's status, written by InputDevices every frame, and its
// mapping, whose settings (sensitivity, dead zone, locks) the rows edit
// live.
#include <array>

#include "app/input/devices/device_mapping.h"
#include "app/input/devices/six_dof_device.h"

namespace stiction::app {

struct DeviceEntry {
  DeviceStatus status;
  DeviceMapping mapping;
};

struct DeviceUi {
  /// Indexed by DeviceKind: the SpaceMouse, the gamepad.
  std::array<DeviceEntry, 2> devices{DeviceEntry{{}, DefaultSpaceMouseMapping()},
                                     DeviceEntry{{}, DefaultGamepadMapping()}};
  /// The device that last moved the target or pressed a button (−1: none yet).
  int last_used = -1;
  /// The device whose settings the Device rows show (a DeviceKind).
  int shown = 0;
  DeviceEntry& operator[](DeviceKind kind) { return devices[static_cast<std::size_t>(kind)]; }
  const DeviceEntry& operator[](DeviceKind kind) const { return devices[static_cast<std::size_t>(kind)]; }
};

}  // namespace stiction::app
