#pragma once
// `stiction --dataset-images FILE [--demo N] [--size WxH]`: renders every
// recorded state of a demonstration dataset's demos (each on its own scene,
// in a hidden window) and writes them as obs/agentview_image, one RGB image
// per sample, top row first, as robomimic's image observations are
// (docs/datasets.md). The states are shown, not simulated again, so the
// images are of exactly the recorded run.
#include "app/app_options.h"

namespace stiction::app {

/// Returns the exit code: 0 done, 1 a file or scene that cannot be read or
/// written (one line on stderr naming it).
int RunDatasetImages(const AppOptions& options);

}  // namespace stiction::app
