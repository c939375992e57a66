#pragma once
// Reading YAML with the origin of every value, for the scene loader
// (scene_loader.h) and the writer's flattening (scene_writer.h): where a
// node came from (Ctx), the one-line "FILE:LINE: KEY.PATH: reason" error
// (Fail), a checked view of a map (MapView) and typed reads
// (YamlReader::Read…) that refuse a bad value at its key. Internal to the
// scene layer: yaml-cpp is a private dependency of the engine.
#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "engine/common/eigen_types.h"
#include "engine/common/named_choice.h"
#include "engine/common/source_location.h"
#include "engine/parameters/parameter_binding.h"

namespace stiction {

// ---------------------------------------------------------------------------
// Small string helpers for messages.
// ---------------------------------------------------------------------------

/// `s` on one line in single quotes, cut after 40 characters.
std::string Quote(std::string_view s);

/// "a, b, c".
template <typename Range>
std::string JoinNames(const Range& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += std::string(name);
  }
  return out;
}

/// The first 12 names joined, then "..."; "none" for no names.
std::string ShortList(const std::vector<std::string>& names);

template <typename Range>
bool Contains(const Range& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// "path.key", or "key" at the top level.
std::string KeyPath(const std::string& path, std::string_view key);
/// "path[index]".
std::string IndexPath(const std::string& path, std::size_t index);
/// What a node is, for "expected …, got …": its quoted text, "a list", …
std::string Describe(const YAML::Node& node);

// ---------------------------------------------------------------------------
// Where a node came from, and errors.
// ---------------------------------------------------------------------------

/// The origin of a YAML node plus the key path that reached it.
struct Ctx {
  std::string label;           ///< File label, or "--set KEY=VALUE".
  std::string dir;             ///< Directory that relative paths are resolved against.
  bool from_override = false;  ///< Overrides have no line numbers.
  std::string path;            ///< e.g. "bodies[0].geometry[1].shape".
  /// 1-based line of the map key that led here (0 if none). Errors about a
  /// value point at its key: a block value or an empty one starts on a later
  /// line than the key the user reads.
  int key_line = 0;
};

/// "FILE:LINE" of `node` reached through `ctx`.
SourceLocation WhereOf(const Ctx& ctx, const YAML::Node& node);

/// Throws InputError "FILE:LINE: KEY.PATH: reason".
[[noreturn]] void Fail(const Ctx& ctx, const YAML::Node& node, const std::string& reason);

/// A pose read from a scene file: the transform and its quaternion as given
/// (normalized), so that initial states keep the file's sign of q.
struct PoseValue {
  RigidTransform X;
  Quaternion q = Quaternion::Identity();
};

class YamlReader;

/// A validated view of a YAML map: scalar, unique keys.
class MapView {
 public:
  /// Fails unless `node` is a map with plain, unique keys. `reader` must
  /// outlive the view.
  MapView(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node);

  /// Rejects keys not in `allowed`; `what` qualifies the message (e.g. "for a
  /// sphere shape").
  template <typename Range>
  void AllowOnly(const Range& allowed, const std::string& what = "") const;

  bool Has(std::string_view key) const { return Find(key) != nullptr; }
  /// The value under `key`; precondition Has(key).
  const YAML::Node& Get(std::string_view key) const { return Find(key)->value; }
  /// The origin and key path of the value under `key`; precondition Has(key).
  Ctx CtxOf(std::string_view key) const;
  /// Throws "missing required key" unless Has(key).
  void Require(std::string_view key, const std::string& what = "") const;

  const Ctx& ctx() const { return ctx_; }
  const YAML::Node& node() const { return node_; }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const Item& item : items_) out.push_back(item.key);
    return out;
  }

 private:
  struct Item {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
  };
  const Item* Find(std::string_view key) const {
    for (const Item& item : items_) {
      if (item.key == key) return &item;
    }
    return nullptr;
  }
  /// Fails at an unknown key (AllowOnly).
  [[noreturn]] void FailUnknownKey(const Item& item, const std::string& expected, const std::string& what) const;

  const YamlReader& reader_;
  Ctx ctx_;
  YAML::Node node_;
  std::vector<Item> items_;
};

/// Typed reads of YAML values, each failing at the value with its origin.
/// Knows the nodes the --set overrides placed (their errors name the
/// override instead of a file line).
class YamlReader {
 public:
  /// `top_dir` resolves the relative paths an override gives.
  explicit YamlReader(std::string top_dir) : top_dir_(std::move(top_dir)) {}

  /// Remembers that an override with `label` ("--set KEY=VALUE") placed `node`.
  void AddOverrideNode(const YAML::Node& node, std::string label) {
    override_nodes_.emplace_back(node, std::move(label));
  }

  /// The context of `child`, reached from `parent` by `path`: the parent's
  /// origin unless an override put the child there.
  Ctx Enter(const Ctx& parent, const YAML::Node& child, std::string path) const;
  /// The elements of a sequence with their contexts ("path[i]").
  std::vector<std::pair<YAML::Node, Ctx>> Elements(const Ctx& ctx, const YAML::Node& node) const;

  // Scalars.
  double ReadNumber(const Ctx& ctx, const YAML::Node& node) const;
  double ReadPositive(const Ctx& ctx, const YAML::Node& node) const;
  double ReadNonNegative(const Ctx& ctx, const YAML::Node& node) const;
  double ReadInRange(const Ctx& ctx, const YAML::Node& node, double lo, double hi) const;
  bool ReadBool(const Ctx& ctx, const YAML::Node& node) const;
  std::string ReadString(const Ctx& ctx, const YAML::Node& node) const;
  /// A non-empty string.
  std::string ReadName(const Ctx& ctx, const YAML::Node& node) const;
  /// A list of non-empty strings; `what` names them in the error.
  std::vector<std::string> ReadNameList(const Ctx& ctx, const YAML::Node& node, const std::string& what) const;
  /// One of `choices`; `what` names the kind in the error ("joint type").
  template <typename Range>
  std::string ReadChoice(const Ctx& ctx, const YAML::Node& node, const Range& choices,
                         const std::string& what) const;
  /// The registry entry named by a scalar; fails naming the valid names.
  template <typename Entry>
  const Entry& ReadRegistryChoice(const Ctx& ctx, const YAML::Node& node, std::span<const Entry> entries,
                                  const std::string& what) const;
  /// A file name, resolved against ctx.dir to an absolute, normal path of
  /// an existing regular file; else fails "<what> 'NAME' not found
  /// (resolved to PATH)".
  std::string ReadExistingFile(const Ctx& ctx, const YAML::Node& node, const std::string& what) const;

  // Vectors and frames.
  VectorX ReadNumbers(const Ctx& ctx, const YAML::Node& node, int min_size, int max_size) const;
  Vector3 ReadVector3(const Ctx& ctx, const YAML::Node& node) const;
  /// A list of 3 numbers, each > 0.
  Vector3 ReadPositiveVector3(const Ctx& ctx, const YAML::Node& node) const;
  /// RGB or RGBA in [0, 1] (alpha 1 when not given).
  Vector4 ReadColor(const Ctx& ctx, const YAML::Node& node) const;
  Quaternion ReadQuaternion(const Ctx& ctx, const YAML::Node& node) const;
  Quaternion ReadRpy(const Ctx& ctx, const YAML::Node& node) const;
  /// {position, rpy | quaternion}.
  PoseValue ReadPose(const Ctx& ctx, const YAML::Node& node) const;
  /// {rpy | quaternion}.
  Quaternion ReadOrientation(const Ctx& ctx, const YAML::Node& node) const;
  /// {ixx, iyy, izz, ixy, ixz, iyz}: positive definite, triangle inequality.
  Matrix3 ReadInertia(const Ctx& ctx, const YAML::Node& node) const;

  // Parameter tables (engine/parameters/).
  /// Reads the keys of `map` that `table` binds, each checked against its
  /// range and reported at its key; then `validate` (the engine's own check
  /// of the whole struct, e.g. β_max ≥ β0) once, reported at the map, so
  /// that related keys may come in any order. Keys the table does not bind
  /// are left alone.
  void ReadParameters(const MapView& map, const ParameterTable& table,
                      const std::function<void()>& validate) const;
  /// When `map` has `key`: a map whose keys are among those of `table`,
  /// read through it (ReadParameterMap).
  void ReadSubMap(const MapView& map, std::string_view key, const ParameterTable& table,
                  const std::function<void()>& validate = [] {}) const;
  /// `node` as a map whose keys are among those of `table`, read through it
  /// (ReadParameters, with `validate`).
  void ReadParameterMap(const Ctx& ctx, const YAML::Node& node, const ParameterTable& table,
                        const std::function<void()>& validate) const;

 private:
  std::string top_dir_;
  /// Nodes placed by --set overrides, with their labels.
  std::vector<std::pair<YAML::Node, std::string>> override_nodes_;
};

template <typename Range>
void MapView::AllowOnly(const Range& allowed, const std::string& what) const {
  for (const Item& item : items_) {
    if (!Contains(allowed, item.key)) FailUnknownKey(item, JoinNames(allowed), what);
  }
}

template <typename Range>
std::string YamlReader::ReadChoice(const Ctx& ctx, const YAML::Node& node, const Range& choices,
                                   const std::string& what) const {
  const std::string value = ReadString(ctx, node);
  if (!Contains(choices, value)) {
    Fail(ctx, node,
         "unknown " + what + " " + Quote(value) + " (expected one of: " + JoinNames(choices) +
             ")");
  }
  return value;
}

template <typename Entry>
const Entry& YamlReader::ReadRegistryChoice(const Ctx& ctx, const YAML::Node& node, std::span<const Entry> entries,
                                            const std::string& what) const {
  const std::string value = ReadString(ctx, node);
  const Entry* entry = FindChoice(entries, value);
  if (entry == nullptr) {
    Fail(ctx, node, "unknown " + what + " " + Quote(value) + " (expected one of: " + ChoiceNames(entries) + ")");
  }
  return *entry;
}

}  // namespace stiction
