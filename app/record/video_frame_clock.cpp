#include "app/record/video_frame_clock.h"

#include <cmath>

namespace stiction::app {
namespace {
// Frame times are origin + k / fps, computed by multiplication (no
// accumulated sum); a state whose time is within this fraction of a frame
// period below a frame time counts as reaching it (t = n·δt in floating point
// lands a few ulps either side of k / fps).
constexpr double kTolerancePeriods = 1e-6;
}  // namespace

VideoFrameClock::VideoFrameClock(double fps) : fps_(fps > 0 ? fps : 30.0) {}

void VideoFrameClock::Start(double t0_s) {
  origin_s_ = t0_s;
  since_restart_ = 0;
  emitted_total_ = 0;
}

void VideoFrameClock::Restart(double t_s) {
  origin_s_ = t_s;
  since_restart_ = 0;
}

std::int64_t VideoFrameClock::Due(double t_s) const {
  const double periods = (t_s - origin_s_) * fps_ + kTolerancePeriods;
  if (periods < 0) return 0;
  const std::int64_t reached = static_cast<std::int64_t>(std::floor(periods)) + 1;  // Frames 0 .. floor.
  return reached > since_restart_ ? reached - since_restart_ : 0;
}

double VideoFrameClock::NextFrameTime() const { return origin_s_ + static_cast<double>(since_restart_) / fps_; }

}  // namespace stiction::app
