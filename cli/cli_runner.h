#pragma once
// The headless runner behind `stiction-sim`: parse the command line, load the
// scene (with overrides), step for the requested duration, write the JSON
// report and CSV trace, print a summary. docs/cli.md is the user manual.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/report_writer.h"

namespace CLI {
class App;
}  // namespace CLI

namespace stiction::cli {

/// Process exit codes (docs/cli.md "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  kExitInternalError = 1,  ///< A bug: an unexpected exception.
  kExitInputError = 2,     ///< Bad command line, bad scene, unwritable output.
  kExitStepFailed = 3,     ///< A step failed (solver or non-finite state).
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
};

/// Outcome of ParseCommandLine: either options to run, or an exit code (help
/// was printed, or an error line was).
struct ParseResult {
  std::optional<CliOptions> options;
  int exit_code = kExitOk;
};

/// Parses `args` (without the program name) with CLI11. --help prints usage
/// to `out` (exit 0); errors print one line "stiction-sim: ..." to `err`
/// (exit 2).
/// Adds the repeatable `--set KEY=VALUE` scene override (stiction-sim and
/// stiction-soak): one value per --set, so that a scene path after it stays
/// positional.
void AddSceneOverrideOption(CLI::App& app, std::vector<std::string>* overrides);

ParseResult ParseCommandLine(const std::vector<std::string>& args, std::ostream& out,
                             std::ostream& err);

/// Where the runner writes. `progress_fd` is the terminal the progress bar
/// draws on (for its width); the bar is drawn only when `progress_allowed`.
struct RunnerIo {
  std::ostream& out;  ///< Summary.
  std::ostream& err;  ///< Error lines and progress bar.
  bool progress_allowed = false;
  int progress_fd = -1;
};

/// Runs one simulation as described by `options` and returns the exit code.
/// Catches InputError and OutputError (one line on `err`, exit 2); other
/// exceptions propagate.
int RunSimulation(const CliOptions& options, const RunnerIo& io);

/// ParseCommandLine + RunSimulation. The progress bar is allowed when
/// stderr is a terminal and TERM is not "dumb".
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// The end-of-run summary printed to stdout (unless --quiet).
void PrintSummary(const RunSummary& run, const RunStatistics& stats, std::ostream& out);

/// Number of steps of δt that cover `duration_s` (the last step may overshoot
/// by less than one δt; a duration within 1e-9 relative of a whole number of
/// steps is not rounded up). Throws InputError when the count does not fit.
std::int64_t StepsForDuration(double duration_s, double dt);

/// Collapses a message to one line (newlines become "; ").
std::string OneLine(const std::string& message);

}  // namespace stiction::cli
