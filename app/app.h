#pragma once
// The viewer application: one window, one simulation, and a linear frame
//   poll input -> perturbation -> physics (bounded budget) -> snapshot ->
//   render (shadow, scene, debug, resolve) -> UI -> swap.
// Physics runs on the render thread inside a per-frame wall-time budget
// (docs/viewer.md explains the choice and the measurements).
//
// Video recording (V, the Record button, --record): frames are due at fixed
// simulated times (VideoFrameClock). While recording, the physics of a frame
// stops at the first state that reaches the next frame time, and that
// frame's scene image (the resolved FBO: no panels, no indicator) is written
// — frame-synchronous stepping, so no frame time is ever skipped; when the
// machine renders slower than fps x RTF the simulation slows down instead
// (the achieved RTF shows it). Headless recording (RunHeadlessRecording)
// uses the same stepping: StepToNextVideoFrame + CaptureVideoFrames.
//
// DoStep is the only place a physics step is taken, in every mode; a command
// player (teleop replay) applies its commands there, before the step.
//
// Input arrives through HandleKey / HandleMouseButton / HandleCursor /
// HandleScroll / HandleDrop, from the GLFW callbacks or directly from tests;
// key codes and modifiers are GLFW's, cursor positions are window pixels
// with the origin at the top left.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app_options.h"
#include "app/input/perturbation.h"
#include "app/physics_clock.h"
#include "app/record/video_frame_clock.h"
#include "app/record/video_overlay.h"
#include "app/record/video_recorder.h"
#include "app/render/camera.h"
#include "app/render/render_scene.h"
#include "app/render/renderer.h"
#include "app/render/window.h"
#include "app/snapshot.h"
#include "app/ui/gripper_panel.h"
#include "app/ui/panels.h"
#include "app/ui/ui_state.h"
#include "engine/control/camera_keyframes.h"
#include "engine/control/command_autosave.h"
#include "engine/control/command_player.h"
#include "engine/control/command_recorder.h"
#include "engine/control/grasp_readout.h"
#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

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

  // ---- Input (same paths as the mouse and keyboard). ----
  /// key, action (GLFW_PRESS/REPEAT/RELEASE) and mods are GLFW's. Ignored
  /// while ImGui has keyboard focus (a text field is being edited).
  void HandleKey(int key, int action, int mods);
  /// time_s: event time [s] (double-click detection).
  void HandleMouseButton(int button, int action, int mods, double time_s);
  void HandleCursor(double x, double y);
  void HandleScroll(double dy);
  /// Files dropped on the window: opens the first (a .yaml scene or a
  /// .urdf/.xml robot file). A file that does not load leaves the current
  /// scene running and shows (and prints) why; never throws.
  void HandleDrop(const std::vector<std::string>& paths);

  // ---- AppCommands (panels and keys). ----
  void TogglePause() override;
  void StepOnce() override;
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

  // ---- Video. ----
  /// Starts recording to `path` (empty: stiction-YYYYMMDD-HHMMSS.mp4 in the
  /// screenshot directory) at width x height pixels (0: the framebuffer's
  /// size), rounded down to even, at ui().video_fps frames per simulated
  /// second; the first frame is the current state. Shows (and, without a
  /// visible window, prints) the outcome; false if it could not start.
  bool StartRecording(const std::string& path = "", int width = 0, int height = 0);
  /// Finishes the file; false (with the message shown and printed to stderr)
  /// if frames were lost or ffmpeg failed.
  bool StopRecording();
  bool recording() const { return video_.is_open(); }
  const VideoRecorder& video() const { return video_; }
  const VideoFrameClock& video_clock() const { return video_clock_; }
  /// Headless recording: steps until a video frame is due (none if one is
  /// due already) and refreshes the snapshot. False when a step failed.
  bool StepToNextVideoFrame();
  /// Steps, without recording, until the simulated time reaches t_s [s]
  /// (within half a step). False when a step failed (printed by DoStep).
  bool StepUntil(double t_s);
  /// Renders the current state at the video size and writes the frames due
  /// now, at most max_frames. False (message shown, printed to stderr,
  /// recording stopped) when a frame could not be written.
  bool CaptureVideoFrames(std::int64_t max_frames);

  // ---- GripperCommands (Gripper panel and teleop keys; app_gripper.cpp). ----
  void SetTeleop(bool on) override;
  void SetGripClosed(bool closed) override;
  void SetGripForce(double newtons) override;
  void StartCommandRecording() override;
  void StopCommandRecording() override;
  bool SaveCommandRecording(const std::string& path) override;
  bool ReplayCommands(const std::string& path) override;

  // ---- State, for the panels, the tests and the benchmark. ----
  Simulation& simulation() { return *sim_; }
  const Snapshot& snapshot() const { return snapshot_; }
  Camera& camera() { return camera_; }
  UiState& ui() { return ui_; }
  PhysicsClock& clock() { return clock_; }
  const RenderScene& render_scene() const { return render_scene_; }
  bool paused() const { return paused_; }
  int selected_body() const { return selected_body_; }
  const Perturbation& perturbation() const { return perturbation_; }
  /// The wrenches the engine currently applies (empty when not perturbing).
  const std::vector<ExternalWrench>& applied_wrenches() const { return applied_wrenches_; }
  std::int64_t steps_taken() const { return steps_taken_; }
  std::int64_t frames() const { return frames_; }
  /// Window size in pixels (input coordinates) and framebuffer size.
  void WindowSize(int* width, int* height) const;
  void FramebufferSize(int* width, int* height) const;
  /// The resolved scene image of the last frame (RGB, bottom row first).
  std::vector<std::uint8_t> ReadPixels(int* width, int* height) const;
  /// Keep a copy of the whole window (panels included) from the next frame
  /// on, read before the buffers swap; WindowPixels returns the last one.
  void set_capture_window(bool on) { capture_window_ = on; }
  /// Called each frame between the backends' NewFrame and ImGui::NewFrame,
  /// with ImGui's input state: tests point, click and type into the panels
  /// through it (a hidden window gets no input from GLFW).
  void set_ui_input(std::function<void(ImGuiIO&)> input) { ui_input_ = std::move(input); }
  const std::vector<std::uint8_t>& WindowPixels(int* width, int* height) const {
    *width = window_pixels_width_;
    *height = window_pixels_height_;
    return window_pixels_;
  }
  bool SaveScreenshot(const std::string& path);
  /// The 3D view in window pixels (origin top left): the window minus the
  /// visible panel columns; while recording, the video frame letterboxed
  /// into that area (what is shown is what is recorded). Mouse positions
  /// map to the camera through it.
  Rect SceneViewRect() const;
  /// The viewer settings as they stand (layout, sections, window size).
  ViewerSettings CurrentSettings() const;
  /// Writes CurrentSettings() to options.settings_path (if set); false with
  /// the reason on stderr if it cannot.
  bool SaveSettings();
  /// True while the camera follows a command file's keyframes.
  bool camera_scripted() const { return camera_script_on_ && !camera_keyframes_.empty(); }
  /// Frames the bodies (the world's finite geometry when there are none) at
  /// their current poses: aims at the centre of their bounding box and fits
  /// the box into the view.
  void FitCamera();
  /// The contact nearest to window pixel (x, y) among those whose projection
  /// is within `max_pixels`; −1 if none (what Alt+click selects).
  int PickContact(double x, double y, double max_pixels = kContactPickPixels) const;
  /// Shows contact `index` of the snapshot in the inspector (−1: none).
  void SelectContact(int index);
  /// The inspected contact, or nullptr.
  const ContactSnapshot* selected_contact() const;
  /// The pressure patches' colour scale this frame (Visualization section's
  /// mode and fixed top, or the smoothed peak): what the patches are
  /// coloured with and the legend shows.
  PressureLegend pressure_legend() const;
  /// True when a geometry of the scene is compliant (pressure-field contact).
  bool has_compliant_geometry() const { return has_compliant_geometry_; }
  static constexpr double kContactPickPixels = 10.0;
  std::string gl_renderer() const { return window_->gl_renderer() + ", " + window_->gl_version(); }
  double last_render_ms() const { return render_ms_; }
  double last_physics_ms() const { return physics_ms_; }
  /// Wall time the last frame spent reading back and writing video frames [ms].
  double last_capture_ms() const { return capture_ms_; }
  double fps() const { return fps_; }
  /// The gripper, when the scene has one (else nullptr).
  const GripperController* gripper() const { return gripper_ ? &*gripper_ : nullptr; }
  bool teleop() const { return teleop_; }
  const CommandRecorder& recorder() const { return recorder_; }
  /// The file the command recording is autosaved to (open while recording).
  const CommandAutosave& command_autosave() const { return command_autosave_; }
  /// The command file being replayed, or nullptr.
  const CommandPlayer* player() const { return player_ ? &*player_ : nullptr; }
  const GraspReadout& grasp_readout() const { return readout_; }
  /// What the panels are given this frame.
  AppView MakeView() const;

 private:
  void InstallCallbacks();
  bool LoadScene(const std::string& path, bool keep_camera);
  void StepPhysics(double wall_dt);
  bool DoStep();
  /// True while recording and a video frame is due at the current state.
  bool VideoFrameDue() const;
  /// Writes the frames due from `rgb` (the scene image just rendered).
  bool WriteDueVideoFrames(const std::vector<std::uint8_t>& rgb, int width, int height, std::int64_t max_frames);
  /// Shows `message` in the UI as an error and prints it to stderr.
  void ReportError(const std::string& message);
  void UpdatePerturbationWrench();
  void EndPerturbation();
  void BuildDebugDraw(DebugDraw* debug) const;
  /// The scene view in framebuffer pixels, origin bottom left (OpenGL's).
  void SceneViewInFramebuffer(int* x, int* y, int* width, int* height) const;
  /// The scene view's size in window pixels, and (x, y) relative to it.
  void ViewSize(int* width, int* height) const;
  double ViewX(double x) const { return x - SceneViewRect().x; }
  double ViewY(double y) const { return y - SceneViewRect().y; }
  /// UI scale: the setting, else the monitor's content scale; rebuilds the
  /// font atlas when it changed.
  void UpdateUiScale();
  /// Keeps the camera's offset to the tracked body (Visualization > track body).
  void TrackCamera();
  /// While recording: samples the overlay plot when a video frame is due and
  /// burns the overlays into the scene image just rendered (w x h).
  void DrawRecordingOverlay(int width, int height);
  /// Follows the command file's camera keyframes, if any, at the current
  /// simulated time (until the user moves the camera).
  void ScriptCamera();
  /// The scene's `camera:` key (after FitCamera): pose, field of view, tracking.
  void ApplySceneCamera();
  void BuildContactDraw(DebugDraw* debug) const;
  /// After a new snapshot: follow the inspected contact (same body pair,
  /// nearest point to where it was) or drop it.
  void TrackSelectedContact(const Snapshot& previous);
  void Select(double x, double y);
  void CenterOn(double x, double y);
  void DragPerturbation(double dx, double dy, int mods);
  // Gripper (app_gripper.cpp).
  /// After a scene load: the gripper and the scene's own command file.
  /// Returns an error line ("" if fine).
  std::string SetUpGripper();
  /// Puts the gripper's target-pose ghost into a snapshot.
  void AddGhost(Snapshot* snapshot) const;
  void TeleopCommand(GripperCommand command);
  void TeleopKey(int key);
  void TeleopDrag(double dx, double dy, int mods);
  void TeleopScroll(double dy);
  GripperView MakeGripperView() const;
  /// Each frame: appends the new commands to the autosave (at most every
  /// CommandAutosave::kFlushPeriod), closes it once the recording stopped.
  void SyncCommandAutosave();
  /// Writes the last commands and closes the autosave; returns its path
  /// ("" if none was open or it failed: the failure is shown and printed).
  std::string CloseCommandAutosave();
  static double Now();

  AppOptions options_;
  std::unique_ptr<Window> window_;  // Declared first: destroyed last.
  std::unique_ptr<Renderer> renderer_;
  bool imgui_ready_ = false;

  std::unique_ptr<Simulation> sim_;
  std::string scene_path_;
  RenderScene render_scene_;
  Snapshot snapshot_;
  StepStats last_stats_;
  bool contacts_valid_ = false;  // sim_->contacts() belong to the current state's last step.
  double last_step_dt_ = 0;      // δt of that step [s].
  bool has_compliant_geometry_ = false;
  Camera camera_;
  UiState ui_;
  PhysicsClock clock_;

  bool paused_ = false;
  bool single_step_requested_ = false;
  bool screenshot_requested_ = false;
  std::int64_t steps_taken_ = 0;
  std::int64_t frames_ = 0;
  int steps_last_frame_ = 0;

  // Mouse.
  double cursor_x_ = 0, cursor_y_ = 0;
  int drag_button_ = -1;  // GLFW button held since a press in the viewport.
  int drag_mods_ = 0;
  double last_press_time_[3] = {-1, -1, -1};
  double last_press_x_[3] = {0, 0, 0}, last_press_y_[3] = {0, 0, 0};

  // Selection and perturbation.
  int selected_body_ = -1;
  Vector3 selected_point_B_ = Vector3::Zero();  // Picked point, body frame [m].
  Perturbation perturbation_;
  PerturbSpring spring_;
  std::vector<ExternalWrench> applied_wrenches_;

  // Gripper: controller, the command file being replayed, the recorder.
  std::optional<GripperController> gripper_;
  std::optional<CommandPlayer> player_;
  std::string player_file_;
  CommandRecorder recorder_;
  CommandAutosave command_autosave_;  // recorder_'s log, on disk as it grows.
  bool teleop_ = false;
  GraspReadout readout_;
  // Video.
  VideoRecorder video_;
  VideoFrameClock video_clock_;

  std::function<void(ImGuiIO&)> ui_input_;
  bool capture_window_ = false;
  std::vector<std::uint8_t> window_pixels_;
  int window_pixels_width_ = 0, window_pixels_height_ = 0;

  // Camera tracking: the body and where it was last frame.
  int tracked_body_ = -1;
  std::vector<CameraKeyframe> camera_keyframes_;  // Of the command file being replayed.
  bool camera_script_on_ = false;
  Vector3 tracked_position_ = Vector3::Zero();
  float font_scale_ = 0;  // UI scale the font atlas was built for.
  ImFont* overlay_font_ = nullptr;  // The video overlays' font (twice the UI's base size: crisp).
  std::vector<RollingPlot> overlay_series_;  // The overlay plot's history, one sample per video frame.
  std::string overlay_plot_;                 // Which plot overlay_series_ holds.

  // Timing.
  double last_frame_time_ = 0;
  double frame_ms_ = 0, physics_ms_ = 0, render_ms_ = 0, capture_ms_ = 0, fps_ = 0;
};

}  // namespace stiction::app
