#pragma once
// A one-line progress bar for long headless runs, drawn on a terminal with
// carriage returns: percentage, sim time / total, steps/s, real-time factor,
// ETA. It draws only when enabled (a tty, not --quiet) and only once the run
// is expected to take longer than a threshold, at most ~10 times per second.
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace stiction::cli {

/// What one progress line shows.
struct ProgressSample {
  double sim_time_s = 0;        ///< Simulated time reached [s].
  double total_sim_time_s = 0;  ///< Simulated time the run will reach [s].
  std::int64_t steps = 0;       ///< Steps taken so far.
  double wall_elapsed_s = 0;    ///< Wall time since the run started [s].
};

/// The text of one progress line, at most `width` - 1 columns (so that the
/// cursor never wraps), e.g.
/// "[#######-------]  42.0%  t 2.10/5.00 s  1.2k steps/s  0.52x real time  ETA 0:04".
/// Drops the bar, then the trailing fields, when the terminal is narrow.
std::string FormatProgressLine(const ProgressSample& sample, int width);

/// Wall time as "M:SS" or "H:MM:SS" (rounded to whole seconds).
std::string FormatEta(double seconds);

/// Whether a bar may be drawn on stderr: it is a terminal and TERM is not
/// "dumb" (stiction-sim, stiction-soak, the viewer's headless recording).
bool StderrCanShowProgress();

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  /// `out` must outlive the bar. `terminal_fd` is queried for the width
  /// (TIOCGWINSZ); -1 or a failed query means 80 columns. When `enabled` is
  /// false nothing is ever written. The run's wall clock starts now.
  ProgressBar(std::ostream& out, bool enabled, int terminal_fd = -1,
              double min_expected_wall_s = 1.0, double redraw_interval_s = 0.1);
  /// Clears the line if still drawn.
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// Call after every step; cheap (one clock read) between redraws.
  void Update(double sim_time_s, double total_sim_time_s, std::int64_t steps);
  /// Erases the line (if drawn) so that other output starts at column 0.
  void Clear();

  /// True while a line is on screen.
  bool drawn() const { return drawn_; }
  /// True once the run was judged long enough to show the bar.
  bool active() const { return active_; }

 private:
  int TerminalWidth() const;

  std::ostream& out_;
  bool enabled_;
  int terminal_fd_;
  double min_expected_wall_s_;
  Clock::duration redraw_interval_;
  Clock::time_point start_;
  Clock::time_point next_tick_;
  bool active_ = false;
  bool drawn_ = false;
};

}  // namespace stiction::cli
