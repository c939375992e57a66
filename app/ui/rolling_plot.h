#pragma once
// A fixed-capacity history of one quantity, oldest first, for ImGui::PlotLines.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace stiction::app {

class RollingPlot {
 public:
  explicit RollingPlot(size_t capacity = 600) : capacity_(capacity) {}
  void Push(float value) {
    if (values_.size() == capacity_) values_.erase(values_.begin());
    values_.push_back(value);
  }
  void Clear() { values_.clear(); }
  const std::vector<float>& values() const { return values_; }
  float last() const { return values_.empty() ? 0.0f : values_.back(); }
  float max() const { return values_.empty() ? 0.0f : *std::max_element(values_.begin(), values_.end()); }
  float min() const { return values_.empty() ? 0.0f : *std::min_element(values_.begin(), values_.end()); }

 private:
  size_t capacity_;
  std::vector<float> values_;
};

}  // namespace stiction::app
