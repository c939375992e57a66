#include "engine/scene/scene_parser.h"

#include <algorithm>

namespace stiction {

void NameRegistry::Add(const std::string& name, const SourceLocation& where, const Ctx& ctx,
                       const YAML::Node& node) {
  const auto [it, inserted] = first_.emplace(name, where);
  if (!inserted) {
    Fail(ctx, node, "duplicate " + kind_ + " name " + Quote(name) + " (first defined at " +
                        it->second.ToString() + ")");
  }
}

SceneParser::SceneParser(const MergedScene& merged) : merged_(merged), reader_(merged.reader()) {
  scene_.file = merged.label();
}

void SceneParser::AddNames(NameRegistry* names, const std::string& name, const SourceLocation& where) const {
  names->Add(name, where, merged_.root_ctx(), merged_.root());
}

MapView SceneParser::Register(NameRegistry* names, const Ctx& ctx, const YAML::Node& node, const std::string& name,
                              const SourceLocation& where) const {
  MapView map(reader_, ctx, node);
  names->Add(name, where, map.CtxOf("name"), map.Get("name"));
  return map;
}

void CheckAxialJoint(const MapView& map, const char* key, const std::string& name,
                     const std::vector<JointDescription>& joints, const std::string& why) {
  const auto joint =
      std::find_if(joints.begin(), joints.end(), [&](const JointDescription& j) { return j.name == name; });
  if (joint == joints.end()) {
    Fail(map.CtxOf(key), map.Get(key), "unknown joint " + Quote(name) + " (joints: " + ShortList(NamesOf(joints)) + ")");
  }
  if (joint->type != JointType::kRevolute && joint->type != JointType::kPrismatic) {
    Fail(map.CtxOf(key), map.Get(key), "joint " + Quote(name) + " is not revolute or prismatic; " + why);
  }
}

}  // namespace stiction
