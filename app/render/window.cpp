#include "app/render/window.h"

namespace stiction::app {
namespace {

std::string LastGlfwError() {
  const char* text = nullptr;
  const int code = glfwGetError(&text);
  if (code == GLFW_NO_ERROR) return "unknown GLFW error";
  return text != nullptr ? std::string(text) : "GLFW error " + std::to_string(code);
}

}  // namespace

Window::Window(const WindowOptions& options) {
  if (glfwInit() != GLFW_TRUE) {
    throw WindowError("cannot open a window: " + LastGlfwError() +
                      " (no display? run under a virtual one: xvfb-run -a stiction ...)");
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  // No GLFW_SAMPLES: MSAA is done in our own FBO (PLATFORM-NOTES: a
  // multisample default framebuffer costs ~5 ms per swap on llvmpipe).
  glfwWindowHint(GLFW_SAMPLES, 0);
  window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (window_ == nullptr) {
    const std::string reason = LastGlfwError();
    glfwTerminate();
    throw WindowError("cannot create an OpenGL 3.3 core window: " + reason +
                      " (try a Mesa software context: xvfb-run -a stiction ...)");
  }
  glfwMakeContextCurrent(window_);
  const int version = gladLoadGL(glfwGetProcAddress);
  if (version == 0 || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw WindowError("OpenGL 3.3 is not available (glad loaded version " +
                      std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                      std::to_string(GLAD_VERSION_MINOR(version)) +
                      "; try xvfb-run -a stiction ... with Mesa llvmpipe)");
  }
  glfwSwapInterval(options.vsync ? 1 : 0);
  auto str = [](GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return s != nullptr ? std::string(s) : std::string("?");
  };
  gl_renderer_ = str(GL_RENDERER);
  gl_version_ = str(GL_VERSION);
}

Window::~Window() {
  if (window_ != nullptr) glfwDestroyWindow(window_);
  glfwTerminate();
}

void Window::FramebufferSize(int* width, int* height) const {
  glfwGetFramebufferSize(window_, width, height);
}

void Window::WindowSize(int* width, int* height) const { glfwGetWindowSize(window_, width, height); }

}  // namespace stiction::app
