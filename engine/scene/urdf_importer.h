#pragma once
// Reads a URDF robot through liburdfdom (the parser ROS uses) into a
// RobotDescription. Line numbers for messages come from a second, plain XML
// read of the same text. docs/robots.md lists what maps to what.
#include <string>
#include <vector>

#include "engine/scene/robot_description.h"

namespace stiction {

struct UrdfImportOptions {
  /// true: the root link is welded to the robot frame R (fixed joint);
  /// false: it floats (free joint).
  bool fixed_base = true;
  /// Directories searched for package:// URIs (package_path.h), before the
  /// robot file's own directory and its ancestors.
  std::vector<std::string> package_path;
};

/// Imports links (inertials, collision and visual geometry: box, cylinder,
/// sphere, mesh), joints (revolute, continuous, prismatic, fixed, floating;
/// limits, damping, effort and velocity limits) and material colours.
/// Refuses planar joints, moving links without mass and unresolvable mesh
/// files; skips what has no counterpart (mimic, joint friction, safety
/// controllers) with a note. Throws InputError "FILE:LINE: reason".
RobotDescription ImportUrdf(const std::string& path, const UrdfImportOptions& options = {});

/// The same from text; `label` names it in messages and resolves relative
/// mesh paths (as if the text were the file `label`).
RobotDescription ImportUrdfString(const std::string& text, const std::string& label,
                                  const UrdfImportOptions& options = {});

}  // namespace stiction
