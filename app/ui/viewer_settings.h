#pragma once
// What the viewer remembers between runs: window size, UI scale, which
// panel columns are shown and how wide, which sections are open. A small
// "key = value" text file in the user's config directory
// ($XDG_CONFIG_HOME/stiction/viewer.ini, else ~/.config/stiction/viewer.ini);
// docs/viewer.md documents it. A missing file means defaults; a damaged one
// costs only its bad lines (with a warning), never a start.
#include <map>
#include <string>

#include "app/ui/layout.h"

namespace stiction::app {

struct ViewerSettings {
  int window_width = 0, window_height = 0;  ///< [window pixels]; 0: not saved yet.
  float ui_scale = 0;                       ///< Font and widget scale; 0: the monitor's content scale.
  LayoutSettings layout;
  std::map<std::string, bool> sections;     ///< Open (true) or folded, by section title.
};

/// Limits of ui_scale (besides 0 = automatic).
inline constexpr float kMinUiScale = 0.75f, kMaxUiScale = 3.0f;

/// $XDG_CONFIG_HOME/stiction/viewer.ini or $HOME/.config/stiction/viewer.ini;
/// "" when neither variable is set (nothing is then remembered).
std::string DefaultViewerSettingsPath();

/// Reads `path`. A missing file gives the defaults and no warning; unknown
/// keys and bad values are skipped, each named in *warning as
/// "FILE:LINE: KEY: reason" (the first one, plus how many more).
ViewerSettings LoadViewerSettings(const std::string& path, std::string* warning);

/// The file text for `settings`.
std::string FormatViewerSettings(const ViewerSettings& settings);

/// Writes the file (creating its directory), through a temporary file and a
/// rename so that a crash never leaves half a file. False with *error set
/// ("cannot save viewer settings to PATH: reason") if it cannot.
bool SaveViewerSettings(const ViewerSettings& settings, const std::string& path, std::string* error);

}  // namespace stiction::app
