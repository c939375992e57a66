#pragma once
// The viewer settings file (viewer_settings.h: column visibility and widths,
// open sections, UI scale, window size): read once when the viewer starts,
// written when it closes. No path: nothing is remembered (tests, headless
// runs, the benchmark, --no-settings).
#include <string>

#include "app/ui/viewer_settings.h"

namespace stiction::app {

class ViewerSettingsFile {
 public:
  /// Reads `path` ("" = none); a bad line is warned about on stderr and skipped.
  explicit ViewerSettingsFile(std::string path);

  const std::string& path() const { return path_; }
  /// The settings as read (the defaults without a file).
  const ViewerSettings& remembered() const { return remembered_; }
  /// Writes `settings` (nothing without a path); false with the reason on
  /// stderr if it cannot.
  bool Save(const ViewerSettings& settings) const;

 private:
  std::string path_;
  ViewerSettings remembered_;
};

}  // namespace stiction::app
