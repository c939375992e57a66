#pragma once
// Demonstration datasets as HDF5 files in the layout robomimic and
// robosuite use (docs/datasets.md):
//
//   /                 attrs format = "stiction-demos-1", stiction_version
//   /data             attrs total (samples over all demos), env_args (JSON)
//   /data/demo_N      attrs num_samples, model_file (the scene's text),
//                     scene, time_step, success, ... ; datasets states,
//                     actions, action_rates, rewards, dones, obs/...
//
// Several takes per file, one group each, appended as they are kept.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/dataset/demo.h"

namespace stiction {

/// The value of the root attribute `format`.
inline constexpr const char* kDemoFileFormat = "stiction-demos-1";

/// One demo of a file, as ListDemos reads it.
struct DemoFileEntry {
  std::string name;  ///< "demo_N"
  int index = 0;     ///< N
  std::int64_t num_samples = 0;
  bool success = false;
  bool reproducible = false;
  bool has_images = false;
};

/// Appends `demo` to `path` as data/demo_N, N one more than the largest
/// there (0 in a new file, which is created with its directory). Returns N.
/// Checks the free space first; if a write fails midway the new group is
/// removed so the demos already there stay readable. Throws InputError
/// naming the file: not a Stiction dataset, not writable, disk full.
int AppendDemo(const std::string& path, const Demo& demo);

/// The demos of `path` in index order. Throws InputError for a missing,
/// truncated or corrupt file, or one that is not a Stiction dataset.
std::vector<DemoFileEntry> ListDemos(const std::string& path);

/// The demos a command works on: every demo of `path` (index < 0), or
/// demo_`index` only. Throws InputError for a file without demos, or
/// "PATH: no demo_N (OPTION)" naming the option that asked for it.
std::vector<DemoFileEntry> SelectDemos(const std::string& path, int index, const std::string& option);

/// Reads data/demo_`index` of `path`, checking every dataset's shape
/// against the attributes. Throws InputError "FILE:/data/demo_N/KEY:
/// reason".
Demo ReadDemo(const std::string& path, int index);

/// Writes `images` (one per sample of data/demo_`index`) as
/// obs/agentview_image of that demo, replacing what was there. Throws
/// InputError naming the file: no such demo, a count that is not its
/// sample count, a write that fails (the demo then has no images).
void WriteDemoImages(const std::string& path, int index, const DemoImages& images);

/// Bytes the file would grow by with `demo` (its datasets, uncompressed).
std::uint64_t DemoBytes(const Demo& demo);

}  // namespace stiction
