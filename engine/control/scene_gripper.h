#pragma once
// A scene's gripper as every driver of a simulation sets it up (stiction-sim,
// stiction-soak, the fuzz harnesses, the viewer): the GripperController of
// the scene's `gripper:` section and, when a command file is played, its
// CommandPlayer. PrepareStep runs before every Step(); Restart after every
// Simulation::Reset, so that the script plays again from its first command
// on a fresh controller.
#include <optional>
#include <string>

#include "engine/control/command_log.h"
#include "engine/control/command_player.h"
#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

namespace stiction {

class SceneGripper {
 public:
  /// No gripper: PrepareStep and Restart do nothing.
  SceneGripper() = default;
  /// The controller of `sim`'s gripper, nothing to play; no gripper when the
  /// scene has no `gripper:` section. Throws InputError when the controller
  /// refuses the section.
  explicit SceneGripper(const Simulation& sim);

  /// The scene's gripper playing `commands_file` ("": the scene's own
  /// `commands:` file, if it names one). A scene without a gripper plays
  /// nothing (a caller that was given a file to play says so). Throws
  /// InputError for a refused gripper or command file ("FILE:LINE: KEY: ...").
  static SceneGripper ForScene(const Simulation& sim, const std::string& commands_file = "");

  /// Plays `player` from its next command on; `file` names it ("" when it is
  /// not from a file). Needs a gripper.
  void Play(CommandPlayer player, const std::string& file = "");
  /// Loads `path`, plays it at time step `dt` [s] and returns the log (for
  /// its scripted camera). Throws InputError for a bad file, and leaves what
  /// was playing then.
  CommandLog PlayFile(const std::string& path, double dt);
  /// No more commands: the controller keeps its current target (a user
  /// taking over from the script).
  void StopPlaying();

  /// Before every Step(): the due commands, then the actuator targets for
  /// the step (PrepareGripperStep). May throw InputError for a command the
  /// controller refuses.
  void PrepareStep(Simulation* sim);
  /// After Simulation::Reset(): a fresh controller and the script from its
  /// first command.
  void Restart(const Simulation& sim);

  bool present() const { return controller_.has_value(); }
  /// Null without a gripper.
  GripperController* controller() { return controller_ ? &*controller_ : nullptr; }
  const GripperController* controller() const { return controller_ ? &*controller_ : nullptr; }
  /// Null when nothing plays.
  CommandPlayer* player() { return player_ ? &*player_ : nullptr; }
  const CommandPlayer* player() const { return player_ ? &*player_ : nullptr; }
  /// The command file playing ("" when none, or not from a file).
  const std::string& commands_file() const { return commands_file_; }

 private:
  std::optional<GripperController> controller_;
  std::optional<CommandPlayer> player_;
  std::string commands_file_;
};

}  // namespace stiction
