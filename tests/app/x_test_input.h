#pragma once
// Input to a real window through the X server (the XTEST extension), as a
// user's mouse and keyboard would arrive: the server delivers the events to
// the window's own connection, so GLFW's callbacks, ImGui's backend and the
// viewer's handlers all run exactly as they do for a person. For tests under
// Xvfb; no X11 header leaks out of this file (X11's macros clash with ours).
#include <memory>
#include <string>

namespace stiction::test {

class XTestInput {
 public:
  /// Connects to $DISPLAY and checks for the XTEST extension. Throws
  /// std::runtime_error with the reason if either is missing.
  XTestInput();
  ~XTestInput();
  XTestInput(const XTestInput&) = delete;
  XTestInput& operator=(const XTestInput&) = delete;

  /// Finds the one mapped top-level window on the screen (the viewer's, under
  /// a private Xvfb without a window manager) and gives it the keyboard focus.
  /// False if there is none or more than one.
  bool FindWindow();
  /// The found window's top-left corner on the screen and its size [pixels].
  void WindowGeometry(int* x, int* y, int* width, int* height) const;
  /// Asks the server to resize the window (GLFW sees a ConfigureNotify).
  void ResizeWindow(int width, int height);

  /// Moves the pointer to window pixel (x, y) (may lie outside the window).
  void MoveTo(int x, int y);
  /// X buttons: 1 left, 2 middle, 3 right, 4/5 scroll up/down.
  void Button(int button, bool down);
  /// A key by its X keysym name ("space", "Tab", "F1", "Control_L", "a");
  /// false if the name or its keycode is unknown.
  bool Key(const std::string& keysym_name, bool down);
  /// Sends everything queued and waits until the server has processed it.
  void Sync();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace stiction::test
