#pragma once
// The frame's physics: pause and single step, the steps a frame takes
// (--steps-per-frame, or the PhysicsClock's real-time debt inside the
// per-frame wall-time budget), and Step, the only place a physics step is
// taken in every mode: the perturbation's wrench and the gripper's commands
// go in before it, the solver statistics and the grasp readout come out.
// While recording, a frame's physics stops at the first state that reaches
// the next video frame time (frame-synchronous stepping, app/app.h).
#include <cstdint>
#include <memory>
#include <string>

#include "app/app_options.h"
#include "app/input/body_perturber.h"
#include "app/physics_clock.h"
#include "app/record/video_session.h"
#include "app/snapshot.h"
#include "app/teleop/gripper_session.h"
#include "app/ui/ui_state.h"
#include "app/viewer_scene.h"
#include "engine/control/state_history.h"

namespace stiction::app {

class PhysicsLoop {
 public:
  /// Everything passed outlives the loop: the scene it steps, the UI (the
  /// solver's stop counts, the status line), the parts that act before and
  /// after a step, the video (when a frame is due) and the options
  /// (--steps-per-frame, --rtf, --unlimited, --paused; a failed step is
  /// printed too without a visible window).
  PhysicsLoop(ViewerScene& scene, UiState& ui, BodyPerturber& perturber, GripperSession& gripper,
              const VideoSession& video, const AppOptions& options);
  PhysicsLoop(const PhysicsLoop&) = delete;
  PhysicsLoop& operator=(const PhysicsLoop&) = delete;

  PhysicsClock& clock() { return clock_; }
  const PhysicsClock& clock() const { return clock_; }
  bool paused() const { return paused_; }
  void TogglePause();
  /// Right arrow: pauses and takes one step next frame.
  void RequestSingleStep();
  std::int64_t steps_taken() const { return steps_taken_; }
  int steps_last_frame() const { return steps_last_frame_; }
  const StepStats& last_stats() const { return last_stats_; }

  /// This frame's steps, wall_dt [s] after the previous frame began.
  /// rest_of_last_frame_ms: what the last frame spent besides physics [ms];
  /// physics that is behind gets at least as long.
  void StepFrame(double wall_dt, double rest_of_last_frame_ms);
  /// One step. False when it failed: paused, the reason shown.
  bool Step();
  /// Steps until a video frame is due (none if one is due already). False
  /// when a step failed.
  bool StepToVideoFrame();
  /// Steps until the simulated time reaches t_s [s] (within half a step).
  /// False when a step failed.
  bool StepUntil(double t_s);
  /// The simulation's current state, with the last step's contacts once a
  /// step was taken since the last load or reset.
  Snapshot MakeSnapshot() const;
  /// After a scene load (new_scene: steps count from 0 again) or a reset:
  /// no last step, the clock forgets its debt, the timeline its states.
  void Restart(bool new_scene);

  // ---- The timeline (docs/viewer.md, "Timeline"). ----
  /// The states of this run, one per step since the load or reset.
  const StateHistory& history() const { return history_; }
  /// Left arrow: pauses and restores the state one step back. False (with
  /// the reason shown) when there is none or a recording forbids it.
  bool StepBack();
  /// Right arrow: pauses and restores the state one step forward when the
  /// timeline holds it (after a step back), else takes one step next frame.
  void StepForward();
  /// The scrubber: pauses and restores state `index` of the history.
  bool ScrubTo(int index);
  /// Restores state `index` as ScrubTo does, while a video records it (a
  /// video of the timeline, app/record/timeline_video.h).
  bool ShowState(int index);
  /// The memory cap [bytes]; false (with the message shown) when smaller
  /// than one state of the scene.
  bool SetHistoryCap(std::size_t bytes);
  /// Keeping history on or off (off: the states are dropped).
  void SetHistoryEnabled(bool on);
  bool history_enabled() const { return history_enabled_; }
  void ClearPreviousBranch() { history_.ClearPreviousBranch(); }
  /// Marks an event at the current state's step (a parameter edit, a
  /// teleop grip), shown on the scrubber.
  void MarkEvent(std::string text);
  /// A live parameter was edited (δt, μ, the solver, …): marked on the
  /// scrubber as "edit: WHAT", and the steps from now on keep the new
  /// parameters (a saved branch writes them as `set:` entries).
  void MarkEdit(const std::string& what);
  /// The next step has an input a command file cannot hold (a joint
  /// slider, a motor control): a saved branch says so.
  void NoteNotSaveable(std::string what) {
    gripper_.take_dataset().NoteInput(what);
    not_saveable_ = std::move(what);
  }

 private:
  ViewerScene& scene_;
  UiState& ui_;
  BodyPerturber& perturber_;
  GripperSession& gripper_;
  const VideoSession& video_;
  const AppOptions& options_;
  PhysicsClock clock_;
  bool paused_ = false;
  bool single_step_requested_ = false;
  std::int64_t steps_taken_ = 0;
  int steps_last_frame_ = 0;
  StepStats last_stats_;
  bool contacts_valid_ = false;  // sim.contacts() belong to the current state's last step.
  StateHistory history_;
  void MarkScriptEvents(std::size_t waits_before);
  /// Before a step: the parameters it runs with, shared with the states
  /// before while nothing changed them.
  void NoteParameters();
  std::shared_ptr<const SceneParameters> parameters_;
  bool parameters_edited_ = false;
  int script_edits_seen_ = 0;
  std::string not_saveable_;
  /// The stepping scheme, solver or δt state `index` was taken with when
  /// they differ from the current ones ("" when none does).
  std::string SettingsChangedSince(int index) const;
  bool had_contacts_ = false;  // The last step reported contacts (marks "first contact").
  bool history_enabled_ = true;
  double last_step_dt_ = 0;      // δt of that step [s].
};

}  // namespace stiction::app
