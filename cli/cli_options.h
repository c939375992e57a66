#pragma once
// stiction-sim's command line (docs/cli.md): its options and exit codes.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command_line.h"

namespace stiction::cli {

/// The name stiction-sim prints before its errors and notes.
inline constexpr const char* kSimProgramName = "stiction-sim";

/// Process exit codes (docs/cli.md "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  kExitInternalError = 1,  ///< A bug: an unexpected exception.
  kExitInputError = 2,     ///< Bad command line, bad scene, unwritable output.
  kExitStepFailed = 3,     ///< A step failed (solver or non-finite state).
  kExitScriptFailed = 4,   ///< The task script failed: a wait timed out or a command was refused.
  kExitReplayDiffers = 5,  ///< --replay-dataset: a replayed state differs from the recorded one.
};

struct CliOptions {
  std::string scene_path;
  /// Simulated time to run [s]; unset = the scene's `duration`.
  std::optional<double> duration_s;
  /// "dotted.key=value" overrides for the loader: the --set list, then
  /// time_step=, stepping=, integrator=, solver.type= from --dt, --stepping,
  /// --integrator, --solver.
  std::vector<std::string> overrides;
  std::string report_path;  ///< "" = no JSON report.
  std::string csv_path;     ///< "" = no CSV trace.
  int csv_every = 1;        ///< Write a CSV row every N steps (N ≥ 1).
  bool quiet = false;       ///< No summary, no progress bar.
  /// Gripper command file to replay (--replay); "" = the scene's own
  /// `commands:` file, if any.
  std::string replay_path;
  /// --dataset: append the run as a demonstration to this HDF5 file.
  std::string dataset_path;
  /// --outcome: "success", "failure" or "" (from the run: success when
  /// every step succeeded and the script, if any, finished).
  std::string outcome;
  /// --replay-dataset: replay this file's demos and check their states
  /// (scene_path, if given, replaces the demos' own scene).
  std::string replay_dataset_path;
  /// --demo: the demo to replay; −1 = every demo of the file.
  int demo = -1;
};

/// Outcome of ParseCommandLine: either options to run, or an exit code (help
/// was printed, or an error line was).
using ParseResult = ParseOutcome<CliOptions>;

/// Parses `args` (without the program name) with CLI11. --help prints usage
/// to `out` (exit 0); errors print one line "stiction-sim: ..." to `err`
/// (exit 2).
ParseResult ParseCommandLine(const std::vector<std::string>& args, std::ostream& out,
                             std::ostream& err);

}  // namespace stiction::cli
