#include "python/scene_source.h"

#include <filesystem>

namespace stiction::python {

bool LooksLikeScenePath(const std::string& scene) {
  if (scene.find('\n') != std::string::npos) return false;
  std::error_code ec;
  if (std::filesystem::is_regular_file(scene, ec)) return true;
  // A name that is not there is still a path (the loader then says it
  // cannot be read) unless it reads as a one-line YAML mapping.
  return scene.find(": ") == std::string::npos && scene.find('{') == std::string::npos;
}

}  // namespace stiction::python
