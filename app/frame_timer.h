#pragma once
// Where a frame's wall time goes (the info overlay, the Simulation section's
// figures and the benchmark): the whole frame, its physics, rendering and
// video capture, and the smoothed frame rate.
#include <cstdint>

namespace stiction::app {

class FrameTimer {
 public:
  /// Starts a frame at wall time now_s [s]; returns the wall time since the
  /// previous frame started [s] (0 for the first frame).
  double BeginFrame(double now_s) {
    const double wall_dt = frames_ == 0 ? 0.0 : now_s - frame_start_;
    frame_start_ = now_s;
    return wall_dt;
  }
  /// Ends the frame begun last at wall time now_s [s].
  void EndFrame(double now_s, double wall_dt) {
    ++frames_;
    frame_ms_ = (now_s - frame_start_) * 1e3;
    if (wall_dt > 0) fps_ = fps_ == 0 ? 1.0 / wall_dt : 0.9 * fps_ + 0.1 / wall_dt;
  }
  void set_physics_ms(double ms) { physics_ms_ = ms; }
  void set_render_ms(double ms) { render_ms_ = ms; }
  void set_capture_ms(double ms) { capture_ms_ = ms; }

  std::int64_t frames() const { return frames_; }
  double frame_ms() const { return frame_ms_; }
  /// From the frame's start to the end of its physics [ms].
  double physics_ms() const { return physics_ms_; }
  /// Rendering the scene image [ms].
  double render_ms() const { return render_ms_; }
  /// Reading back and writing the video frames [ms].
  double capture_ms() const { return capture_ms_; }
  double fps() const { return fps_; }

 private:
  std::int64_t frames_ = 0;
  double frame_start_ = 0;  // [s]
  double frame_ms_ = 0, physics_ms_ = 0, render_ms_ = 0, capture_ms_ = 0, fps_ = 0;
};

}  // namespace stiction::app
