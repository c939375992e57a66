#include "app/input/devices/spacemouse_device.h"

#include <algorithm>
#include <utility>

namespace stiction::app {

SpaceMouseDevice::SpaceMouseDevice(std::unique_ptr<SpnavSource> source) : source_(std::move(source)) {
  status_.name = "SpaceMouse (spacenavd)";
  status_.note = "not tried yet";
}

SpaceMouseDevice::~SpaceMouseDevice() {
  if (status_.connected) source_->Close();
}

void SpaceMouseDevice::TryOpen(double now_s) {
  if (now_s < next_attempt_s_) return;
  next_attempt_s_ = now_s + kReconnectPeriod;
  const std::string note = source_->Open();
  status_.connected = note.empty();
  status_.note = note;
  state_ = SixDofReading();
}

SixDofReading SpaceMouseDevice::Poll(double now_s) {
  if (!status_.connected) TryOpen(now_s);
  if (!status_.connected) return SixDofReading();
  state_.pressed = 0;
  SpnavEvent e;
  int got = 0;
  while ((got = source_->Next(&e)) > 0) {
    if (e.type == SpnavEvent::kMotion) {
      const int raw[kNumDeviceAxes] = {e.x, e.y, e.z, e.rx, e.ry, e.rz};
      for (int a = 0; a < kNumDeviceAxes; ++a) {
        state_.axes[static_cast<std::size_t>(a)] = std::clamp(raw[a] / kSpnavFullScale, -1.0, 1.0);
      }
    } else if (e.type == SpnavEvent::kButton && e.bnum >= 0 && e.bnum < kMaxDeviceButtons) {
      const std::uint32_t bit = 1u << e.bnum;
      if (e.press != 0) {
        state_.held |= bit;
        state_.pressed |= bit;  // A press and release within one frame still counts.
      } else {
        state_.held &= ~bit;
      }
    }
  }
  if (got < 0) {  // The daemon went away: stop, try again later.
    source_->Close();
    status_.connected = false;
    status_.note = "lost the connection to spacenavd; retrying every 2 s";
    next_attempt_s_ = now_s + kReconnectPeriod;
    state_ = SixDofReading();
  }
  return state_;
}

}  // namespace stiction::app
