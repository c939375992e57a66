#include "bench/side_by_side/mujoco_scene_writer.h"

namespace stiction::bench {

std::string WriteMjcf(const SceneDescription&, MujocoConfig, std::string* why_not) {
  if (why_not) *why_not = "MJCF writer not written yet";
  return "";
}

}  // namespace stiction::bench
