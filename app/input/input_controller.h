#pragma once
// The viewer's mouse and keyboard: every binding of the F1 list
// (app/input/key_bindings.h) routed to the part that acts on it. The camera
// drags, double-click selection and centring, Ctrl+drag perturbation,
// Alt+click contact inspection, and the keys; with teleop focus the left
// drag, scroll and keys drive the gripper instead.
//
// Input arrives through HandleKey / HandleMouseButton / HandleCursor /
// HandleScroll / HandleDrop, from the GLFW callbacks (Attach) or directly
// from tests; key codes and modifiers are GLFW's, cursor positions are
// window pixels with the origin at the top left. Keys typed into an ImGui
// field and clicks or scrolls over a panel never reach the viewer.
#include <string>
#include <vector>

#include "app/camera_director.h"
#include "app/contact_inspector.h"
#include "app/input/body_perturber.h"
#include "app/physics_loop.h"
#include "app/render/gl.h"
#include "app/teleop/gripper_session.h"
#include "app/ui/gripper_panel.h"
#include "app/ui/panel_layout.h"
#include "app/ui/panels.h"
#include "app/ui/ui_state.h"

namespace stiction::app {

class InputController {
 public:
  /// The parts input acts on; all outlive the controller. `commands` and
  /// `gripper_commands` (the App) take what the panels could ask for too.
  struct Parts {
    UiState& ui;
    const PanelLayout& layout;
    CameraDirector& director;
    BodyPerturber& perturber;
    ContactInspector& inspector;
    GripperSession& gripper;
    const PhysicsLoop& physics;
    AppCommands& commands;
    GripperCommands& gripper_commands;
  };
  explicit InputController(const Parts& parts) : p_(parts) {}
  InputController(const InputController&) = delete;
  InputController& operator=(const InputController&) = delete;

  /// Routes `window`'s GLFW callbacks here (before ImGui's backend installs
  /// its own, which chain to them); Detach before the controller goes.
  void Attach(GLFWwindow* window);
  static void Detach(GLFWwindow* window);

  /// key, action (GLFW_PRESS/REPEAT/RELEASE) and mods are GLFW's. Ignored
  /// while ImGui has keyboard focus (a text field is being edited).
  void HandleKey(int key, int action, int mods);
  /// Once per frame, `wall_dt` [s] after the last: in teleop focus, the
  /// held motion keys move the target (by default W/S ±x, A/D ±y, R/F ±z,
  /// Q/E yaw, Z/X an arm's tilt; UiState::keys) at the keyboard rates
  /// (GripperSession::Nudge).
  void Update(double wall_dt);
  /// time_s: event time [s] (double-click detection).
  void HandleMouseButton(int button, int action, int mods, double time_s);
  void HandleCursor(double x, double y);
  void HandleScroll(double dy);
  /// Files dropped on the window: opens the first (a .yaml scene or a
  /// .urdf/.xml robot file). A file that does not load leaves the current
  /// scene running and shows (and prints) why; never throws.
  void HandleDrop(const std::vector<std::string>& paths);
  /// Forgets the button held (teleop focus changed: a drag in progress
  /// must not carry over).
  void CancelDrag() { drag_button_ = -1; }

 private:
  /// The viewer's keys (no teleop focus).
  void ViewerKey(int key, int mods);
  /// Teleop focus: the gripper's keys only; viewer shortcuts are off.
  void TeleopKey(int key);
  /// True for the second press of `button` at time_s near the first.
  bool DoubleClick(int button, double time_s);
  /// A press in the scene view without teleop focus.
  void PressInView(int button, int mods, double time_s);
  /// A drag of (dx, dy) window pixels with the held button.
  void Drag(double dx, double dy);
  /// The world ray through window pixel (x, y).
  Ray RayAt(double x, double y) const;

  Parts p_;
  double cursor_x_ = 0, cursor_y_ = 0;
  int drag_button_ = -1;  // GLFW button held since a press in the viewport.
  int drag_mods_ = 0;
  double last_press_time_[3] = {-1, -1, -1};
  double last_press_x_[3] = {0, 0, 0}, last_press_y_[3] = {0, 0, 0};
  // The teleop motion actions held down (KeyAction kTeleopXPlus + i).
  bool held_[kNumMotionKeys] = {};
};

}  // namespace stiction::app
