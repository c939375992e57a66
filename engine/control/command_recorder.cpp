#include "engine/control/command_recorder.h"

#include <utility>

namespace stiction {

void CommandRecorder::Start(const std::string& scene, double dt, std::vector<std::string> grippers) {
  log_ = CommandLog{};
  grippers_ = std::move(grippers);
  log_.scene = scene;
  log_.time_step = dt;
  dt_ = dt;
  recording_ = true;
}

void CommandRecorder::Record(const GripperCommand& command) {
  if (!recording_) return;
  CommandEntry e;
  e.step = command.step;
  e.target = command.target;
  e.ramp_s = static_cast<double>(command.ramp_steps) * dt_;
  e.grip = command.grip;
  e.grip_force = command.grip_force;
  if (grippers_.size() > 1 && command.gripper >= 0 && static_cast<size_t>(command.gripper) < grippers_.size()) {
    e.gripper = grippers_[static_cast<size_t>(command.gripper)];
  }
  if (!log_.entries.empty() && log_.entries.back().step == e.step && log_.entries.back().gripper == e.gripper &&
      !e.grip && !e.grip_force &&
      log_.entries.back().target && e.target && e.ramp_s == 0 && log_.entries.back().ramp_s == 0) {
    // Several mouse moves before one step: only the last target matters.
    log_.entries.back().target = e.target;
    return;
  }
  log_.entries.push_back(e);
}

}  // namespace stiction
