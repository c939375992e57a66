#pragma once
// Loads YAML scene files into a SceneDescription, validating every value.
// Errors throw InputError with "FILE:LINE: KEY: reason" messages.
#include <string>
#include <vector>

#include "engine/scene/scene_description.h"

namespace stiction {

/// Loads and validates the scene file at `path` (includes are resolved
/// relative to the including file). Each override is "dotted.key=value"
/// (e.g. "time_step=0.002", "materials.steel.friction=0.3",
/// "bodies.box.mass=2"); overrides are applied to the YAML tree of the
/// top-level file after includes are merged and before validation, so they
/// get exactly the same checks as the file. Throws InputError.
SceneDescription LoadSceneFile(const std::string& path,
                               const std::vector<std::string>& overrides = {});

/// Same, from a string; `file_label` names the text in error messages and
/// `base_dir` resolves includes and mesh paths.
SceneDescription LoadSceneString(const std::string& yaml_text,
                                 const std::string& file_label,
                                 const std::string& base_dir = ".",
                                 const std::vector<std::string>& overrides = {});

/// The scene file at `path` (a YAML scene, or a robot file opened as a
/// scene) as one YAML document that, saved in `dest_dir`, loads to the same
/// scene: its includes merged as the loader merges them (no `include` is
/// left), `overrides` applied, and every relative path (mesh files, robot
/// files, `package_path`, `commands`) rewritten to name the same file from
/// `dest_dir` — relative when the operating system agrees, else absolute.
/// Keys come in the order of docs/scene-format.md; comments are not kept.
/// Reads the files but does not validate the scene (LoadSceneFile does).
/// Throws InputError "FILE:LINE: reason" for a file that cannot be read or
/// parsed.
std::string FlattenSceneFile(const std::string& path, const std::string& dest_dir,
                             const std::vector<std::string>& overrides = {});

}  // namespace stiction
