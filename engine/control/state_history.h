#pragma once
// The timeline's memory (issue 38; docs/viewer.md, "Timeline"): the states
// of a run, one per step, each with the grippers' controllers and script as
// they were, so that restoring any of them and stepping on reproduces the
// run bit for bit (the engine is deterministic; Simulation::SaveState keeps
// the warm starts and what the last step reported). Bounded by a memory
// cap: the oldest states go first. Stepping on from a restored state that
// is not the newest starts a new branch: the states after it are dropped.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/scene_gripper.h"
#include "engine/scene/scene_writer.h"
#include "engine/simulation.h"

namespace stiction {

/// What a state keeps besides the simulation and the grippers.
struct StateNotes {
  /// What the caller plots at this state (the viewer's grasp plots), kept
  /// with the previous branch too, so that plots follow the cursor and a
  /// branch's plots can be drawn beside those of the one it replaced.
  std::vector<float> samples;
  /// The gripper commands applied before the step that led to this state
  /// (the user's and the script's, in order), and the live parameters that
  /// step ran with (null: the same as the state before's): what
  /// BranchCommandLog writes.
  std::vector<GripperCommand> commands;
  std::shared_ptr<const SceneParameters> parameters;
  /// An input that step had which a command file cannot hold ("a mouse
  /// drag on box", "a joint slider"): "" when none.
  std::string not_saveable;
};

/// Something that happened at a step of the run, for the scrubber's marks
/// (a script's wait passed, a grip closed, a parameter edited, a failed step).
struct TimelineEvent {
  std::int64_t step = 0;  ///< The step index of the state it belongs to.
  std::string text;
};

class StateHistory {
 public:
  static constexpr std::size_t kDefaultCapBytes = std::size_t{256} << 20;  ///< 256 MiB.

  explicit StateHistory(std::size_t cap_bytes = kDefaultCapBytes) : cap_bytes_(cap_bytes) {}

  /// Sets the memory cap [bytes] and drops the oldest states beyond it,
  /// never the one the simulation is at (so after a restore the history may
  /// stay above the cap until the next push). Throws InputError (and keeps
  /// the cap) when it is smaller than the largest state held, which it
  /// could never keep.
  void SetCap(std::size_t bytes);
  std::size_t cap_bytes() const { return cap_bytes_; }

  /// After a step (or before the first): saves the current state. When the
  /// cursor is not at the newest state (a restore happened), the states
  /// after it are dropped first (a new branch). Then the oldest states go
  /// while the total exceeds the cap (never the one just saved).
  void Push(const Simulation& sim, const SceneGripper& grippers, StateNotes notes = {});
  /// Restores state `index` (0 = the oldest held) into the simulation and
  /// the grippers; the cursor moves there. Throws InputError for an index
  /// out of range or a state of another model.
  void Restore(int index, Simulation* sim, SceneGripper* grippers);
  void Clear();

  int size() const { return static_cast<int>(entries_.size()); }
  bool empty() const { return entries_.empty(); }
  /// The index of the state the simulation is at (size() − 1 unless a
  /// restore moved it back); −1 when empty.
  int cursor() const { return cursor_; }
  /// The step index and time [s] of state `index`.
  std::int64_t step_at(int index) const { return entries_.at(static_cast<std::size_t>(index)).sim.step_index; }
  double time_at(int index) const { return entries_.at(static_cast<std::size_t>(index)).sim.time; }
  /// The samples pushed with state `index` (empty when none were).
  const std::vector<float>& samples_at(int index) const {
    return entries_.at(static_cast<std::size_t>(index)).notes.samples;
  }
  /// The time step [s] and solver the state `index` was saved under.
  double time_step_at(int index) const { return entries_.at(static_cast<std::size_t>(index)).time_step; }
  SolverType solver_at(int index) const { return entries_.at(static_cast<std::size_t>(index)).solver; }
  SteppingScheme scheme_at(int index) const { return entries_.at(static_cast<std::size_t>(index)).scheme; }
  /// Bytes held by every state (their own estimate, Simulation::SaveState).
  std::size_t bytes() const { return bytes_; }
  /// The largest single state saved since the last Clear [bytes].
  std::size_t largest_state_bytes() const { return largest_; }

  /// The branch a new one replaced: when Push drops the states after the
  /// cursor, their positions are kept here (the last replaced branch only),
  /// so the viewer can draw where the bodies went before (a ghost).
  /// Positions q at step `step`, or null when that branch has none there.
  const VectorX* PreviousBranchAt(std::int64_t step) const;
  /// The samples the previous branch had at step `step`, or null.
  const std::vector<float>* PreviousBranchSamplesAt(std::int64_t step) const;
  int previous_branch_size() const { return static_cast<int>(previous_branch_.size()); }
  void ClearPreviousBranch() { previous_branch_.clear(); }

  /// The run from t = 0 to the cursor as a command file that reproduces it
  /// from the scene file (issue 38, "a branch saved"): every gripper
  /// command at the step it was applied, by step index, and each change of
  /// the live parameters as a `set:` entry at the step it took effect,
  /// against `scene_parameters` (the scene file's). `gripper_names`: the
  /// scene's grippers in order (named in each entry when more than one).
  /// Throws InputError when the oldest state kept is not t = 0 (the cap
  /// dropped the start) or the states hold no parameters. Inputs the file
  /// cannot hold go to `not_saved` ("t = 1.2 s: a mouse drag on box", the
  /// first of each kind).
  CommandLog BranchCommandLog(const SceneParameters& scene_parameters, const std::vector<std::string>& gripper_names,
                              const std::string& scene_label, std::vector<std::string>* not_saved = nullptr) const;

  /// Marks an event at step `step` (kept in step order; the same text twice
  /// at one step is one mark; a branch drops the events after its start,
  /// the cap those before the oldest state).
  void AddEvent(std::int64_t step, std::string text);
  const std::vector<TimelineEvent>& events() const { return events_; }

 private:
  struct Entry {
    SimulationState sim;
    SceneGripper grippers;
    StateNotes notes;
    double time_step = 0;  // The settings it was saved under [s].
    SolverType solver = SolverType::kSap;
    SteppingScheme scheme = SteppingScheme::kThetaMethod;
    std::size_t bytes = 0;
  };
  struct BranchState {  // A state of the previous branch: what the ghost and the plots need.
    std::int64_t step = 0;
    VectorX q;
    std::vector<float> samples;
  };
  const BranchState* PreviousBranchState(std::int64_t step) const;
  void DropOldest();

  std::deque<Entry> entries_;
  std::deque<BranchState> previous_branch_;  // Steps increasing by one.
  std::shared_ptr<const SceneParameters> last_parameters_;  // The last pushed (counted once).
  static constexpr std::size_t kParametersBytes = sizeof(SceneParameters) + 512;  // Estimate with the materials.
  std::vector<TimelineEvent> events_;
  std::size_t cap_bytes_;
  std::size_t bytes_ = 0;
  std::size_t largest_ = 0;
  int cursor_ = -1;
};

}  // namespace stiction
