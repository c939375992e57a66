// Harness: gripper command files (docs/teleop.md). A file that parses must
// survive the viewer's record/save cycle: FormatCommandLog's text parses
// again and formats to the same text (the format promises bit-identical
// replay, so a value that does not read back is a bug). Then it plays on
// the gripper of assets/scenes/grasp_box.yaml for a few steps: its names are
// bound, its early commands applied and its waits judged; a refused command
// or a timed-out wait must be a clean one-line error.
#include <optional>
#include <string>

#include "engine/common/error.h"
#include "engine/control/command_log.h"
#include "engine/control/command_player.h"
#include "engine/control/scene_gripper.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_support.h"

namespace stiction {
namespace {

const SceneDescription& GripperScene() {
  static const SceneDescription scene =
      LoadSceneFile(std::string(STICTION_SOURCE_DIR) + "/assets/scenes/grasp_box.yaml");
  return scene;
}

}  // namespace

int StictionFuzzCommandFile(const std::uint8_t* data, std::size_t size) {
  CommandLog log;
  try {
    log = ParseCommandText(AsText(data, size), "fuzz_commands.yaml");
  } catch (const InputError& e) {
    CheckCleanError(e);
    return 0;
  }
  const std::string written = FormatCommandLog(log);
  try {
    const std::string rewritten = FormatCommandLog(ParseCommandText(written, "rewritten.yaml"));
    if (rewritten != written) {
      throw FuzzFinding("command file does not read back as written:\n" + written + "---\n" + rewritten);
    }
  } catch (const InputError& e) {
    throw FuzzFinding(std::string("a written command file is refused: ") + e.what() + "\n" + written);
  }

  Simulation sim(GripperScene());
  SceneGripper gripper(sim);
  try {
    gripper.Play(sim, CommandPlayer(log, sim.time_step()), "fuzz_commands.yaml");
  } catch (const InputError& e) {
    CheckCleanError(e);
    return 0;
  }
  for (int i = 0; i < kFuzzSteps; ++i) {
    // A refused command or a timed-out wait is a clean error; the
    // simulation steps on as a runner's does.
    try {
      gripper.PrepareStep(&sim);
    } catch (const InputError& e) {
      CheckCleanError(e);
    }
    sim.Step();
  }
  return 0;
}

}  // namespace stiction
