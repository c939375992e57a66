#include "engine/control/scene_gripper.h"

#include <utility>

#include "engine/common/error.h"

namespace stiction {

SceneGripper::SceneGripper(const Simulation& sim) {
  if (sim.scene().gripper.present) controller_.emplace(sim);
}

SceneGripper SceneGripper::ForScene(const Simulation& sim, const std::string& commands_file) {
  SceneGripper gripper(sim);
  if (!gripper.present()) return gripper;
  const std::string& file = commands_file.empty() ? sim.scene().commands_file : commands_file;
  if (!file.empty()) gripper.PlayFile(file, sim.time_step());
  return gripper;
}

void SceneGripper::Play(CommandPlayer player, const std::string& file) {
  if (!controller_) throw InputError(file + ": the scene has no gripper (scene key 'gripper')");
  player_ = std::move(player);
  commands_file_ = file;
}

CommandLog SceneGripper::PlayFile(const std::string& path, double dt) {
  CommandLog log = LoadCommandFile(path);
  Play(CommandPlayer(log, dt), path);
  return log;
}

void SceneGripper::StopPlaying() {
  player_.reset();
  commands_file_.clear();
}

void SceneGripper::PrepareStep(Simulation* sim) {
  if (controller_) PrepareGripperStep(sim, &*controller_, player_ ? &*player_ : nullptr);
}

void SceneGripper::Restart(const Simulation& sim) {
  if (controller_) controller_.emplace(sim);
  if (player_) player_->Rewind();
}

}  // namespace stiction
