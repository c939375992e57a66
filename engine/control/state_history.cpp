#include "engine/control/state_history.h"

#include <algorithm>
#include <iterator>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/parameter_assignments.h"

namespace stiction {
namespace {

std::string Megabytes(std::size_t bytes) {
  return FormatNumber(static_cast<double>(bytes) / static_cast<double>(std::size_t{1} << 20), 4) + " MiB";
}

}  // namespace

void StateHistory::SetCap(std::size_t bytes) {
  if (bytes == 0 || bytes < largest_) {
    throw InputError("history cap: " + Megabytes(bytes) + " is smaller than one state of this scene (" +
                     Megabytes(largest_) + "); give at least that");
  }
  cap_bytes_ = bytes;
  // Never the state the simulation is at (after a restore, not the newest).
  while (bytes_ > cap_bytes_ && cursor_ > 0) DropOldest();
}

void StateHistory::Push(const Simulation& sim, const SceneGripper& grippers, StateNotes notes) {
  // A new branch: what followed the restored state is not its future any
  // more; its positions stay as the previous branch.
  if (!entries_.empty() && cursor_ < static_cast<int>(entries_.size()) - 1) {
    previous_branch_.clear();
    while (cursor_ < static_cast<int>(entries_.size()) - 1) {
      Entry& last = entries_.back();
      previous_branch_.push_front(BranchState{last.sim.step_index, std::move(last.sim.q), std::move(last.notes.samples)});
      bytes_ -= entries_.back().bytes;
      entries_.pop_back();
    }
    const std::int64_t branch_start = entries_.back().sim.step_index;
    std::erase_if(events_, [&](const TimelineEvent& e) { return e.step > branch_start; });
  }
  Entry e{sim.SaveState(), grippers, std::move(notes)};
  e.time_step = sim.time_step();
  e.solver = sim.solver_type();
  e.scheme = sim.stepping_scheme();
  // Parameters are shared between the states they held for; counted once.
  const bool new_parameters = e.notes.parameters != nullptr && e.notes.parameters != last_parameters_;
  if (e.notes.parameters != nullptr) last_parameters_ = e.notes.parameters;
  e.bytes = e.sim.Bytes() + grippers.Bytes() + sizeof(Entry) + e.notes.samples.capacity() * sizeof(float) +
            e.notes.commands.capacity() * sizeof(GripperCommand) + (new_parameters ? kParametersBytes : 0);
  largest_ = std::max(largest_, e.bytes);
  bytes_ += e.bytes;
  entries_.push_back(std::move(e));
  cursor_ = static_cast<int>(entries_.size()) - 1;
  while (bytes_ > cap_bytes_ && cursor_ > 0) DropOldest();
}

void StateHistory::DropOldest() {
  bytes_ -= entries_.front().bytes;
  entries_.pop_front();
  --cursor_;
  const std::int64_t first = entries_.front().sim.step_index;
  std::erase_if(events_, [&](const TimelineEvent& e) { return e.step < first; });
}

void StateHistory::AddEvent(std::int64_t step, std::string text) {
  const auto at = std::upper_bound(events_.begin(), events_.end(), step,
                                   [](std::int64_t s, const TimelineEvent& e) { return s < e.step; });
  // The same event twice at one step (a panel applying every field) is one mark.
  for (auto it = at; it != events_.begin() && std::prev(it)->step == step; --it) {
    if (std::prev(it)->text == text) return;
  }
  events_.insert(at, TimelineEvent{step, std::move(text)});
}

void StateHistory::Restore(int index, Simulation* sim, SceneGripper* grippers) {
  if (index < 0 || index >= size()) {
    throw InputError("history: no state " + std::to_string(index) + " (it holds " + std::to_string(size()) + ")");
  }
  const Entry& e = entries_[static_cast<std::size_t>(index)];
  sim->RestoreState(e.sim);
  *grippers = e.grippers;
  cursor_ = index;
}

const StateHistory::BranchState* StateHistory::PreviousBranchState(std::int64_t step) const {
  if (previous_branch_.empty()) return nullptr;
  const std::int64_t i = step - previous_branch_.front().step;
  if (i < 0 || i >= static_cast<std::int64_t>(previous_branch_.size())) return nullptr;
  return &previous_branch_[static_cast<std::size_t>(i)];
}

const VectorX* StateHistory::PreviousBranchAt(std::int64_t step) const {
  const BranchState* b = PreviousBranchState(step);
  return b != nullptr ? &b->q : nullptr;
}

const std::vector<float>* StateHistory::PreviousBranchSamplesAt(std::int64_t step) const {
  const BranchState* b = PreviousBranchState(step);
  return b != nullptr && !b->samples.empty() ? &b->samples : nullptr;
}

CommandLog StateHistory::BranchCommandLog(const SceneParameters& scene_parameters,
                                          const std::vector<std::string>& gripper_names,
                                          const std::string& scene_label,
                                          std::vector<std::string>* not_saved) const {
  if (entries_.empty() || entries_.front().sim.step_index != 0) {
    throw InputError("save branch: the timeline no longer holds t = 0 (its oldest state is t = " +
                     (entries_.empty() ? std::string("none") : FormatNumber(entries_.front().sim.time, 6) + " s") +
                     "), and a branch is saved from the start; raise the history cap and run it again");
  }
  CommandLog log;
  log.scene = scene_label;
  log.time_step = scene_parameters.time_step;  // What `step:` entries are read at: the scene's δt.
  const SceneParameters* in_effect = &scene_parameters;
  for (int k = 1; k <= cursor_; ++k) {
    const Entry& e = entries_[static_cast<std::size_t>(k)];
    const std::int64_t step = entries_[static_cast<std::size_t>(k - 1)].sim.step_index;
    if (not_saved != nullptr && !e.notes.not_saveable.empty() &&
        std::none_of(not_saved->begin(), not_saved->end(), [&](const std::string& s) {
          return s.ends_with(": " + e.notes.not_saveable);
        })) {
      not_saved->push_back("t = " + FormatNumber(entries_[static_cast<std::size_t>(k - 1)].sim.time, 6) + " s: " +
                           e.notes.not_saveable);
    }
    if (e.notes.parameters == nullptr) {
      throw InputError("save branch: the state at t = " + FormatNumber(e.sim.time, 6) +
                       " s has no parameters noted (kept with the timeline off?)");
    }
    if (e.notes.parameters.get() != in_effect) {
      CommandEntry set;
      set.step = step;
      set.set = DiffSceneParameters(*in_effect, *e.notes.parameters);
      if (!set.set.empty()) log.entries.push_back(std::move(set));
      in_effect = e.notes.parameters.get();
    }
    for (const GripperCommand& c : e.notes.commands) {
      CommandEntry entry;
      entry.step = step;
      entry.target = c.target;
      entry.ramp_s = static_cast<double>(c.ramp_steps) * scene_parameters.time_step;
      entry.grip = c.grip;
      entry.grip_force = c.grip_force;
      if (gripper_names.size() > 1 && c.gripper >= 0 && static_cast<std::size_t>(c.gripper) < gripper_names.size()) {
        entry.gripper = gripper_names[static_cast<std::size_t>(c.gripper)];
      }
      log.entries.push_back(std::move(entry));
    }
  }
  return log;
}

void StateHistory::Clear() {
  last_parameters_.reset();
  entries_.clear();
  previous_branch_.clear();
  events_.clear();
  bytes_ = 0;
  largest_ = 0;
  cursor_ = -1;
}

}  // namespace stiction
