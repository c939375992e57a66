// Contact materials (docs/scene-format.md, "Materials"): `materials:`, the
// built-in `default` when the scene defines none of that name, and
// `default_material:`.
#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr char kBuiltInLabel[] = "(built-in)";

MaterialDescription ParseMaterial(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node) {
  const MapView map(reader, ctx, node);
  MaterialDescription out;
  const ParameterTable table = BindParameters(out.material);
  std::vector<std::string_view> keys = {"name", "contact_model"};
  for (const ParameterBinding& p : table) keys.push_back(p.key);
  map.AllowOnly(keys);
  map.Require("name");
  out.where = WhereOf(ctx, node);
  out.name = reader.ReadName(map.CtxOf("name"), map.Get("name"));
  reader.ReadParameters(map, table, [] {});
  if (map.Has("contact_model")) {
    out.material.model = reader.ReadRegistryChoice(map.CtxOf("contact_model"), map.Get("contact_model"),
                                                   ContactModels(), "contact model")
                             .model;
  }
  return out;
}

/// Every pair of materials may touch; a pair's model is the one its
/// materials name, so two different explicit models are ambiguous.
void CheckModelConflicts(const MapView& map, const MaterialDescription& material,
                         const std::vector<MaterialDescription>& others) {
  const std::optional<ContactModel> model = material.material.model;
  if (!model) return;
  for (const MaterialDescription& other : others) {
    if (other.material.model && *other.material.model != *model) {
      Fail(map.CtxOf("contact_model"), map.Get("contact_model"),
           "contact model " + Quote(ContactModelName(*model)) + " conflicts with material " + Quote(other.name) +
               " (" + std::string(ContactModelName(*other.material.model)) + ", " + other.where.ToString() +
               "): contacts between them would be ambiguous; name the model on one material only "
               "or set the scene's contact_model");
    }
  }
}

}  // namespace

void SceneParser::ParseMaterials() {
  NameRegistry material_names("material");
  for (const auto& [node, ctx] : merged_.ListElements("materials")) {
    MaterialDescription material = ParseMaterial(reader_, ctx, node);
    const MapView map = Register(&material_names, ctx, node, material.name, material.where);
    CheckModelConflicts(map, material, scene_.materials);
    scene_.materials.push_back(std::move(material));
  }
  if (!material_names.Has("default")) {
    MaterialDescription builtin;
    builtin.name = "default";
    builtin.where = SourceLocation{kBuiltInLabel, 0};
    scene_.materials.push_back(builtin);
  }
  if (Has("default_material")) {
    const Ctx ctx = KeyCtx("default_material");
    scene_.default_material = reader_.ReadName(ctx, Get("default_material"));
    if (std::none_of(scene_.materials.begin(), scene_.materials.end(),
                     [&](const MaterialDescription& m) { return m.name == scene_.default_material; })) {
      Fail(ctx, Get("default_material"),
           "unknown material " + Quote(scene_.default_material) + " (defined: " + ShortList(NamesOf(scene_.materials)) +
               ")");
    }
  }
}

}  // namespace stiction
