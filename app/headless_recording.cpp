#include "app/headless_recording.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "app/app.h"
#include "app/record/termination_signals.h"
#include "cli/progress_bar.h"

namespace stiction::app {

namespace {

// A video frame could not be written (a full disk, ffmpeg failed): the
// recording stopped with the reason printed and the file keeps its complete
// fragments. The simulation itself runs on to --duration (`total` frames at
// o.record_fps from t0 [s]), then the run exits 1 saying the video is
// incomplete (docs/recording-faults.md). Returns the exit code.
int RunOnWithoutVideo(App& app, const AppOptions& o, double t0, std::int64_t total, cli::ProgressBar* progress) {
  const double total_s = static_cast<double>(total) / o.record_fps;
  const std::int64_t written = app.video().recorder().frames_written();
  for (std::int64_t k = written; k < total; ++k) {
    if (const int signal = TerminationSignal()) {
      progress->Clear();
      return app.FinishOnTerminationSignal(signal);
    }
    if (!app.StepUntil(t0 + static_cast<double>(k) / o.record_fps)) {
      progress->Clear();
      return 1;
    }
    progress->Update(app.simulation().time() - t0, total_s, app.physics().steps_taken());
  }
  progress->Clear();
  std::fprintf(stderr,
               "stiction: video incomplete: %lld of %lld frames went to the encoder before the failure; %s keeps "
               "them up to its last complete fragment; the simulation ran on to t = %.6g s\n",
               static_cast<long long>(written), static_cast<long long>(total), o.record_path.c_str(),
               app.simulation().time());
  return 1;
}

// Frame-synchronous recording of `total` frames from t0 [s]: the first frame
// is the initial state, each next one the first state that reaches its
// frame time. Returns the exit code when it ends early, nothing once every
// frame is written.
std::optional<int> RecordFrames(App& app, const AppOptions& o, double t0, std::int64_t total) {
  const double total_s = static_cast<double>(total) / o.record_fps;
  cli::ProgressBar progress(std::cerr, cli::StderrCanShowProgress(), STDERR_FILENO);
  while (app.video().recorder().frames_written() < total) {
    // SIGINT/SIGTERM: the video ends cleanly with the frames so far.
    if (const int signal = TerminationSignal()) {
      progress.Clear();
      return app.FinishOnTerminationSignal(signal);
    }
    if (!app.StepToNextVideoFrame()) {  // A failed step, already printed by PhysicsLoop::Step.
      progress.Clear();
      app.StopRecording();  // Keeps the frames written so far.
      return 1;
    }
    if (!app.CaptureVideoFrames(total - app.video().recorder().frames_written())) {
      return RunOnWithoutVideo(app, o, t0, total, &progress);
    }
    progress.Update(app.video().clock().video_seconds(), total_s, app.physics().steps_taken());
  }
  return std::nullopt;
}

}  // namespace

int RunHeadlessRecording(const AppOptions& options) {
  AppOptions o = HiddenWindowOptions(options);  // No UI: the camera frames the scene for the video's aspect.
  o.paused = false;
  App app(o);
  // A clean picture for papers and talks: none of the viewer's debug
  // overlays (its default shows contact points).
  app.ui().viz.contact_points = false;
  const double duration = o.duration > 0 ? o.duration : app.simulation().scene().duration;
  const std::int64_t total = std::llround(duration * o.record_fps);
  if (total < 1) {
    std::fprintf(stderr, "stiction: --duration %.6g s at %.6g fps is less than one frame\n", duration, o.record_fps);
    return 1;
  }
  const double t0 = app.simulation().time();
  // The video is exactly --size: render the scene at that size, whatever
  // size the (hidden) window got.
  if (!app.StartRecording(o.record_path, o.width, o.height)) return 1;  // Message printed.
  if (const std::optional<int> code = RecordFrames(app, o, t0, total)) return *code;
  if (!app.StopRecording()) return 1;  // Reported.
  std::printf("stiction: %s\n", app.ui().message.c_str());
  return 0;
}

}  // namespace stiction::app
