#pragma once
// The headless runner behind `stiction-sim`: load the scene (with
// overrides), step for the requested duration, write the JSON report and CSV
// trace, print a summary. The command line is cli_options.h; docs/cli.md is
// the user manual.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_io.h"
#include "cli/cli_options.h"

namespace stiction::cli {

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

/// Number of steps of δt that cover `duration_s` (the last step may overshoot
/// by less than one δt; a duration within 1e-9 relative of a whole number of
/// steps is not rounded up). Throws InputError when the count does not fit.
std::int64_t StepsForDuration(double duration_s, double dt);

}  // namespace stiction::cli
