#include "cli/soak_memory.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace stiction::cli {

std::optional<std::int64_t> ResidentMemoryBytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t size_pages = 0, resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return std::nullopt;
  const long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return std::nullopt;
  return resident_pages * static_cast<std::int64_t>(page);
}

void ResidentMemoryMonitor::AddSample(double wall_s, std::int64_t rss_bytes, bool warming_up) {
  last_bytes_ = rss_bytes;
  if (warming_up) return;
  if (!baseline_) baseline_ = rss_bytes;
  max_growth_ = std::max(max_growth_, rss_bytes - *baseline_);
  if (static_cast<double>(rss_bytes - *baseline_) > growth_limit_bytes_) exceeded_ = true;
  times_.push_back(wall_s);
  bytes_.push_back(static_cast<double>(rss_bytes));
}

double ResidentMemoryMonitor::slope_bytes_per_s() const {
  const std::size_t n = times_.size();
  if (n < 2) return 0;
  double mean_t = 0, mean_b = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mean_t += times_[i];
    mean_b += bytes_[i];
  }
  mean_t /= static_cast<double>(n);
  mean_b /= static_cast<double>(n);
  double stt = 0, stb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    stt += (times_[i] - mean_t) * (times_[i] - mean_t);
    stb += (times_[i] - mean_t) * (bytes_[i] - mean_b);
  }
  return stt > 0 ? stb / stt : 0.0;
}

}  // namespace stiction::cli
