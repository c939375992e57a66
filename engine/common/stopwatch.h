#pragma once
// Wall-clock timing of a stage, kept at the stage's boundary so that the
// maths inside does not mix with it.
#include <chrono>

namespace stiction {

/// Seconds elapsed since `start` on the steady clock.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Adds the seconds between its construction and its destruction to *total.
class ScopedTimer {
 public:
  explicit ScopedTimer(double* total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() { *total_ += SecondsSince(start_); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double* total_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace stiction
