#pragma once
// The runner behind `stiction-soak` (docs/soak.md): load the scene, step it
// for a wall-clock or simulated time while random events (soak_events.h)
// hit it, judge the invariants (soak_invariants.h, soak_memory.h) after
// every step, write the report and the summary (soak_report.h). The command
// line is soak_options.h.
#include <ostream>
#include <string>
#include <vector>

#include "cli/soak_options.h"

namespace stiction::cli {

/// Runs the soak; returns the exit code. Load and output errors print one
/// line on `err` (exit 2). `progress_allowed`: draw the progress bar on
/// `err` (terminal `progress_fd`).
int RunSoak(const SoakOptions& options, std::ostream& out, std::ostream& err, bool progress_allowed,
            int progress_fd);

/// ParseSoakCommandLine + RunSoak, the bar allowed when stderr is a terminal.
int RunSoakCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace stiction::cli
