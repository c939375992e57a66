#pragma once
// The 6-DoF input devices (docs/teleop.md "Input devices"): a SpaceMouse
// and a gamepad, each polled once per frame. In teleop focus a device's
// deflection moves the focused gripper's target through
// GripperSession::Nudge (as the held keys do, at the keyboard rates times
// the device's sensitivity); its buttons toggle the grasp, move teleop to
// the next gripper, start/stop a take (as Record/Stop) and turn teleop
// focus on or off. Also reads the user's input file (input_config.h) into
// UiState::keys and UiState::devices, and reports its bad entries.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/input/devices/six_dof_device.h"
#include "app/teleop/gripper_session.h"
#include "app/ui/gripper_panel.h"
#include "app/ui/ui_state.h"

namespace stiction::app {

class InputDevices {
 public:
  struct Parts {
    UiState& ui;
    GripperSession& gripper;
    GripperCommands& commands;
  };
  /// Reads `config_path` ("" = none; a missing file means the defaults;
  /// each bad entry printed on stderr, the first shown in the message line
  /// at the first Update) and sets up the real backends (libspnav, GLFW's
  /// gamepads; neither is touched before the first Update).
  InputDevices(const Parts& parts, const std::string& config_path);
  InputDevices(const InputDevices&) = delete;
  InputDevices& operator=(const InputDevices&) = delete;
  ~InputDevices();

  /// Replaces the backend of `device`'s kind (the tests' scripted ones).
  void SetDevice(std::unique_ptr<SixDofDevice> device);
  /// Once per frame at wall time now_s [s], `wall_dt` [s] after the last:
  /// polls every device, acts on the buttons pressed, and in teleop focus
  /// moves the target for wall_dt.
  void Update(double now_s, double wall_dt);
  /// The input file's bad entries ("FILE:LINE: KEY: reason; …").
  const std::vector<std::string>& config_problems() const { return problems_; }

 private:
  void Act(DeviceAction action);

  Parts p_;
  std::array<std::unique_ptr<SixDofDevice>, 2> devices_;  // By DeviceKind.
  std::vector<std::string> problems_;
  bool problems_shown_ = false;
};

}  // namespace stiction::app
