#include "app/ui/timeline_plots.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stiction::app {
namespace {

constexpr float kNone = std::numeric_limits<float>::quiet_NaN();

// The largest of a bin's values, NaN when it has none.
void Merge(float value, float* bin) {
  if (std::isnan(value)) return;
  *bin = std::isnan(*bin) ? value : std::max(*bin, value);
}

}  // namespace

std::vector<float> GraspPlotSamples(const GraspReadout& readout) {
  std::vector<float> samples;
  samples.reserve(readout.fingers.size() * kSamplesPerFinger);
  for (const FingerReadout& f : readout.fingers) {
    samples.push_back(static_cast<float>(f.normal_force));
    samples.push_back(static_cast<float>(f.friction_utilisation));
    samples.push_back(static_cast<float>(f.slip_speed * 1e6));
  }
  return samples;
}

bool BranchPlot::has_previous() const {
  return std::any_of(previous.begin(), previous.end(), [](float v) { return !std::isnan(v); });
}

float BranchPlot::max() const {
  float m = 0;
  for (const std::vector<float>* line : {&current, &previous}) {
    for (float v : *line) {
      if (!std::isnan(v)) m = std::max(m, v);
    }
  }
  return m;
}

float BranchPlot::last() const {
  for (auto it = current.rbegin(); it != current.rend(); ++it) {
    if (!std::isnan(*it)) return *it;
  }
  return 0;
}

std::vector<BranchPlot> TimelineGraspPlots(const StateHistory& history, double window_s, int points) {
  const int last = history.cursor();
  if (history.size() < 2 || last < 0 || points < 2) return {};
  const double t_end = history.time_at(last);
  int first = last;
  while (first > 0 && history.time_at(first - 1) >= t_end - window_s) --first;
  std::size_t num_samples = 0;
  for (int i = first; i <= last; ++i) num_samples = std::max(num_samples, history.samples_at(i).size());
  if (num_samples == 0 || first == last) return {};

  const int count = last - first + 1;
  const int bins = std::min(points, count);
  std::vector<BranchPlot> plots(num_samples);
  for (BranchPlot& p : plots) {
    p.current.assign(static_cast<std::size_t>(bins), kNone);
    p.previous.assign(static_cast<std::size_t>(bins), kNone);
  }
  for (int i = first; i <= last; ++i) {
    const auto bin = static_cast<std::size_t>(static_cast<long long>(i - first) * bins / count);
    const std::vector<float>& now = history.samples_at(i);
    const std::vector<float>* before = history.PreviousBranchSamplesAt(history.step_at(i));
    for (std::size_t k = 0; k < num_samples; ++k) {
      if (k < now.size()) Merge(now[k], &plots[k].current[bin]);
      if (before != nullptr && k < before->size()) Merge((*before)[k], &plots[k].previous[bin]);
    }
  }
  return plots;
}

}  // namespace stiction::app
