#include "cli/dataset_replay.h"

#include "cli/cli_io.h"
#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/dataset/demo_file.h"
#include "engine/dataset/demo_replay.h"

namespace stiction::cli {

int ReplayDataset(const CliOptions& options, const RunnerIo& io) {
  const std::string& path = options.replay_dataset_path;
  bool all_exact = true;
  try {
    for (const DemoFileEntry& entry : SelectDemos(path, options.demo, "--demo")) {
      const Demo demo = ReadDemo(path, entry.index);
      const DemoReplayResult r = ReplayDemo(demo, options.scene_path, options.overrides);
      for (const std::string& note : r.notes) io.err << kSimProgramName << ": note: " << entry.name << ": " << note << '\n';
      const double sim_time = static_cast<double>(r.steps) * demo.time_step;
      io.out << entry.name << ": " << r.steps << " steps (" << FormatNumber(sim_time, 4) << " s) replayed in "
             << FormatNumber(r.wall_time_s, 3) << " s (" << FormatNumber(sim_time / std::max(r.wall_time_s, 1e-9), 3)
             << "x real time): ";
      if (r.exact()) {
        io.out << "all " << r.steps + 1 << " states match bit for bit\n";
      } else {
        all_exact = false;
        io.out << "states differ from sample " << r.first_mismatch << " on (t = "
               << FormatNumber(static_cast<double>(r.first_mismatch) * demo.time_step, 6)
               << " s), max |difference| " << FormatNumber(r.max_abs_difference, 3) << '\n';
      }
    }
  } catch (const InputError& e) {
    PrintError(io.err, kSimProgramName, e.what());
    return kExitInputError;
  }
  return all_exact ? kExitOk : kExitReplayDiffers;
}

}  // namespace stiction::cli
