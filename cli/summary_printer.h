#pragma once
// The end-of-run summary stiction-sim prints on stdout (unless --quiet):
// what ran, how the solver did, where the time went, the final poses.
#include <ostream>

#include "cli/report_writer.h"
#include "cli/run_statistics.h"

namespace stiction::cli {

/// Prints the summary of `run` and its `stats` on `out`.
void PrintSummary(const RunSummary& run, const RunStatistics& stats, std::ostream& out);

}  // namespace stiction::cli
