#include "app/input/devices/spnav_source.h"

#include <string>

#ifdef STICTION_HAVE_SPNAV
#include <poll.h>
#include <spnav.h>
#endif

namespace stiction::app {
namespace {

#ifdef STICTION_HAVE_SPNAV
class LibspnavSource final : public SpnavSource {
 public:
  std::string Open() override {
    // The daemon's socket (or, with a libspnav built for it, the X11
    // protocol); -1 when spacenavd is not running.
    if (spnav_open() == -1) return "spacenavd not running (start it and plug in the SpaceMouse; retrying every 2 s)";
    open_ = true;
    return "";
  }
  int Next(SpnavEvent* event) override {
    if (!open_) return -1;
    pollfd p{spnav_fd(), POLLIN, 0};
    if (p.fd < 0 || (::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0)) return -1;
    spnav_event e;
    const int type = spnav_poll_event(&e);
    if (type == SPNAV_EVENT_MOTION) {
      *event = SpnavEvent{SpnavEvent::kMotion, e.motion.x, e.motion.y, e.motion.z,
                          e.motion.rx, e.motion.ry, e.motion.rz, 0, 0};
      return 1;
    }
    if (type == SPNAV_EVENT_BUTTON) {
      *event = SpnavEvent{SpnavEvent::kButton, 0, 0, 0, 0, 0, 0, e.button.press, e.button.bnum};
      return 1;
    }
    return type == 0 ? 0 : Next(event);  // Another kind of event (device, config): skip it.
  }
  void Close() override {
    if (open_) spnav_close();
    open_ = false;
  }

 private:
  bool open_ = false;
};
#else
class MissingSpnavSource final : public SpnavSource {
 public:
  std::string Open() override { return "built without libspnav (install libspnav-dev and rebuild)"; }
  int Next(SpnavEvent*) override { return -1; }
  void Close() override {}
};
#endif

}  // namespace

std::unique_ptr<SpnavSource> MakeLibspnavSource() {
#ifdef STICTION_HAVE_SPNAV
  return std::make_unique<LibspnavSource>();
#else
  return std::make_unique<MissingSpnavSource>();
#endif
}

}  // namespace stiction::app
