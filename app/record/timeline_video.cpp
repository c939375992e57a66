#include "app/record/timeline_video.h"

#include <cmath>

#include "engine/common/error.h"
#include "engine/common/text.h"

namespace stiction::app {

void TimelineVideo::Begin(const StateHistory& history, double t_from_s, double t_to_s) {
  if (history.size() < 2) {
    throw InputError("timeline video: the timeline holds no past to record yet (run the simulation first)");
  }
  const double first_s = history.time_at(0), last_s = history.time_at(history.size() - 1);
  const std::string held = "the timeline holds t = " + FormatNumber(first_s, 6) + " to " + FormatNumber(last_s, 6) + " s";
  if (!std::isfinite(t_from_s) || !std::isfinite(t_to_s) || t_to_s <= t_from_s) {
    throw InputError("timeline video: from " + FormatNumber(t_from_s, 6) + " s to " + FormatNumber(t_to_s, 6) +
                     " s is not a range (the end must come after the start); " + held);
  }
  // Half a step of slack: the times typed are those of states to within round-off.
  const double slack = 0.5 * (last_s - first_s) / (history.size() - 1);
  if (t_from_s < first_s - slack || t_to_s > last_s + slack) {
    throw InputError("timeline video: t = " + FormatNumber(t_from_s, 6) + " to " + FormatNumber(t_to_s, 6) +
                     " s is outside what is kept; " + held);
  }
  int first = 0;
  while (first < history.size() - 1 && history.time_at(first) < t_from_s - slack) ++first;
  int last = history.size() - 1;
  while (last > first && history.time_at(last) > t_to_s + slack) --last;
  if (last <= first) {
    throw InputError("timeline video: no two kept states between t = " + FormatNumber(t_from_s, 6) + " and " +
                     FormatNumber(t_to_s, 6) + " s");
  }
  first_ = first;
  next_ = first;
  last_ = last;
  start_s_ = history.time_at(first);
  end_s_ = history.time_at(last);
  shown_s_ = start_s_;
  return_index_ = history.cursor();
  active_ = true;
}

int TimelineVideo::Next(const StateHistory& history, const VideoFrameClock& clock) {
  if (!active_) return -1;
  while (next_ <= last_ && next_ < history.size() && clock.Due(history.time_at(next_)) == 0) ++next_;
  if (next_ > last_ || next_ >= history.size()) {
    active_ = false;
    return -1;
  }
  shown_s_ = history.time_at(next_);
  return next_++;
}

}  // namespace stiction::app
