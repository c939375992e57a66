#include "engine/control/command_recorder.h"

namespace stiction {

void CommandRecorder::Start(const std::string& scene, double dt) {
  log_ = CommandLog{};
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
  if (!log_.entries.empty() && log_.entries.back().step == e.step && !e.grip && !e.grip_force &&
      log_.entries.back().target && e.target && e.ramp_s == 0 && log_.entries.back().ramp_s == 0) {
    // Several mouse moves before one step: only the last target matters.
    log_.entries.back().target = e.target;
    return;
  }
  log_.entries.push_back(e);
}

}  // namespace stiction
