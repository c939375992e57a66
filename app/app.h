#pragma once
// The viewer application: one window, one simulation, and a linear frame
//   poll input -> physics (bounded budget) -> snapshot -> render (shadow,
//   scene, debug, resolve) -> UI -> swap,
// as in Dear ImGui's example loop. Physics runs on the render thread inside
// a per-frame wall-time budget (docs/viewer.md explains the choice and the
// measurements).
//
// The App owns the parts and wires them; each part has one job and gets
// what it needs as references to what outlives it (docs/viewer.md "Code
// map"):
//   ViewerScene        the simulation, its file, drawables and snapshot
//   PhysicsLoop        pause, the frame's steps, Step (the only place a step is taken), the timeline's states
//   TimelineSession    a video of a past range of the timeline, a branch saved as a command file
//   InputController    mouse and keys, routed to the parts below
//   InputDevices       SpaceMouse and gamepad teleop, the user's key map
//   BodyPerturber      the selected body and the perturbation spring
//   ContactInspector   the contact the inspector shows
//   CameraDirector     the camera: scene key, fit, keyframes, tracking
//   GripperSession     teleop, command takes and replay, the grasp readout
//   VideoSession       recording: the recorder, its frame clock, overlays
//   FrameCapture       reads of rendered pixels: screenshots, the window
//   PanelLayout        where the scene view is between the panel columns
//   ImGuiLayer         ImGui's context, fonts at the UI scale, UI frames
//   ViewerSettingsFile the remembered layout
//   FrameTimer         where a frame's wall time goes
//
// Video recording (V, the Record button, --record): frames are due at fixed
// simulated times (VideoFrameClock). While recording, the physics of a frame
// stops at the first state that reaches the next frame time, and that
// frame's scene image (the resolved FBO: no panels, no indicator) is written
// — frame-synchronous stepping, so no frame time is ever skipped; when the
// machine renders slower than fps x RTF the simulation slows down instead
// (the achieved RTF shows it). Headless recording (RunHeadlessRecording)
// uses the same stepping: StepToNextVideoFrame + CaptureVideoFrames.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/app_options.h"
#include "app/camera_director.h"
#include "app/contact_inspector.h"
#include "app/frame_timer.h"
#include "app/input/body_perturber.h"
#include "app/input/devices/input_devices.h"
#include "app/input/input_controller.h"
#include "app/physics_loop.h"
#include "app/record/frame_capture.h"
#include "app/record/video_session.h"
#include "app/render/renderer.h"
#include "app/render/window.h"
#include "app/teleop/gripper_session.h"
#include "app/timeline_session.h"
#include "app/ui/imgui_layer.h"
#include "app/ui/panel_layout.h"
#include "app/ui/panels.h"
#include "app/ui/ui_state.h"
#include "app/ui/viewer_settings_file.h"
#include "app/viewer_scene.h"

namespace stiction::app {

class App final : public AppCommands, public GripperCommands {
 public:
  /// Opens the window, builds the renderer and loads the scene. Throws
  /// WindowError (no display, no GL 3.3), ShaderError, or InputError (scene).
  explicit App(const AppOptions& options);
  ~App() override;
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Runs frames until the window closes (or the headless frames are done,
  /// then writes the screenshot) or SIGINT/SIGTERM arrives (see
  /// FinishOnTerminationSignal). Returns the process exit code.
  int Run();
  /// After SIGINT/SIGTERM (app/record/termination_signals.h): finishes the
  /// video (every frame written, ffmpeg waited for) and the command
  /// recording's autosave, prints one line saying so and returns the exit
  /// code, 128 + signal.
  int FinishOnTerminationSignal(int signal);
  /// One iteration of the frame loop.
  void Frame();

  // ---- AppCommands (panels and keys). ----
  void TogglePause() override;
  void StepOnce() override;
  void StepBack() override;
  void ScrubTo(int index) override;
  void SetHistoryCap(double mebibytes) override;
  void SetHistoryEnabled(bool on) override;
  void ClearBranchGhost() override;
  bool RecordTimelineVideo(double from_s, double to_s, const std::string& path) override;
  void CancelTimelineVideo() override;
  void ResetSimulation() override;
  void SetTimeStep(double dt) override;
  void SetIntegrator(const IntegratorSettings& integrator) override;
  void SetSteppingScheme(SteppingScheme scheme) override;
  void SetNmdpParameters(const NmdpParameters& p) override;
  void SetRealTimeFactor(double rtf) override;
  void SetUnlimitedSpeed(bool unlimited) override;
  void SetPhysicsBudget(double seconds) override;
  void SetContactModelParameters(const ContactModelParameters& p) override;
  void SetMaterial(const std::string& name, const ContactMaterial& material) override;
  void SetSolverParameters(const SapSolverParameters& p) override;
  void SetSolver(const SolverSettings& settings) override;
  bool OpenScene(const std::string& path, bool keep_camera) override;
  bool ReloadScene() override;
  void RequestScreenshot() override;
  void ToggleRecording() override;
  bool SaveSceneAs(const std::string& path) override;
  void SetActuatorTarget(const std::string& name, double position, double velocity) override;
  void SetMotorControl(const std::string& name, double ctrl) override;
  void SetJointPosition(int joint, double position) override;

  // ---- GripperCommands (Gripper panel and teleop keys). ----
  void SetTeleop(bool on) override;
  void SetGripClosed(bool closed) override;
  void SetGripForce(double newtons) override;
  void StartCommandRecording() override;
  void StopCommandRecording() override;
  bool SaveCommandRecording(const std::string& path) override;
  bool ReplayCommands(const std::string& path) override;
  /// The timeline's run from t = 0 to the current state as a command file
  /// that reproduces it from the scene file (StateHistory::BranchCommandLog):
  /// false with the message shown when it cannot be written or the
  /// timeline lost t = 0; an input the file cannot hold is named.
  bool SaveBranch(const std::string& path) override;
  bool KeepTake(const std::string& path, bool success) override {
    return gripper_.take_dataset().Keep(path, success);
  }
  void DiscardTake() override { gripper_.take_dataset().Discard(); }
  bool ReplayDemo(const std::string& path, int index) override;

  // ---- Video. ----
  /// Starts recording to `path` (empty: stiction-YYYYMMDD-HHMMSS.mp4 in the
  /// screenshot directory) at width x height pixels (0: the Recording
  /// section's size, else the scene view's in framebuffer pixels), at
  /// ui().video_fps frames per simulated second; the first frame is the
  /// current state (VideoSession::Start). False if it could not start.
  bool StartRecording(const std::string& path = "", int width = 0, int height = 0);
  bool StopRecording() { return video_.Stop(); }
  /// Headless recording: steps until a video frame is due (none if one is
  /// due already) and refreshes the snapshot. False when a step failed.
  bool StepToNextVideoFrame();
  /// Steps, without recording, until the simulated time reaches t_s [s]
  /// (within half a step). False when a step failed (printed by Step).
  bool StepUntil(double t_s) { return physics_.StepUntil(t_s); }
  /// Shows state (q, v) at simulated time t_s [s] (no stepping, no ghosts;
  /// the camera script and the video overlays follow t_s): a dataset's
  /// images (app/record/dataset_images.h) and the Python module's frames.
  /// Throws InputError when q or v does not have the scene's size.
  void ShowState(const VectorX& q, const VectorX& v, double t_s);
  /// The state shown jumped to an earlier time (the Python module's reset):
  /// the video goes on from it, the next frame due at once.
  void RestartVideo() {
    if (video_.recording()) video_.Restart(scene_.sim->time());
  }
  /// The scene image of the state shown, at width x height, RGB, bottom row
  /// first, the camera following its script or tracked body.
  std::vector<std::uint8_t> RenderImage(int width, int height);
  /// Renders the current state at the video size and writes the frames due
  /// now, at most max_frames. False (message shown, printed to stderr,
  /// recording stopped) when a frame could not be written.
  bool CaptureVideoFrames(std::int64_t max_frames);

  // ---- The parts, for the panels, the tests and the benchmark. ----
  InputController& input() { return input_; }
  InputDevices& devices() { return devices_; }
  PhysicsLoop& physics() { return physics_; }
  CameraDirector& director() { return director_; }
  const BodyPerturber& perturber() const { return perturber_; }
  ContactInspector& inspector() { return inspector_; }
  const GripperSession& gripper() const { return gripper_; }
  const VideoSession& video() const { return video_; }
  const TimelineVideo& timeline_video() const { return timeline_.video(); }
  FrameCapture& capture() { return capture_; }
  const FrameCapture& capture() const { return capture_; }
  const PanelLayout& layout() const { return layout_; }
  ImGuiLayer& imgui() { return *imgui_; }
  /// Where the last frame's wall time went.
  const FrameTimes& frame_times() const { return timer_.times(); }

  // ---- State. ----
  Simulation& simulation() { return *scene_.sim; }
  const Snapshot& snapshot() const { return scene_.snapshot; }
  const RenderScene& render_scene() const { return scene_.render; }
  UiState& ui() { return ui_; }
  std::string gl_renderer() const { return window_.gl_renderer() + ", " + window_.gl_version(); }
  /// Writes the viewer settings as they stand (layout, sections, window
  /// size) to the settings file, if any; false with the reason on stderr.
  bool SaveSettings() const;
  /// What the panels are given this frame.
  AppView MakeView() const;

 private:
  // The frame's stages, in order.
  void PollInput(double wall_dt);
  void StepPhysics(double frame_start, double wall_dt);
  void UpdateSnapshot();
  void RenderSceneView(int framebuffer_width, int framebuffer_height);
  void DrawUi(int framebuffer_width, int framebuffer_height);
  void SwapBuffers(int framebuffer_width, int framebuffer_height);

  /// Replaces the scene by the file at `path`; a file that does not load
  /// leaves the current scene running and shows why (false).
  bool LoadScene(const std::string& path, bool keep_camera);
  /// The scene at `path` as a simulation; when it is the command line's
  /// scene, with its --set overrides and, for a scene given as text, from
  /// that text. Throws InputError.
  Simulation ReadScene(const std::string& path) const;
  /// Makes `sim` the running scene (drawn by `render`, from file `path`):
  /// what LoadScene does once nothing can fail. Returns the gripper's set-up
  /// error ("" when none).
  std::string InstallScene(std::unique_ptr<Simulation> sim, RenderScene render, const std::string& path,
                           bool keep_camera);
  /// T with a link selected and no gripper: teleoperates that link.
  void TeleoperateSelectedLink();
  /// What a load and a reset share: no last step, no plots, no inspected
  /// contact, the pressure scale and the physics clock start over (after a
  /// load, new_scene: the step count too).
  void ClearRunHistory(bool new_scene);
  /// The first snapshot after a load or reset (with the gripper's ghost);
  /// a recording goes on from the new state.
  void StartFromCurrentState();
  /// The panels' parameter fields from the engine (after a change the
  /// panels did not make: a script's `set:`, a replay's reset).
  void ShowEngineParameters();
  /// The timeline's previous branch at the current step into the snapshot.
  void AddBranchGhost(Snapshot* snapshot) const;
  /// The status line after a load: warnings, import notes, or "loaded".
  void ReportLoad(const std::string& path, const std::string& gripper_error);
  /// UI scale: the setting, else the monitor's content scale; rebuilds the
  /// font atlas when it changed.
  void UpdateUiScale();
  /// Pushes this frame's samples into the Plots section.
  void PushPlots();
  /// Renders the current state into the resolved image (width x height),
  /// with the recording's overlays while recording.
  void DrawSceneImage(int width, int height);
  void BuildDebugDraw(DebugDraw* debug) const;
  /// Writes the video frames due from the scene image just rendered.
  bool CaptureDueVideoFrames(std::int64_t max_frames);
  int RunHeadlessFrames();

  // Declaration order is construction order: each part is built after what
  // it refers to, and destroyed before it (the window last, ImGui first).
  ViewerSettingsFile settings_file_;
  AppOptions options_;
  UiState ui_;
  Window window_;
  Renderer renderer_;
  ViewerScene scene_;
  VideoSession video_;
  PanelLayout layout_;
  CameraDirector director_;
  BodyPerturber perturber_;
  ContactInspector inspector_;
  GripperSession gripper_;
  PhysicsLoop physics_;
  TimelineSession timeline_;
  InputController input_;
  InputDevices devices_;
  FrameCapture capture_;
  FrameTimer timer_;
  std::unique_ptr<ImGuiLayer> imgui_;
  int script_edits_shown_ = 0;  // The script's `set:` entries the panels show.  // After the scene loads and the callbacks are in (see the constructor).
};

}  // namespace stiction::app
