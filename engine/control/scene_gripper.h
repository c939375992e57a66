#pragma once
// A scene's grippers as every driver of a simulation sets them up
// (stiction-sim, stiction-soak, the fuzz harnesses, the viewer): a
// GripperController per entry of the scene's `gripper:`/`grippers:` and,
// when a command file is played, its CommandPlayer. PrepareStep runs before
// every Step(); Restart after every Simulation::Reset, so that the script
// plays again from its first entry on fresh controllers.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/command_player.h"
#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

namespace stiction {

class SceneGripper {
 public:
  /// No gripper: PrepareStep and Restart do nothing.
  SceneGripper() = default;
  /// The controllers of `sim`'s grippers, nothing to play; none when the
  /// scene has no gripper. Throws InputError when a controller refuses its
  /// section.
  explicit SceneGripper(const Simulation& sim);

  /// The scene's grippers playing `commands_file` ("": the scene's own
  /// `commands:` file, if it names one). A scene without a gripper plays
  /// nothing (a caller that was given a file to play says so). Throws
  /// InputError for a refused gripper or command file ("FILE:LINE: KEY: ...").
  static SceneGripper ForScene(const Simulation& sim, const std::string& commands_file = "");

  /// Plays `player` from its next entry on, its names bound to `sim`'s
  /// grippers and bodies; `file` names it ("" when it is not from a file).
  /// Needs a gripper. Throws InputError for a name the scene lacks, and
  /// leaves what was playing then.
  void Play(const Simulation& sim, CommandPlayer player, const std::string& file = "");
  /// Loads `path`, plays it at `sim`'s time step and returns the log (for
  /// its scripted camera). Throws InputError for a bad file, and leaves what
  /// was playing then.
  CommandLog PlayFile(const Simulation& sim, const std::string& path);
  /// No more commands: the controller keeps its current target (a user
  /// taking over from the script).
  void StopPlaying();

  /// Before every Step(): the due commands, then the actuator targets for
  /// the step (PrepareGripperStep); the applied commands go to `applied`
  /// when given. Throws InputError for a command a controller refuses or a
  /// wait that timed out (the script ends there; the grippers keep their
  /// targets; Restart plays it again).
  void PrepareStep(Simulation* sim, std::vector<GripperCommand>* applied = nullptr);
  /// After Simulation::Reset(): a fresh controller and the script from its
  /// first command.
  void Restart(const Simulation& sim);

  bool present() const { return !controllers_.empty(); }
  int num_grippers() const { return static_cast<int>(controllers_.size()); }
  /// Gripper `index` in scene order (0: the first); null if there is none.
  GripperController* controller(int index = 0);
  const GripperController* controller(int index = 0) const;
  std::span<GripperController> controllers() { return controllers_; }
  /// The index of the gripper named `name`, −1 if none.
  int Find(const std::string& name) const;
  /// Null when nothing plays.
  CommandPlayer* player() { return player_ ? &*player_ : nullptr; }
  const CommandPlayer* player() const { return player_ ? &*player_ : nullptr; }
  /// Bytes a copy holds (controllers and the player's state; a script's
  /// entries are shared between copies), for a state history's memory cap.
  std::size_t Bytes() const;
  /// The command file playing ("" when none, or not from a file).
  const std::string& commands_file() const { return commands_file_; }

 private:
  std::vector<GripperController> controllers_;
  std::optional<CommandPlayer> player_;
  std::string commands_file_;
};

}  // namespace stiction
