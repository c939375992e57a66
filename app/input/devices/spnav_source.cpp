#include "app/input/devices/spnav_source.h"

#include <string>

#ifdef STICTION_HAVE_SPNAV
#include <poll.h>
#include <spnav.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>
#endif

namespace stiction::app {
namespace {

#ifdef STICTION_HAVE_SPNAV
constexpr const char* kNoDaemon = "spacenavd not running (start it and plug in the SpaceMouse; retrying every 2 s)";

// Whether a spacenavd answers on a socket where libspnav looks for one:
// $SPNAV_SOCKET, /etc/spnavrc's `socket = PATH`, /var/run/spnav.sock.
// libspnav 1.0's spnav_open allocates its event queue before it tries them
// and does not free it when none answers, so calling it every 2 s without a
// daemon leaks (LeakSanitizer's finding); this asks first.
bool DaemonAnswers() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("SPNAV_SOCKET")) paths.emplace_back(env);
  std::ifstream rc("/etc/spnavrc");
  for (std::string line; std::getline(rc, line);) {
    const std::size_t key = line.find_first_not_of(" \t");
    if (key == std::string::npos || line.compare(key, 6, "socket") != 0) continue;
    const std::size_t eq = line.find('=', key);
    if (eq == std::string::npos) continue;
    const std::size_t begin = line.find_first_not_of(" \t", eq + 1);
    const std::size_t end = line.find_last_not_of(" \t\r");
    if (begin != std::string::npos && end >= begin) paths.push_back(line.substr(begin, end - begin + 1));
  }
  paths.emplace_back("/var/run/spnav.sock");
  for (const std::string& path : paths) {
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (s == -1) return false;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    const bool answers = ::connect(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
    ::close(s);
    if (answers) return true;
  }
  return false;
}

class LibspnavSource final : public SpnavSource {
 public:
  std::string Open() override {
    // The daemon's socket; -1 when spacenavd is not running.
    if (!DaemonAnswers() || spnav_open() == -1) return kNoDaemon;
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
