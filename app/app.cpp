#include "app/app.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numbers>
#include <string>

#include "app/input/picking.h"
#include "app/render/pressure_patches.h"
#include "app/record/screenshot.h"
#include "app/record/termination_signals.h"
#include "app/ui/ui_metrics.h"
#include "engine/scene/scene_writer.h"
#include "engine/common/error.h"

namespace stiction::app {
namespace {

constexpr double kDoubleClickSeconds = 0.35;
constexpr double kDoubleClickPixels = 6.0;
const Vec4f kAxisColors[3] = {Vec4f(0.9f, 0.15f, 0.15f, 1), Vec4f(0.1f, 0.75f, 0.1f, 1),
                              Vec4f(0.15f, 0.3f, 0.95f, 1)};

App* FromWindow(GLFWwindow* window) { return static_cast<App*>(glfwGetWindowUserPointer(window)); }

// Prints the importer's notes of every robot of the scene to stderr (one
// line each, once per load) and returns how many there were.
int PrintImportNotes(const SceneDescription& scene) {
  int count = 0;
  for (const RobotSummary& robot : scene.robots) {
    for (const std::string& note : robot.notes) {
      std::fprintf(stderr, "stiction: import note (%s, %s): %s\n", robot.name.c_str(), robot.format.c_str(),
                   note.c_str());
      ++count;
    }
  }
  return count;
}

}  // namespace

double App::Now() { return glfwGetTime(); }

App::App(const AppOptions& options) : options_(options) {
  if (options_.no_settings) options_.settings_path.clear();
  if (!options_.settings_path.empty()) {
    std::string warning;
    ui_.settings = LoadViewerSettings(options_.settings_path, &warning);
    if (!warning.empty()) std::fprintf(stderr, "stiction: %s\n", warning.c_str());
    if (!options_.size_given && ui_.settings.window_width > 0 && ui_.settings.window_height > 0) {
      options_.width = ui_.settings.window_width;
      options_.height = ui_.settings.window_height;
    }
  }
  ui_.overlay = options_.overlay;
  // A headless scene screenshot is the whole window (--size); with
  // --screenshot-window the panels are part of the picture.
  if (options_.headless_frames > 0 && !options_.screenshot_window) options_.panels = false;
  if (!options_.panels) ui_.settings.layout.show_left = ui_.settings.layout.show_right = false;
  WindowOptions wo;
  wo.width = options_.width;
  wo.height = options_.height;
  wo.visible = options.visible;
  wo.vsync = options.vsync;
  window_ = std::make_unique<Window>(wo);
  UpdateUiScale();  // The scale only (ImGui is not up yet): the first layout and camera fit use it.
  renderer_ = std::make_unique<Renderer>(ResolveShaderDir(options.shader_dir));
  clock_.set_real_time_factor(options.real_time_factor);
  clock_.set_unlimited(options.unlimited);
  clock_.set_budget(0.010);
  paused_ = options.paused;
  const std::string path = options.scene_path.empty() ? std::string(STICTION_DEFAULT_SCENE) : options.scene_path;
  if (!LoadScene(path, /*keep_camera=*/false)) throw InputError(ui_.message);
  if (!options.replay_path.empty() && !ReplayCommands(options.replay_path)) throw InputError(ui_.message);

  // Our callbacks first: ImGui's GLFW backend chains to them (it calls the
  // previously installed callback before updating its own state).
  InstallCallbacks();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // No imgui.ini next to the user's files.
  ImGui_ImplGlfw_InitForOpenGL(window_->handle(), true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ready_ = true;
  UpdateUiScale();
  last_frame_time_ = Now();
  ui_.video_fps = options.record_fps;
  if (!options.record_path.empty() && !options.headless) {
    // Interactive --record: recording from the first frame; a failure to
    // start is shown in the UI and the viewer runs on.
    StartRecording(options.record_path);
  }
}

App::~App() {
  if (command_autosave_.is_open() && !command_autosave_.Close(recorder_.log())) {
    std::fprintf(stderr, "stiction: %s\n", command_autosave_.error().c_str());
  }
  if (!options_.settings_path.empty()) SaveSettings();
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  renderer_.reset();  // GL objects go while the context exists.
  if (window_ != nullptr) glfwSetWindowUserPointer(window_->handle(), nullptr);
}

void App::InstallCallbacks() {
  GLFWwindow* w = window_->handle();
  glfwSetWindowUserPointer(w, this);
  glfwSetKeyCallback(w, [](GLFWwindow* win, int key, int /*scancode*/, int action, int mods) {
    if (App* app = FromWindow(win)) app->HandleKey(key, action, mods);
  });
  glfwSetMouseButtonCallback(w, [](GLFWwindow* win, int button, int action, int mods) {
    if (App* app = FromWindow(win)) app->HandleMouseButton(button, action, mods, glfwGetTime());
  });
  glfwSetCursorPosCallback(w, [](GLFWwindow* win, double x, double y) {
    if (App* app = FromWindow(win)) app->HandleCursor(x, y);
  });
  glfwSetScrollCallback(w, [](GLFWwindow* win, double /*dx*/, double dy) {
    if (App* app = FromWindow(win)) app->HandleScroll(dy);
  });
  glfwSetDropCallback(w, [](GLFWwindow* win, int count, const char** paths) {
    if (App* app = FromWindow(win)) app->HandleDrop(std::vector<std::string>(paths, paths + count));
  });
}

// ---------------------------------------------------------------- scene

bool App::LoadScene(const std::string& path, bool keep_camera) {
  // Everything that can fail happens before the current scene is replaced,
  // so that a bad file (typed, dropped, reloaded) leaves it running.
  std::unique_ptr<Simulation> sim;
  RenderScene render_scene;
  try {
    sim = std::make_unique<Simulation>(Simulation::FromFile(path));
    render_scene = BuildRenderScene(*sim);
  } catch (const std::exception& e) {  // InputError, or anything a loader let through.
    ui_.Error(std::string("cannot open scene: ") + e.what());
    return false;
  }
  EndPerturbation();
  sim_ = std::move(sim);
  scene_path_ = path;
  ui_.scene_path_field = path;
  render_scene_ = std::move(render_scene);
  renderer_->LoadScene(render_scene_);
  selected_body_ = -1;
  last_stats_ = {};
  ui_.solver_stops = {};
  contacts_valid_ = false;
  steps_taken_ = 0;
  clock_.Restart();
  ui_.plots.Clear();
  ui_.sim_edits = SimulationEditsFrom(*sim_);
  ui_.contact_edits = ContactEditsFrom(*sim_);
  ui_.solver_edits = SolverEditsFrom(*sim_);
  ui_.scene_values = SceneValuesFrom(*sim_);
  ui_.field_errors.clear();
  ui_.selected_contact = -1;
  ui_.pressure_max.Reset();
  has_compliant_geometry_ = false;
  for (int g = 0; g < sim_->collision_world().num_geometries(); ++g) {
    if (sim_->collision_world().is_compliant(g)) has_compliant_geometry_ = true;
  }
  const std::string gripper_error = SetUpGripper();
  snapshot_ = MakeSnapshot(*sim_, last_stats_, false);
  AddGhost(&snapshot_);
  if (recording()) video_clock_.Restart(sim_->time());  // The video goes on with the new scene.
  if (!keep_camera) {
    ui_.track_body.clear();
    ApplySceneCamera();
  }
  const int notes = PrintImportNotes(sim_->scene());
  if (!render_scene_.warnings.empty()) {
    ui_.Error(render_scene_.warnings.front());
  } else if (notes > 0) {
    ui_.Info("loaded " + path + " (" + std::to_string(notes) + " import note" + (notes == 1 ? "" : "s") +
             ", listed under 'Import notes')");
  } else {
    ui_.Info("loaded " + path);
  }
  if (!gripper_error.empty()) ui_.Error(gripper_error);
  return true;
}

bool App::OpenScene(const std::string& path, bool keep_camera) { return LoadScene(path, keep_camera); }

bool App::ReloadScene() { return LoadScene(scene_path_, /*keep_camera=*/true); }

void App::FitCamera() {
  // The bodies' bounding box (each drawable's bounding sphere), so that
  // walls or a large fixed floor do not shrink the objects of interest.
  Vector3 lo = Vector3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int pass = 0; pass < 2 && !(lo.array() <= hi.array()).all(); ++pass) {
    for (const Drawable& d : render_scene_.drawables) {
      if (!std::isfinite(d.bounding_radius) || d.body >= static_cast<int>(snapshot_.X_WB.size())) continue;
      if (pass == 0 && d.body <= 0) continue;  // Second pass: the world's finite geometry too.
      const Vector3 p = snapshot_.X_WB[d.body] * d.X_BG.p;
      lo = lo.cwiseMin(p - Vector3::Constant(d.bounding_radius));
      hi = hi.cwiseMax(p + Vector3::Constant(d.bounding_radius));
    }
  }
  if (!(lo.array() <= hi.array()).all()) {
    camera_.Fit(Vec3f::Zero(), 1.0f);
    return;
  }
  int w = 0, h = 0;
  ViewSize(&w, &h);
  const float aspect = w > 0 && h > 0 ? static_cast<float>(w) / static_cast<float>(h) : 16.0f / 9.0f;
  camera_.FitBox(lo.cast<float>(), hi.cast<float>(), aspect);
}

// ---------------------------------------------------------------- frame

int App::Run() {
  if (options_.headless_frames > 0) {
    capture_window_ = options_.screenshot_window;
    for (int i = 0; i < options_.headless_frames && !window_->ShouldClose() && TerminationSignal() == 0; ++i) {
      Frame();
    }
    if (const int signal = TerminationSignal()) return FinishOnTerminationSignal(signal);
    bool saved = true;
    if (!options_.screenshot_path.empty()) {
      if (options_.screenshot_window) {
        saved = WritePng(options_.screenshot_path, window_pixels_, window_pixels_width_, window_pixels_height_);
      } else {
        saved = SaveScreenshot(options_.screenshot_path);
      }
    }
    if (!saved) {
      std::fprintf(stderr, "stiction: cannot write screenshot '%s'\n", options_.screenshot_path.c_str());
      return 1;
    }
    return 0;
  }
  // A signal ends the loop between frames: the frame in progress completes.
  while (!window_->ShouldClose() && TerminationSignal() == 0) Frame();
  if (const int signal = TerminationSignal()) return FinishOnTerminationSignal(signal);
  if (recording()) {
    const bool ok = StopRecording();
    std::fprintf(stderr, "stiction: %s\n", ui_.message.c_str());
    if (!ok) return 1;
  }
  return 0;
}

int App::FinishOnTerminationSignal(int signal) {
  char when[48];
  std::snprintf(when, sizeof when, " at t = %.6g s", sim_->time());
  std::string line = std::string("stopped by ") + TerminationSignalName(signal) + when;
  const bool had_video = recording();
  if (had_video) {
    StopRecording();  // Every frame written, ffmpeg waited for; a failure is printed too.
    line += ": " + ui_.message;
  }
  const std::string commands = CloseCommandAutosave();
  if (!commands.empty()) {
    line += (had_video ? "; " : ": ") + std::to_string(recorder_.log().entries.size()) +
            " gripper commands autosaved to " + commands;
  }
  std::fprintf(stderr, "%sstiction: %s\n", isatty(STDERR_FILENO) == 1 ? "\r\033[K" : "", line.c_str());
  return TerminationExitCode(signal);
}

void App::Frame() {
  const double t0 = Now();
  const double wall_dt = frames_ == 0 ? 0.0 : t0 - last_frame_time_;
  last_frame_time_ = t0;

  // 1. Input (callbacks run inside PollEvents), then loads the panels asked for.
  glfwPollEvents();
  if (!ui_.pending_open.empty()) {
    const std::string path = std::move(ui_.pending_open);
    ui_.pending_open.clear();
    LoadScene(path, /*keep_camera=*/false);
  }
  if (ui_.pending_reload) {
    ui_.pending_reload = false;
    ReloadScene();
  }

  // 2. Physics.
  StepPhysics(wall_dt);
  physics_ms_ = (Now() - t0) * 1e3;
  SyncCommandAutosave();
  {
    Snapshot previous = std::move(snapshot_);
    snapshot_ = MakeSnapshot(*sim_, last_stats_, contacts_valid_, last_step_dt_);
    AddGhost(&snapshot_);
    TrackSelectedContact(previous);
    ui_.pressure_max.Update(snapshot_.peak_pressure);
  }
  if (steps_last_frame_ > 0) {
    ui_.plots.iterations.Push(static_cast<float>(last_stats_.iterations));
    ui_.plots.line_search_iterations.Push(static_cast<float>(last_stats_.line_search_iterations));
    // log10 e_m; steps without contact (e_m = 0) show as the floor, 1e-16.
    ui_.plots.log_momentum_error.Push(
        static_cast<float>(std::log10(std::max(last_stats_.momentum_error, 1e-16))));
    // The same floor for the solver-independent NCP residual.
    ui_.plots.log_ncp_residual.Push(static_cast<float>(std::log10(std::max(last_stats_.ncp_residual, 1e-16))));
    ui_.plots.contacts.Push(static_cast<float>(last_stats_.num_contacts));
    ui_.plots.kinetic_energy.Push(static_cast<float>(snapshot_.kinetic_energy));
    if (gripper_) PushGraspPlots(readout_, &ui_.gripper);
  }
  if (!paused_) ui_.plots.achieved_rtf.Push(static_cast<float>(clock_.achieved_real_time_factor()));

  // 3. Render the scene into the FBO at the scene view's size (the video's
  //    while recording), show it between the columns, save it if asked.
  UpdateUiScale();
  int fw = 0, fh = 0;
  window_->FramebufferSize(&fw, &fh);
  ScriptCamera();
  TrackCamera();
  int vx = 0, vy = 0, vw = 0, vh = 0;
  SceneViewInFramebuffer(&vx, &vy, &vw, &vh);
  if (fw > 0 && fh > 0 && vw > 0 && vh > 0) {  // 0 x 0 while minimized.
    DebugDraw debug;
    BuildDebugDraw(&debug);
    const double r0 = Now();
    const int rw = recording() ? video_.width() : vw, rh = recording() ? video_.height() : vh;
    renderer_->Render(render_scene_, snapshot_, camera_, ui_.viz.render, debug, selected_body_, rw, rh);
    if (recording()) DrawRecordingOverlay(rw, rh);  // Shown as it will be in the video.
    if (options_.sync_timing) glFinish();
    render_ms_ = (Now() - r0) * 1e3;
    capture_ms_ = 0;
    if (VideoFrameDue()) {
      const double c0 = Now();
      int w = 0, h = 0;
      const std::vector<std::uint8_t> rgb = renderer_->ReadPixels(&w, &h);
      WriteDueVideoFrames(rgb, w, h, std::numeric_limits<std::int64_t>::max());
      capture_ms_ = (Now() - c0) * 1e3;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fw, fh);
    glClearColor(0.06f, 0.06f, 0.07f, 1.0f);  // Letterbox bars and the area under the columns.
    glClear(GL_COLOR_BUFFER_BIT);
    renderer_->BlitToWindow(vx, vy, vw, vh);
    if (screenshot_requested_) {
      screenshot_requested_ = false;
      const std::string path = TimestampedScreenshotPath(options_.screenshot_dir);
      if (SaveScreenshot(path)) {
        ui_.Info("screenshot saved to " + path);
      } else {
        ui_.Error("cannot write screenshot " + path);
      }
    }
  }

  // 4. UI on top, then swap.
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (ui_input_) ui_input_(ImGui::GetIO());
  ImGui::NewFrame();
  DrawPanels(MakeView(), MakeGripperView(), &ui_, this, this);
  ImGui::Render();
  glViewport(0, 0, std::max(fw, 1), std::max(fh, 1));
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (capture_window_ && fw > 0 && fh > 0) {
    window_pixels_.resize(static_cast<size_t>(fw) * fh * 3);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, fw, fh, GL_RGB, GL_UNSIGNED_BYTE, window_pixels_.data());
    window_pixels_width_ = fw;
    window_pixels_height_ = fh;
  }
  glfwSwapBuffers(window_->handle());

  ++frames_;
  frame_ms_ = (Now() - t0) * 1e3;
  if (wall_dt > 0) fps_ = fps_ == 0 ? 1.0 / wall_dt : 0.9 * fps_ + 0.1 / wall_dt;
}

void App::StepPhysics(double wall_dt) {
  steps_last_frame_ = 0;
  if (single_step_requested_) {
    single_step_requested_ = false;
    if (DoStep()) steps_last_frame_ = 1;
    clock_.Restart();
    return;
  }
  if (paused_) {
    clock_.Restart();
    return;
  }
  if (options_.steps_per_frame > 0) {
    for (int i = 0; i < options_.steps_per_frame && !paused_ && !VideoFrameDue(); ++i) {
      if (DoStep()) ++steps_last_frame_;
    }
    clock_.EndFrame(wall_dt, sim_->time_step());
    return;
  }
  // The budget: the configured one, or as long as the rest of the last
  // frame took (rendering on llvmpipe can take tens of ms), so that physics
  // that is behind gets at least half of each frame.
  const double budget = std::max(clock_.budget(), 1e-3 * (frame_ms_ - physics_ms_));
  const double start = Now();
  clock_.BeginFrame(wall_dt);
  // While recording, a frame's physics ends at the state that reaches the
  // next video frame time (frame-synchronous: that state is rendered and
  // written this frame; see app.h).
  while (!paused_ && !VideoFrameDue() && clock_.WantsStep(sim_->time_step()) && Now() - start < budget) {
    const double dt = sim_->time_step();
    if (!DoStep()) break;
    clock_.OnStep(dt);
    ++steps_last_frame_;
  }
  clock_.EndFrame(wall_dt, sim_->time_step());
}

bool App::DoStep() {
  if (perturbation_.active()) UpdatePerturbationWrench();
  const double dt = sim_->time_step();
  if (gripper_) PrepareGripperStep(sim_.get(), &*gripper_, player_ ? &*player_ : nullptr);
  const StepResult result = sim_->Step();
  if (result.status != StepStatus::kSuccess) {
    paused_ = true;
    char text[64];
    std::snprintf(text, sizeof text, "step failed at t = %.6g s: ", sim_->time());
    ui_.Error(text + result.message + " (paused; change a parameter or reset)");
    if (!options_.visible) std::fprintf(stderr, "stiction: %s\n", ui_.message.c_str());
    return false;
  }
  last_stats_ = result.stats;
  ui_.solver_stops.Add(result.stats);
  if (gripper_) readout_ = CalcGraspReadout(*sim_, *gripper_, dt);
  contacts_valid_ = true;
  last_step_dt_ = dt;
  ++steps_taken_;
  return true;
}

// ---------------------------------------------------------------- commands

void App::TogglePause() {
  paused_ = !paused_;
  clock_.Restart();
}

void App::StepOnce() {
  paused_ = true;
  single_step_requested_ = true;
}

void App::ResetSimulation() {
  EndPerturbation();
  sim_->Reset();
  last_stats_ = {};
  ui_.solver_stops = {};
  contacts_valid_ = false;
  ui_.selected_contact = -1;
  ui_.pressure_max.Reset();
  clock_.Restart();
  ui_.plots.Clear();
  // The gripper starts over too: a fresh controller, the replay from its
  // first command; a recording in progress ends (it would no longer match).
  if (gripper_) gripper_.emplace(*sim_);
  if (player_) player_->Rewind();
  camera_script_on_ = true;  // The camera script starts over with the replay.
  recorder_.Stop();
  readout_ = {};
  ui_.gripper.Clear();
  snapshot_ = MakeSnapshot(*sim_, last_stats_, false);
  AddGhost(&snapshot_);
  if (recording()) video_clock_.Restart(sim_->time());  // The video goes on from t = 0.
  ui_.Info("reset to t = 0");
}

void App::SetTimeStep(double dt) { sim_->SetTimeStep(dt); }

void App::SetIntegrator(const IntegratorSettings& integrator) { sim_->SetIntegrator(integrator); }

void App::SetSteppingScheme(SteppingScheme scheme) { sim_->SetSteppingScheme(scheme); }

void App::SetNmdpParameters(const NmdpParameters& p) { sim_->SetNmdpParameters(p); }

void App::SetRealTimeFactor(double rtf) {
  clock_.set_real_time_factor(rtf);
  clock_.set_unlimited(false);
}

void App::SetUnlimitedSpeed(bool unlimited) { clock_.set_unlimited(unlimited); }

void App::SetPhysicsBudget(double seconds) { clock_.set_budget(std::clamp(seconds, 1e-3, 0.1)); }

void App::RequestScreenshot() { screenshot_requested_ = true; }

void App::SetContactModelParameters(const ContactModelParameters& p) { sim_->SetContactModelParameters(p); }

void App::SetMaterial(const std::string& name, const ContactMaterial& material) {
  sim_->SetMaterial(name, material);
}

void App::SetSolverParameters(const SapSolverParameters& p) { sim_->SetSolverParameters(p); }

void App::SetSolver(const SolverSettings& settings) { sim_->SetSolver(settings); }

// ---------------------------------------------------------------- input

void App::HandleKey(int key, int action, int mods) {
  if (action == GLFW_RELEASE) return;
  if (imgui_ready_ && ImGui::GetIO().WantCaptureKeyboard) return;  // Typing into a field.
  if (action == GLFW_REPEAT && key != GLFW_KEY_RIGHT) return;
  if (teleop_) {  // Teleop focus: the gripper's keys only; viewer shortcuts are off.
    TeleopKey(key);
    return;
  }
  const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  switch (key) {
    case GLFW_KEY_SPACE: TogglePause(); break;
    case GLFW_KEY_RIGHT: StepOnce(); break;
    case GLFW_KEY_BACKSPACE: ResetSimulation(); break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: SetRealTimeFactor(clock_.real_time_factor() * 2); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: SetRealTimeFactor(clock_.real_time_factor() / 2); break;
    case GLFW_KEY_L:
      if (ctrl) ReloadScene();
      break;
    case GLFW_KEY_P:
      if (ctrl) RequestScreenshot();
      break;
    case GLFW_KEY_V:
      if (!ctrl) ToggleRecording();
      break;
    case GLFW_KEY_TAB:  // As in MuJoCo's simulate: Tab the left column, Shift+Tab the right.
      if ((mods & GLFW_MOD_SHIFT) != 0) {
        ui_.settings.layout.show_right = !ui_.settings.layout.show_right;
      } else {
        ui_.settings.layout.show_left = !ui_.settings.layout.show_left;
      }
      break;
    case GLFW_KEY_F1: ui_.show_help = !ui_.show_help; break;
    case GLFW_KEY_F2: ui_.show_info = !ui_.show_info; break;
    case GLFW_KEY_T: SetTeleop(true); break;
    case GLFW_KEY_ESCAPE:
      selected_body_ = -1;
      ui_.selected_contact = -1;
      break;
    default: break;
  }
}

void App::HandleMouseButton(int button, int action, int mods, double time_s) {
  if (button < 0 || button > 2) return;
  if (action == GLFW_RELEASE) {
    if (button == drag_button_) {
      drag_button_ = -1;
      EndPerturbation();
    }
    return;
  }
  if (action != GLFW_PRESS) return;
  if (imgui_ready_ && ImGui::GetIO().WantCaptureMouse) return;  // Over a panel.
  if (!SceneViewRect().Contains(static_cast<float>(cursor_x_), static_cast<float>(cursor_y_))) return;  // Letterbox.
  if (teleop_) {  // Left drag moves the target, right drag orbits; no picking.
    drag_button_ = button;
    drag_mods_ = mods;
    return;
  }
  const bool double_click = time_s - last_press_time_[button] < kDoubleClickSeconds &&
                            std::hypot(cursor_x_ - last_press_x_[button], cursor_y_ - last_press_y_[button]) <
                                kDoubleClickPixels;
  last_press_time_[button] = double_click ? -1.0 : time_s;
  last_press_x_[button] = cursor_x_;
  last_press_y_[button] = cursor_y_;
  if (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_ALT) != 0) {
    // Alt+click: inspect the contact nearest the cursor (no camera drag).
    SelectContact(PickContact(cursor_x_, cursor_y_));
    return;
  }
  if (double_click) {
    if (button == GLFW_MOUSE_BUTTON_LEFT) Select(cursor_x_, cursor_y_);
    if (button == GLFW_MOUSE_BUTTON_RIGHT) CenterOn(cursor_x_, cursor_y_);
  }
  drag_button_ = button;
  drag_mods_ = mods;
  if ((mods & GLFW_MOD_CONTROL) != 0 && selected_body_ > 0 && button != GLFW_MOUSE_BUTTON_MIDDLE) {
    const RigidTransform& X_WB = snapshot_.X_WB[selected_body_];
    perturbation_ = BeginPerturbation(
        button == GLFW_MOUSE_BUTTON_LEFT ? PerturbMode::kRotate : PerturbMode::kTranslate, selected_body_, X_WB,
        sim_->model().body(selected_body_).com_B, X_WB * selected_point_B_);
  }
}

void App::HandleCursor(double x, double y) {
  const double dx = x - cursor_x_, dy = y - cursor_y_;
  cursor_x_ = x;
  cursor_y_ = y;
  if (drag_button_ < 0) return;
  int w = 0, h = 0;
  ViewSize(&w, &h);
  if (teleop_) {
    if (drag_button_ == GLFW_MOUSE_BUTTON_LEFT) TeleopDrag(dx, dy, drag_mods_);
    if (drag_button_ == GLFW_MOUSE_BUTTON_RIGHT) camera_.Orbit(dx, dy, h);
  } else if (perturbation_.active()) {
    DragPerturbation(dx, dy, drag_mods_);
  } else if (drag_button_ == GLFW_MOUSE_BUTTON_LEFT) {
    camera_script_on_ = false;  // The user takes the camera.
    camera_.Orbit(dx, dy, h);
  } else if (drag_button_ == GLFW_MOUSE_BUTTON_RIGHT) {
    camera_script_on_ = false;
    camera_.Pan(dx, dy, h, (drag_mods_ & GLFW_MOD_SHIFT) != 0);
  } else if (drag_button_ == GLFW_MOUSE_BUTTON_MIDDLE) {
    camera_script_on_ = false;
    camera_.Zoom(-dy * 20.0 / std::max(h, 1));
  }
}

void App::HandleScroll(double dy) {
  if (imgui_ready_ && ImGui::GetIO().WantCaptureMouse) return;
  if (teleop_) {
    TeleopScroll(dy);
    return;
  }
  camera_script_on_ = false;
  camera_.Zoom(dy);
}

void App::HandleDrop(const std::vector<std::string>& paths) {
  if (paths.empty()) return;
  // Called from GLFW's C code: nothing may escape. LoadScene reports a bad
  // file (InputError's FILE: reason) in the panel and keeps the current scene.
  try {
    if (!LoadScene(paths.front(), /*keep_camera=*/false)) {
      std::fprintf(stderr, "stiction: %s\n", ui_.message.c_str());
      return;
    }
    if (paths.size() > 1) {
      ui_.Info("opened " + paths.front() + "; " + std::to_string(paths.size() - 1) +
               " more dropped file(s) ignored (one scene at a time)");
    }
  } catch (const std::exception& e) {
    ReportError(std::string("cannot open dropped file: ") + e.what());
  }
}

void App::Select(double x, double y) {
  int w = 0, h = 0;
  ViewSize(&w, &h);
  const Ray ray = camera_.PixelRay(ViewX(x), ViewY(y), w, h);
  const PickResult pick = Pick(render_scene_, snapshot_.X_WB, ray.origin.cast<double>(),
                               ray.direction.cast<double>(), /*include_world=*/false,
                               ui_.viz.render.show_collision_only);
  if (pick.hit() && pick.body > 0) {
    selected_body_ = pick.body;
    selected_point_B_ = snapshot_.X_WB[pick.body].inverse() * pick.p_W;
    ui_.Info("selected " + sim_->model().body(pick.body).name + " (Ctrl+drag to perturb)");
  } else {
    selected_body_ = -1;
  }
}

void App::CenterOn(double x, double y) {
  int w = 0, h = 0;
  ViewSize(&w, &h);
  const Ray ray = camera_.PixelRay(ViewX(x), ViewY(y), w, h);
  const PickResult pick = Pick(render_scene_, snapshot_.X_WB, ray.origin.cast<double>(),
                               ray.direction.cast<double>(), /*include_world=*/true);
  if (pick.hit() && std::isfinite(pick.distance)) {
    const Vec3f eye = camera_.Eye();
    camera_.lookat = pick.p_W.cast<float>();
    camera_.distance = std::max((camera_.lookat - eye).norm(), 1e-3f);
  }
}

void App::DragPerturbation(double dx, double dy, int mods) {
  int w = 0, h = 0;
  ViewSize(&w, &h);
  if (perturbation_.mode == PerturbMode::kTranslate) {
    const Vec3f target = perturbation_.target_W.cast<float>();
    const float depth = std::max((target - camera_.Eye()).dot(camera_.Forward()), 1e-3f);
    const float s = camera_.PixelSize(depth, h);
    Vec3f move;
    if ((mods & GLFW_MOD_SHIFT) != 0) {
      Vec3f heading = camera_.Forward();
      heading.z() = 0;
      heading.normalize();
      move = s * (static_cast<float>(dx) * camera_.Right() - static_cast<float>(dy) * heading);
    } else {
      move = s * (static_cast<float>(dx) * camera_.Right() - static_cast<float>(dy) * camera_.Up());
    }
    perturbation_.target_W += move.cast<double>();
  } else if (perturbation_.mode == PerturbMode::kRotate) {
    // A drag across the window height turns the target half a turn, about
    // the screen axes (like turning a trackball).
    const double k = std::numbers::pi / std::max(h, 1);
    const Quaternion turn(Eigen::AngleAxisd(dx * k, camera_.Up().cast<double>()) *
                          Eigen::AngleAxisd(dy * k, camera_.Right().cast<double>()));
    perturbation_.target_R_WB = (turn * perturbation_.target_R_WB).normalized();
  }
}

void App::UpdatePerturbationWrench() {
  const int b = perturbation_.body;
  const std::vector<BodyState> states = sim_->CalcBodyStates();
  const BodyState& s = states[b - 1];
  const RigidTransform X_WB{s.orientation.toRotationMatrix(), s.position};
  const ExternalWrench wrench = CalcPerturbationWrench(perturbation_, sim_->model().body(b), X_WB,
                                                      s.linear_velocity, s.angular_velocity, spring_);
  try {
    sim_->SetExternalWrenches({wrench});
    applied_wrenches_ = {wrench};
  } catch (const InputError& e) {
    ui_.Error(std::string("perturbation stopped: ") + e.what());
    EndPerturbation();
  }
}

void App::EndPerturbation() {
  const bool was_active = perturbation_.active() || !applied_wrenches_.empty();
  perturbation_ = {};
  applied_wrenches_.clear();
  if (was_active && sim_ != nullptr) sim_->SetExternalWrenches({});
}

// ---------------------------------------------------------------- contacts

int App::PickContact(double x, double y, double max_pixels) const {
  int w = 0, h = 0;
  ViewSize(&w, &h);
  x = ViewX(x);
  y = ViewY(y);
  int best = -1;
  double best_d2 = max_pixels * max_pixels;
  for (size_t i = 0; i < snapshot_.contacts.size(); ++i) {
    Vec3f pixel;
    if (!camera_.Project(snapshot_.contacts[i].p_W.cast<float>(), w, h, &pixel)) continue;
    const double d2 = (pixel.x() - x) * (pixel.x() - x) + (pixel.y() - y) * (pixel.y() - y);
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = static_cast<int>(i);
    }
  }
  return best;
}

void App::SelectContact(int index) {
  if (index < 0 || index >= static_cast<int>(snapshot_.contacts.size())) {
    ui_.selected_contact = -1;
    return;
  }
  ui_.selected_contact = index;
  ui_.open_inspector = true;
  const ContactSnapshot& c = snapshot_.contacts[index];
  ui_.Info("contact " + std::to_string(index) + ": " + c.name_a + " - " + c.name_b + ", " + ContactStateName(c));
}

PressureLegend App::pressure_legend() const {
  return MakePressureLegend(ui_.viz.pressure, ui_.pressure_max.max_pa());
}

const ContactSnapshot* App::selected_contact() const {
  const int i = ui_.selected_contact;
  return i >= 0 && i < static_cast<int>(snapshot_.contacts.size()) ? &snapshot_.contacts[i] : nullptr;
}

void App::TrackSelectedContact(const Snapshot& previous) {
  const int i = ui_.selected_contact;
  if (i < 0) return;
  if (i >= static_cast<int>(previous.contacts.size())) {
    ui_.selected_contact = -1;
    return;
  }
  const ContactSnapshot& was = previous.contacts[i];
  int best = -1;
  double best_d = std::numeric_limits<double>::infinity();
  for (size_t j = 0; j < snapshot_.contacts.size(); ++j) {
    const ContactSnapshot& c = snapshot_.contacts[j];
    if (c.body_a != was.body_a || c.body_b != was.body_b) continue;
    const double d = (c.p_W - was.p_W).norm();
    if (d < best_d) {
      best_d = d;
      best = static_cast<int>(j);
    }
  }
  ui_.selected_contact = best;
}

void App::BuildContactDraw(DebugDraw* debug) const {
  const VisualizationState& viz = ui_.viz;
  const Vec4f point_color(1.0f, 0.2f, 0.2f, 1), normal_color(0.2f, 0.55f, 1.0f, 1),
      friction_color(1.0f, 0.2f, 0.85f, 1), stick_color(0.15f, 0.9f, 0.2f, 1), slip_color(1.0f, 0.55f, 0.0f, 1),
      separating_color(0.6f, 0.6f, 0.6f, 1), highlight(1, 1, 1, 1);
  const double scale = std::max(viz.force_scale, 1e-12);  // N per metre.
  constexpr int kGenerators = 8;
  for (size_t i = 0; i < snapshot_.contacts.size(); ++i) {
    const ContactSnapshot& c = snapshot_.contacts[i];
    const bool selected = static_cast<int>(i) == ui_.selected_contact;
    // A pressure-field polygon: its patch has one glyph (below), not one per
    // polygon (a patch has tens to thousands); the selected one is outlined.
    if (c.surface >= 0 && !selected) continue;
    if (c.surface >= 0 && c.surface < static_cast<int>(snapshot_.contact_surfaces.size())) {
      const ContactSurfaceSnapshot& s = snapshot_.contact_surfaces[c.surface];
      const ContactPolygon* poly =
          c.polygon >= 0 && c.polygon < static_cast<int>(s.polygons.size()) ? &s.polygons[c.polygon] : nullptr;
      if (poly != nullptr && poly->first >= 0 && poly->first + poly->count <= static_cast<int>(s.vertices_W.size())) {
        for (int k = 0; k < poly->count; ++k) {
          debug->Line(s.vertices_W[poly->first + k].cast<float>(),
                      s.vertices_W[poly->first + (k + 1) % poly->count].cast<float>(), highlight, true);
        }
      }
    }
    const Vec3f p = c.p_W.cast<float>();
    if (viz.contact_points || selected) debug->Point(p, selected ? highlight : point_color);
    if (viz.normal_forces) debug->Line(p, (c.p_W + c.normal_force_W() / scale).cast<float>(), normal_color, true);
    if (viz.friction_forces) {
      debug->Line(p, (c.p_W + c.friction_force_W() / scale).cast<float>(), friction_color, true);
    }
    if (viz.friction_cones || selected) {
      // Generators of half-angle atan μ about the normal (forces on B lie inside), and the rim.
      const Vec4f color = selected ? highlight
                          : IsSeparating(c) ? separating_color
                          : c.region == ConeRegion::kStiction ? stick_color
                                                              : slip_color;
      const double h = viz.cone_size;
      const double alpha = std::atan(std::max(c.mu, 0.0));
      const Vector3 n = c.R_WC.col(2), t1 = c.R_WC.col(0), t2 = c.R_WC.col(1);
      Vector3 rim_prev = Vector3::Zero();
      for (int k = 0; k <= kGenerators; ++k) {
        const double a = 2.0 * std::numbers::pi * k / kGenerators;
        const Vector3 dir = std::cos(alpha) * n + std::sin(alpha) * (std::cos(a) * t1 + std::sin(a) * t2);
        // Height h along the normal; for μ > 3 the slant length is capped (rim radius ≤ 3.2 h).
        const Vector3 rim = c.p_W + h / std::max(std::cos(alpha), 0.3) * dir;
        if (k < kGenerators) debug->Line(p, rim.cast<float>(), color, true);
        if (k > 0) debug->Line(rim_prev.cast<float>(), rim.cast<float>(), color, true);
        rim_prev = rim;
      }
      if (selected) debug->Line(p, (c.p_W + 1.5 * h * n).cast<float>(), highlight, true);
    }
  }
  // Each pressure patch: a point at its pressure centroid with its net force
  // on B (the sum over its polygons) as the arrow, and the normal and
  // friction parts with their toggles.
  for (const ContactSurfaceSnapshot& s : snapshot_.contact_surfaces) {
    const Vec3f p = s.centroid_W.cast<float>();
    const Vector3 f_n = s.normal_force() * s.normal_W;
    if (viz.contact_points) {
      debug->Point(p, point_color);
      debug->Line(p, (s.centroid_W + s.force_W / scale).cast<float>(), point_color, true);
    }
    if (viz.normal_forces) debug->Line(p, (s.centroid_W + f_n / scale).cast<float>(), normal_color, true);
    if (viz.friction_forces) {
      debug->Line(p, (s.centroid_W + (s.force_W - f_n) / scale).cast<float>(), friction_color, true);
    }
  }
}

// ---------------------------------------------------------------- drawing

void App::BuildDebugDraw(DebugDraw* debug) const {
  if (ui_.viz.pressure.show_patches) AddPressurePatches(snapshot_, pressure_legend(), debug);
  BuildContactDraw(debug);
  const int nb = static_cast<int>(snapshot_.X_WB.size());
  for (int b = 1; b < nb; ++b) {
    const RigidTransform& X = snapshot_.X_WB[b];
    const float size = static_cast<float>(b < static_cast<int>(render_scene_.body_size.size())
                                              ? render_scene_.body_size[b]
                                              : 0.1);
    if (ui_.viz.body_frames) {
      for (int i = 0; i < 3; ++i) {
        debug->Line(X.p.cast<float>(), (X.p + 1.5 * size * X.R.col(i)).cast<float>(), kAxisColors[i]);
      }
    }
    if (ui_.viz.centers_of_mass) debug->Point(snapshot_.p_WBcm[b].cast<float>(), Vec4f(1.0f, 0.85f, 0.1f, 1));
  }
  if (selected_body_ > 0 && selected_body_ < nb) {
    debug->Point((snapshot_.X_WB[selected_body_] * selected_point_B_).cast<float>(), Vec4f(1, 1, 1, 1));
  }
  if (perturbation_.active() && ui_.viz.perturbation_force && perturbation_.body < nb) {
    const RigidTransform& X = snapshot_.X_WB[perturbation_.body];
    const Vec4f spring_color(1.0f, 1.0f, 1.0f, 0.9f), force_color(1.0f, 0.55f, 0.0f, 1.0f);
    if (perturbation_.mode == PerturbMode::kTranslate) {
      const Vector3 p_WP = X * perturbation_.p_BP;
      debug->Line(p_WP.cast<float>(), perturbation_.target_W.cast<float>(), spring_color, true);
      debug->Point(perturbation_.target_W.cast<float>(), spring_color);
    } else {
      const Vector3 p = X * sim_->model().body(perturbation_.body).com_B;
      const Matrix3 R = perturbation_.target_R_WB.toRotationMatrix();
      const double size = render_scene_.body_size[perturbation_.body];
      for (int i = 0; i < 3; ++i) {
        debug->Line(p.cast<float>(), (p + 1.8 * size * R.col(i)).cast<float>(), kAxisColors[i], true);
      }
    }
    // The force itself: 0.2 m per body weight (m·9.81 N).
    for (const ExternalWrench& w : applied_wrenches_) {
      const double weight = sim_->model().body(w.body).mass * 9.81;
      debug->Line(w.p_WP.cast<float>(), (w.p_WP + 0.2 * w.f_W / weight).cast<float>(), force_color, true);
    }
  }
}

// ---------------------------------------------------------------- queries

AppView App::MakeView() const {
  AppView v;
  v.sim = sim_.get();
  v.snapshot = &snapshot_;
  v.scene_file = scene_path_;
  v.paused = paused_;
  v.target_rtf = clock_.real_time_factor();
  v.unlimited = clock_.unlimited();
  v.achieved_rtf = clock_.achieved_real_time_factor();
  v.physics_budget_s = clock_.budget();
  v.fps = fps_;
  v.frame_ms = frame_ms_;
  v.physics_ms = physics_ms_;
  v.render_ms = render_ms_;
  v.steps_last_frame = steps_last_frame_;
  v.selected_body = selected_body_;
  if (selected_body_ > 0) v.selected_name = sim_->model().body(selected_body_).name;
  v.recording = recording();
  if (v.recording) {
    v.video_path = video_.output_path();
    v.video_png_sequence = video_.sink() == VideoSink::kPngSequence;
    v.video_frames = video_.frames_written();
    v.video_seconds = video_clock_.video_seconds();
    v.video_fps = video_clock_.fps();
    v.video_width = video_.width();
    v.video_height = video_.height();
  }
  v.auto_antialiasing = AntialiasingName(renderer_->ResolveAntialiasing(Antialiasing::kAuto));
  v.has_compliant_geometry = has_compliant_geometry_;
  v.pressure_legend = pressure_legend();
  return v;
}

void App::WindowSize(int* width, int* height) const { window_->WindowSize(width, height); }

Rect App::SceneViewRect() const {
  int w = 0, h = 0;
  WindowSize(&w, &h);
  const Layout layout = ComputeLayout(static_cast<float>(w), static_cast<float>(h), ui_.settings.layout, ui_.ui_scale);
  if (!recording()) return layout.scene;
  return FitAspect(layout.scene, static_cast<float>(video_.width()), static_cast<float>(video_.height()));
}

void App::SceneViewInFramebuffer(int* x, int* y, int* width, int* height) const {
  int fw = 0, fh = 0, ww = 0, wh = 0;
  FramebufferSize(&fw, &fh);
  WindowSize(&ww, &wh);
  const Rect view = SceneViewRect();
  const double px = ww > 0 ? static_cast<double>(fw) / ww : 1.0;  // Framebuffer pixels per window pixel.
  *x = static_cast<int>(std::lround(view.x * px));
  *y = fh - static_cast<int>(std::lround(view.bottom() * px));  // OpenGL: origin bottom left.
  *width = static_cast<int>(std::lround(view.width * px));
  *height = static_cast<int>(std::lround(view.height * px));
}

void App::ViewSize(int* width, int* height) const {
  const Rect r = SceneViewRect();
  *width = static_cast<int>(std::lround(r.width));
  *height = static_cast<int>(std::lround(r.height));
}

void App::UpdateUiScale() {
  float scale = ui_.settings.ui_scale;
  if (scale <= 0) {
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window_->handle(), &sx, &sy);
    scale = std::max(1.0f, std::max(sx, sy));  // High-DPI screens report 1.5, 2, ...
  }
  scale = std::clamp(scale, kMinUiScale, kMaxUiScale);
  ui_.ui_scale = scale;
  if (!imgui_ready_ || scale == font_scale_) return;
  // The font is rasterized at its size on screen (sharp text), the style's
  // paddings and roundings scaled with it.
  font_scale_ = scale;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig font;
  font.SizePixels = std::round(kBaseFontPixels * scale);
  io.Fonts->AddFontDefault(&font);
  ImFontConfig overlay;
  overlay.SizePixels = 2 * kBaseFontPixels;  // Twice the pixel font's design size: sharp when scaled for video.
  overlay_font_ = io.Fonts->AddFontDefault(&overlay);
  // Device objects (shaders, buffers, the font texture) now, not at the first
  // NewFrame: a headless recording draws video overlays without UI frames.
  ImGui_ImplOpenGL3_DestroyDeviceObjects();
  ImGui_ImplOpenGL3_CreateDeviceObjects();
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.Colors[ImGuiCol_WindowBg].w = 1.0f;  // Opaque columns: nothing shows through.
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

void App::TrackCamera() {
  int body = -1;
  if (!ui_.track_body.empty()) {
    body = sim_->model().FindBody(ui_.track_body);
    if (body <= 0) ui_.track_body.clear();  // Not in this scene (or the world).
  }
  if (body < 0 || body >= static_cast<int>(snapshot_.X_WB.size())) {
    tracked_body_ = -1;
    return;
  }
  const Vector3 p = snapshot_.X_WB[body].p;
  if (body == tracked_body_) camera_.lookat += (p - tracked_position_).cast<float>();
  tracked_body_ = body;
  tracked_position_ = p;
}

ViewerSettings App::CurrentSettings() const {
  ViewerSettings s = ui_.settings;
  WindowSize(&s.window_width, &s.window_height);
  return s;
}

bool App::SaveSettings() {
  if (options_.settings_path.empty()) return true;
  std::string error;
  if (!SaveViewerSettings(CurrentSettings(), options_.settings_path, &error)) {
    std::fprintf(stderr, "stiction: %s\n", error.c_str());
    return false;
  }
  return true;
}

void App::ApplySceneCamera() {
  const std::optional<CameraDescription>& c = sim_->scene().camera;
  if (c) {
    camera_.azimuth_deg = static_cast<float>(c->azimuth_deg);
    camera_.elevation_deg = static_cast<float>(c->elevation_deg);
    camera_.fovy_deg = static_cast<float>(c->fovy_deg);
  }
  FitCamera();  // From the scene's angles; lookat and distance the scene gives win.
  if (!c) return;
  if (c->lookat) camera_.lookat = c->lookat->cast<float>();
  if (c->distance) camera_.distance = static_cast<float>(*c->distance);
  ui_.track_body = c->track;
}

void App::DrawRecordingOverlay(int width, int height) {
  const VideoOverlayOptions& o = ui_.overlay;
  VideoOverlayContent c;
  c.sim_time = sim_->time();
  c.scene_name = std::filesystem::path(scene_path_).filename().string();
  // The plot's series: per finger for the grasp plots, else one.
  std::vector<std::pair<std::string, double>> sample;
  if (o.plot == "grip_force" || o.plot == "slip_speed") {
    for (const FingerReadout& f : readout_.fingers) {
      sample.emplace_back(f.name, o.plot == "grip_force" ? f.normal_force : f.slip_speed * 1e6);
    }
  } else if (o.plot == "kinetic_energy") {
    sample.emplace_back("E", snapshot_.kinetic_energy);
  } else if (o.plot == "contacts") {
    sample.emplace_back("n", static_cast<double>(snapshot_.contacts.size()));
  }
  if (o.plot != overlay_plot_ || overlay_series_.size() != sample.size()) {
    overlay_plot_ = o.plot;
    overlay_series_.assign(sample.size(), RollingPlot(kOverlayPlotSamples));
  }
  if (VideoFrameDue()) {
    for (size_t i = 0; i < sample.size(); ++i) overlay_series_[i].Push(static_cast<float>(sample[i].second));
  }
  for (size_t i = 0; i < sample.size(); ++i) {
    c.series.push_back(&overlay_series_[i]);
    c.series_names.push_back(sample[i].first);
  }
  for (const OverlayPlotInfo& p : kOverlayPlots) {
    if (p.name == o.plot) c.legend = std::string(p.legend);
  }
  renderer_->BindResolvedFramebuffer();
  DrawVideoOverlay(o, c, overlay_font_, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void App::ScriptCamera() {
  if (!camera_scripted()) return;
  const CameraPose pose = InterpolateCameraKeyframes(camera_keyframes_, sim_->time());
  camera_.lookat = pose.lookat.cast<float>();
  camera_.distance = static_cast<float>(pose.distance);
  camera_.azimuth_deg = static_cast<float>(pose.azimuth_deg);
  camera_.elevation_deg = static_cast<float>(pose.elevation_deg);
  camera_.fovy_deg = static_cast<float>(pose.fovy_deg);
}

bool App::SaveSceneAs(const std::string& path) {
  try {
    SaveSceneWithParameters(scene_path_, sim_->CalcSceneParameters(), path);
  } catch (const InputError& e) {
    ReportError(std::string("scene not saved: ") + e.what());
    return false;
  }
  ui_.Info("saved the scene with the current parameters to " + path);
  return true;
}

void App::FramebufferSize(int* width, int* height) const { window_->FramebufferSize(width, height); }

std::vector<std::uint8_t> App::ReadPixels(int* width, int* height) const {
  return renderer_->ReadPixels(width, height);
}

bool App::SaveScreenshot(const std::string& path) {
  int w = 0, h = 0;
  const std::vector<std::uint8_t> rgb = renderer_->ReadPixels(&w, &h);
  return WritePng(path, rgb, w, h);
}

// ---------------------------------------------------------------- video

void App::ReportError(const std::string& message) {
  ui_.Error(message);
  // On a terminal, first erase a progress line the headless run may have drawn.
  std::fprintf(stderr, "%sstiction: %s\n", isatty(STDERR_FILENO) == 1 ? "\r\033[K" : "", message.c_str());
}

void App::ToggleRecording() {
  if (recording()) {
    StopRecording();
  } else {
    StartRecording();
  }
}

bool App::StartRecording(const std::string& path, int width, int height) {
  if (recording()) StopRecording();
  overlay_series_.clear();  // The overlay plot starts with the video.
  overlay_plot_.clear();
  if (width <= 0 || height <= 0) {
    width = ui_.video_width;
    height = ui_.video_height;
  }
  if (width <= 0 || height <= 0) {  // "the view's size": the scene view in framebuffer pixels.
    int x = 0, y = 0;
    SceneViewInFramebuffer(&x, &y, &width, &height);
  }
  VideoOptions vo;
  vo.path = path.empty() ? TimestampedVideoPath(options_.screenshot_dir) : path;
  vo.width = width;
  vo.height = height;
  vo.fps = ui_.video_fps;
  vo.ffmpeg = options_.ffmpeg_program;
  if (!video_.Open(vo)) {
    ReportError(video_.error());
    return false;
  }
  video_clock_ = VideoFrameClock(vo.fps);
  video_clock_.Start(sim_->time());
  if (!video_.notice().empty()) {
    ReportError(video_.notice());  // ffmpeg missing: PNGs instead, said loudly.
  } else {
    char text[96];
    std::snprintf(text, sizeof text, " (%dx%d, %.4g fps of simulated time)", video_.width(), video_.height(),
                  vo.fps);
    ui_.Info("recording " + video_.output_path() + text);
  }
  return true;
}

bool App::StopRecording() {
  if (!recording()) return true;
  const std::string path = video_.output_path();
  const bool png = video_.sink() == VideoSink::kPngSequence;
  const std::int64_t frames = video_.frames_written();
  const std::int64_t failed = video_.frames_failed();
  const std::string frame_error = failed > 0 ? video_.error() : std::string();
  const double seconds = video_clock_.video_seconds();
  const bool ok = video_.Close();
  char text[128];
  std::snprintf(text, sizeof text, "%lld frames, %.3f s of simulated time", static_cast<long long>(frames),
                seconds);
  if (!ok) {
    // One line: the first lost frame and ffmpeg's verdict if it adds to
    // that, then how far the recording got (frames handed to ffmpeg before
    // it failed may not be in a file at all: ffmpeg's status says).
    std::string line = failed > 0 ? frame_error : video_.error();
    if (failed > 0 && video_.error() != frame_error) line += "; " + video_.error();
    ReportError(line + " (recording stopped after " + text + ")");
    return false;
  }
  ui_.Info((png ? "PNG sequence saved to " : "video saved to ") + path + " (" + text + ")");
  return true;
}

bool App::VideoFrameDue() const { return recording() && video_clock_.Due(sim_->time()) > 0; }

bool App::WriteDueVideoFrames(const std::vector<std::uint8_t>& rgb, int width, int height,
                              std::int64_t max_frames) {
  const std::int64_t due = std::min(video_clock_.Due(sim_->time()), max_frames);
  for (std::int64_t i = 0; i < due; ++i) {
    // More than one only when a step is longer than 1/fps: the same state
    // stands for each frame time it crossed.
    if (!video_.AddFrame(rgb.data(), width, height)) {
      StopRecording();  // Reports the lost frame (UI and stderr) and finalizes what was written.
      return false;
    }
    video_clock_.Emitted(1);
  }
  return true;
}

bool App::StepToNextVideoFrame() {
  if (!recording()) return false;
  while (video_clock_.Due(sim_->time()) == 0) {
    if (!DoStep()) return false;
  }
  snapshot_ = MakeSnapshot(*sim_, last_stats_, contacts_valid_, last_step_dt_);
  ui_.pressure_max.Update(snapshot_.peak_pressure);
  return true;
}

bool App::StepUntil(double t_s) {
  while (sim_->time() < t_s - 0.5 * sim_->time_step()) {
    if (!DoStep()) return false;
  }
  return true;
}

bool App::CaptureVideoFrames(std::int64_t max_frames) {
  if (!recording()) return false;
  ScriptCamera();
  TrackCamera();
  DebugDraw debug;
  BuildDebugDraw(&debug);
  renderer_->Render(render_scene_, snapshot_, camera_, ui_.viz.render, debug, selected_body_, video_.width(),
                    video_.height());
  DrawRecordingOverlay(video_.width(), video_.height());
  int w = 0, h = 0;
  const std::vector<std::uint8_t> rgb = renderer_->ReadPixels(&w, &h);
  return WriteDueVideoFrames(rgb, w, h, max_frames);
}

}  // namespace stiction::app
