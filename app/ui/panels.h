#pragma once
// The ImGui panels, laid out as MuJoCo's `simulate` lays out its UI
// (app/ui/layout.h): a left column of collapsible sections (Scene,
// Simulation, Recording, Contact, Solver, Visualization) and a right column
// (Joints, Control, Plots, Gripper, Contacts), each scrolling inside itself, the 3D view in
// between with the info overlay and the recording indicator inside it, and
// the F1 bindings list. They read an AppView, edit the UiState, and act only
// through AppCommands, so the same apply functions serve the widgets and the
// tests.
#include <string>
#include <utility>
#include <vector>

#include "app/render/pressure_scale.h"
#include "app/snapshot.h"
#include "app/ui/gripper_panel.h"
#include "app/ui/ui_state.h"
#include "engine/simulation.h"

namespace stiction::app {

/// What the App can be asked to do. Methods that change engine parameters
/// throw InputError on a refused value; the caller shows the message.
class AppCommands {
 public:
  virtual ~AppCommands() = default;
  virtual void TogglePause() = 0;
  /// Right arrow: one step forward (through the timeline after a step back).
  virtual void StepOnce() = 0;
  /// Left arrow: the state one step back (the timeline).
  virtual void StepBack() = 0;
  /// The timeline's scrubber: the state of history index `index`.
  virtual void ScrubTo(int index) = 0;
  /// The timeline's memory cap [MiB] (refused, with the message shown,
  /// when smaller than one state), and keeping history on or off.
  virtual void SetHistoryCap(double mebibytes) = 0;
  virtual void SetHistoryEnabled(bool on) = 0;
  /// Forgets the previous branch (its ghost).
  virtual void ClearBranchGhost() = 0;
  /// Records a video of the kept states from from_s to to_s [s] to `path`
  /// ("" = the default name) at the Recording section's frame rate and size,
  /// one state shown per frame; false (message shown) for a bad range or
  /// while recording (app/record/timeline_video.h).
  virtual bool RecordTimelineVideo(double from_s, double to_s, const std::string& path) = 0;
  virtual void CancelTimelineVideo() = 0;
  virtual void ResetSimulation() = 0;
  virtual void SetTimeStep(double dt) = 0;
  virtual void SetIntegrator(const IntegratorSettings& integrator) = 0;
  /// The time-stepping scheme (θ-method or an NMDP scheme) and the NMDP
  /// schemes' parameters.
  virtual void SetSteppingScheme(SteppingScheme scheme) = 0;
  virtual void SetNmdpParameters(const NmdpParameters& p) = 0;
  virtual void SetRealTimeFactor(double rtf) = 0;
  virtual void SetUnlimitedSpeed(bool unlimited) = 0;
  virtual void SetPhysicsBudget(double seconds) = 0;
  virtual void SetContactModelParameters(const ContactModelParameters& p) = 0;
  virtual void SetMaterial(const std::string& name, const ContactMaterial& material) = 0;
  virtual void SetSolverParameters(const SapSolverParameters& p) = 0;
  /// Switches the contact solver and sets every solver's parameters.
  virtual void SetSolver(const SolverSettings& settings) = 0;
  virtual bool OpenScene(const std::string& path, bool keep_camera) = 0;
  virtual bool ReloadScene() = 0;
  virtual void RequestScreenshot() = 0;
  /// Starts or stops video recording (V, the Record button).
  virtual void ToggleRecording() = 0;
  /// Writes the scene with the current parameters to `path` (Save scene as);
  /// false with the message shown if it cannot.
  virtual bool SaveSceneAs(const std::string& path) = 0;
  /// An actuator's target q_d [rad or m] and v_d [rad/s or m/s] from the
  /// next step on (the Joints and Control sections, app/ui/joint_control.h).
  virtual void SetActuatorTarget(const std::string& name, double position, double velocity) = 0;
  /// A motor's control [1] from the next step on, clamped into its range
  /// (the Control section's motor rows).
  virtual void SetMotorControl(const std::string& name, double ctrl) = 0;
  /// Poses model joint `joint` (revolute or prismatic) at `position` [rad or
  /// m] kinematically, for a paused simulation (the Joints section): the
  /// state with that coordinate changed and every velocity zero, and the
  /// targets of the joint's actuators moved to it so that the pose holds
  /// when the simulation runs. Throws InputError for a bad joint or value.
  virtual void SetJointPosition(int joint, double position) = 0;
};

/// Read-only facts the panels show.
struct AppView {
  const Simulation* sim = nullptr;
  const Snapshot* snapshot = nullptr;
  std::string scene_file;
  bool paused = false;
  double target_rtf = 1;
  bool unlimited = false;
  double achieved_rtf = 0;
  double physics_budget_s = 0.01;
  double fps = 0;
  double frame_ms = 0, physics_ms = 0, render_ms = 0;
  int steps_last_frame = 0;
  // The timeline (the Simulation section's scrubber).
  bool history_enabled = true;
  int history_size = 0, history_cursor = -1;
  double history_cursor_time = 0;  ///< [s] of the state the simulation is at.
  double history_mib = 0, history_cap_mib = 256;
  int previous_branch_steps = 0;  ///< States of the replaced branch kept for its ghost.
  double history_first_time = 0, history_last_time = 0;  ///< The times the timeline holds [s].
  bool timeline_video = false;     ///< A video of the timeline is being made.
  double timeline_video_from = 0, timeline_video_to = 0, timeline_video_at = 0;  ///< Its range and progress [s].
  /// The scrubber's marks: (history index, "t = … s: what happened").
  std::vector<std::pair<int, std::string>> timeline_marks;
  int selected_body = -1;
  std::string selected_name;
  // Video recording (the indicator and the Record button).
  bool recording = false;
  bool video_png_sequence = false;  ///< ffmpeg missing: a PNG directory.
  std::string video_path;
  long long video_frames = 0;       ///< Frames written.
  double video_seconds = 0;         ///< Simulated time they cover [s].
  double video_fps = 30;
  int video_width = 0, video_height = 0;  ///< Frame size of the recording [pixels].
  std::string auto_antialiasing;          ///< What "auto" antialiasing is on this renderer.
  bool has_compliant_geometry = false;    ///< The scene has pressure-field contact.
  PressureLegend pressure_legend;         ///< The patches' colour scale this frame.
};

/// The panel fields for the simulation's current settings.
SimulationEdits SimulationEditsFrom(const Simulation& sim);

/// Applies the Simulation section's δt, stepping scheme, integrator and NMDP
/// parameters (all of ui->sim_edits;
/// Revert uses it with the scene's values). On a refused value it applies
/// nothing, sets ui->message and returns false; the simulation keeps its
/// previous settings and keeps running.
bool ApplySimulationEdits(UiState* ui, AppCommands* commands);

/// The Contact panel's fields for the simulation's current β, σ and materials.
ContactEdits ContactEditsFrom(const Simulation& sim);

/// Applies the Contact panel (β, σ, every material) from the next step. All
/// or nothing: on a refused value (an InputError from the engine) whatever was
/// already set is restored, ui->message says why, and it returns false.
bool ApplyContactEdits(const Simulation& sim, UiState* ui, AppCommands* commands);

/// The Solver panel's fields for the simulation's current solver parameters.
SolverEdits SolverEditsFrom(const Simulation& sim);

/// Applies the Solver panel from the next step (same rules as above).
bool ApplySolverEdits(UiState* ui, AppCommands* commands);

/// Near-rigid resting penetration β² g δt² / (4π²) [m] (docs/contact-model.md).
double NearRigidPenetration(double beta, double g, double dt);
/// Bound on the slip speed in stiction μ σ g δt [m/s] ([SAP] Eq. 31).
double StictionSlipBound(double mu, double sigma, double g, double dt);

/// The scene's values for the "edited" markers and Revert (after a load).
SceneValues SceneValuesFrom(const Simulation& sim);

/// The panels' fields for a scene just loaded from `path`: the Open field,
/// every live section's values, the scene's values for Revert, no refused
/// fields.
void LoadSceneFields(const Simulation& sim, const std::string& path, UiState* ui);

/// Whether the engine's value of each section differs from the scene's.
bool SimulationEdited(const Simulation& sim, const SceneValues& scene);
bool ContactEdited(const Simulation& sim, const SceneValues& scene);
bool SolverEdited(const Simulation& sim, const SceneValues& scene);

/// Draws every panel for this frame (between ImGui::NewFrame and Render).
/// Sets ui->layout, which the App uses for the scene view.
/// The one-line hint in the scene view of a scene with a gripper that the
/// user is not teleoperating (issue 39: what a newcomer needs to start);
/// "" when none is shown (teleop on, a recording). The keys are `keys`'s.
std::string TeleopHint(const AppView& view, const GripperView& gripper, const KeyMap& keys = KeyMap());

void DrawPanels(const AppView& view, const GripperView& gripper, UiState* ui, AppCommands* commands,
                GripperCommands* gripper_commands);

}  // namespace stiction::app
