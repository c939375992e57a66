#pragma once
// Resolves the file references of robot files the way ROS users expect:
// "package://PKG/REL", "file:///ABS", absolute paths and paths relative to
// the robot file. docs/robots.md ("Finding meshes") documents the search.
#include <string>
#include <vector>

namespace stiction {

/// The package search path from the environment: the directories of
/// STICTION_PACKAGE_PATH, then of ROS_PACKAGE_PATH (each ':'-separated,
/// empty entries skipped), in that order.
std::vector<std::string> PackagePathFromEnvironment();

/// Resolves `uri` (found in `robot_file`) to an existing regular file.
/// "package://PKG/REL" is looked up, in order, in each directory D of
/// `search_path` (D/PKG/REL, or D/REL when D itself is named PKG), then in
/// the robot file's directory and its ancestors (same two forms), so that a
/// package checked out anywhere works without configuration when the robot
/// file sits inside it. Relative paths are relative to the robot file.
/// Throws InputError "`where`: <what> 'uri': <reason>" naming the searched
/// directories when nothing matches.
std::string ResolveRobotUri(const std::string& uri, const std::string& robot_file,
                            const std::vector<std::string>& search_path,
                            const std::string& where, const std::string& what);

}  // namespace stiction
