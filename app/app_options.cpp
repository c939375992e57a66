#include "app/app_options.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>

#include "engine/common/text.h"

namespace stiction::app {
namespace {

// The whole of `s` as an int (engine/common/text.h reads it); false if it
// is not one.
bool ParseInt(const std::string& s, int* out) {
  const std::optional<std::int64_t> v = ParseInteger(s);
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max()) return false;
  *out = static_cast<int>(*v);
  return true;
}

// The whole of `s` as a finite double; false otherwise.
bool ParseFinite(const std::string& s, double* out) {
  const std::optional<double> v = ParseDouble(s);
  if (!v || !std::isfinite(*v)) return false;
  *out = *v;
  return true;
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
         "  --dataset-images FILE    render every demo's states of this HDF5 dataset into its\n"
         "                           obs/agentview_image at --size (default 84x84), then exit\n"
         "  --demo N                 with --dataset-images: only data/demo_N\n"
         "  --no-vsync               do not wait for vertical sync\n"
         "  --no-timeline            do not keep every step's state (the timeline: Left/Right, the scrubber)\n"
         "  --replay FILE            replay this gripper command file (default: the scene's own)\n"
         "  --set KEY=VALUE          override a parameter of the scene, as stiction-sim --set (repeatable;\n"
         "                           kept on reload, not applied to scenes opened later)\n"
         "  --overlay LIST           burned into videos: comma-separated time, scene, caption, plot=NAME\n"
         "                           (NAME: grip_force, slip_speed, kinetic_energy, contacts), or none\n"
         "                           (default: time,scene)\n"
         "  --caption TEXT           a caption line burned into videos (shown unless --overlay leaves out caption)\n"
         "  --no-panels              start with both panel columns hidden (Tab, Shift+Tab show them)\n"
         "  --no-settings            neither read nor write the remembered window and panel layout,\n"
         "                           nor read the key map (input.ini beside viewer.ini; docs/teleop.md)\n"
         "  -h, --help               this text\n";
}

namespace {

// The arguments, read one at a time; `i` is the one being parsed.
struct ArgReader {
  const std::vector<std::string>& args;
  size_t i = 0;
  /// The next argument as the current option's value; false at the end.
  bool Value(std::string* v) {
    if (i + 1 >= args.size()) return false;
    *v = args[++i];
    return true;
  }
};

// An option without a value: sets its field; false if `a` is none.
bool ParseFlag(const std::string& a, AppOptions* o) {
  struct Flag {
    const char* name;
    bool AppOptions::*field;
    bool value;
  };
  static constexpr Flag kFlags[] = {
      {"--screenshot-window", &AppOptions::screenshot_window, true}, {"--no-panels", &AppOptions::panels, false},
      {"--no-settings", &AppOptions::no_settings, true},             {"--paused", &AppOptions::paused, true},
      {"--unlimited", &AppOptions::unlimited, true},                 {"--headless", &AppOptions::headless, true},
      {"--no-vsync", &AppOptions::vsync, false},                     {"--no-timeline", &AppOptions::timeline, false},
  };
  for (const Flag& f : kFlags) {
    if (a != f.name) continue;
    o->*f.field = f.value;
    return true;
  }
  return false;
}

// An option whose value is a text (a path, a caption): false if `a` is
// none; *error says why a value is missing.
bool ParseTextOption(const std::string& a, ArgReader* r, AppOptions* o, std::string* error) {
  struct TextOption {
    const char* name;
    std::string* field;
    const char* missing;
  };
  const TextOption options[] = {
      {"--shaders", &o->shader_dir, "--shaders needs a directory"},
      {"--caption", &o->overlay.caption, "--caption needs a text"},
      {"--screenshot", &o->screenshot_path, "--screenshot needs a file name"},
      {"--screenshot-dir", &o->screenshot_dir, "--screenshot-dir needs a directory"},
      {"--replay", &o->replay_path, "--replay needs a command file"},
      {"--record", &o->record_path, "--record needs a file name"},
      {"--dataset-images", &o->dataset_images_path, "--dataset-images needs an HDF5 dataset file"},
  };
  for (const TextOption& t : options) {
    if (a != t.name) continue;
    // A video needs a file name: --record "" is as good as none.
    if (!r->Value(t.field) || (t.field == &o->record_path && t.field->empty())) *error = t.missing;
    return true;
  }
  return false;
}

// --size WxH, within [16, 16384] each.
std::string ParseSize(ArgReader* r, AppOptions* o) {
  std::string v;
  if (!r->Value(&v)) return "--size needs WxH";
  const size_t x = v.find('x');
  if (x == std::string::npos || !ParseInt(v.substr(0, x), &o->width) || !ParseInt(v.substr(x + 1), &o->height) ||
      o->width < 16 || o->height < 16 || o->width > 16384 || o->height > 16384) {
    return "--size: expected WxH with 16 <= W, H <= 16384, got '" + v + "'";
  }
  o->size_given = true;
  return "";
}

// An option whose value is a number (or a list, --overlay) with its range:
// false if `a` is none; *error says what is wrong with the value.
bool ParseValueOption(const std::string& a, ArgReader* r, AppOptions* o, std::string* error) {
  std::string v;
  if (a == "--size") {
    *error = ParseSize(r, o);
  } else if (a == "--overlay") {
    if (!r->Value(&v)) {
      *error = "--overlay needs a list, e.g. time,scene,plot=grip_force or none";
    } else if (std::string why; !ParseOverlayList(v, &o->overlay, &why)) {
      *error = "--overlay: " + why;
    }
  } else if (a == "--rtf") {
    if (!r->Value(&v) || !ParseFinite(v, &o->real_time_factor) || o->real_time_factor < 0.01 ||
        o->real_time_factor > 100) {
      *error = "--rtf: expected a number in [0.01, 100]";
    }
  } else if (a == "--steps-per-frame") {
    if (!r->Value(&v) || !ParseInt(v, &o->steps_per_frame) || o->steps_per_frame < 1) {
      *error = "--steps-per-frame: expected a positive integer";
    }
  } else if (a == "--headless-frames") {
    if (!r->Value(&v) || !ParseInt(v, &o->headless_frames) || o->headless_frames < 1) {
      *error = "--headless-frames: expected a positive integer";
    }
  } else if (a == "--demo") {
    if (!r->Value(&v) || !ParseInt(v, &o->dataset_demo) || o->dataset_demo < 0) {
      *error = "--demo: expected a demo index >= 0";
    }
  } else if (a == "--fps") {
    if (!r->Value(&v) || !ParseFinite(v, &o->record_fps) || o->record_fps <= 0 || o->record_fps > 240) {
      *error = "--fps: expected a number in (0, 240]";
    }
  } else if (a == "--duration") {
    if (!r->Value(&v) || !ParseFinite(v, &o->duration) || o->duration <= 0) {
      *error = "--duration: expected a positive number of seconds";
    }
  } else {
    return false;
  }
  return true;
}

// What the options mean together: the combinations that make no sense, and
// a hidden window without vsync for the runs that show nothing. Returns the
// error ("" if none).
std::string CheckCombinations(AppOptions* o) {
  if (!o->screenshot_path.empty() && o->headless_frames == 0) return "--screenshot needs --headless-frames N";
  if (o->dataset_demo >= 0 && o->dataset_images_path.empty()) return "--demo needs --dataset-images FILE";
  if (!o->dataset_images_path.empty()) {
    if (o->headless || o->headless_frames > 0 || o->benchmark || !o->record_path.empty()) {
      return "--dataset-images cannot be combined with --headless, --headless-frames, --benchmark or --record";
    }
    if (!o->size_given) o->width = o->height = 84;  // robomimic's usual image size.
    o->visible = false;
    o->vsync = false;
  }
  if (o->headless) {
    if (o->record_path.empty()) return "--headless needs --record FILE.mp4";
    if (o->headless_frames > 0 || o->benchmark) {
      return "--headless cannot be combined with --headless-frames or --benchmark";
    }
    if (o->width % 2 != 0 || o->height % 2 != 0) {
      return "--size: a video needs even W and H (H.264 4:2:0), got " + std::to_string(o->width) + "x" +
             std::to_string(o->height);
    }
  } else if (o->duration > 0) {
    return "--duration needs --headless";
  }
  if (!o->record_path.empty() && (o->headless_frames > 0 || o->benchmark)) {
    return "--record cannot be combined with --headless-frames or --benchmark";
  }
  if (o->headless_frames > 0 || o->benchmark || o->headless) {
    o->visible = false;
    o->vsync = false;
  }
  return "";
}

// One argument: help, --benchmark [SECONDS], an option, or the scene file.
// Returns the error ("" if none).
std::string ParseArgument(ArgReader* r, ParsedOptions* out) {
  AppOptions& o = out->options;
  const std::string& a = r->args[r->i];
  std::string error;
  if (a == "-h" || a == "--help") {
    out->help = true;
  } else if (a == "--benchmark") {
    o.benchmark = true;
    if (r->i + 1 < r->args.size() && ParseFinite(r->args[r->i + 1], &o.benchmark_seconds)) ++r->i;
  } else if (a == "--set") {
    // Checked by the scene loader against the parameter tables (its error
    // names the key); here only the form.
    std::string assignment;
    if (!r->Value(&assignment) || assignment.find('=') == std::string::npos) return "--set needs KEY=VALUE";
    o.overrides.push_back(assignment);
  } else if (ParseFlag(a, &o) || ParseTextOption(a, r, &o, &error) || ParseValueOption(a, r, &o, &error)) {
    return error;
  } else if (!a.empty() && a[0] == '-') {
    return "unknown option '" + a + "'";
  } else if (o.scene_path.empty()) {
    o.scene_path = a;
  } else {
    return "more than one scene file given ('" + o.scene_path + "', '" + a + "')";
  }
  return "";
}

}  // namespace

AppOptions HiddenWindowOptions(AppOptions options) {
  options.visible = false;
  options.vsync = false;
  options.panels = false;
  return options;
}

ParsedOptions ParseAppOptions(const std::vector<std::string>& args) {
  ParsedOptions out;
  for (ArgReader reader{args}; reader.i < args.size(); ++reader.i) {
    out.error = ParseArgument(&reader, &out);
    if (!out.error.empty()) return out;
  }
  out.error = CheckCombinations(&out.options);
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
