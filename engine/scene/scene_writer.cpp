#include "engine/scene/scene_writer.h"

// The merged scene (FlattenSceneFile: the loader's passes 1 and 2,
// merged_scene.h, with every relative path rebased) with the parameter
// keys replaced. Every number is written as the shortest decimal that reads
// back to the same double (FormatParameterValue), so the saved scene runs
// bit-identically to the live one.

#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>

#include <yaml-cpp/yaml.h>

#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/common/text.h"
#include "engine/scene/merged_scene.h"
#include "engine/scene/scene_loader.h"
#include "engine/scene/scene_source.h"
#include "engine/scene/yaml_reader.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

/// A path as written at `ctx` (relative to ctx.dir), rewritten to name
/// the same file from `dest_dir` (absolute, normal).
void RebasePath(const Ctx& ctx, YAML::Node node, const fs::path& dest_dir) {
  // Anything but a non-empty relative path is left for the loader to judge.
  if (!node.IsScalar() || node.Scalar().empty() || fs::path(node.Scalar()).is_absolute()) return;
  std::error_code ec;
  // As the loader resolves it: lexically, from the directory of the file
  // (or, for an override, the top-level file) that wrote it.
  const fs::path target = fs::absolute(fs::path(ctx.dir) / node.Scalar(), ec).lexically_normal();
  fs::path relative = target.lexically_relative(dest_dir);
  // Relative only when the operating system agrees it is the same file: a
  // ".." out of a symbolic link would lead elsewhere (package_path
  // directories are not normalized before use).
  const fs::path canonical_target = fs::weakly_canonical(target, ec);
  const bool same = !relative.empty() && !ec &&
                    fs::weakly_canonical(dest_dir / relative, ec) == canonical_target && !ec;
  node = same ? relative.generic_string() : target.string();
}

/// The mesh file of a geometry entry, when it has one.
void RebaseGeometry(const YamlReader& reader, const Ctx& ctx, const YAML::Node& geometry, const fs::path& dest_dir) {
  if (!geometry.IsMap()) return;
  const YAML::Node shape = geometry["shape"];
  if (!shape.IsDefined() || !shape.IsMap()) return;
  const YAML::Node file = shape["file"];
  if (!file.IsDefined()) return;
  const Ctx shape_ctx = reader.Enter(ctx, shape, KeyPath(ctx.path, "shape"));
  RebasePath(reader.Enter(shape_ctx, file, KeyPath(shape_ctx.path, "file")), file, dest_dir);
}

/// Every key that names a file or directory (docs/scene-format.md): mesh
/// shapes, robot files, package_path, the command file. Includes are
/// merged, so no `include` is left.
void RebasePaths(const MergedScene& merged, const fs::path& dest) {
  const YamlReader& reader = merged.reader();
  const MapView& top = merged.top();
  if (top.Has("commands")) RebasePath(merged.KeyCtx("commands"), top.Get("commands"), dest);
  if (top.Has("package_path") && top.Get("package_path").IsSequence()) {
    for (const auto& [element, element_ctx] : reader.Elements(merged.KeyCtx("package_path"), top.Get("package_path"))) {
      RebasePath(element_ctx, element, dest);
    }
  }
  for (const auto& [node, ctx] : merged.ListElements("world_geometry")) RebaseGeometry(reader, ctx, node, dest);
  for (const auto& [node, ctx] : merged.ListElements("bodies")) {
    if (!node.IsMap()) continue;
    const YAML::Node geometry = node["geometry"];
    if (!geometry.IsDefined() || !geometry.IsSequence()) continue;
    for (const auto& [g, g_ctx] : reader.Elements(reader.Enter(ctx, geometry, KeyPath(ctx.path, "geometry")), geometry)) {
      RebaseGeometry(reader, g_ctx, g, dest);
    }
  }
  for (const auto& [node, ctx] : merged.ListElements("robots")) {
    if (!node.IsMap() || !node["file"].IsDefined()) continue;
    const YAML::Node file = node["file"];
    RebasePath(reader.Enter(ctx, file, KeyPath(ctx.path, "file")), file, dest);
  }
}

/// The merged scene's keys in kSceneKeys' order.
std::string EmitMergedScene(const MergedScene& merged) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const std::string_view key : kSceneKeys) {
    if (!merged.top().Has(key)) continue;
    out << YAML::Key << std::string(key) << YAML::Value << merged.top().Get(key);
  }
  out << YAML::EndMap;
  if (!out.good()) throw InputError(OneLine(merged.label() + ": cannot write the merged scene: " + out.GetLastError()));
  return std::string(out.c_str()) + "\n";
}


/// The shortest decimal that reads back to `value` (as the loader reads it).
std::string Exact(double value) {
  double copy = value;
  return FormatParameterValue(ParameterBinding{"", "", "", &copy, kAnyNumber});
}

/// Writes every row of `table` into the map `node` (existing keys keep
/// their place, new ones are appended).
void WriteTable(YAML::Node node, const ParameterTable& table) {
  for (const ParameterBinding& p : table) node[std::string(p.key)] = FormatParameterValue(p);
}

YAML::Node FlowMap() {
  YAML::Node node(YAML::NodeType::Map);
  node.SetStyle(YAML::EmitterStyle::Flow);
  return node;
}

/// Throws InputError when `p` holds a value no scene file can (the loader's
/// ranges), before anything is written.
void CheckWritable(const SceneParameters& p) {
  if (!(p.time_step > 0) || !(p.time_step <= 1)) {
    throw InputError("time_step: must be in (0, 1] seconds to be saved in a scene file, got " +
                     FormatNumber(p.time_step));
  }
  ValidateIntegratorSettings(p.integrator);
  ValidateContactModelParameters(p.contact);
  ValidateSolverSettings(p.solver);
  ValidateNmdpParameters(p.nmdp);
  for (const auto& [name, material] : p.materials) ValidateContactMaterial(name, material);
}

YAML::Node IntegratorNode(const IntegratorSettings& s) {
  // A preset by name only when it is one, so the name reads back too.
  const IntegratorPresetInfo* preset = FindChoice(IntegratorPresets(), s.name);
  if (preset != nullptr && preset->theta == s.theta && preset->theta_vq == s.theta_vq) {
    return YAML::Node(std::string(preset->name));
  }
  IntegratorSettings copy = s;
  YAML::Node node = FlowMap();
  WriteTable(node, BindParameters(copy));
  return node;
}

YAML::Node SolverNode(const SceneParameters& p) {
  SolverSettings solver = p.solver;
  ContactModelParameters contact = p.contact;
  YAML::Node node(YAML::NodeType::Map);
  node["type"] = std::string(SolverTypeName(solver.type));
  node["line_search"] = std::string(GetLineSearchInfo(solver.sap.line_search).name);
  // SAP's keys, the contact regularization and the budget sit at solver:'s
  // top level,
  // every other solver's in its own map (the loader's ParseSolver).
  WriteTable(node, BindParameters(solver.sap));
  WriteTable(node, BindParameters(contact));
  WriteTable(node, BindStepParameters(solver));
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (!info.own_map) continue;
    YAML::Node sub(YAML::NodeType::Map);
    WriteTable(sub, info.bind(solver));
    node[std::string(info.name)] = sub;
  }
  return node;
}

/// Every key of `nmdp:`, written out even when it has its default (as the
/// solvers' maps are).
YAML::Node NmdpNode(const NmdpParameters& p) {
  NmdpParameters copy = p;
  YAML::Node node(YAML::NodeType::Map);
  WriteTable(node, BindParameters(copy));
  return node;
}

/// Sets the materials of `root` to `p`'s: an entry's keys are replaced in
/// place (whichever file defined it: includes are merged); the built-in
/// `default` and the materials a robot file made (MJCF friction variants,
/// `ROBOT/friction_MU`) get entries of their own at the end, which the
/// loader then uses instead of making them again, so that their edits
/// are kept.
void WriteMaterials(YAML::Node& root, const SceneParameters& p) {
  YAML::Node list = root["materials"];
  if (!list.IsSequence()) {
    list = YAML::Node(YAML::NodeType::Sequence);
    root["materials"] = list;
  }
  for (const auto& [name, material] : p.materials) {
    YAML::Node entry;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YAML::Node candidate = list[i];
      if (candidate.IsMap() && candidate["name"].IsScalar() && candidate["name"].Scalar() == name) {
        entry.reset(candidate);
      }
    }
    if (!entry.IsDefined() || entry.IsNull()) {
      // The loader appends the built-in default after the file's
      // materials, and robots' materials after that; entries at the end
      // keep that order.
      entry.reset(FlowMap());
      entry["name"] = name;
      list.push_back(entry);
    }
    ContactMaterial copy = material;
    WriteTable(entry, BindParameters(copy));
    if (material.model) {
      entry["contact_model"] = std::string(ContactModelName(*material.model));
    } else if (entry["contact_model"].IsDefined()) {
      entry.remove("contact_model");
    }
  }
}

bool IsTrue(const YAML::Node& node) {
  if (!node.IsScalar()) return false;
  const std::string& s = node.Scalar();
  return s == "true" || s == "True" || s == "TRUE";
}

/// A robot with `use_file_options: true` (an MJCF file opened directly)
/// would replace the saved time_step with its file's on load: the options
/// are written out instead (the file's gravity as the scene had it, the
/// time step from `p`) and the flag is cleared.
void WriteFileOptions(YAML::Node& root, const std::string& source_path, const std::vector<std::string>& overrides) {
  YAML::Node robots = root["robots"];
  if (!robots.IsSequence()) return;
  bool any = false;
  for (std::size_t i = 0; i < robots.size(); ++i) {
    YAML::Node robot = robots[i];
    if (robot.IsMap() && IsTrue(robot["use_file_options"])) {
      robot["use_file_options"] = "false";
      any = true;
    }
  }
  if (!any) return;
  const Vector3 gravity = LoadSceneFile(source_path, overrides).gravity;
  YAML::Node node(YAML::NodeType::Sequence);
  node.SetStyle(YAML::EmitterStyle::Flow);
  for (int i = 0; i < 3; ++i) node.push_back(Exact(gravity[i]));
  root["gravity"] = node;
}

}  // namespace

std::string FlattenSceneFile(const std::string& path, const std::string& dest_dir,
                             const std::vector<std::string>& overrides) {
  // The same guard as loading: only InputError leaves.
  return GuardInputErrors(path, [&] {
    const MergedScene merged(ReadSceneSource(path), overrides);
    std::error_code ec;
    const fs::path dest = fs::absolute(dest_dir.empty() ? fs::path(".") : fs::path(dest_dir), ec).lexically_normal();
    RebasePaths(merged, dest);
    return EmitMergedScene(merged);
  });
}

std::string FormatSceneWithParameters(const std::string& source_path, const SceneParameters& p,
                                      const std::string& dest_path, const std::vector<std::string>& overrides) {
  CheckWritable(p);
  const fs::path dest_dir = fs::path(dest_path).parent_path();
  const std::string flat = FlattenSceneFile(source_path, dest_dir.empty() ? "." : dest_dir.string(), overrides);
  YAML::Node root;
  try {
    root = YAML::Load(flat);
  } catch (const YAML::Exception& e) {
    throw InputError(OneLine(source_path + ": cannot read back the merged scene: " + e.msg));
  }
  WriteFileOptions(root, source_path, overrides);
  root["time_step"] = Exact(p.time_step);
  root["stepping"] = std::string(SteppingSchemeName(p.scheme));
  root["integrator"] = IntegratorNode(p.integrator);
  root["contact_model"] = std::string(ContactModelName(p.contact.model));
  root["solver"] = SolverNode(p);
  root["nmdp"] = NmdpNode(p.nmdp);
  WriteMaterials(root, p);

  YAML::Emitter out;
  out << YAML::Comment("Saved by Stiction from " + OneLine(source_path) +
                       " with its parameters as they were (docs/scene-format.md, \"Save scene as\").")
      << YAML::Newline;
  out << YAML::BeginMap;
  for (const std::string_view key : kSceneKeys) {
    const YAML::Node value = root[std::string(key)];
    if (value.IsDefined()) out << YAML::Key << std::string(key) << YAML::Value << value;
  }
  out << YAML::EndMap;
  if (!out.good()) throw InputError(OneLine(source_path + ": cannot write the scene: " + out.GetLastError()));
  return std::string(out.c_str()) + "\n";
}

void SaveSceneWithParameters(const std::string& source_path, const SceneParameters& p, const std::string& dest_path,
                             const std::vector<std::string>& overrides) {
  const std::string text = FormatSceneWithParameters(source_path, p, dest_path, overrides);
  const fs::path dest(dest_path);
  // A temporary file next to the destination, so the rename stays within
  // one file system and replaces the file in one step.
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  std::string temp_name = ".";  // Hidden; appended, not "." + ...: GCC 12's -Wrestrict misfires on that.
  temp_name += dest.filename().string();
  temp_name += ".tmp";
  temp_name += std::to_string(stamp);
  const fs::path temp = dest.parent_path() / temp_name;
  std::error_code ec;
  auto fail = [&](const std::string& reason) {
    fs::remove(temp, ec);
    throw InputError(OneLine(dest_path + ": cannot write the scene file: " + reason));
  };
  if (dest.filename().empty()) fail("not a file name");
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    if (!file) fail("cannot create a file in " + (dest.parent_path().empty() ? std::string(".") : dest.parent_path().string()));
    file << text;
    file.close();
    if (!file) fail("the write failed");
  }
  fs::rename(temp, dest, ec);
  if (ec) fail(ec.message());
}

}  // namespace stiction
