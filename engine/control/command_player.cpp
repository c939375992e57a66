#include "engine/control/command_player.h"

#include <algorithm>
#include <cmath>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/parameter_assignments.h"

namespace stiction {
namespace {

std::string WhereInLog(const CommandLog& log, int line) {
  return line > 0 ? log.file + ":" + std::to_string(line) : log.file;
}

std::string Key(std::size_t i) { return "commands[" + std::to_string(i) + "]"; }

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

std::int64_t Steps(double seconds, double dt) { return static_cast<std::int64_t>(std::llround(seconds / dt)); }

/// The total normal force [N] between the bodies of two masks over the last
/// step, and whether some contact between them pressed.
struct PairContact {
  double force = 0;
  bool pressing = false;
};

PairContact MeasurePair(const Simulation& sim, const std::vector<char>& in_a, const std::vector<char>& in_b) {
  PairContact out;
  const double dt = sim.time_step();
  for (const ContactReport& c : sim.contacts()) {
    const auto a = static_cast<size_t>(c.body_a), b = static_cast<size_t>(c.body_b);
    if (!((in_a[a] && in_b[b]) || (in_a[b] && in_b[a]))) continue;
    const double gamma_n = c.gamma_C.z();
    if (!(gamma_n > 0)) continue;
    out.pressing = true;
    out.force += gamma_n / dt;
  }
  return out;
}

}  // namespace

CommandPlayer::CommandPlayer(const CommandLog& log, double dt) : file_(log.file), dt_(dt) {
  if (!(dt > 0) || !std::isfinite(dt)) throw InputError("command player: time step must be > 0");
  bool has_steps = false;
  for (const CommandEntry& e : log.entries) has_steps = has_steps || e.step.has_value();
  // Step indices only mean the same instants at the δt they were recorded at.
  if (has_steps && log.time_step && *log.time_step != dt) {
    throw InputError(WhereInLog(log, log.time_step_line) + ": time_step: the commands were recorded at " +
                     FormatNumber(*log.time_step, 9) + " s but the simulation runs at " + FormatNumber(dt, 9) +
                     " s (replay at the recorded time step)");
  }
  std::int64_t previous = 0;  // The last fixed-time entry's step.
  auto items = std::make_shared<std::vector<Item>>();
  for (std::size_t i = 0; i < log.entries.size(); ++i) {
    const CommandEntry& e = log.entries[i];
    Item item;
    item.line = e.line;
    item.gripper = e.gripper;
    item.gripper_line = e.gripper_line;
    if (e.wait) {
      item.timing = Item::Timing::kWait;
      item.wait = *e.wait;
      if (e.timeout_s) item.timeout_steps = std::max<std::int64_t>(1, Steps(*e.timeout_s, dt));
      items->push_back(std::move(item));
      continue;
    }
    if (e.after_s) {
      item.timing = Item::Timing::kAfter;
      item.steps = Steps(*e.after_s, dt);
    } else {
      item.timing = Item::Timing::kStep;
      item.steps = e.step ? *e.step : Steps(*e.time_s, dt);
      // Waits may delay what follows them, never bring it forward: fixed
      // times must still be written in order.
      if (item.steps < previous) {
        throw InputError(WhereInLog(log, e.line) + ": " + Key(i) + (e.step ? ".step" : ".time") +
                         ": commands must be in time order (this one is before the previous one)");
      }
      previous = item.steps;
      last_fixed_step_ = item.steps;
    }
    item.command.target = e.target;
    item.command.ramp_steps = Steps(e.ramp_s, dt);
    item.command.grip = e.grip;
    item.command.grip_force = e.grip_force;
    item.has_command = e.target || e.grip || e.grip_force;
    item.set = e.set;
    item.set_line = e.set_line;
    items->push_back(std::move(item));
  }
  items_ = std::move(items);
}

std::string CommandPlayer::Where(const Item& item, int line) const {
  const int l = line > 0 ? line : item.line;
  return l > 0 ? file_ + ":" + std::to_string(l) : file_;
}

std::vector<char> CommandPlayer::BodyMask(const Simulation& sim, std::span<const GripperController> grippers,
                                          const std::string& name, const Item& item, const std::string& key) const {
  const MultibodyModel& model = sim.model();
  std::vector<char> mask(static_cast<size_t>(model.num_bodies()), 0);
  if (name == "world") {
    mask[0] = 1;
    return mask;
  }
  for (const GripperController& g : grippers) {
    if (g.name() != name) continue;
    for (int b : g.bodies()) mask[static_cast<size_t>(b)] = 1;
    return mask;
  }
  const int body = model.FindBody(name);
  if (body <= 0) {
    std::vector<std::string> names;
    for (const GripperController& g : grippers) names.push_back(g.name());
    throw InputError(Where(item, 0) + ": " + key + ": unknown body or gripper '" + name +
                     "' (grippers: " + Join(names) + "; or a body's name, or world)");
  }
  mask[static_cast<size_t>(body)] = 1;
  return mask;
}

void CommandPlayer::Bind(const Simulation& sim, std::span<const GripperController> grippers) {
  std::vector<std::string> names;
  for (const GripperController& g : grippers) names.push_back(g.name());
  held_.resize(grippers.size(), 0);
  // The edits in file order, each checked on the parameters as the ones
  // before it leave them.
  SceneParameters parameters = sim.CalcSceneParameters();
  auto bound = std::make_shared<std::vector<Item>>(*items_);
  for (std::size_t i = 0; i < bound->size(); ++i) {
    Item& item = (*bound)[i];
    if (item.timing == Item::Timing::kWait) {
      if (item.wait.kind != WaitCondition::Kind::kTime) {
        item.in_a = BodyMask(sim, grippers, item.wait.a, item, Key(i) + ".wait");
        item.in_b = BodyMask(sim, grippers, item.wait.b, item, Key(i) + ".wait");
      }
      continue;
    }
    if (!item.set.empty()) {
      try {
        for (const std::string& a : item.set) ApplyParameterAssignment(a, &parameters);
      } catch (const InputError& e) {
        throw InputError(Where(item, item.set_line) + ": " + Key(i) + ".set: " + e.what());
      }
    }
    item.gripper_index = 0;
    if (!item.has_command && item.gripper.empty()) continue;  // Parameters only.
    if (item.gripper.empty()) {
      if (grippers.empty()) throw InputError(Where(item, 0) + ": " + Key(i) + ": the scene has no gripper");
      continue;
    }
    const auto found = std::find(names.begin(), names.end(), item.gripper);
    if (found == names.end()) {
      throw InputError(Where(item, item.gripper_line) + ": " + Key(i) + ".gripper: unknown gripper '" +
                       item.gripper + "' (the scene's grippers: " + Join(names) + ")");
    }
    item.gripper_index = static_cast<int>(found - names.begin());
  }
  items_ = std::move(bound);
  bound_ = true;
}

bool CommandPlayer::Holds(const Item& item, const Simulation& sim) const {
  if (item.wait.kind == WaitCondition::Kind::kTime) return sim.step_index() >= Steps(item.wait.value, dt_);
  const PairContact c = MeasurePair(sim, item.in_a, item.in_b);
  switch (item.wait.kind) {
    case WaitCondition::Kind::kForceAbove:
      return c.force > item.wait.value;
    case WaitCondition::Kind::kForceBelow:
      return c.force < item.wait.value;
    case WaitCondition::Kind::kTouch:
      return c.pressing;
    case WaitCondition::Kind::kSeparate:
      return !c.pressing;
    case WaitCondition::Kind::kTime:
      break;
  }
  return false;
}

void CommandPlayer::ApplyDue(Simulation* simulation, std::span<GripperController> grippers,
                             std::vector<GripperCommand>* applied) {
  const Simulation& sim = *simulation;
  if (!bound_) Bind(sim, std::span<const GripperController>(grippers.data(), grippers.size()));
  const std::int64_t step = sim.step_index();
  while (next_ < items_->size()) {
    const Item& item = (*items_)[next_];
    if (item.timing == Item::Timing::kWait) {
      if (wait_start_ < 0) wait_start_ = step;
      // Before the first step there are no contacts yet: a contact
      // condition is judged after a step.
      const bool judged = item.wait.kind == WaitCondition::Kind::kTime || step > 0;
      if (!judged || !Holds(item, sim)) {
        if (item.timeout_steps >= 0 && step - wait_start_ >= item.timeout_steps) {
          const std::string what = DescribeWait(item.wait);
          const std::size_t index = next_;
          next_ = items_->size();  // The script stops here.
          throw InputError(Where(item, 0) + ": " + Key(index) + ".wait: timed out after " +
                           FormatNumber(static_cast<double>(item.timeout_steps) * dt_, 6) + " s at t = " +
                           FormatNumber(sim.time(), 6) + " s waiting for " + what);
        }
        return;
      }
      events_.push_back(ScriptEvent{static_cast<int>(next_), step, DescribeWait(item.wait)});
      anchor_ = step;
      wait_start_ = -1;
      ++next_;
      continue;
    }
    const std::int64_t due = item.timing == Item::Timing::kStep ? item.steps : anchor_ + item.steps;
    if (due > step) return;
    if (!item.set.empty()) {
      try {
        SceneParameters parameters = sim.CalcSceneParameters();
        for (const std::string& a : item.set) ApplyParameterAssignment(a, &parameters);
        simulation->SetSceneParameters(parameters);
      } catch (const InputError& e) {
        const std::size_t index = next_;
        next_ = items_->size();  // The script stops here.
        throw InputError(Where(item, item.set_line) + ": " + Key(index) + ".set: " + e.what());
      }
      ++parameter_edits_;
    }
    if (!item.has_command) {
      anchor_ = step;
      ++next_;
      continue;
    }
    const int g = item.gripper_index;
    if (g >= static_cast<int>(grippers.size())) {
      throw InputError(Where(item, 0) + ": " + Key(next_) + ": the scene has no gripper " + std::to_string(g));
    }
    GripperCommand command = item.command;
    command.step = step;
    command.gripper = g;
    anchor_ = step;
    ++next_;
    if (held(g)) continue;  // The user holds it: the script goes on without it.
    try {
      grippers[static_cast<size_t>(g)].Apply(command);
    } catch (const InputError& e) {
      throw InputError(Where(item, 0) + ": " + Key(next_ - 1) + ": " + e.what());
    }
    if (applied != nullptr) applied->push_back(command);
  }
}

void CommandPlayer::Hold(int index, bool held) {
  if (index < 0) return;
  if (static_cast<size_t>(index) >= held_.size()) held_.resize(static_cast<size_t>(index) + 1, 0);
  held_[static_cast<size_t>(index)] = held ? 1 : 0;
}

bool CommandPlayer::held(int index) const {
  return index >= 0 && static_cast<size_t>(index) < held_.size() && held_[static_cast<size_t>(index)] != 0;
}

std::string CommandPlayer::waiting_for() const {
  if (finished() || (*items_)[next_].timing != Item::Timing::kWait) return "";
  return DescribeWait((*items_)[next_].wait);
}

std::vector<GripperCommand> CommandPlayer::fixed_commands() const {
  std::vector<GripperCommand> out;
  for (const Item& item : *items_) {
    if (item.timing != Item::Timing::kStep) continue;
    out.push_back(item.command);
    out.back().step = item.steps;
  }
  return out;
}

std::size_t CommandPlayer::Bytes() const {
  return sizeof(*this) + held_.capacity() + events_.capacity() * sizeof(ScriptEvent);
}

void CommandPlayer::Rewind() {
  next_ = 0;
  parameter_edits_ = 0;
  anchor_ = 0;
  wait_start_ = -1;
  events_.clear();
}

void PrepareGripperStep(Simulation* sim, std::span<GripperController> grippers, CommandPlayer* player,
                        std::vector<GripperCommand>* applied) {
  if (player != nullptr) player->ApplyDue(sim, grippers, applied);
  for (const GripperController& g : grippers) g.Actuate(sim);
}

void PrepareGripperStep(Simulation* sim, GripperController* controller, CommandPlayer* player) {
  PrepareGripperStep(sim, std::span<GripperController>(controller, 1), player);
}

}  // namespace stiction
