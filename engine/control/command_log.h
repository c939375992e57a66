#pragma once
// The command file (YAML): timed commands for the scene's grippers, recorded
// during a run or written by hand as a task script that waits on the
// simulation, played by CommandPlayer. docs/teleop.md documents the format:
//
//   format: stiction-commands-1
//   scene: grasp_box.yaml          # informative
//   time_step: 0.01                # [s] δt of the recording (needed by `step:` entries)
//   commands:
//     - {step: 0, target: [0, 0, 0.3, 0], grip: open, grip_force: 20}
//     - {time: 1.5, grip: close}
//     - {time: 2.0, target: [0, 0, 0.5, 0], ramp: 1.0}
//     - {after: 0.5, gripper: right, grip: close}          # a named gripper, 0.5 s after the entry before
//     - {wait: {force: [right, box], above: 5}, timeout: 3} # until the contact force exceeds 5 N
//     - {step: 150, set: [materials.box_surface.friction=0.12]} # a parameter edit from step 150 on
//   camera:                        # optional: a scripted camera (camera_keyframes.h)
//     - {time: 0, lookat: [0, 0, 0.1], distance: 1.2, azimuth: 90, elevation: -20}
//
// Errors are InputError "FILE:LINE: KEY: reason".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/control/camera_keyframes.h"
#include "engine/control/gripper_command.h"

namespace stiction {

/// What a script waits on (entry key `wait:`), judged from the contacts of
/// the step just taken: the entries after the wait apply from the next step.
struct WaitCondition {
  enum class Kind {
    kForceAbove,  ///< {force: [A, B], above: F}: the contact force between A and B exceeds F [N].
    kForceBelow,  ///< {force: [A, B], below: F}: ... falls below F [N].
    kTouch,       ///< {touch: [A, B]}: some contact between A and B presses.
    kSeparate,    ///< {separate: [A, B]}: none does.
    kTime,        ///< {time: t}: the simulated time has reached t [s].
  };
  Kind kind = Kind::kTime;
  /// Names of bodies, "world", or grippers (each of a gripper's bodies).
  std::string a, b;
  double value = 0;  ///< [N] (force) or [s] (time).
};

/// One entry as written: a command keyed by step index, by time or by the
/// time since the entry before; or a wait.
struct CommandEntry {
  std::optional<std::int64_t> step;  ///< Applied before this step (0 = first).
  std::optional<double> time_s;      ///< ... or at this simulated time [s] (step = round(t/δt)).
  /// ... or this long [s] after the entry before took effect (a command
  /// applied, a wait met; the start for the first entry).
  std::optional<double> after_s;
  /// A wait instead of a command: the script stops here until it holds.
  std::optional<WaitCondition> wait;
  /// With a wait: give up after this long [s] (the script fails with a
  /// message naming the entry); none: wait for ever.
  std::optional<double> timeout_s;
  /// The gripper the command drives (scene `grippers:` name); "" = the
  /// scene's first.
  std::string gripper;
  int gripper_line = 0;              ///< Line of `gripper:` (0: not from a file).
  std::optional<GripperPose> target; ///< [x, y, z, yaw] in [m, m, m, rad].
  double ramp_s = 0;                 ///< With a target: linear move over this time [s].
  std::optional<GripState> grip;
  std::optional<double> grip_force;  ///< [N], in [1, 50].
  /// Parameter edits ("key=value", engine/scene/parameter_assignments.h),
  /// applied to the simulation in order from this entry's step on: how a
  /// saved timeline branch keeps the edits made during it.
  std::vector<std::string> set;
  int set_line = 0;                  ///< Line of `set:`.
  int line = 0;                      ///< 1-based line in the file (0: not from a file).
};

struct CommandLog {
  std::string file;    ///< Label for error messages (the path).
  std::string scene;   ///< The scene it was recorded on (informative).
  std::optional<double> time_step;  ///< δt of the recording [s].
  std::vector<CommandEntry> entries;
  int time_step_line = 0;
  /// The scripted camera (key `camera:`), times strictly increasing; empty:
  /// none. InterpolateCameraKeyframes gives the camera at a time.
  std::vector<CameraKeyframe> camera;
};

inline constexpr const char* kCommandFormat = "stiction-commands-1";

/// Reads and validates a command file. Throws InputError "FILE:LINE: KEY: ...".
CommandLog LoadCommandFile(const std::string& path);
/// The same from text; `label` names it in errors.
CommandLog ParseCommandText(const std::string& text, const std::string& label);
/// "force between A and B above 5 N", for messages and the viewer.
std::string DescribeWait(const WaitCondition& wait);
/// The file text. Numbers are written with 17 significant digits, so they
/// read back bit-identical (deterministic replay).
std::string FormatCommandLog(const CommandLog& log);
/// Writes FormatCommandLog to `path`. Throws InputError if it cannot.
void SaveCommandFile(const CommandLog& log, const std::string& path);

}  // namespace stiction
