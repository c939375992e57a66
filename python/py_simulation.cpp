#include "python/py_simulation.h"

#include <chrono>

#include "cli/cli_io.h"
#include "cli/report_writer.h"
#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/parameter_assignments.h"
#include "engine/scene/scene_loader.h"

namespace stiction::python {
namespace {

using cli::Clock;
using cli::SecondsSince;

Simulation Load(const std::string& scene, const std::vector<std::string>& overrides, const std::string& base_dir) {
  if (LooksLikeScenePath(scene)) return Simulation::FromFile(scene, overrides);
  return Simulation(LoadSceneString(scene, "<string>", base_dir.empty() ? "." : base_dir, overrides));
}

// The value part of "key=value".
std::string ValueOf(const std::string& assignment) {
  return assignment.substr(assignment.find('=') + 1);
}

}  // namespace

PySimulation::PySimulation(const std::string& scene, const std::vector<std::string>& overrides,
                           const std::string& base_dir)
    : sim_(Load(scene, overrides, base_dir)),
      gripper_(SceneGripper::ForScene(sim_)),
      overrides_(overrides),
      scene_label_(LooksLikeScenePath(scene) ? scene : "<string>"),
      scene_source_(scene),
      base_dir_(base_dir.empty() ? "." : base_dir) {}

std::int64_t PySimulation::Step(std::int64_t n, StepFailure* failure) {
  std::int64_t taken = 0;
  const Clock::time_point run_start = Clock::now();
  for (; taken < n; ++taken) {
    const Clock::time_point step_start = Clock::now();
    try {
      gripper_.PrepareStep(&sim_);
    } catch (const InputError& e) {
      // As stiction-sim: the script stops, the run goes on.
      if (script_error_.empty()) script_error_ = OneLine(e.what());
    }
    const double dt = sim_.time_step();
    StepResult result = sim_.Step();
    const double measured_s = SecondsSince(step_start);
    if (result.status != StepStatus::kSuccess) {
      failure->status = result.status;
      failure->step = sim_.step_index() + 1;
      failure->message = cli::FailedStepLine(failure->step, sim_.time(), cli::StepFailureReason(result));
      break;
    }
    if (!(result.stats.wall_time_s > 0)) result.stats.wall_time_s = measured_s;
    stats_.Add(result.stats);
    last_stats_ = result.stats;
    last_step_dt_ = dt;
  }
  wall_time_s_ += SecondsSince(run_start);
  return taken;
}

void PySimulation::Reset() {
  sim_.Reset();
  gripper_.Restart(sim_);
  stats_.Clear();
  last_stats_ = StepStats{};
  last_step_dt_ = 0;
  wall_time_s_ = 0;
  script_error_.clear();
}

std::vector<std::string> PySimulation::Parameters() const {
  return FlattenSceneParameters(sim_.CalcSceneParameters());
}

std::string PySimulation::GetParameter(const std::string& key) const {
  if (key == "integrator") return sim_.integrator().name;  // The preset's, or "custom".
  for (const std::string& a : Parameters()) {
    if (a.compare(0, a.find('='), key) == 0) return ValueOf(a);
  }
  // Not listed: let the engine say so, with the keys there are.
  SceneParameters p = sim_.CalcSceneParameters();
  ApplyParameterAssignment(key + "=", &p);
  throw InputError(key + ": not a live parameter");
}

void PySimulation::SetParameters(const std::vector<std::string>& assignments) {
  SceneParameters p = sim_.CalcSceneParameters();
  for (const std::string& a : assignments) ApplyParameterAssignment(a, &p);
  sim_.SetSceneParameters(p);
}

SavedState PySimulation::SaveState() const {
  return SavedState{sim_.SaveState(), gripper_, stats_, last_step_dt_};
}

void PySimulation::RestoreState(const SavedState& state) {
  sim_.RestoreState(state.sim);
  gripper_ = state.gripper;
  stats_ = state.stats;
  last_step_dt_ = state.last_step_dt;
}

}  // namespace stiction::python
