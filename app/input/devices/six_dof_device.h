#pragma once
// One interface for the viewer's 6-DoF input devices (docs/teleop.md "Input
// devices"): a backend turns its raw input (libspnav's events, GLFW's
// gamepad state, or a test's script) into a SixDofReading, and
// DeviceMapping (device_mapping.h) turns readings into teleop motion and
// button actions, the same code for every backend.
#include <array>
#include <cstdint>
#include <string>

namespace stiction::app {

enum class DeviceKind { kSpaceMouse, kGamepad };

inline constexpr int kNumDeviceAxes = 6;
inline constexpr int kMaxDeviceButtons = 32;

/// A device's state at one poll.
struct SixDofReading {
  /// Each in [−1, 1], in the device's own axis order (SpaceMouse: x, y, z,
  /// rx, ry, rz; gamepad: GamepadAxes in gamepad_device.h); 0 at rest.
  std::array<double, kNumDeviceAxes> axes{};
  std::uint32_t held = 0;     ///< Bit i: button i is down.
  std::uint32_t pressed = 0;  ///< Bit i: button i went down since the previous poll.
};

/// What a backend tells the Gripper panel: connected or the note why not
/// (a missing daemon or device is a note, never an error).
struct DeviceStatus {
  bool connected = false;
  std::string name;  ///< "SpaceMouse (spacenavd)", "gamepad 'Xbox Controller'".
  std::string note;  ///< Why it is not connected, or "" when it is.
};

class SixDofDevice {
 public:
  virtual ~SixDofDevice() = default;
  virtual DeviceKind kind() const = 0;
  /// Reads the device at wall time now_s [s] (a backend that lost its
  /// device tries again every kReconnectPeriod); a reading of zeros when
  /// not connected.
  virtual SixDofReading Poll(double now_s) = 0;
  virtual const DeviceStatus& status() const = 0;
};

/// How often a disconnected backend tries to connect again [s].
inline constexpr double kReconnectPeriod = 2.0;

}  // namespace stiction::app
