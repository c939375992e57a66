#pragma once
// Where a frame's wall time goes (the info overlay, the Simulation section's
// figures and the benchmark): the whole frame, its physics, rendering and
// video capture, and the smoothed frame rate.
#include <cstdint>

namespace stiction::app {

/// The last frame's figures.
struct FrameTimes {
  std::int64_t frames = 0;  ///< Frames completed.
  double frame_ms = 0;      ///< The whole frame [ms].
  double physics_ms = 0;    ///< From the frame's start to the end of its physics [ms].
  double render_ms = 0;     ///< Rendering the scene image [ms].
  double capture_ms = 0;    ///< Reading back and writing the video frames [ms].
  double fps = 0;           ///< Frames per second, smoothed.
};

class FrameTimer {
 public:
  /// Starts a frame at wall time now_s [s]; returns the wall time since the
  /// previous frame started [s] (0 for the first frame).
  double BeginFrame(double now_s) {
    const double wall_dt = times_.frames == 0 ? 0.0 : now_s - frame_start_;
    frame_start_ = now_s;
    return wall_dt;
  }
  /// Ends the frame begun last at wall time now_s [s].
  void EndFrame(double now_s, double wall_dt) {
    ++times_.frames;
    times_.frame_ms = (now_s - frame_start_) * 1e3;
    if (wall_dt > 0) times_.fps = times_.fps == 0 ? 1.0 / wall_dt : 0.9 * times_.fps + 0.1 / wall_dt;
  }
  void set_physics_ms(double ms) { times_.physics_ms = ms; }
  void set_render_ms(double ms) { times_.render_ms = ms; }
  void set_capture_ms(double ms) { times_.capture_ms = ms; }
  const FrameTimes& times() const { return times_; }

 private:
  double frame_start_ = 0;  // [s]
  FrameTimes times_;
};

}  // namespace stiction::app
