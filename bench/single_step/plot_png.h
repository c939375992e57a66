#pragma once
// A small log-log line plot written as a PNG, for the benchmarks' figures
// (docs/benchmarks.md): panels side by side, one line per series, decade
// ticks with labels, a legend. Text is drawn with ImGui's built-in bitmap
// font (ProggyClean, baked on the CPU; no window or GL context).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stiction::bench {

struct PlotSeries {
  std::string label;
  std::array<std::uint8_t, 3> color{0, 0, 0};
  std::vector<double> x, y;  ///< Points with x, y ≤ 0 or non-finite are skipped (log axes).
};

struct PlotPanel {
  std::string title, x_label, y_label;
  std::vector<PlotSeries> series;
};

/// Writes the panels left to right, each panel_width × panel_height pixels,
/// both axes logarithmic. Returns false and sets *error when the file
/// cannot be written or no panel has a point.
bool WriteLogLogPlotPng(const std::string& path, const std::vector<PlotPanel>& panels, int panel_width,
                        int panel_height, std::string* error);

}  // namespace stiction::bench
