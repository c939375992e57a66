#include "app/physics_loop.h"

#include <algorithm>
#include <cstdio>

#include "app/render/gl.h"
#include "app/ui/timeline_plots.h"
#include "engine/common/error.h"
#include "engine/common/text.h"

namespace stiction::app {

PhysicsLoop::PhysicsLoop(ViewerScene& scene, UiState& ui, BodyPerturber& perturber, GripperSession& gripper,
                         const VideoSession& video, const AppOptions& options)
    : scene_(scene), ui_(ui), perturber_(perturber), gripper_(gripper), video_(video), options_(options) {
  clock_.set_real_time_factor(options.real_time_factor);
  clock_.set_unlimited(options.unlimited);
  clock_.set_budget(0.010);
  paused_ = options.paused;
}

void PhysicsLoop::TogglePause() {
  paused_ = !paused_;
  clock_.Restart();
}

void PhysicsLoop::RequestSingleStep() {
  paused_ = true;
  single_step_requested_ = true;
}

void PhysicsLoop::StepFrame(double wall_dt, double rest_of_last_frame_ms) {
  Simulation& sim = *scene_.sim;
  steps_last_frame_ = 0;
  if (single_step_requested_) {
    single_step_requested_ = false;
    if (Step()) steps_last_frame_ = 1;
    clock_.Restart();
    return;
  }
  if (paused_) {
    clock_.Restart();
    return;
  }
  if (options_.steps_per_frame > 0) {
    for (int i = 0; i < options_.steps_per_frame && !paused_ && !video_.FrameDue(sim.time()); ++i) {
      if (Step()) ++steps_last_frame_;
    }
    clock_.EndFrame(wall_dt, sim.time_step());
    return;
  }
  // The budget: the configured one, or as long as the rest of the last
  // frame took (rendering on llvmpipe can take tens of ms), so that physics
  // that is behind gets at least half of each frame.
  const double budget = std::max(clock_.budget(), 1e-3 * rest_of_last_frame_ms);
  const double start = glfwGetTime();
  clock_.BeginFrame(wall_dt);
  // While recording, a frame's physics ends at the state that reaches the
  // next video frame time (frame-synchronous: that state is rendered and
  // written this frame; see app.h).
  while (!paused_ && !video_.FrameDue(sim.time()) && clock_.WantsStep(sim.time_step()) &&
         glfwGetTime() - start < budget) {
    const double dt = sim.time_step();
    if (!Step()) break;
    clock_.OnStep(dt);
    ++steps_last_frame_;
  }
  clock_.EndFrame(wall_dt, sim.time_step());
}

bool PhysicsLoop::Step() {
  Simulation& sim = *scene_.sim;
  // The state before the first step is the timeline's first.
  if (history_enabled_ && history_.empty()) history_.Push(sim, gripper_.scene_gripper());
  perturber_.ApplyWrench();
  const bool perturbed = perturber_.perturbation().active();
  if (perturbed) {
    gripper_.take_dataset().NoteInput("a mouse drag on " + sim.model().body(perturber_.perturbation().body).name);
  }
  const double dt = sim.time_step();
  const CommandPlayer* player = gripper_.player();
  const std::size_t waits_before = player != nullptr ? player->events().size() : 0;
  gripper_.PrepareStep();
  if (history_enabled_) {
    MarkScriptEvents(waits_before);
    NoteParameters();
  }
  const StepResult result = sim.Step();
  if (result.status != StepStatus::kSuccess) {
    if (history_enabled_) MarkEvent("step failed");
    paused_ = true;
    ui_.Error(StringPrintf("step failed at t = %.6g s: ", sim.time()) + result.message +
              " (paused; change a parameter or reset)");
    if (!options_.visible) std::fprintf(stderr, "stiction: %s\n", ui_.message.c_str());
    return false;
  }
  last_stats_ = result.stats;
  ui_.solver_stops.Add(result.stats);
  gripper_.AfterStep(dt);
  contacts_valid_ = true;
  last_step_dt_ = dt;
  ++steps_taken_;
  if (history_enabled_) {
    std::string not_saveable = std::move(not_saveable_);
    not_saveable_.clear();
    if (perturbed) not_saveable = "a mouse drag on " + sim.model().body(perturber_.perturbation().body).name;
    history_.Push(sim, gripper_.scene_gripper(),
                  StateNotes{GraspPlotSamples(gripper_.readout()), gripper_.step_commands(), parameters_,
                             std::move(not_saveable)});
    const bool has_contacts = !sim.contacts().empty();
    if (has_contacts && !had_contacts_) MarkEvent("first contact");
    had_contacts_ = has_contacts;
  }
  return true;
}

void PhysicsLoop::MarkScriptEvents(std::size_t waits_before) {
  const std::int64_t step = scene_.sim->step_index();
  if (const CommandPlayer* player = gripper_.player()) {
    for (std::size_t i = waits_before; i < player->events().size(); ++i) {
      history_.AddEvent(step, "script: " + player->events()[i].what);
    }
  }
  for (const GripperCommand& c : gripper_.last_applied()) {
    if (!c.grip) continue;
    const GripperController* g = gripper_.scene_gripper().controller(c.gripper);
    const std::string who = g != nullptr && gripper_.num_grippers() > 1 ? " (" + g->name() + ")" : "";
    history_.AddEvent(step, std::string(*c.grip == GripState::kClosed ? "grip closes" : "grip opens") + who);
  }
}

void PhysicsLoop::NoteParameters() {
  // A script's `set:` entries change them too.
  const CommandPlayer* player = gripper_.player();
  const int script_edits = player != nullptr ? player->parameter_edits_applied() : 0;
  if (parameters_ != nullptr && !parameters_edited_ && script_edits == script_edits_seen_) return;
  parameters_ = std::make_shared<const SceneParameters>(scene_.sim->CalcSceneParameters());
  parameters_edited_ = false;
  script_edits_seen_ = script_edits;
}

void PhysicsLoop::MarkEdit(const std::string& what) {
  parameters_edited_ = true;
  gripper_.take_dataset().NoteInput("an edit of the " + what + " during the take");
  MarkEvent("edit: " + what);
}

void PhysicsLoop::MarkEvent(std::string text) {
  if (history_enabled_) history_.AddEvent(scene_.sim->step_index(), std::move(text));
}

bool PhysicsLoop::StepToVideoFrame() {
  while (video_.clock().Due(scene_.sim->time()) == 0) {
    if (!Step()) return false;
  }
  return true;
}

bool PhysicsLoop::StepUntil(double t_s) {
  const Simulation& sim = *scene_.sim;
  while (sim.time() < t_s - 0.5 * sim.time_step()) {
    if (!Step()) return false;
  }
  return true;
}

Snapshot PhysicsLoop::MakeSnapshot() const {
  return app::MakeSnapshot(*scene_.sim, last_stats_, contacts_valid_, last_step_dt_);
}

void PhysicsLoop::Restart(bool new_scene) {
  last_stats_ = {};
  contacts_valid_ = false;
  if (new_scene) steps_taken_ = 0;
  clock_.Restart();
  history_.Clear();
  had_contacts_ = false;
  parameters_.reset();
}

bool PhysicsLoop::ScrubTo(int index) {
  paused_ = true;
  single_step_requested_ = false;
  if (index == history_.cursor()) return true;
  if (video_.recording() || gripper_.recorder().recording()) {
    ui_.Error("timeline: stop the recording first (a take or a video follows the run as it is taken)");
    return false;
  }
  if (!ShowState(index)) return false;
  const std::string changed = SettingsChangedSince(index);
  if (!changed.empty()) {
    ui_.Info("timeline: this state was taken with " + changed +
             "; running on from it uses the current settings and starts a new branch (the old one stays until then)");
  }
  return true;
}

bool PhysicsLoop::ShowState(int index) {
  paused_ = true;
  single_step_requested_ = false;
  Simulation& sim = *scene_.sim;
  SceneGripper grippers = gripper_.scene_gripper();
  try {
    history_.Restore(index, &sim, &grippers);
  } catch (const InputError& e) {
    ui_.Error(std::string("timeline: ") + e.what());
    return false;
  }
  perturber_.End();
  contacts_valid_ = sim.step_index() > 0;
  had_contacts_ = !sim.contacts().empty();
  last_step_dt_ = history_.time_step_at(index);  // The step that led to it.
  gripper_.RestoreFrom(grippers, last_step_dt_);
  clock_.Restart();
  return true;
}

std::string PhysicsLoop::SettingsChangedSince(int index) const {
  const Simulation& sim = *scene_.sim;
  std::string what;
  auto add = [&](const std::string& s) { what += (what.empty() ? "" : ", ") + s; };
  if (history_.scheme_at(index) != sim.stepping_scheme()) {
    add(std::string(SteppingSchemeName(history_.scheme_at(index))) + " (now " +
        std::string(SteppingSchemeName(sim.stepping_scheme())) + ")");
  } else if (history_.solver_at(index) != sim.solver_type()) {
    add("the " + std::string(SolverTypeName(history_.solver_at(index))) + " solver (now " +
        std::string(SolverTypeName(sim.solver_type())) + ")");
  }
  if (history_.time_step_at(index) != sim.time_step()) {
    add("dt = " + FormatNumber(history_.time_step_at(index) * 1e3, 6) + " ms (now " +
        FormatNumber(sim.time_step() * 1e3, 6) + " ms)");
  }
  return what;
}

bool PhysicsLoop::StepBack() {
  if (history_.cursor() <= 0) {
    paused_ = true;
    ui_.Error(history_.empty() ? "timeline: no earlier state (the history starts with the first step)"
                               : "timeline: at the oldest state the history holds");
    return false;
  }
  return ScrubTo(history_.cursor() - 1);
}

void PhysicsLoop::StepForward() {
  if (history_.cursor() >= 0 && history_.cursor() < history_.size() - 1) {
    ScrubTo(history_.cursor() + 1);
    return;
  }
  RequestSingleStep();
}

bool PhysicsLoop::SetHistoryCap(std::size_t bytes) {
  try {
    history_.SetCap(bytes);
  } catch (const InputError& e) {
    ui_.Error(e.what());
    return false;
  }
  return true;
}

void PhysicsLoop::SetHistoryEnabled(bool on) {
  history_enabled_ = on;
  history_.Clear();  // On again: the timeline starts from the current state.
}

}  // namespace stiction::app
