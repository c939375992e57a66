// Harness: `--set key=value` overrides (stiction-sim's --set, the viewer's
// command line). The first line names a shipped scene in assets/scenes/ (one
// of a fixed list of small ones; an unknown name picks one by hash, so every
// input loads some scene); each further line is one assignment, passed as
// cli/cli_runner.cpp passes them to LoadSceneFile. A scene that loads is
// built and stepped.
#include <functional>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_support.h"

namespace stiction {
namespace {

// Small scenes that between them have every kind of section overrides
// reach: materials, bodies and joints, a gripper with a command file,
// compliant geometry, URDF robots with PD gains, solver settings.
const std::vector<std::string>& Scenes() {
  static const std::vector<std::string> names = {
      "box_resting.yaml", "pendulum.yaml",   "double_pendulum.yaml", "incline.yaml",
      "stack_blocks.yaml", "grasp_box.yaml", "soft_ball.yaml",       "spring_cylinder.yaml",
      "three_link_arm.yaml", "iiwa_posture.yaml", "conveyor_belt.yaml", "slip_control_patches.yaml"};
  return names;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

int StictionFuzzSceneOverrides(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> lines = SplitLines(AsText(data, size));
  std::string scene_name = lines.front();
  bool known = false;
  for (const std::string& name : Scenes()) known = known || name == scene_name;
  if (!known) scene_name = Scenes()[std::hash<std::string>{}(scene_name) % Scenes().size()];
  std::vector<std::string> overrides;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (!lines[i].empty()) overrides.push_back(lines[i]);
  }
  LoadAndStep([&] { return LoadSceneFile(std::string(STICTION_SOURCE_DIR) + "/assets/scenes/" + scene_name, overrides); });
  return 0;
}

}  // namespace stiction
