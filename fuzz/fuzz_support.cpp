#include "fuzz/fuzz_support.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

#include "engine/control/scene_gripper.h"
#include "engine/simulation.h"
#include "fuzz/fuzz_harness.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

/// STICTION_FUZZ_VERBOSE set: say what became of each input (refusal
/// messages, step statuses), to check that seeds reach the engine.
bool Verbose() {
  static const bool verbose = std::getenv("STICTION_FUZZ_VERBOSE") != nullptr;
  return verbose;
}

constexpr char kTetrahedronObj[] =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

void WriteOrDie(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  // Not a finding about the input: the harness cannot work at all.
  if (!out) throw std::runtime_error("fuzz harness: cannot write " + path.string());
}

/// Owns the scratch directory; its destructor (at exit) removes it.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/stiction-fuzz-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("fuzz harness: cannot create a directory like " + pattern);
    }
    path_ = pattern;
    WriteOrDie(fs::path(path_) / "tet.obj", kTetrahedronObj);
    fs::create_directories(fs::path(path_) / "fuzzpkg");
    WriteOrDie(fs::path(path_) / "fuzzpkg" / "tet.obj", kTetrahedronObj);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

const std::string& FuzzScratchDir() {
  static const ScratchDir dir;
  return dir.path();
}

std::string WriteScratchFile(const std::string& name, const std::string& text) {
  const fs::path path = fs::path(FuzzScratchDir()) / name;
  WriteOrDie(path, text);
  return path.string();
}

ScratchFile::~ScratchFile() {
  std::error_code ec;
  fs::remove(path_, ec);
}

void CheckCleanError(const InputError& error) {
  const std::string message = error.what();
  if (Verbose()) std::fprintf(stderr, "[refused] %s\n", message.c_str());
  if (message.empty()) throw FuzzFinding("InputError with an empty message");
  if (message.find('\n') != std::string::npos || message.find('\r') != std::string::npos) {
    throw FuzzFinding("InputError message is not one line: " + message);
  }
}

void LoadAndStep(const std::function<SceneDescription()>& load) {
  SceneDescription scene;
  try {
    scene = load();
  } catch (const InputError& e) {
    CheckCleanError(e);
    return;
  }
  BuildAndStep(scene);
}

void BuildAndStep(const SceneDescription& scene) {
  std::optional<Simulation> sim;
  SceneGripper gripper;
  try {
    sim.emplace(scene);
    gripper = SceneGripper::ForScene(*sim);
  } catch (const InputError& e) {
    CheckCleanError(e);
    if (!sim) return;  // The scene cannot become a model: refused cleanly.
    gripper = SceneGripper();  // A refused gripper or command file: step without them.
  }
  for (int i = 0; i < kFuzzSteps; ++i) {
    // PrepareStep applies commands (Apply may refuse a command with an
    // InputError: clean, the viewer shows it) and writes actuator targets.
    if (gripper.present()) {
      try {
        gripper.PrepareStep(&*sim);
      } catch (const InputError& e) {
        CheckCleanError(e);
        gripper = SceneGripper();
      }
    }
    const StepResult result = sim->Step();  // Never throws by contract; a failure is a status.
    if (Verbose()) {
      std::fprintf(stderr, "[step %d] %s%s\n", i, result.status == StepStatus::kSuccess ? "ok" : "failed: ",
                   result.message.c_str());
    }
  }
}

}  // namespace stiction
