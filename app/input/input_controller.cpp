#include "app/input/input_controller.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "app/ui/imgui_layer.h"
#include "app/ui/status_line.h"

namespace stiction::app {
namespace {

constexpr double kDoubleClickSeconds = 0.35;
constexpr double kDoubleClickPixels = 6.0;

InputController* FromWindow(GLFWwindow* window) {
  return static_cast<InputController*>(glfwGetWindowUserPointer(window));
}

}  // namespace

void InputController::Attach(GLFWwindow* w) {
  glfwSetWindowUserPointer(w, this);
  glfwSetKeyCallback(w, [](GLFWwindow* win, int key, int /*scancode*/, int action, int mods) {
    if (InputController* input = FromWindow(win)) input->HandleKey(key, action, mods);
  });
  glfwSetMouseButtonCallback(w, [](GLFWwindow* win, int button, int action, int mods) {
    if (InputController* input = FromWindow(win)) input->HandleMouseButton(button, action, mods, glfwGetTime());
  });
  glfwSetCursorPosCallback(w, [](GLFWwindow* win, double x, double y) {
    if (InputController* input = FromWindow(win)) input->HandleCursor(x, y);
  });
  glfwSetScrollCallback(w, [](GLFWwindow* win, double /*dx*/, double dy) {
    if (InputController* input = FromWindow(win)) input->HandleScroll(dy);
  });
  glfwSetDropCallback(w, [](GLFWwindow* win, int count, const char** paths) {
    if (InputController* input = FromWindow(win)) input->HandleDrop(std::vector<std::string>(paths, paths + count));
  });
}

void InputController::Detach(GLFWwindow* window) { glfwSetWindowUserPointer(window, nullptr); }

// ---------------------------------------------------------------- keys

void InputController::HandleKey(int key, int action, int mods) {
  const KeyMap& keys = p_.ui.keys;
  for (int i = 0; i < kNumMotionKeys; ++i) {
    // A release always counts (the press may have gone to a text field).
    const auto motion = static_cast<KeyAction>(static_cast<int>(KeyAction::kTeleopXPlus) + i);
    if (action == GLFW_RELEASE && keys.Is(motion, key)) held_[i] = false;
  }
  if (action == GLFW_RELEASE) return;
  if (ImGuiLayer::WantsKeyboard()) return;  // Typing into a field.
  if (action == GLFW_REPEAT) {  // Only stepping repeats.
    const std::optional<KeyAction> a = p_.gripper.teleop() ? std::nullopt : keys.Find(key, /*teleop=*/false);
    if (a != KeyAction::kStep && a != KeyAction::kStepBack) return;
  }
  if (p_.gripper.teleop()) {
    TeleopKey(key);
  } else {
    ViewerKey(key, mods);
  }
}

void InputController::ViewerKey(int key, int mods) {
  const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  AppCommands& commands = p_.commands;
  LayoutSettings& layout = p_.ui.settings.layout;
  // Fixed: Ctrl+L, Ctrl+P and Tab (not in the key map).
  if (ctrl && key == GLFW_KEY_L) {
    commands.ReloadScene();
    return;
  }
  if (ctrl && key == GLFW_KEY_P) {
    commands.RequestScreenshot();
    return;
  }
  if (key == GLFW_KEY_TAB) {  // As in MuJoCo's simulate: Tab the left column, Shift+Tab the right.
    if ((mods & GLFW_MOD_SHIFT) != 0) {
      layout.show_right = !layout.show_right;
    } else {
      layout.show_left = !layout.show_left;
    }
    return;
  }
  const std::optional<KeyAction> action = p_.ui.keys.Find(key, /*teleop=*/false);
  if (!action) return;
  switch (*action) {
    case KeyAction::kPause: commands.TogglePause(); break;
    case KeyAction::kStep: commands.StepOnce(); break;
    case KeyAction::kStepBack: commands.StepBack(); break;
    case KeyAction::kReset: commands.ResetSimulation(); break;
    case KeyAction::kFaster: commands.SetRealTimeFactor(p_.physics.clock().real_time_factor() * 2); break;
    case KeyAction::kSlower: commands.SetRealTimeFactor(p_.physics.clock().real_time_factor() / 2); break;
    case KeyAction::kRecordVideo:
      if (!ctrl) commands.ToggleRecording();
      break;
    case KeyAction::kHelp: p_.ui.show_help = !p_.ui.show_help; break;
    case KeyAction::kInfo: p_.ui.show_info = !p_.ui.show_info; break;
    case KeyAction::kTeleop: p_.gripper_commands.SetTeleop(true); break;
    case KeyAction::kDeselect:
      p_.perturber.Deselect();
      p_.inspector.Select(-1);
      break;
    default: break;
  }
}

void InputController::Update(double wall_dt) {
  if (!p_.gripper.teleop()) {
    for (bool& h : held_) h = false;
    return;
  }
  // +1 for the first key of each pair held, −1 for the second.
  double axis[5];
  bool any = false;
  for (int a = 0; a < 5; ++a) {
    axis[a] = (held_[2 * a] ? 1.0 : 0.0) - (held_[2 * a + 1] ? 1.0 : 0.0);
    any = any || axis[a] != 0;
  }
  if (any) p_.gripper.Nudge(axis[0], axis[1], axis[2], axis[3], axis[4], wall_dt);
}

void InputController::TeleopKey(int key) {
  const KeyMap& keys = p_.ui.keys;
  for (int i = 0; i < kNumMotionKeys; ++i) {
    if (keys.Is(static_cast<KeyAction>(static_cast<int>(KeyAction::kTeleopXPlus) + i), key)) held_[i] = true;
  }
  const std::optional<KeyAction> action = keys.Find(key, /*teleop=*/true);
  if (!action) return;  // Swallowed: viewer shortcuts are off while teleoperating.
  switch (*action) {
    case KeyAction::kTeleopLeave: p_.gripper_commands.SetTeleop(false); break;
    case KeyAction::kTeleopNext: p_.gripper.TeleopNextGripper(); break;  // Several grippers: the next one.
    case KeyAction::kTeleopGrasp:
      if (const GripperController* gripper = p_.gripper.controller()) {
        p_.gripper_commands.SetGripClosed(gripper->grip() != GripState::kClosed);
      }
      break;
    // Recording a take is what one teleoperates for: V starts and stops a
    // video without leaving teleop.
    case KeyAction::kTeleopRecord: p_.commands.ToggleRecording(); break;
    // Takes as demonstrations (docs/datasets.md): record, then keep or drop.
    case KeyAction::kTeleopTake:
      if (p_.gripper.recorder().recording()) {
        p_.gripper_commands.StopCommandRecording();
      } else {
        p_.gripper_commands.StartCommandRecording();
      }
      break;
    case KeyAction::kTeleopKeepSuccess: p_.gripper_commands.KeepTake(p_.ui.gripper.dataset_path, true); break;
    case KeyAction::kTeleopKeepFailure: p_.gripper_commands.KeepTake(p_.ui.gripper.dataset_path, false); break;
    case KeyAction::kTeleopDiscard: p_.gripper_commands.DiscardTake(); break;
    default: break;
  }
}

// ---------------------------------------------------------------- mouse

void InputController::HandleMouseButton(int button, int action, int mods, double time_s) {
  if (button < 0 || button > 2) return;
  if (action == GLFW_RELEASE) {
    if (button == drag_button_) {
      drag_button_ = -1;
      p_.perturber.End();
    }
    return;
  }
  if (action != GLFW_PRESS) return;
  if (ImGuiLayer::WantsMouse()) return;  // Over a panel.
  const Rect view = p_.layout.SceneViewRect();
  if (!view.Contains(static_cast<float>(cursor_x_), static_cast<float>(cursor_y_))) return;  // Letterbox.
  if (p_.gripper.teleop()) {  // Left drag moves the target, right drag orbits; no picking.
    drag_button_ = button;
    drag_mods_ = mods;
    return;
  }
  PressInView(button, mods, time_s);
}

bool InputController::DoubleClick(int button, double time_s) {
  const bool double_click = time_s - last_press_time_[button] < kDoubleClickSeconds &&
                            std::hypot(cursor_x_ - last_press_x_[button], cursor_y_ - last_press_y_[button]) <
                                kDoubleClickPixels;
  last_press_time_[button] = double_click ? -1.0 : time_s;
  last_press_x_[button] = cursor_x_;
  last_press_y_[button] = cursor_y_;
  return double_click;
}

void InputController::PressInView(int button, int mods, double time_s) {
  const bool double_click = DoubleClick(button, time_s);
  if (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_ALT) != 0) {
    // Alt+click: inspect the contact nearest the cursor (no camera drag).
    p_.inspector.Select(
        p_.inspector.Pick(p_.director.camera(), p_.layout.SceneViewRect(), cursor_x_, cursor_y_));
    return;
  }
  if (double_click) {
    if (button == GLFW_MOUSE_BUTTON_LEFT) p_.perturber.SelectAlong(RayAt(cursor_x_, cursor_y_));
    if (button == GLFW_MOUSE_BUTTON_RIGHT) p_.director.CenterOn(RayAt(cursor_x_, cursor_y_));
  }
  drag_button_ = button;
  drag_mods_ = mods;
  if ((mods & GLFW_MOD_CONTROL) != 0 && p_.perturber.selected_body() > 0 && button != GLFW_MOUSE_BUTTON_MIDDLE) {
    p_.perturber.Begin(button == GLFW_MOUSE_BUTTON_LEFT ? PerturbMode::kRotate : PerturbMode::kTranslate);
  }
}

void InputController::HandleCursor(double x, double y) {
  const double dx = x - cursor_x_, dy = y - cursor_y_;
  cursor_x_ = x;
  cursor_y_ = y;
  if (drag_button_ >= 0) Drag(dx, dy);
}

void InputController::Drag(double dx, double dy) {
  int w = 0, h = 0;
  p_.layout.ViewSize(&w, &h);
  Camera& camera = p_.director.camera();
  if (p_.gripper.teleop()) {
    if (drag_button_ == GLFW_MOUSE_BUTTON_LEFT) p_.gripper.Drag(dx, dy, drag_mods_, camera, w, h);
    if (drag_button_ == GLFW_MOUSE_BUTTON_RIGHT) camera.Orbit(dx, dy, h);
  } else if (p_.perturber.perturbation().active()) {
    p_.perturber.Drag(dx, dy, drag_mods_, camera, h);
  } else if (drag_button_ == GLFW_MOUSE_BUTTON_LEFT) {
    p_.director.TakeOver();  // The user takes the camera.
    camera.Orbit(dx, dy, h);
  } else if (drag_button_ == GLFW_MOUSE_BUTTON_RIGHT) {
    p_.director.TakeOver();
    camera.Pan(dx, dy, h, (drag_mods_ & GLFW_MOD_SHIFT) != 0);
  } else if (drag_button_ == GLFW_MOUSE_BUTTON_MIDDLE) {
    p_.director.TakeOver();
    camera.Zoom(-dy * 20.0 / std::max(h, 1));
  }
}

void InputController::HandleScroll(double dy) {
  if (ImGuiLayer::WantsMouse()) return;
  if (p_.gripper.teleop()) {
    p_.gripper.Scroll(dy);
    return;
  }
  p_.director.TakeOver();
  p_.director.camera().Zoom(dy);
}

Ray InputController::RayAt(double x, double y) const {
  const Rect view = p_.layout.SceneViewRect();
  int w = 0, h = 0;
  p_.layout.ViewSize(&w, &h);
  return p_.director.camera().PixelRay(x - view.x, y - view.y, w, h);
}

// ---------------------------------------------------------------- files

void InputController::HandleDrop(const std::vector<std::string>& paths) {
  if (paths.empty()) return;
  // Called from GLFW's C code: nothing may escape. OpenScene reports a bad
  // file (InputError's FILE: reason) in the panel and keeps the current scene.
  try {
    if (!p_.commands.OpenScene(paths.front(), /*keep_camera=*/false)) {
      std::fprintf(stderr, "stiction: %s\n", p_.ui.message.c_str());
      return;
    }
    if (paths.size() > 1) {
      p_.ui.Info("opened " + paths.front() + "; " + std::to_string(paths.size() - 1) +
                 " more dropped file(s) ignored (one scene at a time)");
    }
  } catch (const std::exception& e) {
    ReportError(&p_.ui, std::string("cannot open dropped file: ") + e.what());
  }
}

}  // namespace stiction::app
