#include "app/ui/pressure_legend.h"

#include <algorithm>
#include <string>

#include "app/ui/ui_metrics.h"

namespace stiction::app {
namespace {

ImU32 ToImColor(const Vec4f& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x(), c.y(), c.z(), c.w())); }

}  // namespace

void DrawPressureLegend(ImDrawList* draw, const PressureLegend& legend, const Rect& view) {
  const float font = ImGui::GetFontSize();
  const float pad = 0.6f * font, bar_width = 1.1f * font;
  const float bar_height = std::clamp(0.3f * view.height, 4.0f * font, 10.0f * font);
  const std::string title = legend.Title();
  const std::string labels[3] = {legend.Label(legend.max_pa), legend.Label(0.5 * legend.max_pa), legend.Label(0)};
  float label_width = 0;
  for (const std::string& l : labels) label_width = std::max(label_width, ImGui::CalcTextSize(l.c_str()).x);
  const float text_width =
      std::max(ImGui::CalcTextSize(title.c_str()).x, ImGui::CalcTextSize(legend.ModeName()).x);
  const float width = std::max(text_width, bar_width + pad + label_width) + 2 * pad;
  const float height = 2 * font + 0.5f * pad + bar_height + 3 * pad;
  const ImVec2 lo(view.x + Scaled(8), view.bottom() - Scaled(8) - height);
  if (lo.y < view.y) return;  // A view too small for it.
  draw->AddRectFilled(lo, ImVec2(lo.x + width, lo.y + height), IM_COL32(0, 0, 0, 150), 0.4f * pad);
  const ImU32 white = IM_COL32(255, 255, 255, 255), grey = IM_COL32(200, 200, 200, 255);
  draw->AddText(ImVec2(lo.x + pad, lo.y + pad), white, title.c_str());
  draw->AddText(ImVec2(lo.x + pad, lo.y + pad + font), grey, legend.ModeName());
  // The bar: the map in slices (each a vertical gradient between two of its
  // colours), 0 at the bottom.
  const float x0 = lo.x + pad, x1 = x0 + bar_width;
  const float top = lo.y + 2 * pad + 2 * font - 0.5f * pad, bottom = top + bar_height;
  constexpr int kSlices = 32;
  for (int i = 0; i < kSlices; ++i) {
    const float t0 = static_cast<float>(i) / kSlices, t1 = static_cast<float>(i + 1) / kSlices;
    const ImU32 c_lo = ToImColor(PressureColor(t0)), c_hi = ToImColor(PressureColor(t1));
    draw->AddRectFilledMultiColor(ImVec2(x0, bottom - t1 * bar_height), ImVec2(x1, bottom - t0 * bar_height), c_hi,
                                  c_hi, c_lo, c_lo);
  }
  draw->AddRect(ImVec2(x0, top), ImVec2(x1, bottom), grey);
  for (int k = 0; k < 3; ++k) {
    const float y = top + 0.5f * static_cast<float>(k) * bar_height;
    draw->AddLine(ImVec2(x1, y), ImVec2(x1 + 0.3f * pad, y), grey);
    draw->AddText(ImVec2(x1 + pad, y - 0.5f * font), white, labels[k].c_str());
  }
}

}  // namespace stiction::app
