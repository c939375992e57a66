#pragma once
// Records the gripper commands of a run, keyed by step index, into a
// CommandLog that CommandPlayer replays bit-identically.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/gripper_command.h"

namespace stiction {

class CommandRecorder {
 public:
  /// Starts a new recording at `dt` [s] for `scene` (informative). The first
  /// command should be the controller's full state (StateCommand), one per
  /// gripper. `grippers`: the scene's gripper names in scene order; with
  /// more than one, every entry names its gripper.
  void Start(const std::string& scene, double dt, std::vector<std::string> grippers = {});
  /// Stops; the log stays available.
  void Stop() { recording_ = false; }
  bool recording() const { return recording_; }
  /// Adds a command (ignored when not recording). Target-only commands for
  /// one gripper at the same step merge: the last target wins, as it would
  /// when applied in order.
  void Record(const GripperCommand& command);
  const CommandLog& log() const { return log_; }

 private:
  bool recording_ = false;
  double dt_ = 0.01;
  std::vector<std::string> grippers_;
  CommandLog log_;
};

}  // namespace stiction
