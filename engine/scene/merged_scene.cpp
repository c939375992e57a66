#include "engine/scene/merged_scene.h"

#include <filesystem>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/scene_overrides.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

/// Top-level keys of a file: the scene's and `include`.
constexpr std::array<std::string_view, 26> kFileKeys = {
    "description", "include",          "gravity",   "time_step",      "duration",
    "stepping",    "integrator",       "contact_model", "solver",     "nmdp",
    "default_material", "materials",   "world_geometry", "bodies",    "joints",
    "robots",      "package_path",     "actuators", "motors",         "oscillators",
    "constraints", "couplers",         "gripper",   "grippers",       "commands",
    "camera"};
constexpr std::array<std::string_view, 11> kListKeys = {"materials",   "world_geometry", "bodies",
                                                        "joints",      "robots",         "actuators",
                                                        "motors",      "oscillators",    "constraints",
                                                        "couplers",    "grippers"};
constexpr int kMaxIncludeDepth = 32;

/// The whole text as YAML; refuses a syntax error, an empty file and a top
/// level that is not a map.
YAML::Node ParseDocument(const std::string& text, const Ctx& file_ctx) {
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    std::string message = file_ctx.label;
    if (!e.mark.is_null() && e.mark.line >= 0) message += ":" + std::to_string(e.mark.line + 1);
    throw InputError(OneLine(message + ": YAML syntax error: " + e.msg));
  }
  if (!doc.IsDefined() || doc.IsNull()) {
    throw InputError(OneLine(file_ctx.label +
                             ": the file is empty (expected a map of scene keys such as "
                             "'bodies')"));
  }
  if (!doc.IsMap()) {
    Fail(file_ctx, doc,
         "the top level must be a map of scene keys (description, bodies, joints, ...), got " +
             Describe(doc));
  }
  return doc;
}

}  // namespace

MergedScene::MergedScene(const SceneSource& source, const std::vector<std::string>& overrides)
    : label_(source.label),
      dir_(source.base_dir.empty() ? std::string(".") : source.base_dir),
      reader_(dir_) {
  std::vector<StackEntry> stack;
  if (!source.identity.empty()) stack.push_back(StackEntry{source.identity, label_});
  files_ = ParseFile(source.text, root_ctx(), stack);
  BuildTree();
  ApplyOverrides(overrides);
  top_.emplace(reader_, root_ctx(), root_);
  top_->AllowOnly(kSceneKeys);
}

MergedScene::Files MergedScene::ParseFile(const std::string& text, const Ctx& file_ctx,
                                          std::vector<StackEntry>& stack) {
  const YAML::Node doc = ParseDocument(text, file_ctx);
  const MapView top(reader_, file_ctx, doc);
  top.AllowOnly(kFileKeys);

  Files out;
  if (top.Has("include")) MergeIncludes(top, stack, &out);

  for (const std::string& key : top.keys()) {
    if (key == "include") continue;
    const YAML::Node& value = top.Get(key);
    const Ctx ctx = top.CtxOf(key);
    if (!Contains(kListKeys, key)) {
      out.scalars[key] = MergedEntry{value, ctx};  // The including file wins.
      continue;
    }
    if (value.IsNull()) continue;  // "bodies:" with nothing is an empty list.
    if (!value.IsSequence()) Fail(ctx, value, "expected a list, got " + Describe(value));
    std::vector<MergedEntry>& list = out.lists[key];
    for (const auto& [element, element_ctx] : reader_.Elements(ctx, value)) {
      list.push_back(MergedEntry{element, element_ctx});
    }
  }
  return out;
}

void MergedScene::MergeIncludes(const MapView& top, std::vector<StackEntry>& stack, Files* out) {
  const YAML::Node& value = top.Get("include");
  const Ctx ctx = top.CtxOf("include");
  std::vector<std::pair<YAML::Node, Ctx>> names;
  if (value.IsScalar()) {
    names.emplace_back(value, ctx);
  } else if (value.IsSequence()) {
    names = reader_.Elements(ctx, value);
  } else {
    Fail(ctx, value, "expected a file name or a list of file names, got " + Describe(value));
  }
  for (const auto& [name_node, name_ctx] : names) {
    Files included = ParseInclude(name_node, name_ctx, stack);
    for (auto& [key, entry] : included.scalars) out->scalars[key] = std::move(entry);
    for (auto& [key, list] : included.lists) {
      std::vector<MergedEntry>& dst = out->lists[key];
      dst.insert(dst.end(), list.begin(), list.end());
    }
  }
}

MergedScene::Files MergedScene::ParseInclude(const YAML::Node& name_node, const Ctx& name_ctx,
                                             std::vector<StackEntry>& stack) {
  const std::string name = reader_.ReadName(name_ctx, name_node);
  const fs::path resolved = fs::path(name).is_absolute() ? fs::path(name) : (fs::path(name_ctx.dir) / name);
  const fs::path label_path = resolved.lexically_normal();
  const std::string identity = Identity(resolved);
  if (stack.size() >= static_cast<std::size_t>(kMaxIncludeDepth)) {
    Fail(name_ctx, name_node, "includes are nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
  }
  for (std::size_t i = 0; i < stack.size(); ++i) {
    if (stack[i].identity != identity) continue;
    std::string chain;
    for (std::size_t j = i; j < stack.size(); ++j) chain += stack[j].label + " -> ";
    Fail(name_ctx, name_node, "include cycle: " + chain + label_path.string());
  }
  const std::string text = ReadFileText(resolved, "include file", name,
                                        [&](const std::string& reason) { Fail(name_ctx, name_node, reason); });
  const Ctx file_ctx{label_path.string(), DirOf(label_path), false, ""};
  stack.push_back(StackEntry{identity, file_ctx.label});
  Files included = ParseFile(text, file_ctx, stack);
  stack.pop_back();
  return included;
}

void MergedScene::BuildTree() {
  root_ = YAML::Node(YAML::NodeType::Map);
  for (const auto& [key, entry] : files_.scalars) root_.force_insert(key, entry.node);
  for (const auto& [key, list] : files_.lists) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (const MergedEntry& entry : list) seq.push_back(entry.node);
    root_.force_insert(key, seq);
  }
}

void MergedScene::ApplyOverrides(const std::vector<std::string>& overrides) {
  for (const std::string& assignment : overrides) {
    const YAML::Node value = ApplyOverride(root_, assignment);
    reader_.AddOverrideNode(value, OverrideLabel(assignment));
  }
}

Ctx MergedScene::KeyCtx(std::string_view key) const {
  const auto it = files_.scalars.find(std::string(key));
  const Ctx base = it != files_.scalars.end() ? it->second.ctx : root_ctx();
  return reader_.Enter(base, top().Get(key), std::string(key));
}

std::vector<std::pair<YAML::Node, Ctx>> MergedScene::ListElements(const std::string& key) const {
  YAML::Node list;
  bool found = false;
  for (YAML::const_iterator it = root_.begin(); it != root_.end(); ++it) {
    if (it->first.Scalar() == key) {
      list.reset(it->second);
      found = true;
    }
  }
  if (!found) return {};
  const Ctx list_ctx = reader_.Enter(root_ctx(), list, key);
  if (list.IsNull()) return {};
  if (!list.IsSequence()) Fail(list_ctx, list, "expected a list, got " + Describe(list));
  std::vector<std::pair<YAML::Node, Ctx>> out = reader_.Elements(list_ctx, list);
  // Elements of the merged list keep the file (and index) they came from.
  const auto origins = files_.lists.find(key);
  if (list_ctx.from_override || origins == files_.lists.end()) return out;
  for (std::size_t i = 0; i < out.size() && i < origins->second.size(); ++i) {
    out[i].second = reader_.Enter(origins->second[i].ctx, out[i].first, origins->second[i].ctx.path);
  }
  return out;
}

}  // namespace stiction
