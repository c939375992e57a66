#include "bench/side_by_side/peer_engine.h"

namespace stiction::bench {

std::unique_ptr<PeerEngine> MakeMujocoEngine(const SceneDescription&, MujocoConfig,
                                             std::string* why_not) {
  if (why_not) *why_not = "MuJoCo adapter not written yet";
  return nullptr;
}

}  // namespace stiction::bench
