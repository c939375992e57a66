#pragma once
// The GLFW window and its OpenGL 3.3 core context, loaded by glad. Owns
// glfwInit/glfwTerminate, so at most one Window exists at a time.
#include <memory>
#include <stdexcept>
#include <string>

#include "app/render/gl.h"

namespace stiction::app {

/// No display, no GL 3.3, or another reason the window cannot exist. what()
/// is one line that ends with a hint (e.g. to use xvfb-run).
class WindowError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct WindowOptions {
  int width = 1280;   ///< Window size [screen pixels].
  int height = 720;
  bool visible = true;  ///< false: hidden (headless frames, tests; works under Xvfb).
  bool vsync = true;
  std::string title = "Stiction";
};

class Window {
 public:
  /// Throws WindowError.
  explicit Window(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool ShouldClose() const { return glfwWindowShouldClose(window_) != 0; }
  void FramebufferSize(int* width, int* height) const;
  void WindowSize(int* width, int* height) const;
  std::string gl_renderer() const { return gl_renderer_; }
  std::string gl_version() const { return gl_version_; }

 private:
  GLFWwindow* window_ = nullptr;
  std::string gl_renderer_, gl_version_;
};

}  // namespace stiction::app
