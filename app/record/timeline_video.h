#pragma once
// A video of a past stretch of the timeline, made after the fact (issue 38;
// docs/viewer.md, "Timeline"): the states the timeline kept between two
// times are shown one per viewer frame, each when a video frame is due at
// its simulated time, so the video has the fixed simulated frame rate of a
// live recording (VideoFrameClock) without anything being stepped again.
// With the previous branch's ghost on, the video shows both branches. When
// it ends (or is cancelled) the simulation is back at the state it was at.
#include <string>

#include "app/record/video_frame_clock.h"
#include "engine/control/state_history.h"

namespace stiction::app {

class TimelineVideo {
 public:
  /// Chooses the kept states from t_from_s to t_to_s [s] and remembers the
  /// state the simulation is at. Throws InputError (nothing started) for an
  /// empty or reversed range, times not finite, or a range outside the one
  /// the history holds (the message gives that one).
  void Begin(const StateHistory& history, double t_from_s, double t_to_s);
  bool active() const { return active_; }
  /// The first state of the range: shown before the video starts.
  int first_index() const { return first_; }
  /// The time the video starts at [s]: its first frame is due then.
  double start_time() const { return start_s_; }
  double end_time() const { return end_s_; }
  /// The next state to show: the first one not shown yet at which `clock`
  /// has a frame due; −1 once past the range (the video is then finished).
  int Next(const StateHistory& history, const VideoFrameClock& clock);
  /// The state the simulation was at when it began (to return to).
  int return_index() const { return return_index_; }
  /// The simulated time shown last [s] (for the progress line).
  double shown_time() const { return shown_s_; }
  void End() { active_ = false; }

 private:
  bool active_ = false;
  int first_ = 0, next_ = 0, last_ = 0, return_index_ = -1;
  double start_s_ = 0, end_s_ = 0, shown_s_ = 0;
};

}  // namespace stiction::app
