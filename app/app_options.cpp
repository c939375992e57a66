#include "app/app_options.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace stiction::app {
namespace {

bool ParseInt(const std::string& s, int* out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool ParseDouble(const std::string& s, double* out) {
  try {
    size_t used = 0;
    *out = std::stod(s, &used);
    return used == s.size() && std::isfinite(*out);
  } catch (...) {
    return false;
  }
}

}  // namespace

std::string AppUsage() {
  return "usage: stiction [SCENE.yaml] [options]\n"
         "  --shaders DIR            GLSL sources (default: $STICTION_SHADERS, else the source tree's shaders/)\n"
         "  --size WxH               window size in pixels (default 1280x720)\n"
         "  --paused                 start paused\n"
         "  --rtf X                  real-time factor in [0.01, 100] (default 1)\n"
         "  --unlimited              simulate as fast as possible\n"
         "  --steps-per-frame K      exactly K physics steps per frame instead of the real-time clock\n"
         "  --headless-frames N      hidden window: render N frames, then exit\n"
         "  --screenshot FILE.png    with --headless-frames: save the last frame\n"
         "  --screenshot-window      with --screenshot: the whole window, panels included\n"
         "  --screenshot-dir DIR     where Ctrl+P writes PNGs (default: current directory)\n"
         "  --benchmark [SECONDS]    print frame-rate figures (hidden window) and exit\n"
         "  --record FILE.mp4        record a video (H.264 via ffmpeg; a PNG sequence without ffmpeg);\n"
         "                           without --headless recording starts at once and V stops it\n"
         "  --fps N                  video frames per simulated second, 0 < N <= 240 (default 30)\n"
         "  --headless               no visible window: run SCENE for --duration simulated seconds,\n"
         "                           record --record FILE, then exit (--size sets the video size)\n"
         "  --duration S             with --headless: simulated seconds to record (default: the scene's duration)\n"
         "  --no-vsync               do not wait for vertical sync\n"
         "  --replay FILE            replay this gripper command file (default: the scene's own)\n"
         "  --overlay LIST           burned into videos: comma-separated time, scene, caption, plot=NAME\n"
         "                           (NAME: grip_force, slip_speed, kinetic_energy, contacts), or none\n"
         "                           (default: time,scene)\n"
         "  --caption TEXT           a caption line burned into videos (shown unless --overlay leaves out caption)\n"
         "  --no-panels              start with both panel columns hidden (Tab, Shift+Tab show them)\n"
         "  --no-settings            neither read nor write the remembered window and panel layout\n"
         "  -h, --help               this text\n";
}

ParsedOptions ParseAppOptions(const std::vector<std::string>& args) {
  ParsedOptions out;
  AppOptions& o = out.options;
  auto fail = [&](std::string message) {
    out.error = std::move(message);
    return out;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    std::string v;
    if (a == "-h" || a == "--help") {
      out.help = true;
    } else if (a == "--shaders") {
      if (!value(&o.shader_dir)) return fail("--shaders needs a directory");
    } else if (a == "--size") {
      if (!value(&v)) return fail("--size needs WxH");
      const size_t x = v.find('x');
      if (x == std::string::npos || !ParseInt(v.substr(0, x), &o.width) || !ParseInt(v.substr(x + 1), &o.height) ||
          o.width < 16 || o.height < 16 || o.width > 16384 || o.height > 16384) {
        return fail("--size: expected WxH with 16 <= W, H <= 16384, got '" + v + "'");
      }
      o.size_given = true;
    } else if (a == "--screenshot-window") {
      o.screenshot_window = true;
    } else if (a == "--no-panels") {
      o.panels = false;
    } else if (a == "--no-settings") {
      o.no_settings = true;
    } else if (a == "--caption") {
      if (!value(&o.overlay.caption)) return fail("--caption needs a text");
    } else if (a == "--overlay") {
      if (!value(&v)) return fail("--overlay needs a list, e.g. time,scene,plot=grip_force or none");
      std::string error;
      if (!ParseOverlayList(v, &o.overlay, &error)) return fail("--overlay: " + error);
    } else if (a == "--paused") {
      o.paused = true;
    } else if (a == "--rtf") {
      if (!value(&v) || !ParseDouble(v, &o.real_time_factor) || o.real_time_factor < 0.01 ||
          o.real_time_factor > 100) {
        return fail("--rtf: expected a number in [0.01, 100]");
      }
    } else if (a == "--unlimited") {
      o.unlimited = true;
    } else if (a == "--steps-per-frame") {
      if (!value(&v) || !ParseInt(v, &o.steps_per_frame) || o.steps_per_frame < 1) {
        return fail("--steps-per-frame: expected a positive integer");
      }
    } else if (a == "--headless-frames") {
      if (!value(&v) || !ParseInt(v, &o.headless_frames) || o.headless_frames < 1) {
        return fail("--headless-frames: expected a positive integer");
      }
    } else if (a == "--screenshot") {
      if (!value(&o.screenshot_path)) return fail("--screenshot needs a file name");
    } else if (a == "--screenshot-dir") {
      if (!value(&o.screenshot_dir)) return fail("--screenshot-dir needs a directory");
    } else if (a == "--benchmark") {
      o.benchmark = true;
      if (i + 1 < args.size() && ParseDouble(args[i + 1], &o.benchmark_seconds)) ++i;
    } else if (a == "--replay") {
      if (!value(&o.replay_path)) return fail("--replay needs a command file");
    } else if (a == "--record") {
      if (!value(&o.record_path) || o.record_path.empty()) return fail("--record needs a file name");
    } else if (a == "--fps") {
      if (!value(&v) || !ParseDouble(v, &o.record_fps) || o.record_fps <= 0 || o.record_fps > 240) {
        return fail("--fps: expected a number in (0, 240]");
      }
    } else if (a == "--headless") {
      o.headless = true;
    } else if (a == "--duration") {
      if (!value(&v) || !ParseDouble(v, &o.duration) || o.duration <= 0) {
        return fail("--duration: expected a positive number of seconds");
      }
    } else if (a == "--no-vsync") {
      o.vsync = false;
    } else if (!a.empty() && a[0] == '-') {
      return fail("unknown option '" + a + "'");
    } else if (o.scene_path.empty()) {
      o.scene_path = a;
    } else {
      return fail("more than one scene file given ('" + o.scene_path + "', '" + a + "')");
    }
  }
  if (!o.screenshot_path.empty() && o.headless_frames == 0) {
    return fail("--screenshot needs --headless-frames N");
  }
  if (o.headless) {
    if (o.record_path.empty()) return fail("--headless needs --record FILE.mp4");
    if (o.headless_frames > 0 || o.benchmark) {
      return fail("--headless cannot be combined with --headless-frames or --benchmark");
    }
    if (o.width % 2 != 0 || o.height % 2 != 0) {
      return fail("--size: a video needs even W and H (H.264 4:2:0), got " + std::to_string(o.width) + "x" +
                  std::to_string(o.height));
    }
  } else if (o.duration > 0) {
    return fail("--duration needs --headless");
  }
  if (!o.record_path.empty() && (o.headless_frames > 0 || o.benchmark)) {
    return fail("--record cannot be combined with --headless-frames or --benchmark");
  }
  if (o.headless_frames > 0 || o.benchmark || o.headless) {
    o.visible = false;
    o.vsync = false;
  }
  return out;
}

}  // namespace stiction::app

namespace stiction::app {

bool ParseOverlayList(const std::string& list, VideoOverlayOptions* out, std::string* error) {
  VideoOverlayOptions o;
  o.time = o.scene_name = o.caption_on = false;
  o.caption = out->caption;
  if (list == "none") {
    *out = o;
    return true;
  }
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item == "time") {
      o.time = true;
    } else if (item == "scene") {
      o.scene_name = true;
    } else if (item == "caption") {
      o.caption_on = true;
    } else if (item.rfind("plot=", 0) == 0) {
      const std::string name = item.substr(5);
      bool known = false;
      for (const OverlayPlotInfo& p : kOverlayPlots) known |= p.name == name;
      if (!known) {
        *error = "unknown plot '" + name + "' (grip_force, slip_speed, kinetic_energy, contacts)";
        return false;
      }
      o.plot = name;
    } else {
      *error = "unknown item '" + item + "' (time, scene, caption, plot=NAME, or none)";
      return false;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  *out = o;
  return true;
}

}  // namespace stiction::app
