#pragma once
// What the Python class stiction.Simulation wraps (docs/python.md): a
// Simulation driven as stiction-sim drives it (the scene's grippers and
// command file before every step, cli/cli_runner.cpp), the statistics of the
// steps since the last reset, and the live parameters as "key=value" text
// through the tables of `--set` and the viewer's panels
// (engine/scene/parameter_assignments.h). No Python here: bind_*.cpp turn
// it into the module.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/run_statistics.h"
#include "engine/control/scene_gripper.h"
#include "engine/simulation.h"
#include "python/scene_source.h"

namespace stiction::python {

/// A saved state for the timeline: the simulation's and its grippers'
/// (controllers and script position), so that a restore steps on
/// bit-identically, scripted scenes included.
struct SavedState {
  SimulationState sim;
  SceneGripper gripper;
  cli::RunStatistics stats;
  double last_step_dt = 0;
};

/// Why a step failed: its status, its one-line message and where.
struct StepFailure {
  StepStatus status = StepStatus::kSuccess;
  std::string message;       ///< "step N at t=T: reason", as stiction-sim prints it.
  std::int64_t step = 0;     ///< 1-based step of the run that failed (step_index + 1).
};

class PySimulation {
 public:
  /// `scene`: a path to a scene or robot file (.yaml, .yml, .urdf, .xml,
  /// .mjcf), or YAML text (anything with a newline or a ':' that is not an
  /// existing file); `base_dir` resolves the text's includes and meshes.
  /// `overrides` are `--set` assignments. Throws InputError.
  PySimulation(const std::string& scene, const std::vector<std::string>& overrides, const std::string& base_dir);

  /// Steps up to `n` times (gripper script first, as stiction-sim). Returns
  /// the number taken; on a failed step stops there (the state is the last
  /// good one) and fills *failure. Script errors are kept in script_error().
  std::int64_t Step(std::int64_t n, StepFailure* failure);
  /// Back to t = 0, the grippers' scripts from their first entry and the
  /// statistics cleared.
  void Reset();

  Simulation& sim() { return sim_; }
  const Simulation& sim() const { return sim_; }
  const StepStats& last_stats() const { return last_stats_; }
  /// δt [s] of the last successful step (the one contacts() belong to); 0
  /// before the first.
  double last_step_dt() const { return last_step_dt_; }
  const cli::RunStatistics& stats() const { return stats_; }
  /// Wall time spent in Step() since the last reset [s], as stiction-sim's
  /// `wall_time_s` (of the stepping loop) measures it.
  double wall_time_s() const { return wall_time_s_; }
  /// The first error of the gripper's command file, "" if none.
  const std::string& script_error() const { return script_error_; }
  const std::vector<std::string>& overrides() const { return overrides_; }
  const std::string& scene_label() const { return scene_label_; }
  /// What the scene was loaded from: the path, or the YAML text; and the
  /// directory a text's relative paths resolve from (the renderer loads the
  /// same scene, python/py_renderer.h).
  const std::string& scene_source() const { return scene_source_; }
  const std::string& base_dir() const { return base_dir_; }

  /// The live parameters, "key=value" each, in FlattenSceneParameters order.
  std::vector<std::string> Parameters() const;
  /// The value text of a live parameter, or of `integrator` (the preset
  /// name, or "custom"). Throws InputError "KEY: not a live parameter
  /// (...)" for an unknown key, the engine's message.
  std::string GetParameter(const std::string& key) const;
  /// Applies "key=value" assignments together (all or none), through
  /// ApplyParameterAssignment and SetSceneParameters; "integrator=PRESET"
  /// sets the preset's θ, θ_vq. Throws InputError.
  void SetParameters(const std::vector<std::string>& assignments);

  SavedState SaveState() const;
  void RestoreState(const SavedState& state);

 private:
  Simulation sim_;
  SceneGripper gripper_;
  cli::RunStatistics stats_;
  StepStats last_stats_;
  double last_step_dt_ = 0;
  double wall_time_s_ = 0;
  std::string script_error_;
  std::vector<std::string> overrides_;
  std::string scene_label_;
  std::string scene_source_, base_dir_;
};

}  // namespace stiction::python
