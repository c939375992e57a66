#pragma once
// A robot file (URDF or MJCF) opened as a scene: the scene text written
// around it (docs/robots.md, "Opening a robot file directly"), and how a robot
// file's format is told.
#include <string>

namespace stiction {

/// Whether `path` names a robot file by its extension (.urdf, .xml, .mjcf).
bool IsRobotFile(const std::string& path);

/// Whether the robot file at `path` is URDF (by extension, else by a
/// <robot> element before any <mujoco> in its first 4 KiB); else MJCF.
bool LooksLikeUrdf(const std::string& path);

/// The scene a robot file opens as: the robot resting on a ground plane
/// (URDF), or the model as it is with its own world, gravity and time step
/// (MJCF). A URDF robot gets joint PD controllers holding its zero pose,
/// capped by the file's effort limits, so that it stands instead of
/// collapsing.
std::string RobotFileScene(const std::string& path);

}  // namespace stiction
