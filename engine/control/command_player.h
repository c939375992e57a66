#pragma once
// Replays a command log deterministically: each command is applied to the
// GripperController before its step, so the same scene + the same command
// file + the same settings give bit-identical trajectories (the engine is
// deterministic and every command lands on the same step).
#include <cstdint>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/gripper_command.h"
#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

namespace stiction {

class CommandPlayer {
 public:
  CommandPlayer() = default;
  /// Resolves the log's entries to steps at time step `dt` [s]: `time: t`
  /// becomes step round(t / dt), `ramp: r` round(r / dt) steps. Throws
  /// InputError "FILE:LINE: KEY: ..." when `step:` entries were recorded at
  /// another δt than `dt`, or entries go back in time.
  CommandPlayer(const CommandLog& log, double dt);

  /// Applies, in file order, every command not yet applied whose step is
  /// <= `step`.
  void ApplyDue(std::int64_t step, GripperController* controller);
  bool finished() const { return next_ == commands_.size(); }
  /// Step of the last command (0 if none).
  std::int64_t last_step() const { return commands_.empty() ? 0 : commands_.back().step; }
  const std::vector<GripperCommand>& commands() const { return commands_; }
  /// Back to the first command (after a simulation Reset).
  void Rewind() { next_ = 0; }

 private:
  std::vector<GripperCommand> commands_;
  std::size_t next_ = 0;
};

/// What runs before every Step() of a gripper scene (viewer, stiction-sim,
/// headless recording): the player's due commands (player may be null), then
/// the controller's actuator targets for the step.
void PrepareGripperStep(Simulation* sim, GripperController* controller, CommandPlayer* player);

}  // namespace stiction
