#include "app/record/video_session.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/record/screenshot.h"
#include "app/record/video_overlay.h"
#include "app/ui/status_line.h"
#include "engine/common/text.h"

namespace stiction::app {

OverlaySample SampleOverlayPlot(const std::string& plot, const GraspReadout& readout, const Snapshot& snapshot) {
  OverlaySample sample;
  if (plot == "grip_force" || plot == "slip_speed") {
    for (const FingerReadout& f : readout.fingers) {
      sample.emplace_back(f.name, plot == "grip_force" ? f.normal_force : f.slip_speed * 1e6);
    }
  } else if (plot == "kinetic_energy") {
    sample.emplace_back("E", snapshot.kinetic_energy);
  } else if (plot == "contacts") {
    sample.emplace_back("n", static_cast<double>(snapshot.contacts.size()));
  }
  return sample;
}

VideoSession::VideoSession(UiState& ui, const Renderer& renderer, std::string default_dir, std::string ffmpeg)
    : ui_(ui), renderer_(renderer), default_dir_(std::move(default_dir)), ffmpeg_(std::move(ffmpeg)) {}

bool VideoSession::Start(const std::string& path, int width, int height, double sim_time_s) {
  overlay_series_.clear();  // The overlay plot starts with the video.
  overlay_plot_.clear();
  VideoOptions vo;
  vo.path = path.empty() ? TimestampedVideoPath(default_dir_) : path;
  vo.width = width;
  vo.height = height;
  vo.fps = ui_.video_fps;
  vo.ffmpeg = ffmpeg_;
  if (!video_.Open(vo)) {
    ReportError(&ui_, video_.error());
    return false;
  }
  clock_ = VideoFrameClock(vo.fps);
  clock_.Start(sim_time_s);
  if (!video_.notice().empty()) {
    ReportError(&ui_, video_.notice());  // ffmpeg missing: PNGs instead, said loudly.
  } else {
    ui_.Info("recording " + video_.output_path() +
             StringPrintf(" (%dx%d, %.4g fps of simulated time)", video_.width(), video_.height(), vo.fps));
  }
  return true;
}

bool VideoSession::Stop() {
  if (!recording()) return true;
  const std::string path = video_.output_path();
  const bool png = video_.sink() == VideoSink::kPngSequence;
  const std::int64_t frames = video_.frames_written();
  const std::int64_t failed = video_.frames_failed();
  const std::string frame_error = failed > 0 ? video_.error() : std::string();
  const double seconds = clock_.video_seconds();
  const bool ok = video_.Close();
  const std::string text =
      StringPrintf("%lld frames, %.3f s of simulated time", static_cast<long long>(frames), seconds);
  if (!ok) {
    // One line: the first lost frame and ffmpeg's verdict if it adds to
    // that, then how far the recording got (frames handed to ffmpeg before
    // it failed may not be in a file at all: ffmpeg's status says).
    std::string line = failed > 0 ? frame_error : video_.error();
    if (failed > 0 && video_.error() != frame_error) line += "; " + video_.error();
    ReportError(&ui_, line + " (recording stopped after " + text + ")");
    return false;
  }
  ui_.Info((png ? "PNG sequence saved to " : "video saved to ") + path + " (" + text + ")");
  return true;
}

bool VideoSession::WriteDueFrames(const std::vector<std::uint8_t>& rgb, int width, int height, double t_s,
                                  std::int64_t max_frames) {
  const std::int64_t due = std::min(clock_.Due(t_s), max_frames);
  for (std::int64_t i = 0; i < due; ++i) {
    // More than one only when a step is longer than 1/fps: the same state
    // stands for each frame time it crossed.
    if (!video_.AddFrame(rgb.data(), width, height)) {
      Stop();  // Reports the lost frame (UI and stderr) and finalizes what was written.
      return false;
    }
    clock_.Emitted(1);
  }
  return true;
}

void VideoSession::DrawOverlay(double t_s, const std::string& scene_path, const OverlaySample& sample,
                               ImFont* font, int width, int height) {
  const VideoOverlayOptions& o = ui_.overlay;
  VideoOverlayContent c;
  c.sim_time = t_s;
  c.scene_name = std::filesystem::path(scene_path).filename().string();
  if (o.plot != overlay_plot_ || overlay_series_.size() != sample.size()) {
    overlay_plot_ = o.plot;
    overlay_series_.assign(sample.size(), RollingPlot(kOverlayPlotSamples));
  }
  if (FrameDue(t_s)) {
    for (size_t i = 0; i < sample.size(); ++i) overlay_series_[i].Push(static_cast<float>(sample[i].second));
  }
  for (size_t i = 0; i < sample.size(); ++i) {
    c.series.push_back(&overlay_series_[i]);
    c.series_names.push_back(sample[i].first);
  }
  for (const OverlayPlotInfo& p : kOverlayPlots) {
    if (p.name == o.plot) c.legend = std::string(p.legend);
  }
  renderer_.BindResolvedFramebuffer();
  DrawVideoOverlay(o, c, font, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace stiction::app
