#include "app/teleop/gripper_session.h"

#include <algorithm>
#include <cstdio>
#include <numbers>
#include <utility>

#include "app/record/screenshot.h"
#include "app/render/gl.h"
#include "app/ui/status_line.h"
#include "engine/common/error.h"
#include "engine/dataset/demo_file.h"
#include "engine/scene/parameter_assignments.h"

namespace stiction::app {
namespace {

constexpr double kScrollHeight = 0.01;  // Target height change per scroll notch [m].

}  // namespace

GripperSession::GripperSession(ViewerScene& scene, UiState& ui, CameraDirector& director, std::string autosave_dir)
    : scene_(scene), ui_(ui), director_(director), autosave_dir_(std::move(autosave_dir)) {}

// ---------------------------------------------------------------- the scene's life

std::string GripperSession::SetUp() {
  CloseAutosave();  // A take in progress keeps what it recorded on disk.
  take_dataset_.End();  // ... and is held to be kept.
  demo_playback_.Stop();
  gripper_ = SceneGripper{};
  director_.ClearScript();
  recorder_ = CommandRecorder{};
  teleop_ = false;
  selected_ = 0;
  readout_ = {};
  ui_.gripper.Clear();
  const Simulation& sim = *scene_.sim;
  if (sim.scene().grippers.empty()) return "";
  gripper_ = SceneGripper(sim);
  const std::string& file = sim.scene().commands_file;
  if (file.empty()) return "";
  try {
    const CommandLog log = LoadCommandFile(file);
    StartPlayer(file, log, CommandPlayer(log, sim.time_step()));
  } catch (const InputError& e) {
    return std::string("scene commands not played: ") + e.what();
  }
  return "";
}

void GripperSession::Restart() {
  gripper_.Restart(*scene_.sim);
  if (teleop_) Hold(selected_, true);  // Rewound, the script still leaves it to the user.
  recorder_.Stop();
  take_dataset_.End();
  demo_playback_.Stop();
  readout_ = {};
  user_commands_.clear();
  step_commands_.clear();
  ui_.gripper.Clear();
}

void GripperSession::AddGhost(Snapshot* snapshot) const {
  snapshot->ghost_bodies.clear();
  for (int i = 0; i < gripper_.num_grippers(); ++i) {
    for (const auto& pose : gripper_.controller(i)->CalcTargetBodyPoses(*scene_.sim)) {
      snapshot->ghost_bodies.push_back(pose);
    }
  }
}

void GripperSession::PrepareStep() {
  std::vector<GripperCommand>& applied = last_applied_;
  applied.clear();
  if (demo_playback_.PrepareStep(scene_.sim.get(), &gripper_)) {  // A dataset's demo drives the step.
    step_commands_.clear();
    user_commands_.clear();
    return;
  }
  try {
    gripper_.PrepareStep(scene_.sim.get(), &applied);
  } catch (const InputError& e) {
    // A refused command or a wait that timed out: the message, and the
    // simulation goes on (the script from its next entry, or not at all).
    ReportError(&ui_, std::string("script: ") + e.what());
  }
  for (const GripperCommand& c : applied) recorder_.Record(c);
  if (recorder_.recording()) take_dataset_.Sample(*scene_.sim, gripper_);
  step_commands_ = std::move(user_commands_);
  user_commands_.clear();
  step_commands_.insert(step_commands_.end(), applied.begin(), applied.end());
}

void GripperSession::AfterStep(double dt) {
  if (gripper_.present()) readout_ = CalcGraspReadout(*scene_.sim, *controller(), dt);
  take_dataset_.AfterStep(*scene_.sim);
  demo_playback_.AfterStep(*scene_.sim);
}

void GripperSession::RestoreFrom(const SceneGripper& saved, double dt) {
  gripper_ = saved;
  user_commands_.clear();  // Given to the controllers the restore replaced.
  // The hold is the user's now, not the saved one.
  for (int i = 0; i < gripper_.num_grippers(); ++i) Hold(i, teleop_ && i == selected_);
  if (gripper_.present()) readout_ = CalcGraspReadout(*scene_.sim, *controller(), dt);
}

void GripperSession::PushPlots() {
  if (gripper_.present()) PushGraspPlots(readout_, &ui_.gripper);
}

// ---------------------------------------------------------------- teleop

void GripperSession::Hold(int index, bool held) {
  if (CommandPlayer* player = gripper_.player()) player->Hold(index, held);
}

void GripperSession::Command(GripperCommand command) {
  if (!gripper_.present()) return;
  Hold(selected_, true);  // The user takes this gripper over from the script.
  command.step = scene_.sim->step_index();
  command.gripper = selected_;
  try {
    gripper_.controller(selected_)->Apply(command);
    recorder_.Record(command);
    user_commands_.push_back(command);
  } catch (const InputError& e) {
    ui_.Error(std::string("gripper: ") + e.what());
  }
}

bool GripperSession::SetTeleop(bool on) {
  if (on && !gripper_.present()) {
    ui_.Error("this scene has no gripper (scene key 'gripper'); open a demo with one");
    return false;
  }
  teleop_ = on;
  if (on) {
    if (demo_playback_.playing()) ui_.Info(demo_playback_.name() + " stopped: the user takes over");
    demo_playback_.Stop();
    Hold(selected_, true);
    const GripperController& g = *controller();
    const bool several = gripper_.num_grippers() > 1;
    ui_.Info(std::string("teleop") + (several ? " of gripper '" + g.name() + "'" : "") +
             ": drag moves the gripper target, scroll/Shift+drag height, Ctrl+drag yaw, " +
             (g.can_tilt() ? "Alt+drag tilt, " : "") + "G open/close, " + (several ? "T next gripper, " : "") +
             "Esc leaves" + (gripper_.player() != nullptr ? " (the script gets it back)" : ""));
  } else {
    for (int i = 0; i < gripper_.num_grippers(); ++i) Hold(i, false);
    ui_.Info(gripper_.player() != nullptr ? "teleop off: the script drives the grippers again" : "teleop off");
  }
  return true;
}

void GripperSession::TeleopNextGripper() {
  if (!teleop_ || gripper_.num_grippers() < 2) return;
  Hold(selected_, false);
  selected_ = (selected_ + 1) % gripper_.num_grippers();
  readout_ = {};
  ui_.gripper.Clear();
  SetTeleop(true);
}

void GripperSession::Drag(double dx, double dy, int mods, const Camera& camera, int view_width, int view_height) {
  if (!gripper_.present()) return;
  const int w = view_width, h = view_height;
  GripperPose t = controller()->target();
  if ((mods & GLFW_MOD_CONTROL) != 0) {
    // A drag across the window width turns the target half a turn.
    t.yaw += dx * std::numbers::pi / std::max(w, 1);
  } else if ((mods & GLFW_MOD_ALT) != 0) {
    if (!controller()->can_tilt()) {
      ui_.Error("teleop: a gantry gripper cannot tilt (Alt+drag tilts an arm's target)");
      return;
    }
    // A drag down the window height tilts the target a quarter turn, within
    // ±90° (beyond, yaw and tilt would swap roles).
    t.tilt = std::clamp(t.tilt + dy * 0.5 * std::numbers::pi / std::max(h, 1), -0.5 * std::numbers::pi,
                        0.5 * std::numbers::pi);
  } else {
    const Vec3f p(static_cast<float>(t.x), static_cast<float>(t.y), static_cast<float>(t.z));
    const float depth = std::max((p - camera.Eye()).dot(camera.Forward()), 1e-3f);
    const double s = camera.PixelSize(depth, h);  // Metres per pixel at the target.
    if ((mods & GLFW_MOD_SHIFT) != 0) {
      t.z -= dy * s;
    } else {
      // The horizontal plane: screen right and the view direction flattened
      // (the screen's up when looking straight down).
      Vec3f right = camera.Right(), ahead = camera.Forward();
      right.z() = 0;
      ahead.z() = 0;
      if (ahead.norm() < 1e-3f) ahead = Vec3f(camera.Up().x(), camera.Up().y(), 0.0f);
      right.normalize();
      ahead.normalize();
      const Vec3f move = static_cast<float>(s) * (static_cast<float>(dx) * right - static_cast<float>(dy) * ahead);
      t.x += move.x();
      t.y += move.y();
    }
  }
  GripperCommand c;
  c.target = t;
  Command(c);
}

void GripperSession::Scroll(double dy) {
  if (!gripper_.present()) return;
  GripperPose t = controller()->target();
  t.z += kScrollHeight * dy;
  GripperCommand c;
  c.target = t;
  Command(c);
}

void GripperSession::Nudge(double x, double y, double z, double yaw, double tilt, double dt) {
  if (!gripper_.present() || !(dt > 0)) return;
  dt = std::min(dt, 0.1);  // A stalled frame does not throw the target across the table.
  GripperPose t = controller()->target();
  t.x += kKeyboardSpeed * x * dt;
  t.y += kKeyboardSpeed * y * dt;
  t.z += kKeyboardSpeed * z * dt;
  t.yaw += kKeyboardTurnRate * yaw * dt;
  if (controller()->can_tilt()) {
    t.tilt = std::clamp(t.tilt + kKeyboardTurnRate * tilt * dt, -0.5 * std::numbers::pi, 0.5 * std::numbers::pi);
  }
  GripperCommand c;
  c.target = t;
  Command(c);
}

void GripperSession::SetGripClosed(bool closed) {
  GripperCommand c;
  c.grip = closed ? GripState::kClosed : GripState::kOpen;
  Command(c);
}

void GripperSession::SetGripForce(double newtons) {
  GripperCommand c;
  c.grip_force = std::clamp(newtons, kMinGripForce, kMaxGripForce);
  Command(c);
}

// ---------------------------------------------------------------- takes and replay

void GripperSession::StopReplay() {
  gripper_.StopPlaying();
}

void GripperSession::StartTake(double grip_force, double now_s) {
  CloseAutosave();  // The previous take, if any, ends with what it holds.
  // The take starts at t = 0 with every controller's whole state, so that
  // a replay from a fresh load reproduces it bit for bit.
  std::vector<std::string> names;
  for (int i = 0; i < gripper_.num_grippers(); ++i) names.push_back(gripper_.controller(i)->name());
  recorder_.Start(scene_.path, scene_.sim->time_step(), names);
  for (int i = 0; i < gripper_.num_grippers(); ++i) {
    GripperController& g = *gripper_.controller(i);
    GripperCommand first = g.StateCommand(0);
    first.gripper = i;
    if (i == selected_) first.grip_force = grip_force;
    g.Apply(first);
    recorder_.Record(first);
  }
  take_dataset_.Begin(*scene_.sim, gripper_, scene_.path, scene_.loaded_parameters);
  // Saved as it grows: a crash loses at most the last flush period.
  const std::string autosave = TimestampedCommandsPath(autosave_dir_);
  if (command_autosave_.Open(autosave, recorder_.log(), now_s)) {
    ui_.Info("recording gripper commands from t = 0 (Stop, then Save); autosaving to " + autosave);
    std::fprintf(stderr, "stiction: autosaving the gripper command recording to %s\n", autosave.c_str());
  } else {
    ReportError(&ui_, command_autosave_.error() + "; recording the gripper commands in memory only (Stop, then Save)");
  }
}

void GripperSession::StopTake() {
  recorder_.Stop();
  take_dataset_.End();
  const bool autosaving = command_autosave_.is_open();
  const std::string saved = CloseAutosave();
  if (autosaving && saved.empty()) return;  // The failure is shown.
  ui_.Info("recording stopped: " + std::to_string(recorder_.log().entries.size()) + " commands" +
           (saved.empty() ? "" : ", autosaved to " + saved));
}

bool GripperSession::SaveTake(const std::string& path) {
  if (recorder_.log().entries.empty()) {
    ui_.Error("nothing recorded yet (Record, teleoperate, Stop)");
    return false;
  }
  try {
    SaveCommandFile(recorder_.log(), path);
  } catch (const InputError& e) {
    ui_.Error(e.what());
    return false;
  }
  ui_.Info("saved " + std::to_string(recorder_.log().entries.size()) + " commands to " + path);
  return true;
}

void GripperSession::SyncAutosave(double now_s) {
  if (!command_autosave_.is_open()) return;
  if (!recorder_.recording()) {  // Stopped (a reset, a scene load): the file gets the rest.
    CloseAutosave();
    return;
  }
  if (!command_autosave_.Update(recorder_.log(), now_s)) {
    ReportError(&ui_, command_autosave_.error() + "; the recording goes on in memory (Stop, then Save)");
  }
}

std::string GripperSession::CloseAutosave() {
  if (!command_autosave_.is_open()) return "";
  const std::string path = command_autosave_.path();
  if (!command_autosave_.Close(recorder_.log())) {
    ReportError(&ui_, command_autosave_.error());
    return "";
  }
  return path;
}

void GripperSession::CloseAutosaveAtExit() {
  if (command_autosave_.is_open() && !command_autosave_.Close(recorder_.log())) {
    std::fprintf(stderr, "stiction: %s\n", command_autosave_.error().c_str());
  }
}

std::optional<CommandReplay> GripperSession::LoadReplay(const std::string& path) {
  if (!gripper_.present()) {
    ui_.Error("--replay " + path + ": the scene has no gripper (scene key 'gripper')");
    return std::nullopt;
  }
  try {
    CommandLog log = LoadCommandFile(path);
    // `set:` edits replay from the scene file's parameters (App::ReplayCommands), δt included.
    const bool sets = std::any_of(log.entries.begin(), log.entries.end(), [](const CommandEntry& e) { return !e.set.empty(); });
    CommandPlayer player(log, sets ? scene_.loaded_parameters.time_step : scene_.sim->time_step());
    return CommandReplay{path, std::move(log), std::move(player)};
  } catch (const InputError& e) {
    ui_.Error(e.what());
    return std::nullopt;
  }
}

void GripperSession::Play(CommandReplay replay) {
  teleop_ = false;
  StartPlayer(replay.path, replay.log, std::move(replay.player));
  ui_.Info("replaying " + replay.path + " from t = 0");
}

std::optional<DemoReplay> GripperSession::LoadDemo(const std::string& path, int index) {
  if (!gripper_.present()) {
    ui_.Error("this scene has no gripper to replay a demo on");
    return std::nullopt;
  }
  try {
    DemoReplay r{ReadDemo(path, index), path + " demo_" + std::to_string(index), scene_.loaded_parameters};
    for (const std::string& a : r.demo.parameters) ApplyParameterAssignment(a, &r.parameters);
    return r;
  } catch (const InputError& e) {
    ui_.Error(e.what());
    return std::nullopt;
  }
}

bool GripperSession::PlayDemo(DemoReplay replay) {
  teleop_ = false;
  gripper_.StopPlaying();
  for (int i = 0; i < gripper_.num_grippers(); ++i) Hold(i, false);
  return demo_playback_.Start(std::move(replay.demo), std::move(replay.name), *scene_.sim, gripper_);
}

void GripperSession::StartPlayer(const std::string& path, const CommandLog& log, CommandPlayer player) {
  gripper_.Play(*scene_.sim, std::move(player), path);
  director_.Script(log.camera);
}

GripperView GripperSession::MakeView() const {
  GripperView v;
  if (!gripper_.present()) return v;
  const GripperController& g = *controller();
  v.present = true;
  v.teleop = teleop_;
  if (gripper_.num_grippers() > 1) v.name = g.name();
  v.grip = g.grip();
  v.grip_force = g.grip_force();
  v.grip_force_limited = g.grip_force_limited();
  v.can_tilt = g.can_tilt();
  v.target = g.target();
  v.actual = g.CurrentPose(*scene_.sim);
  v.readout = readout_;
  v.recording = recorder_.recording();
  v.recorded_commands = static_cast<int>(recorder_.log().entries.size());
  if (const std::optional<Demo>& held = take_dataset_.held()) {
    v.take_held = true;
    v.take_seconds = static_cast<double>(held->num_samples()) * held->time_step;
    v.take_not_reproducible = held->not_reproducible;
  }
  v.demos_kept = take_dataset_.kept();
  if (demo_playback_.playing()) v.demo_playing = demo_playback_.name();
  v.dataset_file = take_dataset_.last_file();
  v.replay_file = gripper_.commands_file();
  v.replay_finished = gripper_.player() != nullptr && gripper_.player()->finished();
  if (gripper_.player() != nullptr) v.waiting_for = gripper_.player()->waiting_for();
  return v;
}

}  // namespace stiction::app
