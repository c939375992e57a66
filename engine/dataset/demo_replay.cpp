#include "engine/dataset/demo_replay.h"

#include <chrono>
#include <cmath>

#include "engine/common/error.h"
#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo_sampler.h"
#include "engine/scene/parameter_assignments.h"
#include "engine/simulation.h"

namespace stiction {
namespace {

// Compares the state row of `sim` with `recorded`; updates the result.
void Compare(const Simulation& sim, const double* recorded, std::int64_t sample, DemoReplayResult* r) {
  const std::optional<double> d = DemoStateDifference(sim, recorded);
  if (!d) return;
  r->max_abs_difference = std::max(r->max_abs_difference, *d);
  if (r->first_mismatch < 0) r->first_mismatch = sample;
}

}  // namespace

std::optional<double> DemoStateDifference(const Simulation& sim, const double* recorded) {
  const std::vector<double> now = DemoStateRow(sim);
  std::optional<double> worst;
  for (std::size_t i = 0; i < now.size(); ++i) {
    // Bit for bit: == also tells -0 from +0 apart only through the sign of
    // a later product, which a replay that matches here reproduces.
    if (now[i] == recorded[i] || (std::isnan(now[i]) && std::isnan(recorded[i]))) continue;
    worst = std::max(worst.value_or(0.0), std::abs(now[i] - recorded[i]));
  }
  return worst;
}

GripperActuation DemoAction(const Demo& demo, std::int64_t k, int gripper) {
  const double* a = demo.actions.row(k) + kActionColumnsPerGripper * gripper;
  const double* v = demo.action_rates.row(k) + kRateColumnsPerGripper * gripper;
  GripperActuation u;
  u.target = GripperPose{a[0], a[1], a[2], a[3], a[4]};
  u.rate = GripperPose{v[0], v[1], v[2], v[3], v[4]};
  u.grip = a[5] > 0 ? GripState::kClosed : GripState::kOpen;
  u.grip_force = a[6];
  return u;
}

DemoReplayResult ReplayDemo(const Demo& demo, const std::string& scene_path,
                            const std::vector<std::string>& extra_overrides) {
  const auto start = std::chrono::steady_clock::now();
  DemoReplayResult r;
  r.scene_path = scene_path.empty() ? demo.scene_path : scene_path;
  std::string text;
  try {
    text = ReadDemoSceneText(r.scene_path);
  } catch (const InputError&) {
    // Simulation::FromFile below says why.
  }
  if (text != demo.scene_text) {
    r.notes.push_back(r.scene_path + " differs from the scene text the demo was recorded on (attribute model_file)");
  }
  if (!demo.not_reproducible.empty()) {
    r.notes.push_back("the recording says the actions alone did not drive it: " + demo.not_reproducible);
  }
  std::vector<std::string> overrides = demo.load_overrides;
  overrides.insert(overrides.end(), extra_overrides.begin(), extra_overrides.end());
  Simulation sim = Simulation::FromFile(r.scene_path, overrides);
  if (!demo.parameters.empty()) {
    SceneParameters p = sim.CalcSceneParameters();
    for (const std::string& a : demo.parameters) ApplyParameterAssignment(a, &p);
    sim.SetSceneParameters(p);
  }
  if (sim.positions().size() != demo.nq || sim.velocities().size() != demo.nv) {
    throw InputError(r.scene_path + ": its state has nq = " + std::to_string(sim.positions().size()) + ", nv = " +
                     std::to_string(sim.velocities().size()) + "; the demo's has nq = " + std::to_string(demo.nq) +
                     ", nv = " + std::to_string(demo.nv));
  }
  if (sim.time_step() != demo.time_step) {
    throw InputError(r.scene_path + ": time_step " + std::to_string(sim.time_step()) + " s, the demo's " +
                     std::to_string(demo.time_step) + " s");
  }
  SceneGripper scene_gripper(sim);
  std::vector<const GripperController*> controllers;
  for (const std::string& name : demo.grippers) {
    const int i = scene_gripper.Find(name);
    if (i < 0) throw InputError(r.scene_path + ": the demo drives gripper '" + name + "', which the scene lacks");
    controllers.push_back(scene_gripper.controller(i));
  }
  const std::int64_t n = demo.num_samples();
  for (std::int64_t k = 0; k < n; ++k) {
    Compare(sim, demo.states.row(k), k, &r);
    for (std::size_t g = 0; g < controllers.size(); ++g) {
      controllers[g]->Actuate(&sim, DemoAction(demo, k, static_cast<int>(g)));
    }
    const StepResult step = sim.Step();
    if (step.status != StepStatus::kSuccess) {
      throw InputError("step " + std::to_string(k + 1) + " of the replay failed: " + step.message);
    }
    ++r.steps;
  }
  Compare(sim, demo.final_state.data(), n, &r);
  r.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace stiction
