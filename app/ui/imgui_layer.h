#pragma once
// Dear ImGui on the viewer's window: the context and its GLFW and OpenGL 3
// backends (created after the App's input callbacks, so that the backend
// chains to them; shut down in reverse order), the font atlas and style at
// the UI scale, and the frame's begin and end around the panels, as in
// Dear ImGui's example_glfw_opengl3 loop. All UI state is in UiState.
#include <functional>

#include <imgui.h>

#include "app/render/gl.h"

namespace stiction::app {

class ImGuiLayer {
 public:
  /// Creates the context on `window` (which outlives the layer).
  explicit ImGuiLayer(GLFWwindow* window);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  /// The UI scale: `setting` (the Visualization section's), else the
  /// monitor's content scale of `window`, within [kMinUiScale, kMaxUiScale].
  static float CalcUiScale(float setting, GLFWwindow* window);
  /// True while a panel has the keyboard (a text field is being edited) or
  /// the mouse is over a panel: the viewer's own bindings then stay off.
  static bool WantsKeyboard();
  static bool WantsMouse();

  /// Rebuilds the font atlas and the style when the UI scale changed.
  void SetScale(float scale);
  /// The video overlays' font (twice the UI's base size: crisp when scaled).
  ImFont* overlay_font() const { return overlay_font_; }
  /// Called each frame between the backends' NewFrame and ImGui::NewFrame,
  /// with ImGui's input state: tests point, click and type into the panels
  /// through it (a hidden window gets no input from GLFW).
  void set_ui_input(std::function<void(ImGuiIO&)> input) { ui_input_ = std::move(input); }

  /// Starts a UI frame; the panels draw after it.
  void BeginFrame();
  /// Renders the frame's UI over the window's framebuffer (width x height).
  void EndFrame(int width, int height);

 private:
  float font_scale_ = 0;  // UI scale the font atlas was built for.
  ImFont* overlay_font_ = nullptr;
  std::function<void(ImGuiIO&)> ui_input_;
};

}  // namespace stiction::app
