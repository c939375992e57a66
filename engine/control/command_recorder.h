#pragma once
// Records the gripper commands of a run, keyed by step index, into a
// CommandLog that CommandPlayer replays bit-identically.
#include <cstdint>
#include <string>

#include "engine/control/command_log.h"
#include "engine/control/gripper_command.h"

namespace stiction {

class CommandRecorder {
 public:
  /// Starts a new recording at `dt` [s] for `scene` (informative). The first
  /// command should be the controller's full state (StateCommand).
  void Start(const std::string& scene, double dt);
  /// Stops; the log stays available.
  void Stop() { recording_ = false; }
  bool recording() const { return recording_; }
  /// Adds a command (ignored when not recording). Commands at the same step
  /// merge: later fields win, as they would when applied in order.
  void Record(const GripperCommand& command);
  const CommandLog& log() const { return log_; }

 private:
  bool recording_ = false;
  double dt_ = 0.01;
  CommandLog log_;
};

}  // namespace stiction
