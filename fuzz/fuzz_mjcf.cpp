// Harness: MJCF models (MuJoCo's own parser and compiler, then our
// conversion). The text is written to the scratch directory (MuJoCo reads
// files; `tet.obj` beside it is a closed tetrahedron for <mesh file>) and
// imported directly, then as a scene's `robots:` entry with joint PD, built
// and stepped.
#include <string>

#include "engine/common/error.h"
#include "engine/scene/mjcf_importer.h"
#include "engine/scene/scene_loader.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_support.h"

namespace stiction {

int StictionFuzzMjcf(const std::uint8_t* data, std::size_t size) {
  const ScratchFile model("model.xml", AsText(data, size));
  try {
    ImportMjcf(model.path());
  } catch (const InputError& e) {
    CheckCleanError(e);
    return 0;
  }
  const std::string scene_text =
      "time_step: 0.01\n"
      "world_geometry:\n  - {name: ground, shape: {type: half_space}}\n"
      "robots:\n  - file: model.xml\n    joint_pd: {kp: 100, kd: 10}\n";
  LoadAndStep([&] { return LoadSceneString(scene_text, FuzzScratchDir() + "/model_scene.yaml", FuzzScratchDir()); });
  return 0;
}

}  // namespace stiction
