#pragma once
// `stiction-sim --replay-dataset FILE [--demo N] [SCENE]`: replays
// demonstrations from their actions and checks every state bit for bit
// (docs/datasets.md).
#include "cli/cli_options.h"
#include "cli/cli_runner.h"

namespace stiction::cli {

/// One line per demo on io.out; returns 0 when every replayed state
/// matched, kExitReplayDiffers when one did not, kExitInputError for a
/// file or scene that cannot be read.
int ReplayDataset(const CliOptions& options, const RunnerIo& io);

}  // namespace stiction::cli
