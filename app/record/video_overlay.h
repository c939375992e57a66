#pragma once
// Overlays burned into recorded video frames (Recording section, --overlay,
// --caption): the scene's name and a caption at the top left, the simulated
// time at the bottom left, a rolling plot at the bottom right. Drawn with
// ImGui's draw lists and font into the framebuffer bound for drawing, after
// the scene and before the frame is read back, so they are part of the
// video and never of the interactive view (docs/viewer.md "Video").
#include <string>
#include <vector>

#include <imgui.h>

#include "app/record/video_overlay_options.h"
#include "app/ui/rolling_plot.h"

namespace stiction::app {

/// What an overlay shows for one frame.
struct VideoOverlayContent {
  double sim_time = 0;       ///< [s]
  std::string scene_name;    ///< The scene file's name, without directories.
  /// The plot's series (one per finger, or one), oldest sample first, and
  /// their names; the legend says what and in which unit.
  std::vector<const RollingPlot*> series;
  std::vector<std::string> series_names;
  std::string legend;
};

/// Draws the overlay over a width × height image in the framebuffer bound
/// for drawing (GL_DRAW_FRAMEBUFFER), with `font` (ImGui's atlas must be
/// built and uploaded). Leaves the GL state as it found it (the ImGui
/// backend saves and restores it).
void DrawVideoOverlay(const VideoOverlayOptions& options, const VideoOverlayContent& content, ImFont* font,
                      int width, int height);

/// The samples an overlay plot keeps: 5 s at 30 frames per second.
inline constexpr size_t kOverlayPlotSamples = 150;

}  // namespace stiction::app
