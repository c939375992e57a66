#include "app/input/devices/gamepad_device.h"

#include <algorithm>
#include <utility>

namespace stiction::app {
namespace {

class GlfwGamepadSource final : public GamepadSource {
 public:
  int FindGamepad() override {
    for (int id = GLFW_JOYSTICK_1; id <= GLFW_JOYSTICK_LAST; ++id) {
      if (glfwJoystickIsGamepad(id) == GLFW_TRUE) return id;
    }
    return -1;
  }
  bool State(int id, GLFWgamepadstate* state) override { return glfwGetGamepadState(id, state) == GLFW_TRUE; }
  std::string Name(int id) override {
    const char* name = glfwGetGamepadName(id);
    return name != nullptr ? name : "gamepad";
  }
};

}  // namespace

std::unique_ptr<GamepadSource> MakeGlfwGamepadSource() { return std::make_unique<GlfwGamepadSource>(); }

SixDofReading GamepadReading(const GLFWgamepadstate& s) {
  SixDofReading r;
  const auto axis = [&](int a) { return std::clamp(static_cast<double>(s.axes[a]), -1.0, 1.0); };
  r.axes[kLeftX] = axis(GLFW_GAMEPAD_AXIS_LEFT_X);
  r.axes[kLeftY] = -axis(GLFW_GAMEPAD_AXIS_LEFT_Y);  // GLFW: down positive.
  r.axes[kRightX] = axis(GLFW_GAMEPAD_AXIS_RIGHT_X);
  r.axes[kRightY] = -axis(GLFW_GAMEPAD_AXIS_RIGHT_Y);
  // GLFW's triggers rest at −1 and read +1 fully pressed.
  r.axes[kTriggers] =
      0.5 * (axis(GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER) + 1) - 0.5 * (axis(GLFW_GAMEPAD_AXIS_LEFT_TRIGGER) + 1);
  r.axes[kDpadY] = (s.buttons[GLFW_GAMEPAD_BUTTON_DPAD_UP] == GLFW_PRESS ? 1.0 : 0.0) -
                   (s.buttons[GLFW_GAMEPAD_BUTTON_DPAD_DOWN] == GLFW_PRESS ? 1.0 : 0.0);
  for (int b = 0; b <= GLFW_GAMEPAD_BUTTON_LAST; ++b) {
    if (s.buttons[b] == GLFW_PRESS) r.held |= 1u << b;
  }
  return r;
}

GamepadDevice::GamepadDevice(std::unique_ptr<GamepadSource> source) : source_(std::move(source)) {
  status_.name = "gamepad";
  status_.note = "no gamepad connected";
}

SixDofReading GamepadDevice::Poll(double /*now_s*/) {
  GLFWgamepadstate state{};
  if (id_ < 0 || !source_->State(id_, &state)) {
    // Not connected, or pulled out: the first pad GLFW knows now (cheap: GLFW
    // keeps its joystick list current from the connect/disconnect events).
    const bool was_connected = id_ >= 0;
    id_ = source_->FindGamepad();
    if (id_ < 0 || !source_->State(id_, &state)) {
      id_ = -1;
      status_ = DeviceStatus{false, "gamepad", was_connected ? "gamepad disconnected" : "no gamepad connected"};
      return SixDofReading();
    }
    status_ = DeviceStatus{true, "gamepad '" + source_->Name(id_) + "'", ""};
    held_ = GamepadReading(state).held;  // A button already down when it connects is not a press.
  }
  SixDofReading r = GamepadReading(state);
  r.pressed = r.held & ~held_;
  held_ = r.held;
  return r;
}

}  // namespace stiction::app
