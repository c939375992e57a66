#pragma once
// A 3Dconnexion SpaceMouse through the spacenavd daemon (libspnav): motion
// events give the cap's deflection x, y, z, rx, ry, rz (about ±350 at full
// deflection, kSpnavFullScale), button events a press or release. The raw
// events come from an SpnavSource: the real one is libspnav's
// (spnav_source.h), the tests' a script. No daemon is a note ("spacenavd
// not running"), never an error; the backend tries again every
// kReconnectPeriod, so a daemon started later is picked up.
#include <memory>
#include <string>

#include "app/input/devices/six_dof_device.h"

namespace stiction::app {

/// One libspnav event, as spnav_event holds it (spnav.h's union flattened,
/// so that the tests need no libspnav).
struct SpnavEvent {
  enum Type { kMotion = 1, kButton = 2 };  // SPNAV_EVENT_MOTION, SPNAV_EVENT_BUTTON.
  int type = kMotion;
  int x = 0, y = 0, z = 0, rx = 0, ry = 0, rz = 0;  ///< kMotion: the deflection.
  int press = 0;  ///< kButton: 1 pressed, 0 released.
  int bnum = 0;   ///< kButton: which button, from 0.
};

/// Deflection that reads as 1 (the SpaceNavigator's range; larger values clamp).
inline constexpr double kSpnavFullScale = 350.0;

class SpnavSource {
 public:
  virtual ~SpnavSource() = default;
  /// Connects to the daemon; "" when connected, else the note why not.
  virtual std::string Open() = 0;
  /// The next pending event into *event: 1, none pending: 0, the
  /// connection lost: −1.
  virtual int Next(SpnavEvent* event) = 0;
  virtual void Close() = 0;
};

class SpaceMouseDevice final : public SixDofDevice {
 public:
  explicit SpaceMouseDevice(std::unique_ptr<SpnavSource> source);
  ~SpaceMouseDevice() override;

  DeviceKind kind() const override { return DeviceKind::kSpaceMouse; }
  /// Drains the pending events: the last motion event's deflection holds
  /// until the next (spacenavd sends zeros when the cap is let go).
  SixDofReading Poll(double now_s) override;
  const DeviceStatus& status() const override { return status_; }

 private:
  void TryOpen(double now_s);

  std::unique_ptr<SpnavSource> source_;
  DeviceStatus status_;
  double next_attempt_s_ = -1e300;  // Connect at the first poll.
  SixDofReading state_;
};

}  // namespace stiction::app
