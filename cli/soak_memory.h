#pragma once
// Resident memory of this process, and the soak's "memory stays flat"
// invariant: RSS sampled once per second of wall time; after a warm-up the
// growth above the first post-warm-up sample must stay below a limit.
// docs/soak.md explains the limit.
#include <cstdint>
#include <optional>
#include <vector>

namespace stiction::cli {

/// Bytes per MiB, the unit of every memory figure the soak prints.
inline constexpr double kMiB = 1024.0 * 1024.0;

/// Resident set size of this process [bytes] from /proc/self/statm (second
/// field × page size); nullopt when it cannot be read (not Linux).
std::optional<std::int64_t> ResidentMemoryBytes();

/// RSS samples against wall time, with a warm-up that is not judged.
class ResidentMemoryMonitor {
 public:
  /// `growth_limit_bytes`: the largest growth allowed after the warm-up.
  explicit ResidentMemoryMonitor(double growth_limit_bytes) : growth_limit_bytes_(growth_limit_bytes) {}

  /// Records one sample taken at `wall_s` [s since the run started]. Samples
  /// while `warming_up` only set the start figure's predecessor; the first
  /// sample after the warm-up is the baseline the growth is measured from.
  void AddSample(double wall_s, std::int64_t rss_bytes, bool warming_up);

  /// True once a post-warm-up sample exceeded baseline + limit.
  bool exceeded() const { return exceeded_; }
  /// Baseline (first post-warm-up sample) and latest sample [bytes]; 0 if
  /// none yet.
  std::int64_t start_bytes() const { return baseline_ ? *baseline_ : 0; }
  std::int64_t end_bytes() const { return last_bytes_; }
  /// Largest post-warm-up sample minus the baseline [bytes].
  std::int64_t max_growth_bytes() const { return max_growth_; }
  /// Least-squares slope of the post-warm-up samples [bytes/s]; 0 with
  /// fewer than two.
  double slope_bytes_per_s() const;
  int num_samples() const { return static_cast<int>(times_.size()); }
  double growth_limit_bytes() const { return growth_limit_bytes_; }

 private:
  double growth_limit_bytes_;
  std::optional<std::int64_t> baseline_;
  std::int64_t last_bytes_ = 0;
  std::int64_t max_growth_ = 0;
  bool exceeded_ = false;
  // Post-warm-up samples (one per wall second: an hour is 3600 entries).
  std::vector<double> times_;
  std::vector<double> bytes_;
};

}  // namespace stiction::cli
