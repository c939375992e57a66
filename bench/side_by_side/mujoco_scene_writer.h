#pragma once
// SceneDescription -> MJCF (MuJoCo's XML) for the side-by-side benchmark.
// Pure text generation: no MuJoCo dependency, so it is unit-tested everywhere.
#include <string>

#include "bench/side_by_side/peer_engine.h"
#include "engine/scene/scene_description.h"

namespace stiction::bench {

/// Returns the MJCF of `scene` in `config`, or "" with `why_not` set when the
/// scene holds something the mapping does not support.
std::string WriteMjcf(const SceneDescription& scene, MujocoConfig config, std::string* why_not);

}  // namespace stiction::bench
