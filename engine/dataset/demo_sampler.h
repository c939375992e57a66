#pragma once
// Records a run as a Demo (demo.h), step by step: before each step (after
// the grippers were prepared) the state [t, q, v], the action every gripper
// drives the step with (GripperController::ActuationAt) and low-dim
// observations; after the last, the final state. Every runner that steps a
// simulation can feed one: the viewer's takes, `stiction-sim --dataset`.
#include <optional>
#include <string>
#include <vector>

#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo.h"
#include "engine/multibody/kinematics.h"
#include "engine/scene/scene_writer.h"
#include "engine/simulation.h"

namespace stiction {

class DemoSampler {
 public:
  /// Starts a demo of `sim` from its current state. `scene_path`: the scene
  /// file (made absolute; its text is kept); `load_overrides`: the --set list
  /// it was loaded with; `loaded`: its live parameters as loaded, so that
  /// the edits since are kept as KEY=VALUE. Throws InputError when the scene
  /// file cannot be read.
  void Begin(const Simulation& sim, const SceneGripper& grippers, const std::string& scene_path,
             std::vector<std::string> load_overrides, const SceneParameters& loaded);
  /// Before each step, after SceneGripper::PrepareStep: one sample.
  void Sample(const Simulation& sim, const SceneGripper& grippers);
  /// After each successful step: the state it reached (the demo's final
  /// state, unless another step follows).
  void AfterStep(const Simulation& sim);
  /// Something other than the actions drove the run (a mouse drag, a joint
  /// slider, a parameter edit): a replay will not reproduce it. The first
  /// reason is kept.
  void NoteInput(const std::string& what);
  /// Ends the demo after its last step taken (a sample whose step failed or
  /// never came is dropped; a reset since does not matter) and returns it;
  /// `success` marks it (rewards, attribute).
  Demo Finish(bool success);

  bool active() const { return active_; }
  std::int64_t num_samples() const { return demo_.num_samples(); }
  const std::string& not_reproducible() const { return demo_.not_reproducible; }

 private:
  bool active_ = false;
  Demo demo_;
  std::int64_t first_step_ = 0;
  std::int64_t taken_ = 0;               // Samples whose step was taken.
  std::vector<double> last_state_;       // After the last step taken.
  int script_edits_ = 0;  // The player's parameter edits at Begin.
  std::vector<int> object_bodies_;
  std::vector<std::vector<int>> finger_q_;      // Per gripper: its fingers' joint positions in q.
  std::optional<KinematicsCache> kinematics_;   // Scratch, sized at Begin.
};

/// The text of a demo's scene file (attribute model_file). Throws
/// InputError when it cannot be read.
std::string ReadDemoSceneText(const std::string& path);

/// Marks `demo` a success or a failure: the attribute, `rewards` (1 at the
/// last sample of a success, else 0) and `dones` (1 at the last sample).
void SetDemoOutcome(Demo* demo, bool success);

/// The state row [t, q, v] of `sim`.
std::vector<double> DemoStateRow(const Simulation& sim);

}  // namespace stiction
