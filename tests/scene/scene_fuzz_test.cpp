// Robustness of the scene loader against malformed input: truncated and
// randomly corrupted versions of every shipped scene must either load or
// throw InputError with a one-line message that starts with the file label.
// Nothing else may escape (no crash, no other exception type).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

const fs::path kScenesDir = fs::path(STICTION_SOURCE_DIR) / "assets" / "scenes";
constexpr int kTruncations = 50;
constexpr int kCorruptions = 200;

struct SceneFile {
  std::string label;  ///< The path, used as the file label.
  std::string dir;
  std::string text;
};

std::vector<SceneFile> ShippedScenes() {
  std::vector<SceneFile> out;
  for (const fs::directory_entry& entry : fs::directory_iterator(kScenesDir)) {
    if (entry.path().extension() != ".yaml") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    out.push_back({entry.path().string(), entry.path().parent_path().string(), text.str()});
  }
  std::sort(out.begin(), out.end(),
            [](const SceneFile& a, const SceneFile& b) { return a.label < b.label; });
  return out;
}

struct Tally {
  int loaded = 0;
  int rejected = 0;
};

/// Loads `text` as `scene` would be loaded; checks the outcome.
void CheckInput(const SceneFile& scene, const std::string& text, const std::string& what,
                Tally* tally) {
  try {
    LoadSceneString(text, scene.label, scene.dir);
    ++tally->loaded;
  } catch (const InputError& e) {
    ++tally->rejected;
    const std::string message = e.what();
    // Errors in an included file (the includes are not mutated, but a
    // mutation can make their entries clash) start with that file's label,
    // which lies in the scene's directory.
    const bool labelled = message.rfind(scene.label + ":", 0) == 0 ||
                          message.rfind(scene.dir + "/includes/", 0) == 0;
    if (message.empty() || message.find('\n') != std::string::npos ||
        message.find('\r') != std::string::npos || !labelled) {
      ADD_FAILURE() << what << ": bad InputError message: [" << message << "]\ninput:\n"
                    << text;
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": escaped " << typeid(e).name() << ": " << e.what()
                  << "\ninput:\n" << text;
  } catch (...) {
    ADD_FAILURE() << what << ": escaped a non-std exception\ninput:\n" << text;
  }
}

TEST(SceneFuzzTest, ShippedScenesAreFound) { EXPECT_GE(ShippedScenes().size(), 7u); }

TEST(SceneFuzzTest, TruncatedScenes) {
  for (const SceneFile& scene : ShippedScenes()) {
    SCOPED_TRACE(scene.label);
    Tally tally;
    const std::size_t size = scene.text.size();
    for (int k = 0; k < kTruncations; ++k) {
      const std::size_t offset = size * static_cast<std::size_t>(k) / kTruncations;
      CheckInput(scene, scene.text.substr(0, offset),
                 "truncated at byte " + std::to_string(offset), &tally);
    }
    CheckInput(scene, scene.text, "untruncated", &tally);
    // The empty prefix is rejected; the whole file loads.
    EXPECT_GE(tally.rejected, 1);
    EXPECT_GE(tally.loaded, 1);
  }
}

TEST(SceneFuzzTest, RandomlyCorruptedScenes) {
  // Characters that matter to YAML and to number parsing, plus a few others.
  const std::string alphabet = ":[]{}-,#&*!|>'\"\n\t .0123456789eE+-_abcxyz~%@`\\";
  for (const SceneFile& scene : ShippedScenes()) {
    SCOPED_TRACE(scene.label);
    std::mt19937 rng(20240611u);  // Fixed seed: the same inputs every run.
    Tally tally;
    for (int k = 0; k < kCorruptions; ++k) {
      std::string text = scene.text;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const std::size_t pos = rng() % text.size();
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0:
            text[pos] = c;
            break;
          case 1:
            text.insert(text.begin() + static_cast<std::ptrdiff_t>(pos), c);
            break;
          default:
            text.erase(pos, 1 + rng() % 3);
            break;
        }
      }
      CheckInput(scene, text, "corruption #" + std::to_string(k), &tally);
    }
    // Most single-character damage is caught.
    EXPECT_GT(tally.rejected, kCorruptions / 4);
  }
}

}  // namespace
}  // namespace stiction
