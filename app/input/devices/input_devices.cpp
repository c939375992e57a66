#include "app/input/devices/input_devices.h"

#include <cstdio>
#include <utility>

#include "app/input/devices/gamepad_device.h"
#include "app/input/devices/spacemouse_device.h"
#include "app/input/devices/spnav_source.h"
#include "app/input/input_config.h"

namespace stiction::app {

InputDevices::InputDevices(const Parts& parts, const std::string& config_path) : p_(parts) {
  InputConfig config = LoadInputConfig(config_path, &problems_);
  for (const std::string& problem : problems_) std::fprintf(stderr, "stiction: %s\n", problem.c_str());
  p_.ui.keys = config.keys;
  p_.ui.devices[DeviceKind::kSpaceMouse].mapping = config.spacemouse;
  p_.ui.devices[DeviceKind::kGamepad].mapping = config.gamepad;
  SetDevice(std::make_unique<SpaceMouseDevice>(MakeLibspnavSource()));
  SetDevice(std::make_unique<GamepadDevice>(MakeGlfwGamepadSource()));
}

InputDevices::~InputDevices() = default;

void InputDevices::SetDevice(std::unique_ptr<SixDofDevice> device) {
  const DeviceKind kind = device->kind();
  p_.ui.devices[kind].status = device->status();
  devices_[static_cast<std::size_t>(kind)] = std::move(device);
}

void InputDevices::Update(double now_s, double wall_dt) {
  for (std::unique_ptr<SixDofDevice>& device : devices_) {
    const SixDofReading reading = device->Poll(now_s);
    DeviceEntry& entry = p_.ui.devices[device->kind()];
    // Plugged in or pulled out (or the daemon came or went): say so.
    if (device->status().connected != entry.status.connected) {
      p_.ui.Info(device->status().connected ? device->status().name + " connected"
                                            : entry.status.name + ": " + device->status().note);
    }
    entry.status = device->status();
    for (int b = 0; b < kMaxDeviceButtons; ++b) {
      if ((reading.pressed & (1u << b)) == 0) continue;
      p_.ui.devices.last_used = static_cast<int>(device->kind());
      Act(entry.mapping.buttons[static_cast<std::size_t>(b)]);
    }
    if (!p_.gripper.teleop()) continue;
    const std::array<double, kNumTeleopAxes> r = TeleopRates(reading, entry.mapping);
    bool any = false;
    for (double v : r) any = any || v != 0;
    if (!any) continue;
    p_.ui.devices.last_used = static_cast<int>(device->kind());
    p_.gripper.Nudge(r[kTeleopX], r[kTeleopY], r[kTeleopZ], r[kTeleopYaw], r[kTeleopTilt], wall_dt);
  }
  // After the devices' lines: the input file's first problem must be seen.
  if (!problems_shown_ && !problems_.empty()) {
    std::string line = problems_.front();
    if (problems_.size() > 1) line += " (and " + std::to_string(problems_.size() - 1) + " more on stderr)";
    p_.ui.Error(line);
  }
  problems_shown_ = true;
}

void InputDevices::Act(DeviceAction action) {
  GripperSession& g = p_.gripper;
  switch (action) {
    case DeviceAction::kNone: break;
    case DeviceAction::kGrasp:
      if (const GripperController* c = g.controller()) p_.commands.SetGripClosed(c->grip() != GripState::kClosed);
      break;
    case DeviceAction::kNextGripper: g.TeleopNextGripper(); break;
    case DeviceAction::kRecord:
      if (g.controller() == nullptr) break;
      if (g.recorder().recording()) {
        p_.commands.StopCommandRecording();
      } else {
        p_.commands.StartCommandRecording();
      }
      break;
    case DeviceAction::kTeleop:
      if (g.controller() != nullptr) p_.commands.SetTeleop(!g.teleop());
      break;
    case DeviceAction::kKeepSuccess: p_.commands.KeepTake(p_.ui.gripper.dataset_path, true); break;
    case DeviceAction::kKeepFailure: p_.commands.KeepTake(p_.ui.gripper.dataset_path, false); break;
    case DeviceAction::kDiscard: p_.commands.DiscardTake(); break;
  }
}

}  // namespace stiction::app
