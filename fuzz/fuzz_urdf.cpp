// Harness: URDF robots (liburdfdom, then our conversion). The text is
// imported directly (fixed base), then written to the scratch directory and
// named by a scene's `robots:` entry (floating base, resting on the ground,
// joint PD), which is built and stepped. `package://fuzzpkg/tet.obj` and
// `tet.obj` resolve to a closed tetrahedron there.
#include <string>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"
#include "engine/scene/urdf_importer.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_support.h"

namespace stiction {

int StictionFuzzUrdf(const std::uint8_t* data, std::size_t size) {
  const std::string text = AsText(data, size);
  UrdfImportOptions options;
  options.package_path = {FuzzScratchDir()};
  try {
    ImportUrdfString(text, FuzzScratchDir() + "/direct.urdf", options);
  } catch (const InputError& e) {
    CheckCleanError(e);
    return 0;
  }
  const ScratchFile robot("robot.urdf", text);
  const std::string scene_text =
      "time_step: 0.01\n"
      "package_path: ['.']\n"
      "world_geometry:\n  - {name: ground, shape: {type: half_space}}\n"
      "robots:\n  - file: robot.urdf\n    fixed_base: false\n    rest_on_ground: true\n"
      "    joint_pd: {kp: 100, kd: 10}\n";
  LoadAndStep([&] { return LoadSceneString(scene_text, FuzzScratchDir() + "/robot_scene.yaml", FuzzScratchDir()); });
  return 0;
}

}  // namespace stiction
