#include "app/ui/imgui_layer.h"

#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>

#include "app/ui/ui_metrics.h"
#include "app/ui/viewer_settings.h"

namespace stiction::app {

ImGuiLayer::ImGuiLayer(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // No imgui.ini next to the user's files.
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

ImGuiLayer::~ImGuiLayer() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

float ImGuiLayer::CalcUiScale(float setting, GLFWwindow* window) {
  float scale = setting;
  if (scale <= 0) {
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window, &sx, &sy);
    scale = std::max(1.0f, std::max(sx, sy));  // High-DPI screens report 1.5, 2, ...
  }
  return std::clamp(scale, kMinUiScale, kMaxUiScale);
}

bool ImGuiLayer::WantsKeyboard() { return ImGui::GetCurrentContext() != nullptr && ImGui::GetIO().WantCaptureKeyboard; }

bool ImGuiLayer::WantsMouse() { return ImGui::GetCurrentContext() != nullptr && ImGui::GetIO().WantCaptureMouse; }

void ImGuiLayer::SetScale(float scale) {
  if (scale == font_scale_) return;
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

void ImGuiLayer::BeginFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (ui_input_) ui_input_(ImGui::GetIO());
  ImGui::NewFrame();
}

void ImGuiLayer::EndFrame(int width, int height) {
  ImGui::Render();
  glViewport(0, 0, std::max(width, 1), std::max(height, 1));
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace stiction::app
