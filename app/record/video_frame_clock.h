#pragma once
// When a video frame is due, in *simulated* time: frame k of a recording that
// started at simulated time t0 shows the first state whose time reaches
// t0 + k / fps (to within a round-off tolerance). The video's frame rate is
// therefore a property of simulated time, not of how fast the machine
// renders: 1 s of simulation is always fps frames.
//
// When one physics step is longer than 1/fps, a single state crosses several
// frame times: it is due that many times (the video repeats the frame, since
// no state exists in between), so no frame time is ever skipped.
#include <cstdint>

namespace stiction::app {

class VideoFrameClock {
 public:
  /// fps: frames per simulated second, > 0.
  explicit VideoFrameClock(double fps = 30.0);

  /// Frame 0 is due at simulated time t0_s [s].
  void Start(double t0_s);
  /// The simulation jumped (reset, a scene load) to t_s [s]: the next frame
  /// is due at once, and frame times continue from there.
  void Restart(double t_s);

  /// How many frames are due once simulated time has reached t_s [s]:
  /// frame times ≤ t_s (within a tolerance) not yet marked emitted.
  std::int64_t Due(double t_s) const;
  /// Marks `count` frames as written.
  void Emitted(std::int64_t count) { emitted_total_ += count; since_restart_ += count; }

  /// Simulated time at which the next frame is due [s].
  double NextFrameTime() const;
  /// Frames marked emitted since Start.
  std::int64_t frames() const { return emitted_total_; }
  /// Simulated time the video covers so far: frames / fps [s].
  double video_seconds() const { return static_cast<double>(emitted_total_) / fps_; }
  double fps() const { return fps_; }

 private:
  double fps_;
  double origin_s_ = 0;             // Time of frame 0 since the last (re)start [s].
  std::int64_t since_restart_ = 0;  // Frames emitted since that origin.
  std::int64_t emitted_total_ = 0;
};

}  // namespace stiction::app
