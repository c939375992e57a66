#pragma once
// Scripted raw input for the device backends (app/input/devices/): a list
// of libspnav events per poll for the SpaceMouse, a GLFW gamepad state for
// the gamepad. The backends and the mapping under test are the real code.
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "app/input/devices/gamepad_device.h"
#include "app/input/devices/spacemouse_device.h"

namespace stiction::app::test {

/// Events delivered in order; Open fails while `daemon_up` is false.
class ScriptedSpnav final : public SpnavSource {
 public:
  struct Script {
    bool daemon_up = true;
    int opens = 0;  ///< Open calls so far.
    std::deque<SpnavEvent> events;
    bool lost = false;  ///< The next Next reports the connection lost.
  };
  explicit ScriptedSpnav(Script* script) : s_(script) {}
  std::string Open() override {
    ++s_->opens;
    return s_->daemon_up ? "" : "spacenavd not running (scripted)";
  }
  int Next(SpnavEvent* event) override {
    if (s_->lost) {
      s_->lost = false;
      return -1;
    }
    if (s_->events.empty()) return 0;
    *event = s_->events.front();
    s_->events.pop_front();
    return 1;
  }
  void Close() override {}

 private:
  Script* s_;
};

inline SpnavEvent Motion(int x, int y, int z, int rx, int ry, int rz) {
  SpnavEvent e;
  e.type = SpnavEvent::kMotion;
  e.x = x;
  e.y = y;
  e.z = z;
  e.rx = rx;
  e.ry = ry;
  e.rz = rz;
  return e;
}

inline SpnavEvent Button(int bnum, bool press) {
  SpnavEvent e;
  e.type = SpnavEvent::kButton;
  e.bnum = bnum;
  e.press = press ? 1 : 0;
  return e;
}

/// One pad (id 0) whose state the test sets; `connected` false: none.
class ScriptedGamepad final : public GamepadSource {
 public:
  struct Script {
    bool connected = true;
    GLFWgamepadstate state{};
  };
  explicit ScriptedGamepad(Script* script) : s_(script) {}
  int FindGamepad() override { return s_->connected ? 0 : -1; }
  bool State(int id, GLFWgamepadstate* state) override {
    if (!s_->connected || id != 0) return false;
    *state = s_->state;
    return true;
  }
  std::string Name(int) override { return "Scripted Pad"; }

 private:
  Script* s_;
};

/// A gamepad state at rest: sticks centred, triggers released (−1).
inline GLFWgamepadstate RestingPad() {
  GLFWgamepadstate s{};
  s.axes[GLFW_GAMEPAD_AXIS_LEFT_TRIGGER] = -1;
  s.axes[GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER] = -1;
  return s;
}

}  // namespace stiction::app::test
