#include "cli/progress_bar.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/common/text.h"

namespace stiction::cli {
namespace {

constexpr int kDefaultWidth = 80;
constexpr int kMinBarWidth = 10;

// 950 -> "950", 12345 -> "12.3k", 2.5e6 -> "2.50M".
std::string FormatRate(double per_second) {
  if (!std::isfinite(per_second)) return "-";
  if (per_second < 1e3) return StringPrintf("%.0f", per_second);
  if (per_second < 1e6) return StringPrintf("%.1fk", per_second / 1e3);
  return StringPrintf("%.2fM", per_second / 1e6);
}

// Enough significant digits for the total to be readable at every scale.
std::string FormatSimTime(double t) { return StringPrintf(t < 10 ? "%.3f" : "%.2f", t); }

}  // namespace

std::string FormatEta(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const long long total = std::llround(seconds);
  const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
  return h > 0 ? StringPrintf("%lld:%02lld:%02lld", h, m, s) : StringPrintf("%lld:%02lld", m, s);
}

bool StderrCanShowProgress() {
  const char* term = std::getenv("TERM");
  return isatty(STDERR_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
}

std::string FormatProgressLine(const ProgressSample& p, int width) {
  const double fraction =
      p.total_sim_time_s > 0 ? std::clamp(p.sim_time_s / p.total_sim_time_s, 0.0, 1.0) : 1.0;
  const bool have_rate = p.wall_elapsed_s > 0;
  const double steps_per_s = have_rate ? static_cast<double>(p.steps) / p.wall_elapsed_s : NAN;
  const double rtf = have_rate ? p.sim_time_s / p.wall_elapsed_s : NAN;
  const double eta = (p.sim_time_s > 0 && have_rate)
                         ? (p.total_sim_time_s - p.sim_time_s) * p.wall_elapsed_s / p.sim_time_s
                         : NAN;

  // Fields in order of importance; the tail is dropped on narrow terminals.
  const std::vector<std::string> fields = {
      StringPrintf("%5.1f%%", 100.0 * fraction),
      "t " + FormatSimTime(p.sim_time_s) + "/" + FormatSimTime(p.total_sim_time_s) + " s",
      FormatRate(steps_per_s) + " steps/s",
      (std::isfinite(rtf) ? StringPrintf(rtf < 10 ? "%.2fx" : "%.0fx", rtf) : std::string("-")) +
          " real time",
      "ETA " + FormatEta(eta),
  };
  const std::size_t max_len = static_cast<std::size_t>(std::max(width - 1, 1));
  std::string text;
  for (const std::string& field : fields) {
    const std::string candidate = text.empty() ? field : text + "  " + field;
    if (candidate.size() > max_len) break;
    text = candidate;
  }
  if (text.empty()) text = fields.front().substr(0, max_len);

  // The bar takes what is left: "[" + cells + "]  " + text.
  const int bar_cells = static_cast<int>(max_len) - static_cast<int>(text.size()) - 4;
  if (bar_cells < kMinBarWidth) return text;
  const int cells = std::min(bar_cells, 40);
  const int filled = static_cast<int>(std::floor(fraction * cells));
  std::string line;
  line.reserve(static_cast<std::size_t>(cells) + 4 + text.size());
  line += '[';
  line.append(static_cast<std::size_t>(filled), '#');
  line.append(static_cast<std::size_t>(cells - filled), '-');
  line += "]  ";
  line += text;
  return line;
}

ProgressBar::ProgressBar(std::ostream& out, bool enabled, int terminal_fd,
                         double min_expected_wall_s, double redraw_interval_s)
    : out_(out),
      enabled_(enabled),
      terminal_fd_(terminal_fd),
      min_expected_wall_s_(min_expected_wall_s),
      redraw_interval_(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(redraw_interval_s))),
      start_(Clock::now()),
      next_tick_(start_ + redraw_interval_) {}

ProgressBar::~ProgressBar() { Clear(); }

void ProgressBar::Update(double sim_time_s, double total_sim_time_s, std::int64_t steps) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (now < next_tick_) return;
  next_tick_ = now + redraw_interval_;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (!active_) {
    // Estimate the whole run from the rate so far; re-checked every tick, so
    // a run that slows down later (contact begins) still gets a bar.
    if (sim_time_s <= 0) return;
    const double expected_total = elapsed * total_sim_time_s / sim_time_s;
    if (expected_total < min_expected_wall_s_) return;
    active_ = true;
  }
  const ProgressSample sample{sim_time_s, total_sim_time_s, steps, elapsed};
  out_ << '\r' << FormatProgressLine(sample, TerminalWidth()) << "\033[K" << std::flush;
  drawn_ = true;
}

void ProgressBar::Clear() {
  if (!drawn_) return;
  out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

int ProgressBar::TerminalWidth() const {
  if (terminal_fd_ < 0) return kDefaultWidth;
  winsize size{};
  if (ioctl(terminal_fd_, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return kDefaultWidth;
  return size.ws_col;
}

}  // namespace stiction::cli
