#pragma once
// A dataset's demo played in the viewer (Gripper section: Replay demo N):
// every step is driven by the demo's recorded actions, as
// `stiction-sim --replay-dataset` drives it, the controllers' targets follow
// (the ghost shows them), and each state reached is compared with the
// recorded one; at the end the message says whether every state matched
// bit for bit (docs/datasets.md). The timeline may rewind it: the action
// taken is always the one of the state's step.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/ui/ui_state.h"
#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo.h"
#include "engine/simulation.h"

namespace stiction::app {

class DemoPlayback {
 public:
  explicit DemoPlayback(UiState& ui) : ui_(ui) {}

  /// Starts `demo` (called `name`) on `sim` at its first state (after the
  /// reset). False (message shown) when the scene's grippers or state do not
  /// match the demo's.
  bool Start(Demo demo, std::string name, const Simulation& sim, const SceneGripper& grippers);
  void Stop() { playing_.reset(); }
  bool playing() const { return playing_.has_value(); }
  const std::string& name() const { return playing_->name; }

  /// Before a step: drives it with the demo's action (and moves the
  /// controllers' targets to it); false when the demo has ended (or none
  /// plays), the step then being the grippers' own.
  bool PrepareStep(Simulation* sim, SceneGripper* grippers);
  /// After a step: compares the state with the recorded one; at the last
  /// step says how the replay went.
  void AfterStep(const Simulation& sim);

 private:
  struct Playing {
    Demo demo;
    std::string name;
    std::vector<int> grippers;        // Scene gripper per action block.
    std::int64_t first_mismatch = -1;  // Sample; -1 none so far.
    double max_difference = 0;
  };
  UiState& ui_;
  std::optional<Playing> playing_;
};

}  // namespace stiction::app
