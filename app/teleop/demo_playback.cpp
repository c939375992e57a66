#include "app/teleop/demo_playback.h"

#include <algorithm>
#include <optional>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/dataset/demo_replay.h"

namespace stiction::app {

bool DemoPlayback::Start(Demo demo, std::string name, const Simulation& sim, const SceneGripper& grippers) {
  playing_.reset();
  if (sim.positions().size() != demo.nq || sim.velocities().size() != demo.nv) {
    ui_.Error(name + ": recorded on a scene whose state has nq = " + std::to_string(demo.nq) + ", nv = " +
              std::to_string(demo.nv) + " (this one: " + std::to_string(sim.positions().size()) + ", " +
              std::to_string(sim.velocities().size()) + "); open " + demo.scene_path);
    return false;
  }
  Playing p{std::move(demo), std::move(name), {}, -1, 0};
  for (const std::string& g : p.demo.grippers) {
    const int i = grippers.Find(g);
    if (i < 0) {
      ui_.Error(p.name + ": drives gripper '" + g + "', which this scene lacks");
      return false;
    }
    p.grippers.push_back(i);
  }
  const bool differs_at_start = p.demo.num_samples() > 0 && DemoStateDifference(sim, p.demo.states.row(0));
  ui_.Info("replaying " + p.name + " (" + FormatNumber(static_cast<double>(p.demo.num_samples()) * p.demo.time_step, 4) +
           " s) from its actions" +
           (differs_at_start ? "; its first state is not this scene's initial state (the scene file changed?), so it will differ"
                   : "") +
           (p.demo.not_reproducible.empty() ? "" : "; recorded as not reproducible: " + p.demo.not_reproducible));
  if (differs_at_start) p.first_mismatch = 0;
  playing_ = std::move(p);
  return true;
}

bool DemoPlayback::PrepareStep(Simulation* sim, SceneGripper* grippers) {
  if (!playing_) return false;
  const std::int64_t k = sim->step_index();
  if (k < 0 || k >= playing_->demo.num_samples()) return false;
  for (std::size_t b = 0; b < playing_->grippers.size(); ++b) {
    const GripperActuation a = DemoAction(playing_->demo, k, static_cast<int>(b));
    GripperController& g = *grippers->controller(playing_->grippers[b]);
    try {
      // The controller's target follows (the ghost, the panel), then the
      // step is driven with the action and its rate exactly.
      GripperCommand c;
      c.step = k;
      c.target = a.target;
      c.grip = a.grip;
      c.grip_force = a.grip_force;
      g.Apply(c);
      g.Actuate(sim, a);
    } catch (const InputError& e) {
      ui_.Error(playing_->name + ": step " + std::to_string(k) + ": " + e.what() + " (replay stopped)");
      playing_.reset();
      return false;
    }
  }
  return true;
}

void DemoPlayback::AfterStep(const Simulation& sim) {
  if (!playing_) return;
  Playing& p = *playing_;
  const std::int64_t k = sim.step_index();  // The state after step k - 1.
  const std::int64_t n = p.demo.num_samples();
  if (k < 1 || k > n) return;
  if (const std::optional<double> d = DemoStateDifference(sim, k < n ? p.demo.states.row(k) : p.demo.final_state.data())) {
    if (p.first_mismatch < 0 || k < p.first_mismatch) p.first_mismatch = k;
    p.max_difference = std::max(p.max_difference, *d);
  }
  if (k < n) return;
  if (p.first_mismatch < 0) {
    ui_.Info(p.name + " replayed: all " + std::to_string(n + 1) + " states match the recording bit for bit");
  } else {
    ui_.Info(p.name + " replayed: the states differ from the recording from t = " +
             FormatNumber(static_cast<double>(p.first_mismatch) * p.demo.time_step, 6) + " s on (max |difference| " +
             FormatNumber(p.max_difference, 3) + ")");
  }
  playing_.reset();
}

}  // namespace stiction::app
