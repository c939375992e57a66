#include "fuzz/fuzz_harness.h"

namespace stiction {

const std::vector<FuzzHarness>& FuzzHarnesses() {
  static const std::vector<FuzzHarness> harnesses = {
      {"scene_yaml", &StictionFuzzSceneYaml},     {"scene_overrides", &StictionFuzzSceneOverrides},
      {"mesh", &StictionFuzzMesh},                {"command_file", &StictionFuzzCommandFile},
      {"urdf", &StictionFuzzUrdf},                {"mjcf", &StictionFuzzMjcf},
  };
  return harnesses;
}

}  // namespace stiction
