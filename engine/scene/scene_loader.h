#pragma once
// Loads YAML scene files into a SceneDescription, validating every value.
// Errors throw InputError with "FILE:LINE: KEY: reason" messages. A robot
// file (URDF, MJCF) opens as a scene around it (robot_file_scene.h). Saving
// a scene back is scene_writer.h's.
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

}  // namespace stiction
