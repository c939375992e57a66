#pragma once
// What the harnesses share: a private scratch directory for the files an
// input must be written to, the clean-error check, and "build the scene and
// step it".
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "engine/common/error.h"
#include "engine/scene/scene_description.h"

namespace stiction {

/// Steps taken by every scene that loads: enough to run collision, contact
/// assembly, the solver and (for gripper scenes) the controller and the
/// command player twice over, cheap enough to keep thousands of exec/s.
inline constexpr int kFuzzSteps = 3;

/// A directory of this process's own, created on first use and removed at
/// exit. It holds `tet.obj` (a closed tetrahedron) and `fuzzpkg/tet.obj`, so
/// seeds can name a mesh relatively or as package://fuzzpkg/tet.obj.
const std::string& FuzzScratchDir();

/// Writes `text` to FuzzScratchDir()/name and returns the path.
std::string WriteScratchFile(const std::string& name, const std::string& text);

/// A scratch file removed when it goes out of scope (also when the harness
/// leaves by an exception).
class ScratchFile {
 public:
  ScratchFile(const std::string& name, const std::string& text)
      : path_(WriteScratchFile(name, text)) {}
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The refusal is clean when its message is a non-empty single line (the
/// project's rule for InputError); throws FuzzFinding otherwise.
void CheckCleanError(const InputError& error);

/// Builds a Simulation from `scene` and takes kFuzzSteps steps (a step that
/// fails returns a status; that is fine). A gripper scene also gets its
/// GripperController and, when it names one, its command file replayed.
/// InputError from the constructors is checked and swallowed; anything else
/// propagates (a finding).
void BuildAndStep(const SceneDescription& scene);

/// Loads a scene with `load`; a clean InputError ends there (checked and
/// swallowed), a loaded scene goes to BuildAndStep. What every harness that
/// ends in a scene does.
void LoadAndStep(const std::function<SceneDescription()>& load);

/// The bytes as a string.
inline std::string AsText(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace stiction
