#pragma once
// A take (a recorded teleop session) as a demonstration: sampled step by
// step while the take records (engine/dataset/DemoSampler); when it stops,
// held until the user keeps it in a dataset file, marked success or
// failure, or discards it (docs/datasets.md). Keeping appends it as
// data/demo_N; a failed write keeps the take so nothing is lost.
#include <cstdint>
#include <optional>
#include <string>

#include "app/ui/ui_state.h"
#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo.h"
#include "engine/dataset/demo_sampler.h"
#include "engine/scene/scene_writer.h"
#include "engine/simulation.h"

namespace stiction::app {

class TakeDataset {
 public:
  explicit TakeDataset(UiState& ui) : ui_(ui) {}

  /// The take starts (after its reset to t = 0). A take still held is
  /// dropped, with a message.
  void Begin(const Simulation& sim, const SceneGripper& grippers, const std::string& scene_path,
             const SceneParameters& loaded);
  /// Before each step while the take records (after the grippers were prepared).
  void Sample(const Simulation& sim, const SceneGripper& grippers) { sampler_.Sample(sim, grippers); }
  /// After each successful step.
  void AfterStep(const Simulation& sim) { sampler_.AfterStep(sim); }
  /// Something other than the grippers' commands drove the run (a drag).
  void NoteInput(const std::string& what) { sampler_.NoteInput(what); }
  /// The take stopped: it is held until kept or discarded.
  void End();

  /// Appends the held take to `path` as a success or a failure; false (and
  /// the message shown) if it cannot, the take still held.
  bool Keep(const std::string& path, bool success);
  void Discard();

  bool recording() const { return sampler_.active(); }
  /// The take held (stopped, not yet kept or discarded), if any.
  const std::optional<Demo>& held() const { return held_; }
  /// Demos kept since the viewer started, and the file of the last.
  int kept() const { return kept_; }
  const std::string& last_file() const { return last_file_; }

 private:
  UiState& ui_;
  DemoSampler sampler_;
  std::optional<Demo> held_;
  int kept_ = 0;
  std::string last_file_;
};

}  // namespace stiction::app
