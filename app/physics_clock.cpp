#include "app/physics_clock.h"

#include <algorithm>

namespace stiction::app {
namespace {
constexpr double kMaxFrameWall = 0.1;  // [s]
constexpr double kHistoryWall = 0.5;   // [s]
}  // namespace

void PhysicsClock::set_real_time_factor(double rtf) {
  rtf_ = std::clamp(rtf, kMinRealTimeFactor, kMaxRealTimeFactor);
}

void PhysicsClock::BeginFrame(double wall_dt) {
  frame_sim_s_ = 0;
  if (!unlimited_) debt_s_ += rtf_ * std::clamp(wall_dt, 0.0, kMaxFrameWall);
}

bool PhysicsClock::WantsStep(double dt) const {
  // Half a step of tolerance keeps the step count per frame steady when the
  // frame period is a multiple of δt/RTF.
  return unlimited_ || debt_s_ >= 0.5 * dt;
}

void PhysicsClock::OnStep(double dt) {
  frame_sim_s_ += dt;
  if (!unlimited_) debt_s_ -= dt;
}

void PhysicsClock::EndFrame(double wall_dt, double dt) {
  if (unlimited_) {
    debt_s_ = 0;
  } else {
    debt_s_ = std::clamp(debt_s_, -dt, dt);  // Behind: drop the rest.
  }
  history_.push_back({std::max(wall_dt, 0.0), frame_sim_s_});
  double wall = 0, sim = 0;
  for (const Sample& s : history_) {
    wall += s.wall;
    sim += s.sim;
  }
  while (history_.size() > 1 && wall - history_.front().wall >= kHistoryWall) {
    wall -= history_.front().wall;
    sim -= history_.front().sim;
    history_.pop_front();
  }
  achieved_rtf_ = wall > 0 ? sim / wall : 0;
}

void PhysicsClock::Restart() {
  debt_s_ = 0;
  frame_sim_s_ = 0;
  history_.clear();
  achieved_rtf_ = 0;
}

}  // namespace stiction::app
