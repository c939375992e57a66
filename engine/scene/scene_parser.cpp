#include "engine/scene/scene_parser.h"

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

}  // namespace stiction
