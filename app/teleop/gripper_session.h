#pragma once
// The grippers of a scene that has them, and everything the viewer does
// with them: teleop focus (on one gripper at a time, taken from the script
// and handed back) and its gestures, the Gripper panel's commands, command
// recording (a "take", autosaved as it grows) and replay, and the grasp
// readout of the teleoperated gripper. The controller, recorder and player are the engine's
// (engine/control/); every command takes effect before the simulation's
// next step, the step it is recorded at (docs/teleop.md).
#include <optional>
#include <string>
#include <vector>

#include "app/camera_director.h"
#include "app/render/camera.h"
#include "app/teleop/demo_playback.h"
#include "app/teleop/take_dataset.h"
#include "app/snapshot.h"
#include "app/ui/gripper_panel.h"
#include "app/ui/ui_state.h"
#include "app/viewer_scene.h"
#include "engine/control/command_autosave.h"
#include "engine/control/command_log.h"
#include "engine/control/command_player.h"
#include "engine/control/command_recorder.h"
#include "engine/control/grasp_readout.h"
#include "engine/control/gripper_controller.h"
#include "engine/control/scene_gripper.h"

namespace stiction::app {

/// A dataset's demo read for replay, not yet playing (it starts after the
/// reset to t = 0, with `parameters`: the scene file's and the demo's edits).
struct DemoReplay {
  Demo demo;
  std::string name;  ///< "FILE demo_N".
  SceneParameters parameters;
};

/// A command file read for replay, not yet playing (it starts after the
/// reset to t = 0).
struct CommandReplay {
  std::string path;
  CommandLog log;
  CommandPlayer player;
};

/// Keyboard (and input device, times its sensitivity) teleop: the target's
/// speed along an axis [m/s] and its yaw and tilt rate [rad/s] (Nudge).
inline constexpr double kKeyboardSpeed = 0.15;
inline constexpr double kKeyboardTurnRate = 0.8;

class GripperSession {
 public:
  /// `scene`, `ui` and `director` (a command file's camera keyframes go to
  /// it) outlive the session; takes are autosaved into `autosave_dir`.
  GripperSession(ViewerScene& scene, UiState& ui, CameraDirector& director, std::string autosave_dir);
  GripperSession(const GripperSession&) = delete;
  GripperSession& operator=(const GripperSession&) = delete;

  /// The gripper teleop drives (the first until T moves on), when the
  /// scene has one (else nullptr).
  const GripperController* controller() const { return gripper_.controller(selected_); }
  /// Its index in the scene's grippers.
  int selected() const { return selected_; }
  int num_grippers() const { return gripper_.num_grippers(); }
  bool teleop() const { return teleop_; }
  const CommandRecorder& recorder() const { return recorder_; }
  /// The file the take is autosaved to (open while recording).
  const CommandAutosave& command_autosave() const { return command_autosave_; }
  /// The command file being replayed, or nullptr.
  const CommandPlayer* player() const { return gripper_.player(); }
  const GraspReadout& readout() const { return readout_; }
  /// What the Gripper panel is given this frame.
  GripperView MakeView() const;

  // ---- The scene's life. ----
  /// After a scene load: the gripper and the scene's own command file (its
  /// camera to the director). Returns an error line ("" if fine).
  std::string SetUp();
  /// After a reset to t = 0: a fresh controller, the replay from its first
  /// command; a take in progress ends (it would no longer match).
  void Restart();
  /// Puts the gripper's target-pose ghost into a snapshot.
  void AddGhost(Snapshot* snapshot) const;
  /// Before each step: the player's due commands, then the controller's
  /// actuator targets.
  void PrepareStep();
  /// After each successful step of `dt` [s]: the grasp readout, and the
  /// take's state.
  void AfterStep(double dt);
  /// The commands the script applied before the last step (for the
  /// timeline's marks).
  const std::vector<GripperCommand>& last_applied() const { return last_applied_; }
  /// Every command applied before the last step, the user's (teleop, the
  /// panel) and then the script's, in the order applied: what a timeline
  /// branch keeps to be saved as a command file.
  const std::vector<GripperCommand>& step_commands() const { return step_commands_; }
  /// The grippers' controllers and script, as the timeline saves them.
  const SceneGripper& scene_gripper() const { return gripper_; }
  /// After the timeline restored a state: the grippers and script as they
  /// were then, the user's teleop hold kept, the readout of that state's
  /// last step (`dt` [s]).
  void RestoreFrom(const SceneGripper& saved, double dt);
  /// One sample of the readout into the Gripper panel's plots.
  void PushPlots();

  // ---- Teleop. ----
  /// Teleop focus on/off; false (with the message shown) when turning it on
  /// in a scene without a gripper. On takes the selected gripper from a
  /// playing script (the script goes on with the others); off hands every
  /// gripper back to it.
  bool SetTeleop(bool on);
  /// In teleop with several grippers (T again): hands the gripper back to
  /// the script and takes the next one.
  void TeleopNextGripper();
  /// A left drag of (dx, dy) window pixels: moves the target in the
  /// horizontal plane (Shift: up/down, Ctrl: yaw, Alt: tilt) as seen
  /// through `camera` in a view of view_width x view_height pixels.
  void Drag(double dx, double dy, int mods, const Camera& camera, int view_width, int view_height);
  /// Scroll: the target up (dy > 0) or down.
  void Scroll(double dy);
  /// Keyboard teleop: moves the target for `dt` [s] along each axis at
  /// the keyboard rates, each of x, y, z, yaw, tilt in [−1, 1] (the keys
  /// held: W/S, A/D, R/F, Q/E, Z/X); tilt only for an arm.
  void Nudge(double x, double y, double z, double yaw, double tilt, double dt);
  void SetGripClosed(bool closed);
  void SetGripForce(double newtons);

  // ---- Takes and replay. ----
  /// Stops the command file playing, if any (the user takes over).
  void StopReplay();
  /// After the reset to t = 0 that starts a take: records from the
  /// controller's whole state (with `grip_force` [N]) on, autosaving;
  /// now_s: wall time [s].
  void StartTake(double grip_force, double now_s);
  void StopTake();
  /// Writes the take; false (and a message) if it cannot.
  bool SaveTake(const std::string& path);
  /// The take as a demonstration (sampled while it records, held once it
  /// stopped until kept in a dataset or discarded).
  TakeDataset& take_dataset() { return take_dataset_; }
  const TakeDataset& take_dataset() const { return take_dataset_; }
  /// Each frame: appends the new commands to the autosave (at most every
  /// CommandAutosave::kFlushPeriod), closes it once the take stopped.
  void SyncAutosave(double now_s);
  /// Writes the last commands and closes the autosave; returns its path
  /// ("" if none was open or it failed: the failure is shown and printed).
  std::string CloseAutosave();
  /// When the viewer closes: the same, a failure printed only (no panel is
  /// left to show it).
  void CloseAutosaveAtExit();
  /// Reads a command file to replay; nullopt (with the message shown) when
  /// the scene has no gripper or the file is bad.
  std::optional<CommandReplay> LoadReplay(const std::string& path);
  /// After the reset to t = 0: plays `replay` (teleop off, its camera to
  /// the director).
  void Play(CommandReplay replay);
  /// Reads demo `index` of the dataset `path` to replay; nullopt (with the
  /// message shown) when the file, the demo or its parameters are bad.
  std::optional<DemoReplay> LoadDemo(const std::string& path, int index);
  /// After the reset to t = 0: drives every step with the demo's actions
  /// (teleop off); false (message shown) if it does not fit the scene.
  bool PlayDemo(DemoReplay replay);
  const DemoPlayback& demo_playback() const { return demo_playback_; }

 private:
  /// Applies a teleop command to the selected gripper from the next step on
  /// (and records it); the gripper is then the user's until teleop ends.
  void Command(GripperCommand command);
  /// Takes gripper `index` from the playing script, if any.
  void Hold(int index, bool held);
  void StartPlayer(const std::string& path, const CommandLog& log, CommandPlayer player);

  ViewerScene& scene_;
  UiState& ui_;
  CameraDirector& director_;
  std::string autosave_dir_;
  SceneGripper gripper_;  // The controller and the command file it plays.
  CommandRecorder recorder_;
  CommandAutosave command_autosave_;  // recorder_'s log, on disk as it grows.
  bool teleop_ = false;
  int selected_ = 0;  // The gripper teleop and the panel drive.
  std::vector<GripperCommand> last_applied_;  // By the script, before the last step.
  std::vector<GripperCommand> user_commands_;  // By the user since the last step.
  std::vector<GripperCommand> step_commands_;  // Both, before the last step.
  GraspReadout readout_;
  TakeDataset take_dataset_{ui_};
  DemoPlayback demo_playback_{ui_};
};

}  // namespace stiction::app
