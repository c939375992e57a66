#include "engine/control/scene_gripper.h"

#include <utility>

#include "engine/common/error.h"

namespace stiction {

SceneGripper::SceneGripper(const Simulation& sim) {
  const int n = static_cast<int>(sim.scene().grippers.size());
  controllers_.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) controllers_.emplace_back(sim, i);
}

SceneGripper SceneGripper::ForScene(const Simulation& sim, const std::string& commands_file) {
  SceneGripper gripper(sim);
  if (!gripper.present()) return gripper;
  const std::string& file = commands_file.empty() ? sim.scene().commands_file : commands_file;
  if (!file.empty()) gripper.PlayFile(sim, file);
  return gripper;
}

GripperController* SceneGripper::controller(int index) {
  return index >= 0 && index < num_grippers() ? &controllers_[static_cast<size_t>(index)] : nullptr;
}

const GripperController* SceneGripper::controller(int index) const {
  return index >= 0 && index < num_grippers() ? &controllers_[static_cast<size_t>(index)] : nullptr;
}

std::size_t SceneGripper::Bytes() const {
  std::size_t bytes = sizeof(*this) + commands_file_.capacity() + (player_ ? player_->Bytes() : 0);
  for (const GripperController& g : controllers_) bytes += g.Bytes();
  return bytes;
}

int SceneGripper::Find(const std::string& name) const {
  for (int i = 0; i < num_grippers(); ++i) {
    if (controllers_[static_cast<size_t>(i)].name() == name) return i;
  }
  return -1;
}

void SceneGripper::Play(const Simulation& sim, CommandPlayer player, const std::string& file) {
  if (controllers_.empty()) throw InputError(file + ": the scene has no gripper (scene key 'gripper')");
  player.Bind(sim, controllers_);
  player_ = std::move(player);
  commands_file_ = file;
}

CommandLog SceneGripper::PlayFile(const Simulation& sim, const std::string& path) {
  CommandLog log = LoadCommandFile(path);
  Play(sim, CommandPlayer(log, sim.time_step()), path);
  return log;
}

void SceneGripper::StopPlaying() {
  player_.reset();
  commands_file_.clear();
}

void SceneGripper::PrepareStep(Simulation* sim, std::vector<GripperCommand>* applied) {
  if (controllers_.empty()) return;
  try {
    PrepareGripperStep(sim, controllers_, player_ ? &*player_ : nullptr, applied);
  } catch (const InputError&) {
    // The player has moved past the failed entry (a timed-out wait ends the
    // script); the grippers still get their targets for this step.
    for (const GripperController& g : controllers_) g.Actuate(sim);
    throw;
  }
}

void SceneGripper::Restart(const Simulation& sim) {
  for (int i = 0; i < num_grippers(); ++i) controllers_[static_cast<size_t>(i)] = GripperController(sim, i);
  if (player_) player_->Rewind();
}

}  // namespace stiction
