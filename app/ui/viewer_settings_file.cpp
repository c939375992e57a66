#include "app/ui/viewer_settings_file.h"

#include <cstdio>
#include <utility>

namespace stiction::app {

ViewerSettingsFile::ViewerSettingsFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) return;
  std::string warning;
  remembered_ = LoadViewerSettings(path_, &warning);
  if (!warning.empty()) std::fprintf(stderr, "stiction: %s\n", warning.c_str());
}

bool ViewerSettingsFile::Save(const ViewerSettings& settings) const {
  if (path_.empty()) return true;
  std::string error;
  if (!SaveViewerSettings(settings, path_, &error)) {
    std::fprintf(stderr, "stiction: %s\n", error.c_str());
    return false;
  }
  return true;
}

}  // namespace stiction::app
