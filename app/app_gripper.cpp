// The App's gripper glue: teleop focus and its input, the Gripper panel's
// commands, recording and replay. The controller, recorder and player are
// the engine's (engine/control/); every gripper command takes effect before
// the simulation's next step, the step it is recorded at.
#include <algorithm>
#include <cstdio>
#include <numbers>
#include <string>

#include "app/app.h"
#include "app/record/screenshot.h"
#include "app/render/gl.h"
#include "engine/common/error.h"

namespace stiction::app {
namespace {

constexpr double kScrollHeight = 0.01;  // Target height change per scroll notch [m].

}  // namespace

std::string App::SetUpGripper() {
  CloseCommandAutosave();  // A take in progress keeps what it recorded on disk.
  gripper_.reset();
  player_.reset();
  player_file_.clear();
  camera_keyframes_.clear();
  recorder_ = CommandRecorder{};
  teleop_ = false;
  readout_ = {};
  ui_.gripper.Clear();
  if (!sim_->scene().gripper.present) return "";
  gripper_.emplace(*sim_);
  const std::string& file = sim_->scene().commands_file;
  if (file.empty()) return "";
  try {
    const CommandLog log = LoadCommandFile(file);
    player_.emplace(log, sim_->time_step());
    player_file_ = file;
    camera_keyframes_ = log.camera;
    camera_script_on_ = true;
  } catch (const InputError& e) {
    return std::string("scene commands not played: ") + e.what();
  }
  return "";
}

void App::AddGhost(Snapshot* snapshot) const {
  if (gripper_) snapshot->ghost_bodies = gripper_->CalcTargetBodyPoses(*sim_);
}

void App::TeleopCommand(GripperCommand command) {
  if (!gripper_) return;
  if (player_) {  // The user takes over from the script.
    player_.reset();
    player_file_.clear();
  }
  command.step = sim_->step_index();
  try {
    gripper_->Apply(command);
    recorder_.Record(command);
  } catch (const InputError& e) {
    ui_.Error(std::string("gripper: ") + e.what());
  }
}

void App::SetTeleop(bool on) {
  if (on && !gripper_) {
    ui_.Error("this scene has no gripper (scene key 'gripper'); open a demo with one");
    return;
  }
  teleop_ = on;
  drag_button_ = -1;
  if (on) {
    EndPerturbation();
    if (player_) {
      player_.reset();
      player_file_.clear();
    }
    ui_.Info(std::string("teleop: drag moves the gripper target, scroll/Shift+drag height, Ctrl+drag yaw, ") +
             (gripper_->can_tilt() ? "Alt+drag tilt, " : "") + "G open/close, Esc leaves");
  } else {
    ui_.Info("teleop off");
  }
}

void App::TeleopKey(int key) {
  switch (key) {
    case GLFW_KEY_ESCAPE: SetTeleop(false); break;
    case GLFW_KEY_G:
      if (gripper_) SetGripClosed(gripper_->grip() != GripState::kClosed);
      break;
    default: break;  // Swallowed: viewer shortcuts are off while teleoperating.
  }
}

void App::TeleopDrag(double dx, double dy, int mods) {
  if (!gripper_) return;
  int w = 0, h = 0;
  ViewSize(&w, &h);
  GripperPose t = gripper_->target();
  if ((mods & GLFW_MOD_CONTROL) != 0) {
    // A drag across the window width turns the target half a turn.
    t.yaw += dx * std::numbers::pi / std::max(w, 1);
  } else if ((mods & GLFW_MOD_ALT) != 0) {
    if (!gripper_->can_tilt()) {
      ui_.Error("teleop: a gantry gripper cannot tilt (Alt+drag tilts an arm's target)");
      return;
    }
    // A drag down the window height tilts the target a quarter turn, within
    // ±90° (beyond, yaw and tilt would swap roles).
    t.tilt = std::clamp(t.tilt + dy * 0.5 * std::numbers::pi / std::max(h, 1), -0.5 * std::numbers::pi,
                        0.5 * std::numbers::pi);
  } else {
    const Vec3f p(static_cast<float>(t.x), static_cast<float>(t.y), static_cast<float>(t.z));
    const float depth = std::max((p - camera_.Eye()).dot(camera_.Forward()), 1e-3f);
    const double s = camera_.PixelSize(depth, h);  // Metres per pixel at the target.
    if ((mods & GLFW_MOD_SHIFT) != 0) {
      t.z -= dy * s;
    } else {
      // The horizontal plane: screen right and the view direction flattened
      // (the screen's up when looking straight down).
      Vec3f right = camera_.Right(), ahead = camera_.Forward();
      right.z() = 0;
      ahead.z() = 0;
      if (ahead.norm() < 1e-3f) ahead = Vec3f(camera_.Up().x(), camera_.Up().y(), 0.0f);
      right.normalize();
      ahead.normalize();
      const Vec3f move = static_cast<float>(s) * (static_cast<float>(dx) * right - static_cast<float>(dy) * ahead);
      t.x += move.x();
      t.y += move.y();
    }
  }
  GripperCommand c;
  c.target = t;
  TeleopCommand(c);
}

void App::TeleopScroll(double dy) {
  if (!gripper_) return;
  GripperPose t = gripper_->target();
  t.z += kScrollHeight * dy;
  GripperCommand c;
  c.target = t;
  TeleopCommand(c);
}

void App::SetGripClosed(bool closed) {
  GripperCommand c;
  c.grip = closed ? GripState::kClosed : GripState::kOpen;
  TeleopCommand(c);
}

void App::SetGripForce(double newtons) {
  GripperCommand c;
  c.grip_force = std::clamp(newtons, kMinGripForce, kMaxGripForce);
  TeleopCommand(c);
}

void App::StartCommandRecording() {
  if (!gripper_) {
    ui_.Error("this scene has no gripper to record");
    return;
  }
  const double force = gripper_->grip_force();
  player_.reset();
  player_file_.clear();
  ResetSimulation();
  CloseCommandAutosave();  // The previous take, if any, ends with what it holds.
  // The take starts at t = 0 with the controller's whole state, so that a
  // replay from a fresh load reproduces it bit for bit.
  GripperCommand first = gripper_->StateCommand(0);
  first.grip_force = force;
  recorder_.Start(scene_path_, sim_->time_step());
  gripper_->Apply(first);
  recorder_.Record(first);
  // Saved as it grows: a crash loses at most the last flush period.
  const std::string autosave = TimestampedCommandsPath(options_.screenshot_dir);
  if (command_autosave_.Open(autosave, recorder_.log(), Now())) {
    ui_.Info("recording gripper commands from t = 0 (Stop, then Save); autosaving to " + autosave);
    std::fprintf(stderr, "stiction: autosaving the gripper command recording to %s\n", autosave.c_str());
  } else {
    ReportError(command_autosave_.error() + "; recording the gripper commands in memory only (Stop, then Save)");
  }
}

void App::StopCommandRecording() {
  recorder_.Stop();
  const bool autosaving = command_autosave_.is_open();
  const std::string saved = CloseCommandAutosave();
  if (autosaving && saved.empty()) return;  // The failure is shown.
  ui_.Info("recording stopped: " + std::to_string(recorder_.log().entries.size()) + " commands" +
           (saved.empty() ? "" : ", autosaved to " + saved));
}

void App::SyncCommandAutosave() {
  if (!command_autosave_.is_open()) return;
  if (!recorder_.recording()) {  // Stopped (a reset, a scene load): the file gets the rest.
    CloseCommandAutosave();
    return;
  }
  if (!command_autosave_.Update(recorder_.log(), Now())) {
    ReportError(command_autosave_.error() + "; the recording goes on in memory (Stop, then Save)");
  }
}

std::string App::CloseCommandAutosave() {
  if (!command_autosave_.is_open()) return "";
  const std::string path = command_autosave_.path();
  if (!command_autosave_.Close(recorder_.log())) {
    ReportError(command_autosave_.error());
    return "";
  }
  return path;
}

bool App::SaveCommandRecording(const std::string& path) {
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

bool App::ReplayCommands(const std::string& path) {
  if (!gripper_) {
    ui_.Error("--replay " + path + ": the scene has no gripper (scene key 'gripper')");
    return false;
  }
  try {
    const CommandLog log = LoadCommandFile(path);
    CommandPlayer player(log, sim_->time_step());
    teleop_ = false;
    ResetSimulation();
    player_ = std::move(player);
    player_file_ = path;
    camera_keyframes_ = log.camera;
    camera_script_on_ = true;
  } catch (const InputError& e) {
    ui_.Error(e.what());
    return false;
  }
  ui_.Info("replaying " + path + " from t = 0");
  return true;
}

GripperView App::MakeGripperView() const {
  GripperView v;
  if (!gripper_) return v;
  v.present = true;
  v.teleop = teleop_;
  v.grip = gripper_->grip();
  v.grip_force = gripper_->grip_force();
  v.grip_force_limited = gripper_->grip_force_limited();
  v.can_tilt = gripper_->can_tilt();
  v.target = gripper_->target();
  v.actual = gripper_->CurrentPose(*sim_);
  v.readout = readout_;
  v.recording = recorder_.recording();
  v.recorded_commands = static_cast<int>(recorder_.log().entries.size());
  v.replay_file = player_file_;
  v.replay_finished = player_ && player_->finished();
  return v;
}

}  // namespace stiction::app
