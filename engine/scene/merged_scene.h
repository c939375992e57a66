#pragma once
// Passes 1 and 2 of loading a scene (scene_loader.h): the top-level file
// and its includes parsed and merged into one YAML tree, whose list entries
// remember the file they came from, then the --set overrides applied
// (scene_overrides.h). The section parsers (scene_parser.h) and the
// writer's flattening (scene_writer.h) read the result.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "engine/scene/scene_source.h"
#include "engine/scene/yaml_reader.h"

namespace stiction {

/// The keys of a merged scene, in the order of docs/scene-format.md (the
/// order the writer writes them). A file may also have `include`.
inline constexpr std::array<std::string_view, 25> kSceneKeys = {
    "description", "gravity",   "time_step",      "duration", "stepping", "integrator", "contact_model",
    "solver",      "nmdp",      "default_material", "materials", "world_geometry", "bodies", "joints",
    "robots",      "package_path", "actuators",   "motors",   "oscillators", "constraints", "couplers",
    "gripper",     "grippers",    "commands",    "camera"};

/// A YAML node and where it came from.
struct MergedEntry {
  YAML::Node node;
  Ctx ctx;  ///< Origin; path is the key path within its own file.
};

class MergedScene {
 public:
  /// Parses `source` and its includes (depth first, relative to the
  /// including file; cycles and more than 32 levels refused), merges them
  /// (a key the including file sets wins; lists are concatenated, included
  /// entries first), applies `overrides` ("dotted.key=value") and checks
  /// the top-level keys. Throws InputError "FILE:LINE: KEY: reason".
  MergedScene(const SceneSource& source, const std::vector<std::string>& overrides);
  MergedScene(const MergedScene&) = delete;
  MergedScene& operator=(const MergedScene&) = delete;

  /// Reads values; knows the nodes the overrides placed.
  const YamlReader& reader() const { return reader_; }
  /// The top-level file's label.
  const std::string& label() const { return label_; }
  /// The context of the merged tree's root.
  Ctx root_ctx() const { return Ctx{label_, dir_, false, ""}; }
  /// The merged tree (a map of kSceneKeys). Its nodes are shared: editing a
  /// node edits the tree (the writer rebases paths so).
  const YAML::Node& root() const { return root_; }
  /// The merged tree's top-level map.
  const MapView& top() const { return *top_; }
  /// The context of the top-level key `key` (precondition top().Has(key)):
  /// the file that set it, or the override.
  Ctx KeyCtx(std::string_view key) const;
  /// The elements of the top-level list `key` (none when absent or empty),
  /// each with the file (and index) it came from.
  std::vector<std::pair<YAML::Node, Ctx>> ListElements(const std::string& key) const;

 private:
  /// The keys of one file merged with those of its includes.
  struct Files {
    std::map<std::string, MergedEntry> scalars;              ///< Non-list keys; the includer wins.
    std::map<std::string, std::vector<MergedEntry>> lists;  ///< Included entries first.
  };
  struct StackEntry {
    std::string identity;
    std::string label;
  };

  Files ParseFile(const std::string& text, const Ctx& file_ctx, std::vector<StackEntry>& stack);
  void MergeIncludes(const MapView& top, std::vector<StackEntry>& stack, Files* out);
  /// The included file named by `name_node`, parsed (ParseFile).
  Files ParseInclude(const YAML::Node& name_node, const Ctx& name_ctx, std::vector<StackEntry>& stack);
  void BuildTree();
  void ApplyOverrides(const std::vector<std::string>& overrides);

  std::string label_;
  std::string dir_;
  YamlReader reader_;
  Files files_;
  YAML::Node root_;
  std::optional<MapView> top_;
};

}  // namespace stiction
