#pragma once
// The Gripper section (right column): teleop focus, grip force and open/close, command
// recording and replay, and the grasp readout per finger (normal force,
// friction utilisation, slip speed, stick/slip) with rolling plots. It reads
// a GripperView and acts only through GripperCommands (docs/viewer.md).
#include <string>

#include "app/ui/ui_state.h"
#include "engine/control/grasp_readout.h"
#include "engine/control/gripper_command.h"

namespace stiction::app {

/// What the App can be asked to do with the gripper.
class GripperCommands {
 public:
  virtual ~GripperCommands() = default;
  /// Teleop focus on/off (T / Esc): the mouse and keys drive the gripper.
  virtual void SetTeleop(bool on) = 0;
  virtual void SetGripClosed(bool closed) = 0;
  /// Grip force [N], clamped to [1, 50].
  virtual void SetGripForce(double newtons) = 0;
  /// Resets to t = 0 and records every gripper command from there.
  virtual void StartCommandRecording() = 0;
  virtual void StopCommandRecording() = 0;
  /// Writes the recording; false (and a message) if it cannot.
  virtual bool SaveCommandRecording(const std::string& path) = 0;
  /// Resets to t = 0 and replays a command file; false (and a message) on a
  /// bad file.
  virtual bool ReplayCommands(const std::string& path) = 0;
  /// Writes the timeline's run from t = 0 to now as a command file with its
  /// parameter edits; false (and a message) if it cannot.
  virtual bool SaveBranch(const std::string& path) = 0;
  /// Appends the stopped take to the dataset `path` as a success or a
  /// failure (docs/datasets.md); false (and a message) if it cannot.
  virtual bool KeepTake(const std::string& path, bool success) = 0;
  virtual void DiscardTake() = 0;
  /// Resets to t = 0 and drives every step with demo `index` of the dataset
  /// `path`, comparing the states; false (and a message) if it cannot.
  virtual bool ReplayDemo(const std::string& path, int index) = 0;
};

/// Read-only gripper facts for the panel.
struct GripperView {
  bool present = false;     ///< The scene has a gripper.
  std::string name;         ///< The one shown, when the scene has several ("" otherwise).
  bool teleop = false;      ///< Teleop focus is on.
  GripState grip = GripState::kOpen;
  double grip_force = 20;   ///< Commanded [N].
  bool grip_force_limited = true;  ///< The fingers press with grip_force (else their own effort limits).
  bool can_tilt = false;    ///< An arm: the target tilts (Alt+drag).
  GripperPose target, actual;
  GraspReadout readout;     ///< Of the last step.
  bool recording = false;
  int recorded_commands = 0;
  bool take_held = false;     ///< A stopped take waits to be kept or discarded.
  double take_seconds = 0;    ///< Its length [s].
  std::string take_not_reproducible;  ///< Why its actions alone will not replay it ("" = they will).
  int demos_kept = 0;         ///< Takes kept since the viewer started.
  std::string dataset_file;   ///< The file the last one went to.
  std::string demo_playing;   ///< A dataset's demo being replayed ("" = none).
  std::string replay_file;  ///< Playing this command file ("" = none).
  bool replay_finished = false;
  std::string waiting_for;  ///< The script's wait ("" when it is not waiting).
};

/// The Gripper section of the right column (nothing without a gripper).
void DrawGripperSection(const GripperView& view, UiState* ui, GripperCommands* commands);

/// Pushes one sample of the readout into the panel's plots.
void PushGraspPlots(const GraspReadout& readout, GripperUi* plots);

}  // namespace stiction::app
