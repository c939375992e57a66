#include "app/benchmark.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/app.h"

namespace stiction::app {

std::string MakeClutterSceneYaml(int n) {
  std::ostringstream y;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double spacing = 0.25;
  y << "description: Benchmark clutter of " << n << " boxes and spheres.\n"
    << "time_step: 0.005\nintegrator: midpoint\n"
    << "world_geometry:\n  - name: ground\n    shape: {type: half_space}\n"
    << "    color: [0.55, 0.57, 0.6, 1]\n"
    << "bodies:\n";
  for (int i = 0; i < n; ++i) {
    const double x = (i % side - 0.5 * (side - 1)) * spacing;
    const double yy = (i / side - 0.5 * (side - 1)) * spacing;
    const double z = 0.15 + 0.1 * (i % 3);
    const double hue = static_cast<double>(i) / n;
    y << "  - name: body" << i << "\n    mass: 0.2\n"
      << "    color: [" << 0.3 + 0.6 * hue << ", " << 0.8 - 0.5 * hue << ", 0.4, 1]\n"
      << "    geometry:\n";
    if (i % 2 == 0) {
      y << "      - shape: {type: box, size: [0.1, 0.12, 0.08]}\n";
    } else {
      y << "      - shape: {type: sphere, radius: 0.06}\n";
    }
    y << "    pose: {position: [" << x << ", " << yy << ", " << z << "], rpy: [0.1, 0.2, " << 0.3 * i
      << "]}\n";
  }
  return y.str();
}

namespace {

// Runs of the real-time section: the scene alone, the same while recording
// (1280x720 video), and with the panel columns shown (the default layout: a
// smaller scene view).
enum class RealTimeRun { kPlain, kRecord, kPanels };

// Wall time of a real-time run and where its frames' time went.
struct RealTimeFigures {
  double wall = 0, frames = 0;                      // [s], count
  double render_ms = 0, physics_ms = 0, capture_ms = 0;  // Summed over the frames.
  double sim_seconds = 0;                           // Simulated [s].
};

// Frames for `seconds` of wall time after a warm-up (recording to
// video_file for kRecord); false if the recording could not start.
bool MeasureRealTime(App& app, RealTimeRun run, double seconds, const std::string& video_file, RealTimeFigures* f) {
  for (int i = 0; i < 10; ++i) app.Frame();  // Warm-up.
  if (run == RealTimeRun::kRecord && !app.StartRecording(video_file)) return false;
  const double t0 = glfwGetTime();
  const double sim0 = app.simulation().time();
  const std::int64_t f0 = app.frame_times().frames;
  while (glfwGetTime() - t0 < seconds) {
    app.Frame();
    f->render_ms += app.frame_times().render_ms;
    f->physics_ms += app.frame_times().physics_ms;
    f->capture_ms += app.frame_times().capture_ms;
  }
  f->wall = glfwGetTime() - t0;
  f->frames = static_cast<double>(app.frame_times().frames - f0);
  f->sim_seconds = app.simulation().time() - sim0;
  return true;
}

// Prints one run's line (with its header before the first run); for
// kRecord also the video's figures, then finishes the video. False if the
// video could not be finished.
bool PrintRealTime(App& app, const AppOptions& o, RealTimeRun run, const RealTimeFigures& f,
                   const std::string& video_file) {
  if (run == RealTimeRun::kPlain) {
    std::printf("OpenGL: %s\n", app.gl_renderer().c_str());
    std::printf("scene %s, %dx%d, real time:\n", o.scene_path.empty() ? STICTION_DEFAULT_SCENE : o.scene_path.c_str(),
                o.width, o.height);
  }
  char label[64] = "";
  if (run == RealTimeRun::kRecord) {
    std::snprintf(label, sizeof label, "recording %dx%d: ", app.video().width(), app.video().height());
  }
  if (run == RealTimeRun::kPanels) {
    const Rect view = app.layout().SceneViewRect();
    std::snprintf(label, sizeof label, "with the panels (scene view %.0fx%.0f): ", view.width, view.height);
  }
  std::printf("  %s%.1f frames/s, render %.2f ms/frame, physics %.2f ms/frame, achieved RTF %.3f\n", label,
              f.frames / f.wall, f.render_ms / f.frames, f.physics_ms / f.frames, f.sim_seconds / f.wall);
  if (run != RealTimeRun::kRecord) return true;
  const double video_frames = static_cast<double>(app.video().recorder().frames_written());
  std::printf("    %.0f video frames (%.1f per wall second), capture (read-back + pipe) %.2f ms per video frame\n",
              video_frames, video_frames / f.wall, f.capture_ms / std::max(video_frames, 1.0));
  if (!app.StopRecording()) return false;
  std::filesystem::remove(video_file);
  return true;
}

// 1. The demo (or the given scene) in real time: as many frames as the
//    machine gives, physics inside its per-frame budget; then the same while
//    recording a video (ffmpeg, 30 frames per simulated second), and with
//    the panels. False if the video failed.
bool BenchmarkRealTime(const AppOptions& base, double seconds) {
  const std::string video_file =
      (std::filesystem::temp_directory_path() / "stiction-benchmark-recording.mp4").string();
  for (const RealTimeRun run : {RealTimeRun::kPlain, RealTimeRun::kRecord, RealTimeRun::kPanels}) {
    AppOptions o = base;
    o.paused = false;
    o.panels = run == RealTimeRun::kPanels;
    App app(o);
    RealTimeFigures figures;
    if (!MeasureRealTime(app, run, seconds, video_file, &figures)) return false;
    if (!PrintRealTime(app, o, run, figures, video_file)) return false;
  }
  return true;
}

// Mean render time per frame [ms] over `frames` frames, after `warm_up`.
double MeanRenderMs(App& app, int warm_up, int frames) {
  for (int i = 0; i < warm_up; ++i) app.Frame();
  double render_ms = 0;
  for (int i = 0; i < frames; ++i) {
    app.Frame();
    render_ms += app.frame_times().render_ms;
  }
  return render_ms / frames;
}

// 2. What each rendering feature costs, on the same scene, paused (the
//    shadow map is then rendered once and reused: its per-frame cost is the
//    lookups; section 1 pays for re-rendering it as bodies move).
void BenchmarkRenderFeatures(const AppOptions& base) {
  AppOptions o = base;
  o.paused = true;
  App app(o);
  const Antialiasing automatic = AutoAntialiasing(IsSoftwareRenderer(app.gl_renderer()));
  std::printf("render time per frame by feature (paused; antialiasing auto = %s on this renderer):\n",
              AntialiasingName(automatic));
  struct Variant {
    std::string name;
    bool shadows;
    Antialiasing aa;
    bool grid;
  };
  const std::string auto_name = std::string("auto = ") + AntialiasingName(automatic);
  std::vector<Variant> variants;
  for (const Antialiasing aa : {Antialiasing::kOff, Antialiasing::kFxaa, Antialiasing::kMsaa2, Antialiasing::kMsaa4}) {
    variants.push_back({std::string("shadows, grid, AA ") + AntialiasingName(aa), true, aa, true});
  }
  variants.push_back({"no shadows (grid, " + auto_name + ")", false, Antialiasing::kAuto, true});
  variants.push_back({"no grid (shadows, " + auto_name + ")", true, Antialiasing::kAuto, false});
  variants.push_back({"all off (no shadows, grid, AA)", false, Antialiasing::kOff, false});
  for (const Variant& v : variants) {
    RenderOptions& r = app.ui().viz.render;
    r.shadows = v.shadows;
    r.antialiasing = v.aa;
    r.grid = v.grid;
    std::printf("  %-40s %.2f ms\n", v.name.c_str(), MeanRenderMs(app, 3, 20));
  }
}

// 3. Render time per frame against the number of bodies (paused: drawing only).
void BenchmarkBodyCount(const AppOptions& base) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::printf("render time per frame (paused, %dx%d, shadows, antialiasing auto):\n", base.width, base.height);
  for (int n : {40, 160, 640}) {
    const std::filesystem::path file = dir / ("stiction-benchmark-" + std::to_string(n) + ".yaml");
    {
      std::ofstream out(file);
      out << MakeClutterSceneYaml(n);
    }
    AppOptions o = base;
    o.scene_path = file.string();
    o.paused = true;
    App app(o);
    const int frames = 60;
    for (int i = 0; i < 5; ++i) app.Frame();
    const double t0 = glfwGetTime();
    const double render_ms = MeanRenderMs(app, 0, frames);
    const double wall = glfwGetTime() - t0;
    std::printf("  %4d bodies: render %.2f ms/frame, whole frame %.2f ms (%.1f frames/s)\n", n, render_ms,
                1e3 * wall / frames, frames / wall);
    std::filesystem::remove(file);
  }
}

}  // namespace

int RunBenchmark(const AppOptions& options) {
  // The scene fills the window: the figures are for width x height pixels of scene.
  AppOptions base = HiddenWindowOptions(options);
  base.sync_timing = true;
  base.headless_frames = 0;
  const double seconds = options.benchmark_seconds > 0 ? options.benchmark_seconds : 5.0;
  if (!BenchmarkRealTime(base, seconds)) return 1;
  BenchmarkRenderFeatures(base);
  BenchmarkBodyCount(base);
  return 0;
}

}  // namespace stiction::app
