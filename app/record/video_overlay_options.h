#pragma once
// What a recording shows on top of the scene (burned into the frames):
// the Recording section's checkboxes and `--overlay` / `--caption`.
#include <string>
#include <string_view>

namespace stiction::app {

struct VideoOverlayOptions {
  bool time = true;          ///< Simulated time, bottom left.
  bool scene_name = true;    ///< The scene file's name, top left.
  bool caption_on = true;    ///< Show `caption` (when not empty), under the name.
  std::string caption;       ///< A line of text.
  /// A rolling plot, bottom right: "" (none) or one of kOverlayPlots.
  std::string plot;
};

/// The plots an overlay can show, with their legends.
struct OverlayPlotInfo {
  std::string_view name, legend;
};
inline constexpr OverlayPlotInfo kOverlayPlots[] = {
    {"grip_force", "grip force per finger [N]"},
    {"slip_speed", "slip speed per finger [um/s]"},
    {"kinetic_energy", "kinetic energy [J]"},
    {"contacts", "number of contacts"},
};

}  // namespace stiction::app
