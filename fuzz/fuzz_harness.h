#pragma once
// The fuzz harnesses: one function per Stiction input format, shared by the
// libFuzzer executables (fuzz_main.cpp, clang only) and the regression
// replay driver stiction-fuzz-replay (replay_main.cpp, any compiler).
//
// Contract of every harness: it returns 0 after any input the engine
// handles cleanly, i.e. accepts, or refuses with stiction::InputError
// carrying a non-empty one-line message. Anything else is a finding and
// leaves the harness: another exception type escaping a loader or the
// engine (std::out_of_range, std::bad_alloc, YAML::Exception, ...),
// a FuzzFinding thrown by the harness's own checks (e.g. a multi-line
// error message, a command file that does not read back as written), or a
// crash / sanitizer report. docs/fuzzing.md explains the choice.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stiction {

/// A bug the harness itself detected (an oracle failed). Deliberately not an
/// InputError, so no harness treats it as a clean refusal.
class FuzzFinding : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// YAML scene text, loaded as a scene file in assets/scenes/, built into a
/// Simulation and stepped.
int StictionFuzzSceneYaml(const std::uint8_t* data, std::size_t size);
/// First line: a shipped scene (file name in assets/scenes/); every further
/// line: one `--set key=value` override; loaded, built and stepped.
int StictionFuzzSceneOverrides(const std::uint8_t* data, std::size_t size);
/// First byte: the extension (.obj / .stl); the rest: the file's bytes,
/// loaded by the mesh loader (collision and render) and dropped as a body
/// onto the ground, rigid and compliant.
int StictionFuzzMesh(const std::uint8_t* data, std::size_t size);
/// A gripper command file: parsed, written back and re-read (it must read
/// back as written), then replayed on a gripper scene for a few steps.
int StictionFuzzCommandFile(const std::uint8_t* data, std::size_t size);
/// A URDF robot: imported from text, then as a scene's `robots:` entry,
/// built and stepped.
int StictionFuzzUrdf(const std::uint8_t* data, std::size_t size);
/// An MJCF model: imported through MuJoCo's compiler as a scene's
/// `robots:` entry, built and stepped.
int StictionFuzzMjcf(const std::uint8_t* data, std::size_t size);

struct FuzzHarness {
  const char* name;  ///< e.g. "scene_yaml"; tests/fuzz/<name>/ holds its regression inputs.
  int (*run)(const std::uint8_t*, std::size_t);
};

/// Every harness, in a fixed order.
const std::vector<FuzzHarness>& FuzzHarnesses();

}  // namespace stiction
