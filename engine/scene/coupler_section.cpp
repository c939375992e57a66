// Joint couplers (docs/scene-format.md, "Couplers"): q_joint = ratio · q_to
// + offset between two revolute or prismatic joints, the scene's or a
// robot's; at most one per follower joint.
#include <algorithm>
#include <array>
#include <string_view>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 4> kCouplerKeys = {"joint", "to", "ratio", "offset"};

}  // namespace

void SceneParser::ParseCouplers() {
  for (const auto& [node, ctx] : merged_.ListElements("couplers")) {
    const MapView map(reader_, ctx, node);
    map.AllowOnly(kCouplerKeys, "for a coupler");
    for (const char* key : {"joint", "to"}) map.Require(key, "for a coupler");
    JointCouplerDescription c;
    c.where = WhereOf(ctx, node);
    c.joint = reader_.ReadName(map.CtxOf("joint"), map.Get("joint"));
    c.to = reader_.ReadName(map.CtxOf("to"), map.Get("to"));
    // ReadNumber refuses .inf and .nan: a coupler's ratio and offset are finite.
    if (map.Has("ratio")) c.ratio = reader_.ReadNumber(map.CtxOf("ratio"), map.Get("ratio"));
    if (map.Has("offset")) c.offset = reader_.ReadNumber(map.CtxOf("offset"), map.Get("offset"));
    CheckAxialJoint(map, "joint", c.joint, scene_.joints, "a coupler relates two joint coordinates");
    CheckAxialJoint(map, "to", c.to, scene_.joints, "a coupler relates two joint coordinates");
    if (c.joint == c.to) {
      Fail(map.CtxOf("to"), map.Get("to"), "a joint cannot follow itself (joint and to are both " + Quote(c.to) + ")");
    }
    // Two couplers on one follower would over-determine it (and fight when
    // they disagree): one leader per joint.
    for (const JointCouplerDescription& other : scene_.couplers) {
      if (other.joint == c.joint) {
        Fail(map.CtxOf("joint"), map.Get("joint"),
             "joint " + Quote(c.joint) + " already follows " + Quote(other.to) + " (coupler at " +
                 other.where.ToString() + "); a joint follows one leader");
      }
    }
    LeaveFollowerToItsCoupling(c.joint);
    scene_.couplers.push_back(std::move(c));
  }
}

void SceneParser::LeaveFollowerToItsCoupling(const std::string& follower) {
  // The compiler starts a follower on its coupling when its position is not
  // given (CompileScene): an empty initial_q says so, as it does for a
  // robot's joint. The joint section wrote zero for a scene joint without
  // `initial.position`; the scene's own joints come first, one per entry.
  for (std::size_t j = 0; j < joint_nodes_.size(); ++j) {
    if (scene_.joints[j].name != follower) continue;
    const YAML::Node& entry = joint_nodes_[j].first;
    const YAML::Node initial = entry.IsMap() ? entry["initial"] : YAML::Node();
    if (!initial.IsDefined() || !initial.IsMap() || !initial["position"].IsDefined()) {
      scene_.joints[j].initial_q.clear();
    }
  }
}

}  // namespace stiction
