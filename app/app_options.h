#pragma once
// Command-line options of `stiction` (docs/viewer.md lists them).
#include <string>
#include <vector>

#include "app/record/video_overlay_options.h"

namespace stiction::app {

struct AppOptions {
  std::string scene_path;       ///< Empty: the default demo scene.
  /// --set KEY=VALUE (repeatable): stiction-sim's overrides of the scene's
  /// parameters, applied to the scene given here (and its reloads), not to
  /// scenes opened later.
  std::vector<std::string> overrides;
  /// Non-empty: the scene is this YAML text (the Python module's scenes
  /// given as text), shown as "<string>" in place of a file name; its
  /// relative paths resolve from scene_base_dir. scene_path is then unused.
  std::string scene_text;
  std::string scene_base_dir = ".";
  std::string shader_dir;       ///< Empty: $STICTION_SHADERS or the source tree's shaders/.
  int width = 1280, height = 720;  ///< Window size [pixels].
  bool size_given = false;      ///< --size was given (else the remembered window size is used).
  /// The viewer settings file (viewer_settings.h): read at start, written
  /// when the viewer closes. "" = nothing remembered (tests, headless runs,
  /// the benchmark, --no-settings); main() sets DefaultViewerSettingsPath().
  std::string settings_path;
  bool no_settings = false;     ///< --no-settings.
  bool panels = true;           ///< false (--no-panels): start with both panel columns hidden.
  /// Video overlays (--overlay, --caption; the Recording section).
  VideoOverlayOptions overlay;
  int headless_frames = 0;      ///< > 0: hidden window, render this many frames, exit.
  std::string screenshot_path;  ///< With headless_frames: PNG written after the last frame.
  /// With screenshot_path: the whole window (panels included) rather than
  /// the scene image (--screenshot-window).
  bool screenshot_window = false;
  std::string screenshot_dir;   ///< Where Ctrl+P writes (default: current directory).
  bool paused = false;          ///< Start paused.
  /// Keep every step's state for the timeline (--no-timeline: off; the
  /// headless modes never keep it).
  bool timeline = true;
  int steps_per_frame = 0;      ///< > 0: exactly this many steps per frame (no clock).
  double real_time_factor = 1.0;
  bool unlimited = false;       ///< As fast as possible.
  bool visible = true;          ///< false with headless_frames or benchmark.
  bool vsync = true;
  bool sync_timing = false;     ///< glFinish after rendering so render time is measured.
  bool benchmark = false;       ///< Print frame-rate figures and exit.
  double benchmark_seconds = 5.0;
  /// Gripper command file to replay from t = 0 (--replay); "" = the scene's
  /// own `commands:` file, if any.
  std::string replay_path;
  /// --record: the video file. Interactive: recording starts with the first
  /// frame (V stops it). With headless: the video of the headless run.
  std::string record_path;
  double record_fps = 30.0;     ///< Video frames per simulated second, (0, 240].
  /// --headless: hidden window, step frame-synchronously, record
  /// `record_path` for `duration` simulated seconds, exit (docs/viewer.md).
  bool headless = false;
  double duration = 0;          ///< --duration [s] with --headless; 0: the scene's duration.
  /// --dataset-images FILE: render each demo's states into its
  /// obs/agentview_image at --size (default 84x84), then exit
  /// (docs/datasets.md).
  std::string dataset_images_path;
  int dataset_demo = -1;        ///< --demo N with --dataset-images; −1: every demo.
  /// The encoder program (tests hide it to exercise the PNG fallback).
  std::string ffmpeg_program = "ffmpeg";
};

struct ParsedOptions {
  AppOptions options;
  bool help = false;
  std::string error;  ///< Non-empty: a one-line usage error.
};

ParsedOptions ParseAppOptions(const std::vector<std::string>& args);
/// `options` for a run that shows nothing (the benchmark, headless
/// recording): a hidden window without vsync, no panels.
AppOptions HiddenWindowOptions(AppOptions options);
/// "time,scene,caption,plot=grip_force" or "none" into *out; false with
/// *error naming the bad item.
bool ParseOverlayList(const std::string& list, VideoOverlayOptions* out, std::string* error);
std::string AppUsage();

}  // namespace stiction::app
