#pragma once
// Plays a command log deterministically: each command is applied to its
// gripper's controller before its step, and a wait holds the script until
// its condition holds after a step, so the same scene + the same command
// file + the same settings give bit-identical trajectories (the engine is
// deterministic, and every command and every wait lands on the same step).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/gripper_command.h"
#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

namespace stiction {

/// A wait the script passed: the entry and the step the entries after it
/// applied from (its condition held after step `step` − 1).
struct ScriptEvent {
  int entry = 0;           ///< Index in the log's entries.
  std::int64_t step = 0;   ///< The step index the script resumed at.
  std::string what;        ///< DescribeWait of the condition.
};

class CommandPlayer {
 public:
  CommandPlayer() = default;
  /// Resolves the log's entries to steps at time step `dt` [s]: `time: t`
  /// becomes step round(t / dt), `after: a` and `ramp: r` round(a / dt)
  /// and round(r / dt) steps, a wait's `timeout` round(timeout / dt) steps.
  /// Throws InputError "FILE:LINE: KEY: ..." when `step:` entries were
  /// recorded at another δt than `dt`, or fixed-time entries go back in time.
  CommandPlayer(const CommandLog& log, double dt);

  /// Resolves the names the log uses against a simulation: grippers (by
  /// their scene names, `grippers` in scene order) and the bodies of the
  /// waits (a body's name, "world", or a gripper's name for all its
  /// bodies), and the `set:` edits against the simulation's parameters
  /// (keys, values, ranges). ApplyDue binds on first use; call it early to
  /// report a bad name at load. Throws InputError "FILE:LINE: KEY: ...".
  void Bind(const Simulation& sim, std::span<const GripperController> grippers);

  /// Before step sim.step_index(): passes the waits whose condition holds
  /// after the last step and applies, in file order, every command that is
  /// then due, each to its gripper (a held gripper's commands are skipped).
  /// Appends each applied command to `applied` when given. An entry's
  /// `set:` edits go to the simulation's parameters first (a held
  /// gripper's entries keep theirs). Throws InputError "FILE:LINE:
  /// commands[i].wait: ..." when a wait times out (the script stops there),
  /// or naming the entry when a controller refuses a command or the
  /// simulation a parameter.
  void ApplyDue(Simulation* sim, std::span<GripperController> grippers,
                std::vector<GripperCommand>* applied = nullptr);
  /// The entries with `set:` applied so far (a caller notes parameter
  /// changes by it).
  int parameter_edits_applied() const { return parameter_edits_; }

  /// A user holds gripper `index` (teleop): the script's commands for it
  /// are skipped until it is handed back; the rest of the script goes on.
  void Hold(int index, bool held);
  bool held(int index) const;

  bool finished() const { return next_ == items_->size(); }
  /// The step the last entry took effect at; −1 until finished().
  std::int64_t finished_step() const { return finished() ? anchor_ : -1; }
  /// Step of the last fixed-time command (0 if none); the script may run
  /// longer when it waits.
  std::int64_t last_step() const { return last_fixed_step_; }
  /// The wait the script is at, described ("" when it is not waiting).
  std::string waiting_for() const;
  /// The waits passed so far, in order.
  const std::vector<ScriptEvent>& events() const { return events_; }
  /// The commands at fixed times (`step:`, `time:`) with their resolved
  /// steps, in file order.
  std::vector<GripperCommand> fixed_commands() const;
  /// The number of entries (commands and waits).
  int num_entries() const { return static_cast<int>(items_->size()); }
  /// Back to the first entry (after a simulation Reset); holds are kept.
  void Rewind();
  /// Bytes of the playing state a copy holds (the entries themselves are
  /// shared between copies), for a state history's memory cap.
  std::size_t Bytes() const;

 private:
  struct Item {
    enum class Timing { kStep, kAfter, kWait } timing = Timing::kStep;
    std::int64_t steps = 0;  // kStep: the step; kAfter: the delay in steps.
    GripperCommand command;  // Its step is set when applied.
    bool has_command = false;  // A target, grip or grip force (else only `set:`).
    std::vector<std::string> set;  // Parameter edits.
    int set_line = 0;
    std::string gripper;     // As written ("" = the first).
    int gripper_index = 0;   // Bound.
    WaitCondition wait;
    std::int64_t timeout_steps = -1;  // −1: none.
    std::vector<char> in_a, in_b;     // Bound: body masks of the wait's sides.
    int line = 0, gripper_line = 0;
  };
  std::string Where(const Item& item, int line) const;
  /// Whether a wait's condition holds after the simulation's last step.
  bool Holds(const Item& item, const Simulation& sim) const;
  std::vector<char> BodyMask(const Simulation& sim, std::span<const GripperController> grippers,
                             const std::string& name, const Item& item, const std::string& key) const;

  std::string file_;
  double dt_ = 0.01;
  // The entries, shared by copies of the player (a state history keeps one
  // per step); Bind replaces them with a bound copy.
  std::shared_ptr<const std::vector<Item>> items_ = std::make_shared<const std::vector<Item>>();
  std::int64_t last_fixed_step_ = 0;
  bool bound_ = false;
  std::vector<char> held_;
  // Playing state.
  std::size_t next_ = 0;
  std::int64_t anchor_ = 0;       // When the entry before next_ took effect.
  std::int64_t wait_start_ = -1;  // When the current wait began (−1: not yet).
  std::vector<ScriptEvent> events_;
  int parameter_edits_ = 0;
};

/// What runs before every Step() of a gripper scene (viewer, stiction-sim,
/// headless recording): the player's due commands (player may be null), then
/// every controller's actuator targets for the step.
void PrepareGripperStep(Simulation* sim, std::span<GripperController> grippers, CommandPlayer* player,
                        std::vector<GripperCommand>* applied = nullptr);
/// The same for a scene with one gripper.
void PrepareGripperStep(Simulation* sim, GripperController* controller, CommandPlayer* player);

}  // namespace stiction
