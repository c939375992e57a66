#pragma once
// A video recording in the viewer (V, the Record button, --record): the
// recorder (ffmpeg or the PNG fallback), the clock that says when a frame is
// due in simulated time, and the overlays burned into each frame with their
// plot's history. Frames are due at fixed simulated times; the App stops a
// frame's physics at the first state that reaches the next one and writes
// that state's scene image (frame-synchronous stepping, app/app.h).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/record/video_frame_clock.h"
#include "app/record/video_recorder.h"
#include "app/render/renderer.h"
#include "app/snapshot.h"
#include "app/ui/rolling_plot.h"
#include "app/ui/ui_state.h"
#include "engine/control/grasp_readout.h"

namespace stiction::app {

/// The values an overlay plot gets for one video frame: one (series name,
/// value) per series.
using OverlaySample = std::vector<std::pair<std::string, double>>;

/// What the overlay plot named `plot` samples now: per finger for the grasp
/// plots, else one series; empty for no plot.
OverlaySample SampleOverlayPlot(const std::string& plot, const GraspReadout& readout, const Snapshot& snapshot);

class VideoSession {
 public:
  /// `ui` (the overlay options and the status line) and `renderer` (its
  /// resolved image takes the overlays) outlive the session. A recording
  /// started without a path goes to `default_dir`; `ffmpeg` is the encoder.
  VideoSession(UiState& ui, const Renderer& renderer, std::string default_dir, std::string ffmpeg);
  VideoSession(const VideoSession&) = delete;
  VideoSession& operator=(const VideoSession&) = delete;

  bool recording() const { return video_.is_open(); }
  const VideoRecorder& recorder() const { return video_; }
  const VideoFrameClock& clock() const { return clock_; }
  /// The frame size of the recording [pixels].
  int width() const { return video_.width(); }
  int height() const { return video_.height(); }

  /// Starts recording (when not recording) to `path` (empty:
  /// stiction-YYYYMMDD-HHMMSS.mp4 in the default directory) at width x height
  /// pixels, rounded down to even, at ui.video_fps frames per simulated
  /// second; the first frame is due at sim_time_s [s]. Shows (and, on a
  /// failure or the PNG fallback, prints) the outcome; false if it could not start.
  bool Start(const std::string& path, int width, int height, double sim_time_s);
  /// Finishes the file; false (with the message shown and printed to
  /// stderr) if frames were lost or ffmpeg failed.
  bool Stop();
  /// The simulation jumped (a reset, a scene load) to t_s [s]: the video
  /// goes on from there.
  void Restart(double t_s) { clock_.Restart(t_s); }
  /// True while recording and a video frame is due at simulated time t_s [s].
  bool FrameDue(double t_s) const { return recording() && clock_.Due(t_s) > 0; }
  /// Writes the frames due at t_s [s], at most max_frames, from `rgb` (the
  /// scene image just rendered). False (recording stopped, reported) when a
  /// frame could not be written.
  bool WriteDueFrames(const std::vector<std::uint8_t>& rgb, int width, int height, double t_s,
                      std::int64_t max_frames);
  /// Burns the overlays (ui.overlay) into the scene image just rendered
  /// (width x height) with `font`: the simulated time t_s [s], the scene
  /// file's name, and the plot, which takes `sample` when a frame is due.
  void DrawOverlay(double t_s, const std::string& scene_path, const OverlaySample& sample, ImFont* font, int width,
                   int height);

 private:
  UiState& ui_;
  const Renderer& renderer_;
  std::string default_dir_, ffmpeg_;
  VideoRecorder video_;
  VideoFrameClock clock_;
  std::vector<RollingPlot> overlay_series_;  // The overlay plot's history, one sample per video frame.
  std::string overlay_plot_;                 // Which plot overlay_series_ holds.
};

}  // namespace stiction::app
