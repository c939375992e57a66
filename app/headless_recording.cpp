#include "app/headless_recording.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iostream>

#include "app/app.h"
#include "cli/progress_bar.h"

namespace stiction::app {

int RunHeadlessRecording(const AppOptions& options) {
  AppOptions o = options;
  o.visible = false;
  o.vsync = false;
  o.paused = false;
  o.panels = false;  // No UI: the camera frames the scene for the video's aspect.
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
  // The video is exactly --size: render the scene at that size, whatever
  // size the (hidden) window got.
  if (!app.StartRecording(o.record_path, o.width, o.height)) return 1;  // Message printed.

  const char* term = std::getenv("TERM");
  const bool tty = isatty(STDERR_FILENO) == 1 && !(term != nullptr && std::strcmp(term, "dumb") == 0);
  const double total_s = static_cast<double>(total) / o.record_fps;
  {
    cli::ProgressBar progress(std::cerr, tty, STDERR_FILENO);
    while (app.video().frames_written() < total) {
      // The first frame is the initial state; each next one the first state
      // that reaches its frame time. DoStep (inside) reports a failed step.
      if (!app.StepToNextVideoFrame()) {  // A failed step, already printed by DoStep.
        progress.Clear();
        app.StopRecording();  // Keeps the frames written so far.
        return 1;
      }
      if (!app.CaptureVideoFrames(total - app.video().frames_written())) {
        progress.Clear();
        return 1;  // Reported in one line (and the recording stopped).
      }
      progress.Update(app.video_clock().video_seconds(), total_s, app.steps_taken());
    }
  }
  if (!app.StopRecording()) return 1;  // Reported.
  std::printf("stiction: %s\n", app.ui().message.c_str());
  return 0;
}

}  // namespace stiction::app
