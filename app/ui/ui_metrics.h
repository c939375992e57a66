#pragma once
// Sizes in the panels scale with the font, so that widgets keep their
// proportions at any UI scale (high-DPI screens): a width written for the
// 13-pixel base font is multiplied by the font size in use over 13.
#include <imgui.h>

namespace stiction::app {

/// The pixel size of the UI font at scale 1 (ImGui's default font).
inline constexpr float kBaseFontPixels = 13.0f;

/// `unscaled` pixels at the base font size, in pixels at the current one.
inline float Scaled(float unscaled) { return unscaled * ImGui::GetFontSize() / kBaseFontPixels; }

}  // namespace stiction::app
