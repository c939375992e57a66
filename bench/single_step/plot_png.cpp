#include "bench/single_step/plot_png.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/record/screenshot.h"

namespace stiction::bench {

namespace {

class Canvas {
 public:
  Canvas(int w, int h) : w_(w), h_(h), rgb_(static_cast<std::size_t>(3 * w * h), 255) {
    font_ = atlas_.AddFontDefault();
    atlas_.GetTexDataAsAlpha8(&font_pixels_, &font_w_, &font_h_);
  }
  int width() const { return w_; }
  int height() const { return h_; }
  const std::vector<std::uint8_t>& rgb() const { return rgb_; }

  void Blend(int x, int y, std::array<std::uint8_t, 3> c, double alpha) {
    if (x < 0 || y < 0 || x >= w_ || y >= h_ || alpha <= 0) return;
    std::uint8_t* p = &rgb_[3 * (static_cast<std::size_t>(y) * w_ + x)];
    for (int k = 0; k < 3; ++k) p[k] = static_cast<std::uint8_t>(std::lround(p[k] + alpha * (c[k] - p[k])));
  }
  // A line of width ~2 px (Xiaolin Wu would be nicer; a disc per step is enough).
  void Line(double x0, double y0, double x1, double y1, std::array<std::uint8_t, 3> c, double width = 2) {
    const double len = std::hypot(x1 - x0, y1 - y0);
    const int steps = std::max(1, static_cast<int>(std::ceil(len * 2)));
    const double r = 0.5 * width;
    for (int i = 0; i <= steps; ++i) {
      const double x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
      for (int yy = static_cast<int>(std::floor(y - r - 1)); yy <= static_cast<int>(std::ceil(y + r + 1)); ++yy) {
        for (int xx = static_cast<int>(std::floor(x - r - 1)); xx <= static_cast<int>(std::ceil(x + r + 1)); ++xx) {
          const double d = std::hypot(xx - x, yy - y);
          Blend(xx, yy, c, std::clamp(r + 0.5 - d, 0.0, 1.0));
        }
      }
    }
  }
  void Rect(int x0, int y0, int x1, int y1, std::array<std::uint8_t, 3> c) {
    for (int x = x0; x <= x1; ++x) {
      Blend(x, y0, c, 1);
      Blend(x, y1, c, 1);
    }
    for (int y = y0; y <= y1; ++y) {
      Blend(x0, y, c, 1);
      Blend(x1, y, c, 1);
    }
  }
  int TextWidth(const std::string& text) const {
    double w = 0;
    for (char ch : text) {
      if (const ImFontGlyph* g = font_->FindGlyph(static_cast<ImWchar>(ch))) w += g->AdvanceX;
    }
    return static_cast<int>(w);
  }
  // Text with its top-left corner at (x, y).
  void Text(int x, int y, const std::string& text, std::array<std::uint8_t, 3> c) {
    double pen = x;
    for (char ch : text) {
      const ImFontGlyph* g = font_->FindGlyph(static_cast<ImWchar>(ch));
      if (g == nullptr) continue;
      const int u0 = static_cast<int>(std::lround(g->U0 * font_w_)), v0 = static_cast<int>(std::lround(g->V0 * font_h_));
      const int gw = static_cast<int>(std::lround(g->X1 - g->X0)), gh = static_cast<int>(std::lround(g->Y1 - g->Y0));
      for (int j = 0; j < gh; ++j) {
        for (int i = 0; i < gw; ++i) {
          const std::uint8_t a = font_pixels_[(v0 + j) * font_w_ + u0 + i];
          Blend(static_cast<int>(pen + g->X0) + i, y + static_cast<int>(g->Y0) + j, c, a / 255.0);
        }
      }
      pen += g->AdvanceX;
    }
  }

 private:
  int w_, h_;
  std::vector<std::uint8_t> rgb_;
  ImFontAtlas atlas_;
  ImFont* font_ = nullptr;
  unsigned char* font_pixels_ = nullptr;
  int font_w_ = 0, font_h_ = 0;
};

constexpr std::array<std::uint8_t, 3> kInk{40, 40, 40}, kGrid{225, 225, 225};

std::string Decade(int e) { return e == 0 ? "1" : "1e" + std::to_string(e); }

void DrawPanel(Canvas* canvas, int left, int w, int h, const PlotPanel& panel) {
  double lx0 = 1e300, lx1 = -1e300, ly0 = 1e300, ly1 = -1e300;
  for (const PlotSeries& s : panel.series) {
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!(s.x[i] > 0 && s.y[i] > 0) || !std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      lx0 = std::min(lx0, std::log10(s.x[i]));
      lx1 = std::max(lx1, std::log10(s.x[i]));
      ly0 = std::min(ly0, std::log10(s.y[i]));
      ly1 = std::max(ly1, std::log10(s.y[i]));
    }
  }
  if (lx0 > lx1) return;
  // Whole decades on both axes.
  lx0 = std::floor(lx0);
  lx1 = std::max(std::ceil(lx1), lx0 + 1);
  ly0 = std::floor(ly0);
  ly1 = std::max(std::ceil(ly1), ly0 + 1);
  const int x0 = left + 64, x1 = left + w - 16, y0 = 36, y1 = h - 44;
  const auto px = [&](double x) { return x0 + (std::log10(x) - lx0) / (lx1 - lx0) * (x1 - x0); };
  const auto py = [&](double y) { return y1 - (std::log10(y) - ly0) / (ly1 - ly0) * (y1 - y0); };
  const int y_step = ly1 - ly0 > 12 ? 2 : 1;
  for (int e = static_cast<int>(lx0); e <= static_cast<int>(lx1); ++e) {
    const int x = static_cast<int>(std::lround(px(std::pow(10.0, e))));
    for (int y = y0; y <= y1; ++y) canvas->Blend(x, y, kGrid, 1);
    const std::string label = Decade(e);
    canvas->Text(x - canvas->TextWidth(label) / 2, y1 + 6, label, kInk);
  }
  for (int e = static_cast<int>(ly0); e <= static_cast<int>(ly1); e += y_step) {
    const int y = static_cast<int>(std::lround(py(std::pow(10.0, e))));
    for (int x = x0; x <= x1; ++x) canvas->Blend(x, y, kGrid, 1);
    const std::string label = Decade(e);
    canvas->Text(x0 - 6 - canvas->TextWidth(label), y - 6, label, kInk);
  }
  canvas->Rect(x0, y0, x1, y1, kInk);
  canvas->Text(left + (w - canvas->TextWidth(panel.title)) / 2, 8, panel.title, kInk);
  canvas->Text(x0 + (x1 - x0 - canvas->TextWidth(panel.x_label)) / 2, y1 + 24, panel.x_label, kInk);
  canvas->Text(left + 4, 22, panel.y_label, kInk);
  int legend_y = y0 + 8;
  for (const PlotSeries& s : panel.series) {
    bool have = false;
    double prev_x = 0, prev_y = 0;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!(s.x[i] > 0 && s.y[i] > 0) || !std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      const double x = px(s.x[i]), y = py(s.y[i]);
      if (have) canvas->Line(prev_x, prev_y, x, y, s.color);
      prev_x = x;
      prev_y = y;
      have = true;
    }
    canvas->Line(x1 - 110, legend_y + 6, x1 - 90, legend_y + 6, s.color);
    canvas->Text(x1 - 84, legend_y, s.label, kInk);
    legend_y += 16;
  }
}

}  // namespace

bool WriteLogLogPlotPng(const std::string& path, const std::vector<PlotPanel>& panels, int panel_width,
                        int panel_height, std::string* error) {
  if (panels.empty()) {
    *error = "no panels to plot";
    return false;
  }
  Canvas canvas(panel_width * static_cast<int>(panels.size()), panel_height);
  for (std::size_t i = 0; i < panels.size(); ++i) {
    DrawPanel(&canvas, static_cast<int>(i) * panel_width, panel_width, panel_height, panels[i]);
  }
  if (!app::WritePng(path, canvas.rgb(), canvas.width(), canvas.height(), /*bottom_row_first=*/false)) {
    *error = path + ": cannot write the PNG";
    return false;
  }
  return true;
}

}  // namespace stiction::bench
