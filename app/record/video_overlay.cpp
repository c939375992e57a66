#include "app/record/video_overlay.h"

#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stiction::app {
namespace {

const ImU32 kText = IM_COL32(255, 255, 255, 255), kShadow = IM_COL32(0, 0, 0, 170),
            kPanel = IM_COL32(10, 12, 16, 150);
// Series colours of the plot (per finger).
const ImU32 kSeriesColors[] = {IM_COL32(255, 170, 40, 255), IM_COL32(80, 190, 255, 255), IM_COL32(140, 230, 110, 255),
                               IM_COL32(240, 100, 200, 255), IM_COL32(250, 240, 90, 255)};

// Text with a one-pixel shadow, readable on the sky and on the ground.
void ShadowedText(ImDrawList* list, ImFont* font, float size, ImVec2 p, const char* text, ImU32 color = kText) {
  const float d = std::max(1.0f, size / 16.0f);
  list->AddText(font, size, ImVec2(p.x + d, p.y + d), kShadow, text);
  list->AddText(font, size, p, color, text);
}

void DrawPlot(ImDrawList* list, ImFont* font, float size, const VideoOverlayContent& c, ImVec2 lo, ImVec2 hi) {
  list->AddRectFilled(lo, hi, kPanel, 0.4f * size);
  const float pad = 0.5f * size;
  ShadowedText(list, font, size * 0.8f, ImVec2(lo.x + pad, lo.y + 0.3f * pad), c.legend.c_str());
  const ImVec2 plo(lo.x + pad, lo.y + 1.3f * size), phi(hi.x - pad, hi.y - pad);
  float vmin = 0, vmax = 1e-6f;
  for (const RollingPlot* s : c.series) {
    vmin = std::min(vmin, s->min());
    vmax = std::max(vmax, s->max());
  }
  vmax += 0.08f * (vmax - vmin);
  list->AddLine(ImVec2(plo.x, phi.y), ImVec2(phi.x, phi.y), IM_COL32(255, 255, 255, 90));
  std::vector<ImVec2> points;
  for (size_t k = 0; k < c.series.size(); ++k) {
    const std::vector<float>& v = c.series[k]->values();
    if (v.size() < 2) continue;
    points.clear();
    // The newest sample at the right edge; a full history spans the width.
    const float dx = (phi.x - plo.x) / static_cast<float>(kOverlayPlotSamples - 1);
    const float x0 = phi.x - dx * static_cast<float>(v.size() - 1);
    for (size_t i = 0; i < v.size(); ++i) {
      const float t = (v[i] - vmin) / (vmax - vmin);
      points.emplace_back(x0 + dx * static_cast<float>(i), phi.y - t * (phi.y - plo.y));
    }
    const ImU32 color = kSeriesColors[k % std::size(kSeriesColors)];
    list->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0, std::max(1.5f, size / 9.0f));
    // The name and the latest value, stacked at the top right.
    char label[96];
    std::snprintf(label, sizeof label, "%s %.3g", k < c.series_names.size() ? c.series_names[k].c_str() : "",
                  static_cast<double>(v.back()));
    const float ls = 0.75f * size;
    const ImVec2 ts = font->CalcTextSizeA(ls, 1e9f, 0.0f, label);
    ShadowedText(list, font, ls, ImVec2(hi.x - pad - ts.x, plo.y + static_cast<float>(k) * ls), label, color);
  }
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.3g", static_cast<double>(vmax));
  ShadowedText(list, font, 0.65f * size, ImVec2(plo.x, plo.y), scale, IM_COL32(255, 255, 255, 160));
}

}  // namespace

void DrawVideoOverlay(const VideoOverlayOptions& o, const VideoOverlayContent& c, ImFont* font, int width,
                      int height) {
  if (font == nullptr || width <= 0 || height <= 0) return;
  const bool caption = o.caption_on && !o.caption.empty();
  const bool plot = !o.plot.empty() && !c.series.empty();
  if (!o.time && !o.scene_name && !caption && !plot) return;
  // The shared data ImGui fills at NewFrame; a headless recording may never
  // run an ImGui frame, so what shapes and text need is set here.
  ImDrawListSharedData* shared = ImGui::GetDrawListSharedData();
  shared->TexUvWhitePixel = font->ContainerAtlas->TexUvWhitePixel;
  shared->Font = font;
  shared->FontSize = font->FontSize;
  shared->SetCircleTessellationMaxError(ImGui::GetStyle().CircleTessellationMaxError);  // Rounded corners.
  shared->ClipRectFullscreen = ImVec4(0, 0, static_cast<float>(width), static_cast<float>(height));
  ImDrawList list(shared);
  list._ResetForNewFrame();
  list.PushTextureID(font->ContainerAtlas->TexID);
  list.PushClipRect(ImVec2(0, 0), ImVec2(static_cast<float>(width), static_cast<float>(height)));

  // Text height: 1/30 of the frame (24 px at 720p, 36 at 1080p).
  const float size = std::max(12.0f, static_cast<float>(height) / 30.0f);
  const float margin = 0.8f * size;
  float y = margin;
  if (o.scene_name && !c.scene_name.empty()) {
    ShadowedText(&list, font, size, ImVec2(margin, y), c.scene_name.c_str());
    y += 1.25f * size;
  }
  if (caption) ShadowedText(&list, font, 0.85f * size, ImVec2(margin, y), o.caption.c_str());
  if (o.time) {
    char text[48];
    std::snprintf(text, sizeof text, "t = %.2f s", c.sim_time);
    ShadowedText(&list, font, size, ImVec2(margin, static_cast<float>(height) - margin - size), text);
  }
  if (plot) {
    const float w = std::min(0.36f * static_cast<float>(width), 14.0f * size);
    const float h = std::min(0.3f * static_cast<float>(height), 6.0f * size);
    const ImVec2 hi(static_cast<float>(width) - margin, static_cast<float>(height) - margin);
    DrawPlot(&list, font, size, c, ImVec2(hi.x - w, hi.y - h), hi);
  }

  ImDrawList* lists[] = {&list};
  ImDrawData data;
  data.Valid = true;
  data.CmdLists = lists;
  data.CmdListsCount = 1;
  data.TotalVtxCount = list.VtxBuffer.Size;
  data.TotalIdxCount = list.IdxBuffer.Size;
  data.DisplayPos = ImVec2(0, 0);
  data.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  data.FramebufferScale = ImVec2(1, 1);
  ImGui_ImplOpenGL3_RenderDrawData(&data);
}

}  // namespace stiction::app
