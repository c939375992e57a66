#include "app/app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "app/debug_glyphs.h"
#include "app/input/input_config.h"
#include "app/record/screenshot.h"
#include "app/record/termination_signals.h"
#include "app/render/pressure_patches.h"
#include "app/ui/status_line.h"
#include "engine/common/error.h"
#include "engine/control/command_log.h"
#include "engine/scene/scene_loader.h"
#include "engine/scene/scene_writer.h"
#include "engine/common/text.h"
#include "engine/multibody/kinematics.h"

namespace stiction::app {
namespace {

double Now() { return glfwGetTime(); }

// The name the command line's scene goes by: its file, "<string>" for a
// scene given as text, or the default demo scene.
std::string SceneLabel(const AppOptions& o) {
  if (!o.scene_text.empty()) return "<string>";
  return o.scene_path.empty() ? std::string(STICTION_DEFAULT_SCENE) : o.scene_path;
}

// The Gripper panel's plots from the timeline: the last 10 s of simulated
// time up to the cursor, in at most 300 points.
constexpr double kTimelinePlotSeconds = 10.0;
constexpr int kTimelinePlotPoints = 300;

// The options in effect: the remembered window size unless --size was
// given; a headless scene screenshot is the whole window (--size), so no
// panels unless --screenshot-window puts them in the picture.
AppOptions EffectiveOptions(AppOptions o, const ViewerSettings& remembered) {
  if (!o.size_given && remembered.window_width > 0 && remembered.window_height > 0) {
    o.width = remembered.window_width;
    o.height = remembered.window_height;
  }
  if (o.headless_frames > 0 && !o.screenshot_window) o.panels = false;
  return o;
}

UiState InitialUiState(const AppOptions& o, const ViewerSettings& remembered) {
  UiState ui;
  ui.settings = remembered;
  ui.overlay = o.overlay;
  if (!o.panels) ui.settings.layout.show_left = ui.settings.layout.show_right = false;
  ui.video_fps = o.record_fps;
  return ui;
}

WindowOptions WindowOptionsFor(const AppOptions& o) {
  return WindowOptions{.width = o.width, .height = o.height, .visible = o.visible, .vsync = o.vsync};
}

// Prints the load notes (Simulation::load_notes: the importers' notes of
// every robot, meshes used through their hull) to stderr, one line each,
// once per load, and returns how many there were.
int PrintImportNotes(const Simulation& sim) {
  const std::vector<std::string>& notes = sim.load_notes();
  for (const std::string& note : notes) std::fprintf(stderr, "stiction: import note: %s\n", note.c_str());
  return static_cast<int>(notes.size());
}

}  // namespace

App::App(const AppOptions& options)
    : settings_file_(options.no_settings ? std::string() : options.settings_path),
      options_(EffectiveOptions(options, settings_file_.remembered())),
      ui_(InitialUiState(options_, settings_file_.remembered())),
      window_(WindowOptionsFor(options_)),
      renderer_(ResolveShaderDir(options_.shader_dir)),
      video_(ui_, renderer_, options_.screenshot_dir, options_.ffmpeg_program),
      layout_(window_, ui_, video_),
      director_(scene_, ui_),
      perturber_(scene_, ui_),
      inspector_(scene_, ui_),
      gripper_(scene_, ui_, director_, options_.screenshot_dir),
      physics_(scene_, ui_, perturber_, gripper_, video_, options_),
      timeline_(scene_, ui_, physics_, gripper_, video_, [this](const std::string& path) { return StartRecording(path); }),
      input_({ui_, layout_, director_, perturber_, inspector_, gripper_, physics_, *this, *this}),
      devices_({ui_, gripper_, *this}, options_.no_settings ? std::string() : InputConfigPathBeside(options_.settings_path)),
      capture_(renderer_, ui_, options_.screenshot_dir) {
  UpdateUiScale();  // The scale only (ImGui is not up yet): the first layout and camera fit use it.
  // A headless video never goes back: it keeps no states.
  physics_.SetHistoryEnabled(options_.timeline && !options_.headless);
  if (!LoadScene(SceneLabel(options_), /*keep_camera=*/false)) throw InputError(ui_.message);
  if (!options_.replay_path.empty() && !ReplayCommands(options_.replay_path)) throw InputError(ui_.message);
  // Our callbacks first: ImGui's GLFW backend chains to them (it calls the
  // previously installed callback before updating its own state).
  input_.Attach(window_.handle());
  imgui_ = std::make_unique<ImGuiLayer>(window_.handle());
  UpdateUiScale();
  if (!options_.record_path.empty() && !options_.headless) {
    // Interactive --record: recording from the first frame; a failure to
    // start is shown in the UI and the viewer runs on.
    StartRecording(options_.record_path);
  }
}

App::~App() {
  gripper_.CloseAutosaveAtExit();
  SaveSettings();
  imgui_.reset();  // ImGui's GL objects go while the context exists; the renderer's next, the window last.
  InputController::Detach(window_.handle());
}

// ---------------------------------------------------------------- run

int App::Run() {
  if (options_.headless_frames > 0) return RunHeadlessFrames();
  // A signal ends the loop between frames: the frame in progress completes.
  while (!window_.ShouldClose() && TerminationSignal() == 0) Frame();
  if (const int signal = TerminationSignal()) return FinishOnTerminationSignal(signal);
  if (video_.recording()) {
    const bool ok = StopRecording();
    std::fprintf(stderr, "stiction: %s\n", ui_.message.c_str());
    if (!ok) return 1;
  }
  return 0;
}

int App::RunHeadlessFrames() {
  capture_.set_capture_window(options_.screenshot_window);
  for (int i = 0; i < options_.headless_frames && !window_.ShouldClose() && TerminationSignal() == 0; ++i) {
    Frame();
  }
  if (const int signal = TerminationSignal()) return FinishOnTerminationSignal(signal);
  bool saved = true;
  if (!options_.screenshot_path.empty()) {
    if (options_.screenshot_window) {
      int w = 0, h = 0;
      const std::vector<std::uint8_t>& rgb = capture_.WindowPixels(&w, &h);
      saved = WritePng(options_.screenshot_path, rgb, w, h);
    } else {
      saved = capture_.SaveScreenshot(options_.screenshot_path);
    }
  }
  if (!saved) {
    std::fprintf(stderr, "stiction: cannot write screenshot '%s'\n", options_.screenshot_path.c_str());
    return 1;
  }
  return 0;
}

int App::FinishOnTerminationSignal(int signal) {
  std::string line = std::string("stopped by ") + TerminationSignalName(signal) +
                     StringPrintf(" at t = %.6g s", scene_.sim->time());
  const bool had_video = video_.recording();
  if (had_video) {
    StopRecording();  // Every frame written, ffmpeg waited for; a failure is printed too.
    line += ": " + ui_.message;
  }
  const std::string commands = gripper_.CloseAutosave();
  if (!commands.empty()) {
    line += (had_video ? "; " : ": ") + std::to_string(gripper_.recorder().log().entries.size()) +
            " gripper commands autosaved to " + commands;
  }
  PrintStatusLine(line);
  return TerminationExitCode(signal);
}

// ---------------------------------------------------------------- frame

void App::Frame() {
  const double t0 = Now();
  const double wall_dt = timer_.BeginFrame(t0);
  PollInput(wall_dt);
  if (timeline_.video().active()) {
    timeline_.AdvanceVideo();
  } else {
    StepPhysics(t0, wall_dt);
  }
  UpdateSnapshot();
  UpdateUiScale();
  int fw = 0, fh = 0;
  window_.FramebufferSize(&fw, &fh);
  RenderSceneView(fw, fh);
  DrawUi(fw, fh);
  SwapBuffers(fw, fh);
  timer_.EndFrame(Now(), wall_dt);
}

void App::PollInput(double wall_dt) {
  glfwPollEvents();  // The input callbacks run inside.
  input_.Update(wall_dt);  // Keys held in teleop move the target.
  // So do a SpaceMouse's and a gamepad's deflections; scripted runs (the
  // benchmark, --headless-frames) take no device input.
  if (!options_.benchmark && options_.headless_frames == 0) devices_.Update(Now(), wall_dt);
  // Scene loads the panels asked for: here, never while a panel still reads
  // the old simulation.
  if (!ui_.pending_open.empty()) {
    const std::string path = std::move(ui_.pending_open);
    ui_.pending_open.clear();
    LoadScene(path, /*keep_camera=*/false);
  }
  if (ui_.pending_reload) {
    ui_.pending_reload = false;
    ReloadScene();
  }
}

void App::StepPhysics(double frame_start, double wall_dt) {
  physics_.StepFrame(wall_dt, timer_.times().frame_ms - timer_.times().physics_ms);
  // A script's `set:` entries changed parameters: the panels show them.
  const CommandPlayer* player = gripper_.player();
  const int script_edits = player != nullptr ? player->parameter_edits_applied() : 0;
  if (script_edits != script_edits_shown_) {
    script_edits_shown_ = script_edits;
    ShowEngineParameters();
  }
  timer_.set_physics_ms((Now() - frame_start) * 1e3);
  gripper_.SyncAutosave(Now());
}

void App::UpdateSnapshot() {
  Snapshot previous = std::move(scene_.snapshot);
  scene_.snapshot = physics_.MakeSnapshot();
  gripper_.AddGhost(&scene_.snapshot);
  AddBranchGhost(&scene_.snapshot);
  inspector_.Follow(previous);
  ui_.pressure_max.Update(scene_.snapshot.peak_pressure);
  PushPlots();
}

void App::PushPlots() {
  if (physics_.steps_last_frame() > 0) {
    const StepStats& stats = physics_.last_stats();
    Plots& plots = ui_.plots;
    plots.iterations.Push(static_cast<float>(stats.iterations));
    plots.line_search_iterations.Push(static_cast<float>(stats.line_search_iterations));
    // log10 e_m; steps without contact (e_m = 0) show as the floor, 1e-16.
    plots.log_momentum_error.Push(static_cast<float>(std::log10(std::max(stats.momentum_error, 1e-16))));
    // The same floor for the solver-independent NCP residual.
    plots.log_ncp_residual.Push(static_cast<float>(std::log10(std::max(stats.ncp_residual, 1e-16))));
    plots.contacts.Push(static_cast<float>(stats.num_contacts));
    plots.kinetic_energy.Push(static_cast<float>(scene_.snapshot.kinetic_energy));
    gripper_.PushPlots();
  }
  ui_.gripper.timeline.clear();
  if (physics_.history_enabled() && gripper_.num_grippers() > 0) {
    ui_.gripper.timeline = TimelineGraspPlots(physics_.history(), kTimelinePlotSeconds, kTimelinePlotPoints);
  }
  if (!physics_.paused()) ui_.plots.achieved_rtf.Push(static_cast<float>(physics_.clock().achieved_real_time_factor()));
}

// The scene into the renderer's image at the scene view's size (the
// video's while recording), the due video frames written from it, then
// shown between the columns, and saved if a screenshot was asked for.
void App::RenderSceneView(int framebuffer_width, int framebuffer_height) {
  director_.Follow();
  int vx = 0, vy = 0, vw = 0, vh = 0;
  layout_.SceneViewInFramebuffer(&vx, &vy, &vw, &vh);
  if (framebuffer_width <= 0 || framebuffer_height <= 0 || vw <= 0 || vh <= 0) return;  // 0 x 0 while minimized.
  const bool recording = video_.recording();
  DrawSceneImage(recording ? video_.width() : vw, recording ? video_.height() : vh);
  timer_.set_capture_ms(0);
  if (video_.FrameDue(scene_.sim->time())) {
    const double c0 = Now();
    CaptureDueVideoFrames(std::numeric_limits<std::int64_t>::max());
    timer_.set_capture_ms((Now() - c0) * 1e3);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, framebuffer_width, framebuffer_height);
  glClearColor(0.06f, 0.06f, 0.07f, 1.0f);  // Letterbox bars and the area under the columns.
  glClear(GL_COLOR_BUFFER_BIT);
  renderer_.BlitToWindow(vx, vy, vw, vh);
  capture_.SaveRequestedScreenshot();
}

void App::DrawSceneImage(int width, int height) {
  DebugDraw debug;
  BuildDebugDraw(&debug);
  const double r0 = Now();
  renderer_.Render(scene_.render, scene_.snapshot, director_.camera(), ui_.viz.render, debug,
                   perturber_.selected_body(), width, height);
  if (video_.recording()) {  // Shown as it will be in the video.
    const OverlaySample sample = SampleOverlayPlot(ui_.overlay.plot, gripper_.readout(), scene_.snapshot);
    video_.DrawOverlay(scene_.sim->time(), scene_.path, sample, imgui_->overlay_font(), width, height);
  }
  if (options_.sync_timing) glFinish();
  timer_.set_render_ms((Now() - r0) * 1e3);
}

void App::BuildDebugDraw(DebugDraw* debug) const {
  if (ui_.viz.pressure.show_patches) AddPressurePatches(scene_.snapshot, ui_.pressure_legend(), debug);
  AddContactGlyphs(scene_.snapshot, ui_.viz, ui_.selected_contact, debug);
  AddBodyGlyphs(scene_.snapshot, scene_.render, ui_.viz, debug);
  perturber_.AddGlyphs(ui_.viz, debug);
}

bool App::CaptureDueVideoFrames(std::int64_t max_frames) {
  int w = 0, h = 0;
  const std::vector<std::uint8_t> rgb = renderer_.ReadPixels(&w, &h);
  return video_.WriteDueFrames(rgb, w, h, scene_.sim->time(), max_frames);
}

void App::DrawUi(int framebuffer_width, int framebuffer_height) {
  imgui_->BeginFrame();
  DrawPanels(MakeView(), gripper_.MakeView(), &ui_, this, this);
  imgui_->EndFrame(framebuffer_width, framebuffer_height);
}

void App::SwapBuffers(int framebuffer_width, int framebuffer_height) {
  capture_.ReadWindow(framebuffer_width, framebuffer_height);
  glfwSwapBuffers(window_.handle());
}

void App::UpdateUiScale() {
  ui_.ui_scale = ImGuiLayer::CalcUiScale(ui_.settings.ui_scale, window_.handle());
  if (imgui_ != nullptr) imgui_->SetScale(ui_.ui_scale);
}

// ---------------------------------------------------------------- scene

bool App::LoadScene(const std::string& path, bool keep_camera) {
  // Everything that can fail happens before the current scene is replaced,
  // so that a bad file (typed, dropped, reloaded) leaves it running.
  std::unique_ptr<Simulation> sim;
  RenderScene render;
  try {
    sim = std::make_unique<Simulation>(ReadScene(path));
    render = BuildRenderScene(*sim);
  } catch (const std::exception& e) {  // InputError, or anything a loader let through.
    ui_.Error(std::string("cannot open scene: ") + e.what());
    return false;
  }
  const std::string gripper_error = InstallScene(std::move(sim), std::move(render), path, keep_camera);
  ReportLoad(path, gripper_error);
  return true;
}

Simulation App::ReadScene(const std::string& path) const {
  if (path != SceneLabel(options_)) return Simulation::FromFile(path);
  if (!options_.scene_text.empty()) {
    return Simulation(LoadSceneString(options_.scene_text, path, options_.scene_base_dir, options_.overrides));
  }
  return Simulation::FromFile(path, options_.overrides);
}

std::string App::InstallScene(std::unique_ptr<Simulation> sim, RenderScene render, const std::string& path,
                              bool keep_camera) {
  perturber_.End();
  perturber_.Deselect();
  scene_.sim = std::move(sim);
  scene_.path = path;
  scene_.loaded_parameters = scene_.sim->CalcSceneParameters();
  scene_.render = std::move(render);
  renderer_.LoadScene(scene_.render);
  scene_.has_compliant_geometry = false;
  for (int g = 0; g < scene_.sim->collision_world().num_geometries(); ++g) {
    if (scene_.sim->collision_world().is_compliant(g)) scene_.has_compliant_geometry = true;
  }
  ClearRunHistory(/*new_scene=*/true);
  LoadSceneFields(*scene_.sim, path, &ui_);
  const std::string gripper_error = gripper_.SetUp();
  StartFromCurrentState();
  if (!keep_camera) {
    ui_.track_body.clear();
    int w = 0, h = 0;
    layout_.ViewSize(&w, &h);
    director_.ApplySceneCamera(w, h);
  }
  return gripper_error;
}

void App::ClearRunHistory(bool new_scene) {
  timeline_.AbandonVideo();  // Its states are gone: a video of them ends here.
  physics_.Restart(new_scene);
  ui_.solver_stops = {};
  ui_.selected_contact = -1;
  ui_.pressure_max.Reset();
  ui_.plots.Clear();
}

void App::AddBranchGhost(Snapshot* snapshot) const {
  snapshot->branch_ghost_bodies.clear();
  if (!ui_.show_branch_ghost) return;
  const Simulation& sim = *scene_.sim;
  const VectorX* q = physics_.history().PreviousBranchAt(sim.step_index());
  if (q == nullptr) return;
  const MultibodyModel& model = sim.model();
  KinematicsCache cache(model);
  CalcKinematics(model, *q, VectorX::Zero(model.num_velocities()), BodyRange::All(model), &cache);
  for (int b = 1; b < model.num_bodies(); ++b) snapshot->branch_ghost_bodies.emplace_back(b, cache.X_WB[b]);
}

void App::ClearBranchGhost() {
  physics_.ClearPreviousBranch();
  ui_.Info("timeline: the previous branch is forgotten");
}

void App::StartFromCurrentState() {
  scene_.snapshot = physics_.MakeSnapshot();
  gripper_.AddGhost(&scene_.snapshot);
  AddBranchGhost(&scene_.snapshot);
  if (video_.recording()) video_.Restart(scene_.sim->time());  // The video goes on with the new state.
}

void App::ReportLoad(const std::string& path, const std::string& gripper_error) {
  const int notes = PrintImportNotes(*scene_.sim);
  if (!scene_.render.warnings.empty()) {
    ui_.Error(scene_.render.warnings.front());
  } else if (notes > 0) {
    ui_.Info("loaded " + path + " (" + std::to_string(notes) + " import note" + (notes == 1 ? "" : "s") +
             ", listed under 'Import notes')");
  } else {
    ui_.Info("loaded " + path);
  }
  if (!gripper_error.empty()) ui_.Error(gripper_error);
}

bool App::OpenScene(const std::string& path, bool keep_camera) { return LoadScene(path, keep_camera); }

bool App::ReloadScene() { return LoadScene(scene_.path, /*keep_camera=*/true); }

bool App::SaveSceneAs(const std::string& path) {
  try {
    SaveSceneWithParameters(scene_.path, scene_.sim->CalcSceneParameters(), path);
  } catch (const InputError& e) {
    ReportError(&ui_, std::string("scene not saved: ") + e.what());
    return false;
  }
  ui_.Info("saved the scene with the current parameters to " + path);
  return true;
}

void App::ResetSimulation() {
  perturber_.End();
  scene_.sim->Reset();
  ClearRunHistory(/*new_scene=*/false);
  // The gripper starts over too: a fresh controller, the replay from its
  // first command (and the camera script with it); a take in progress ends
  // (it would no longer match).
  gripper_.Restart();
  director_.RestartScript();
  StartFromCurrentState();
  ui_.Info("reset to t = 0");
}

// ---------------------------------------------------------------- commands

void App::TogglePause() { physics_.TogglePause(); }

void App::StepOnce() { physics_.StepForward(); }

void App::StepBack() { physics_.StepBack(); }

void App::ScrubTo(int index) { physics_.ScrubTo(index); }

bool App::RecordTimelineVideo(double from_s, double to_s, const std::string& path) {
  return timeline_.RecordVideo(from_s, to_s, path);
}

void App::CancelTimelineVideo() { timeline_.CancelVideo(); }

void App::SetHistoryCap(double mebibytes) {
  if (!(mebibytes > 0) || !std::isfinite(mebibytes) || mebibytes > 1e6) {
    ui_.Error("history cap: expected a size in MiB in (0, 1e6], got " + FormatNumber(mebibytes, 6));
    return;
  }
  if (physics_.SetHistoryCap(static_cast<std::size_t>(mebibytes * (1 << 20)))) {
    ui_.Info("timeline: history cap " + FormatNumber(mebibytes, 6) + " MiB");
  }
}

void App::SetHistoryEnabled(bool on) {
  physics_.SetHistoryEnabled(on);
  ui_.Info(on ? "timeline on: every step's state is kept (Left/Right while paused)" : "timeline off");
}

void App::SetTimeStep(double dt) {
  scene_.sim->SetTimeStep(dt);
  physics_.MarkEdit("time step");
}

void App::SetIntegrator(const IntegratorSettings& integrator) {
  scene_.sim->SetIntegrator(integrator);
  physics_.MarkEdit("integrator");
}

void App::SetSteppingScheme(SteppingScheme scheme) {
  scene_.sim->SetSteppingScheme(scheme);
  physics_.MarkEdit("stepping scheme");
}

void App::SetNmdpParameters(const NmdpParameters& p) {
  scene_.sim->SetNmdpParameters(p);
  physics_.MarkEdit("NMDP parameters");
}

void App::SetRealTimeFactor(double rtf) {
  physics_.clock().set_real_time_factor(rtf);
  physics_.clock().set_unlimited(false);
}

void App::SetUnlimitedSpeed(bool unlimited) { physics_.clock().set_unlimited(unlimited); }

void App::SetPhysicsBudget(double seconds) { physics_.clock().set_budget(std::clamp(seconds, 1e-3, 0.1)); }

void App::SetContactModelParameters(const ContactModelParameters& p) {
  scene_.sim->SetContactModelParameters(p);
  physics_.MarkEdit("contact parameters");
}

void App::SetMaterial(const std::string& name, const ContactMaterial& material) {
  scene_.sim->SetMaterial(name, material);
  physics_.MarkEdit("material " + name);
}

void App::SetSolverParameters(const SapSolverParameters& p) {
  scene_.sim->SetSolverParameters(p);
  physics_.MarkEdit("solver parameters");
}

void App::SetSolver(const SolverSettings& settings) {
  scene_.sim->SetSolver(settings);
  physics_.MarkEdit("solver");
}

void App::RequestScreenshot() { capture_.RequestScreenshot(); }

void App::SetActuatorTarget(const std::string& name, double position, double velocity) {
  scene_.sim->SetActuatorTarget(name, position, velocity);
  physics_.NoteNotSaveable("actuator target " + name);
}

void App::SetMotorControl(const std::string& name, double ctrl) {
  scene_.sim->SetMotorControl(name, ctrl);
  physics_.NoteNotSaveable("motor control " + name);
}

void App::SetJointPosition(int joint, double position) {
  Simulation& sim = *scene_.sim;
  const MultibodyModel& model = sim.model();
  if (joint < 0 || joint >= model.num_joints()) throw InputError("no joint with index " + std::to_string(joint));
  const Joint& j = model.joint(joint);
  if (j.type != JointType::kRevolute && j.type != JointType::kPrismatic) {
    throw InputError("joint '" + j.name + "' is neither revolute nor prismatic");
  }
  if (!std::isfinite(position)) throw InputError("joint '" + j.name + "': the position must be finite");
  VectorX q = sim.positions();
  q[j.q_start] = position;
  // Every velocity zero: a pose set by hand starts at rest, not with what
  // the bodies were doing when paused.
  sim.SetState(q, VectorX::Zero(model.num_velocities()));
  // Its actuators hold the new pose instead of pulling the joint back when
  // the simulation runs (the slider shows their target).
  for (const std::string& name : sim.actuator_names()) {
    if (sim.actuator(name).joint == joint) sim.SetActuatorTarget(name, position, 0.0);
  }
  physics_.NoteNotSaveable("joint " + j.name + " posed by hand");
}

// ---------------------------------------------------------------- gripper

void App::SetTeleop(bool on) {
  if (on && gripper_.controller() == nullptr && perturber_.selected_body() > 0) {
    TeleoperateSelectedLink();
    return;
  }
  if (!gripper_.SetTeleop(on)) return;
  input_.CancelDrag();
  if (on) perturber_.End();
}

// T with a link selected in a scene without a gripper (a robot file dropped
// on the window): the scene again, from its initial state, with an arm
// gripper whose end effector is the point where the link was picked (its
// orientation the link's), and teleop on. The joint
// PD actuators on the chain from the world to the link (joint_pd's, named
// like their joints) would hold the arm against the end effector's
// impedance: the gripper's posture term takes their place. Reload returns
// to the file.
void App::TeleoperateSelectedLink() {
  const MultibodyModel& model = scene_.sim->model();
  const int body = perturber_.selected_body();
  const std::string name = model.body(body).name;
  if (model.tree(model.body(body).tree).nv == 0) {
    ui_.Error("link '" + name + "' is welded to the world: nothing moves it; select a link of a moving chain");
    return;
  }
  SceneDescription scene = scene_.sim->scene();
  GripperDescription link;
  link.end_effector_body = name;
  link.X_BE.p = perturber_.selected_point_B();
  scene.grippers = {link};
  std::set<std::string> chain;
  for (int b = body; b > 0; b = model.body(b).parent) chain.insert(model.joint(model.body(b).joint).name);
  std::erase_if(scene.actuators, [&](const ActuatorDescription& a) { return a.name == a.joint && chain.count(a.joint); });
  std::erase_if(scene.oscillators, [&](const OscillatorDescription& o) {
    return std::none_of(scene.actuators.begin(), scene.actuators.end(),
                        [&](const ActuatorDescription& a) { return a.name == o.actuator; });
  });
  std::unique_ptr<Simulation> sim;
  RenderScene render;
  try {
    sim = std::make_unique<Simulation>(scene);
    render = BuildRenderScene(*sim);
  } catch (const std::exception& e) {
    ui_.Error("cannot teleoperate link '" + name + "': " + e.what());
    return;
  }
  const std::string gripper_error = InstallScene(std::move(sim), std::move(render), scene_.path, /*keep_camera=*/true);
  if (!gripper_error.empty()) {
    ui_.Error(gripper_error);
    return;
  }
  if (!gripper_.SetTeleop(true)) return;
  input_.CancelDrag();
  ui_.Info("teleoperating link '" + name + "' as an end effector (restarted from the initial state; Reload "
           "returns to the file): drag moves it, scroll/Shift+drag height, Ctrl+drag yaw, Esc leaves");
}

void App::SetGripClosed(bool closed) {
  gripper_.SetGripClosed(closed);
  physics_.MarkEvent(closed ? "teleop: grip closes" : "teleop: grip opens");
}

void App::SetGripForce(double newtons) { gripper_.SetGripForce(newtons); }

void App::StartCommandRecording() {
  const GripperController* gripper = gripper_.controller();
  if (gripper == nullptr) {
    ui_.Error("this scene has no gripper to record");
    return;
  }
  const double force = gripper->grip_force();
  gripper_.StopReplay();
  ResetSimulation();
  gripper_.StartTake(force, Now());
}

void App::StopCommandRecording() { gripper_.StopTake(); }

bool App::SaveCommandRecording(const std::string& path) { return gripper_.SaveTake(path); }

bool App::ReplayCommands(const std::string& path) {
  std::optional<CommandReplay> replay = gripper_.LoadReplay(path);
  if (!replay) return false;
  // Its `set:` edits are against the scene file's parameters (a saved
  // branch): those first, the panels' edits dropped.
  const bool sets = std::any_of(replay->log.entries.begin(), replay->log.entries.end(),
                                [](const CommandEntry& e) { return !e.set.empty(); });
  if (sets) {
    scene_.sim->SetSceneParameters(scene_.loaded_parameters);
    ShowEngineParameters();
  }
  ResetSimulation();
  gripper_.Play(std::move(*replay));
  if (sets) ui_.Info(ui_.message + " (with the scene file's parameters, then the file's set: edits)");
  return true;
}

bool App::ReplayDemo(const std::string& path, int index) {
  std::optional<DemoReplay> replay = gripper_.LoadDemo(path, index);
  if (!replay) return false;
  // The demo ran with the scene file's parameters and its own edits.
  scene_.sim->SetSceneParameters(replay->parameters);
  ShowEngineParameters();
  ResetSimulation();
  return gripper_.PlayDemo(std::move(*replay));
}

bool App::SaveBranch(const std::string& path) { return timeline_.SaveBranch(path); }

void App::ShowEngineParameters() {
  ui_.sim_edits = SimulationEditsFrom(*scene_.sim);
  ui_.contact_edits = ContactEditsFrom(*scene_.sim);
  ui_.solver_edits = SolverEditsFrom(*scene_.sim);
  ui_.field_errors.clear();
}

// ---------------------------------------------------------------- video

void App::ToggleRecording() {
  if (video_.recording()) {
    StopRecording();
  } else {
    StartRecording();
  }
}

bool App::StartRecording(const std::string& path, int width, int height) {
  // Stopped first: the scene view (the default size) is then not letterboxed.
  if (video_.recording()) StopRecording();
  if (width <= 0 || height <= 0) {
    width = ui_.video_width;
    height = ui_.video_height;
  }
  if (width <= 0 || height <= 0) {  // "the view's size": the scene view in framebuffer pixels.
    int x = 0, y = 0;
    layout_.SceneViewInFramebuffer(&x, &y, &width, &height);
  }
  return video_.Start(path, width, height, scene_.sim->time());
}

bool App::StepToNextVideoFrame() {
  if (!video_.recording()) return false;
  if (!physics_.StepToVideoFrame()) return false;
  scene_.snapshot = physics_.MakeSnapshot();
  ui_.pressure_max.Update(scene_.snapshot.peak_pressure);
  return true;
}

bool App::CaptureVideoFrames(std::int64_t max_frames) {
  if (!video_.recording()) return false;
  director_.Follow();
  DrawSceneImage(video_.width(), video_.height());
  return CaptureDueVideoFrames(max_frames);
}

void App::ShowState(const VectorX& q, const VectorX& v, double t_s) {
  SimulationState state = scene_.sim->SaveState();
  if (q.size() != state.q.size() || v.size() != state.v.size()) {
    throw InputError(scene_.path + ": a state of " + std::to_string(q.size()) + " positions and " +
                     std::to_string(v.size()) + " velocities, the scene has " + std::to_string(state.q.size()) +
                     " and " + std::to_string(state.v.size()));
  }
  state.q = q;
  state.v = v;
  state.time = t_s;
  scene_.sim->RestoreState(state);
  scene_.snapshot = physics_.MakeSnapshot();  // The state alone: no target ghost.
}

std::vector<std::uint8_t> App::RenderImage(int width, int height) {
  director_.Follow();
  DrawSceneImage(width, height);
  int w = 0, h = 0;
  return renderer_.ReadPixels(&w, &h);
}

// ---------------------------------------------------------------- queries

bool App::SaveSettings() const {
  ViewerSettings s = ui_.settings;
  layout_.WindowSize(&s.window_width, &s.window_height);
  return settings_file_.Save(s);
}

AppView App::MakeView() const {
  AppView v;
  const PhysicsClock& clock = physics_.clock();
  v.sim = scene_.sim.get();
  v.snapshot = &scene_.snapshot;
  v.scene_file = scene_.path;
  v.paused = physics_.paused();
  v.target_rtf = clock.real_time_factor();
  v.unlimited = clock.unlimited();
  v.achieved_rtf = clock.achieved_real_time_factor();
  v.physics_budget_s = clock.budget();
  const FrameTimes& times = timer_.times();
  v.fps = times.fps;
  v.frame_ms = times.frame_ms;
  v.physics_ms = times.physics_ms;
  v.render_ms = times.render_ms;
  v.steps_last_frame = physics_.steps_last_frame();
  const StateHistory& history = physics_.history();
  v.history_enabled = physics_.history_enabled();
  v.history_size = history.size();
  v.history_cursor = history.cursor();
  v.history_cursor_time = history.cursor() >= 0 ? history.time_at(history.cursor()) : scene_.sim->time();
  v.history_mib = static_cast<double>(history.bytes()) / (1 << 20);
  v.history_cap_mib = static_cast<double>(history.cap_bytes()) / (1 << 20);
  v.previous_branch_steps = history.previous_branch_size();
  if (!history.empty()) {
    v.history_first_time = history.time_at(0);
    v.history_last_time = history.time_at(history.size() - 1);
  }
  const TimelineVideo& timeline_video = timeline_.video();
  v.timeline_video = timeline_video.active();
  v.timeline_video_from = timeline_video.start_time();
  v.timeline_video_to = timeline_video.end_time();
  v.timeline_video_at = timeline_video.shown_time();
  if (!history.empty()) {
    const std::int64_t first = history.step_at(0);
    for (const TimelineEvent& e : history.events()) {
      const std::int64_t index = e.step - first;
      if (index < 0 || index >= history.size()) continue;
      v.timeline_marks.emplace_back(static_cast<int>(index),
                                    StringPrintf("t = %.3f s: ", history.time_at(static_cast<int>(index))) + e.text);
    }
  }
  v.selected_body = perturber_.selected_body();
  if (v.selected_body > 0) v.selected_name = scene_.sim->model().body(v.selected_body).name;
  v.recording = video_.recording();
  if (v.recording) {
    const VideoRecorder& recorder = video_.recorder();
    v.video_path = recorder.output_path();
    v.video_png_sequence = recorder.sink() == VideoSink::kPngSequence;
    v.video_frames = recorder.frames_written();
    v.video_seconds = video_.clock().video_seconds();
    v.video_fps = video_.clock().fps();
    v.video_width = recorder.width();
    v.video_height = recorder.height();
  }
  v.auto_antialiasing = AntialiasingName(renderer_.ResolveAntialiasing(Antialiasing::kAuto));
  v.has_compliant_geometry = scene_.has_compliant_geometry;
  v.pressure_legend = ui_.pressure_legend();
  return v;
}

}  // namespace stiction::app
