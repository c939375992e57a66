#pragma once
// A gamepad through GLFW's gamepad API (SDL's controller database maps
// each pad to the Xbox layout): the first joystick GLFW knows as a gamepad,
// its state from a GamepadSource (the real one glfwGetGamepadState, the
// tests' a script). GLFW notices pads plugged in or pulled out while it
// polls events; the backend follows it at every poll, so hot-plug needs
// nothing else. No pad is a note, never an error.
#include <memory>
#include <string>

#include "app/input/devices/six_dof_device.h"
#include "app/render/gl.h"

namespace stiction::app {

/// The reading's axes from a gamepad, each in [−1, 1]: the sticks (up and
/// right positive), the triggers (right minus left, each 0 released and 1
/// fully pressed) and the d-pad's up minus down.
enum GamepadAxes { kLeftX, kLeftY, kRightX, kRightY, kTriggers, kDpadY };

class GamepadSource {
 public:
  virtual ~GamepadSource() = default;
  /// The first connected gamepad (a joystick id), or −1 when none is.
  virtual int FindGamepad() = 0;
  /// Its state into *state; false when it is gone.
  virtual bool State(int id, GLFWgamepadstate* state) = 0;
  /// Its name ("Xbox Controller").
  virtual std::string Name(int id) = 0;
};

/// GLFW's (glfwJoystickIsGamepad, glfwGetGamepadState); GLFW must be
/// initialised.
std::unique_ptr<GamepadSource> MakeGlfwGamepadSource();

/// A GLFW gamepad state as a reading (GamepadAxes; buttons in
/// GLFW_GAMEPAD_BUTTON_* order as bits).
SixDofReading GamepadReading(const GLFWgamepadstate& state);

class GamepadDevice final : public SixDofDevice {
 public:
  explicit GamepadDevice(std::unique_ptr<GamepadSource> source);

  DeviceKind kind() const override { return DeviceKind::kGamepad; }
  SixDofReading Poll(double now_s) override;
  const DeviceStatus& status() const override { return status_; }

 private:
  std::unique_ptr<GamepadSource> source_;
  DeviceStatus status_;
  int id_ = -1;
  std::uint32_t held_ = 0;
};

}  // namespace stiction::app
