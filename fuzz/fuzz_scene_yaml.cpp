// Harness: YAML scene text. The text is loaded as if it were a file in
// assets/scenes/ (so the shipped scenes, used as seeds, find their includes,
// robots and command files), then built into a Simulation and stepped.
#include <string>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_support.h"

namespace stiction {

int StictionFuzzSceneYaml(const std::uint8_t* data, std::size_t size) {
  const std::string text = AsText(data, size);
  const std::string base_dir = std::string(STICTION_SOURCE_DIR) + "/assets/scenes";
  LoadAndStep([&] { return LoadSceneString(text, base_dir + "/fuzz_scene.yaml", base_dir); });
  return 0;
}

}  // namespace stiction
