#include "engine/control/command_player.h"

#include <cmath>

#include "engine/common/error.h"
#include "engine/common/text.h"

namespace stiction {
namespace {

std::string Where(const CommandLog& log, int line) {
  return line > 0 ? log.file + ":" + std::to_string(line) : log.file;
}

}  // namespace

CommandPlayer::CommandPlayer(const CommandLog& log, double dt) {
  if (!(dt > 0) || !std::isfinite(dt)) throw InputError("command player: time step must be > 0");
  bool has_steps = false;
  for (const CommandEntry& e : log.entries) has_steps = has_steps || e.step.has_value();
  // Step indices only mean the same instants at the δt they were recorded at.
  if (has_steps && log.time_step && *log.time_step != dt) {
    throw InputError(Where(log, log.time_step_line) + ": time_step: the commands were recorded at " +
                     FormatNumber(*log.time_step, 9) + " s but the simulation runs at " + FormatNumber(dt, 9) +
                     " s (replay at the recorded time step)");
  }
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < log.entries.size(); ++i) {
    const CommandEntry& e = log.entries[i];
    const std::string key = "commands[" + std::to_string(i) + "]";
    GripperCommand c;
    c.step = e.step ? *e.step : static_cast<std::int64_t>(std::llround(*e.time_s / dt));
    if (c.step < previous) {
      throw InputError(Where(log, e.line) + ": " + key + (e.step ? ".step" : ".time") +
                       ": commands must be in time order (this one is before the previous one)");
    }
    previous = c.step;
    c.target = e.target;
    c.ramp_steps = static_cast<std::int64_t>(std::llround(e.ramp_s / dt));
    c.grip = e.grip;
    c.grip_force = e.grip_force;
    commands_.push_back(c);
  }
}

void CommandPlayer::ApplyDue(std::int64_t step, GripperController* controller) {
  while (next_ < commands_.size() && commands_[next_].step <= step) {
    controller->Apply(commands_[next_]);
    ++next_;
  }
}

void PrepareGripperStep(Simulation* sim, GripperController* controller, CommandPlayer* player) {
  if (player != nullptr) player->ApplyDue(sim->step_index(), controller);
  controller->Actuate(sim);
}

}  // namespace stiction
