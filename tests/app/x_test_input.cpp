#include "tests/app/x_test_input.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>

#include <stdexcept>

namespace stiction::test {

struct XTestInput::State {
  Display* display = nullptr;
  Window window = 0;
  int x = 0, y = 0, width = 0, height = 0;  // Window on the root [pixels].
};

XTestInput::XTestInput() : state_(std::make_unique<State>()) {
  state_->display = XOpenDisplay(nullptr);
  if (!state_->display) throw std::runtime_error("XTestInput: cannot open the X display ($DISPLAY)");
  int event_base = 0, error_base = 0, major = 0, minor = 0;
  if (!XTestQueryExtension(state_->display, &event_base, &error_base, &major, &minor)) {
    XCloseDisplay(state_->display);
    throw std::runtime_error("XTestInput: the X server has no XTEST extension");
  }
}

XTestInput::~XTestInput() {
  if (state_->display) XCloseDisplay(state_->display);
}

bool XTestInput::FindWindow() {
  Display* d = state_->display;
  Window root = DefaultRootWindow(d), parent = 0, *children = nullptr;
  unsigned int count = 0;
  if (!XQueryTree(d, root, &root, &parent, &children, &count)) return false;
  int mapped = 0;
  for (unsigned int i = 0; i < count; ++i) {
    XWindowAttributes a;
    if (XGetWindowAttributes(d, children[i], &a) && a.map_state == IsViewable && a.c_class == InputOutput) {
      state_->window = children[i];
      ++mapped;
    }
  }
  if (children) XFree(children);
  if (mapped != 1) return false;
  // Keyboard events go to the focus window; without a window manager nobody
  // else sets it.
  XSetInputFocus(d, state_->window, RevertToPointerRoot, CurrentTime);
  Sync();
  return true;
}

void XTestInput::WindowGeometry(int* x, int* y, int* width, int* height) const {
  Display* d = state_->display;
  XWindowAttributes a;
  XGetWindowAttributes(d, state_->window, &a);
  Window child = 0;
  XTranslateCoordinates(d, state_->window, DefaultRootWindow(d), 0, 0, &state_->x, &state_->y, &child);
  state_->width = a.width;
  state_->height = a.height;
  *x = state_->x;
  *y = state_->y;
  *width = state_->width;
  *height = state_->height;
}

void XTestInput::ResizeWindow(int width, int height) {
  XResizeWindow(state_->display, state_->window, static_cast<unsigned>(width), static_cast<unsigned>(height));
  Sync();
}

void XTestInput::MoveTo(int x, int y) {
  XTestFakeMotionEvent(state_->display, DefaultScreen(state_->display), state_->x + x, state_->y + y, CurrentTime);
}

void XTestInput::Button(int button, bool down) {
  XTestFakeButtonEvent(state_->display, static_cast<unsigned>(button), down ? True : False, CurrentTime);
}

bool XTestInput::Key(const std::string& keysym_name, bool down) {
  const KeySym sym = XStringToKeysym(keysym_name.c_str());
  if (sym == NoSymbol) return false;
  const KeyCode code = XKeysymToKeycode(state_->display, sym);
  if (code == 0) return false;
  XTestFakeKeyEvent(state_->display, code, down ? True : False, CurrentTime);
  return true;
}

void XTestInput::Sync() { XSync(state_->display, False); }

}  // namespace stiction::test
