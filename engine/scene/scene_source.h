#pragma once
// Where a scene's text comes from, for the loader (scene_loader.h) and the
// writer (scene_writer.h): a scene file, a robot file opened as a scene
// (robot_file_scene.h) or a string; reading files with a reason when they
// cannot be read; and the guard that lets only InputError leave either.
#include <filesystem>
#include <functional>
#include <string>

namespace stiction {

/// The top-level text of a scene and how to name and resolve it.
struct SceneSource {
  std::string text;      ///< YAML.
  std::string label;     ///< Names the text in messages (the file as given).
  std::string base_dir;  ///< Resolves includes and relative paths ("" = ".").
  /// The file's canonical path, so that an include of it is a cycle; "" for
  /// a string.
  std::string identity;
};

/// The scene file at `path`, or the scene around a robot file
/// (IsRobotFile). Throws InputError "PATH: reason" when it cannot be read.
SceneSource ReadSceneSource(const std::string& path);

/// Reads a whole file; `fail` (which must throw) gets the reason otherwise.
/// `what` names the kind ("include file"), `shown` the name as the user
/// wrote it.
std::string ReadFileText(const std::filesystem::path& path, const std::string& what, const std::string& shown,
                         const std::function<void(const std::string&)>& fail);

/// The canonical path of a file (for include cycles).
std::string Identity(const std::filesystem::path& path);
/// The directory of a file, "." for a bare name.
std::string DirOf(const std::filesystem::path& path);

/// Called inside a catch handler: rethrows the exception being handled as
/// an InputError labelled `label` (an InputError as it is; a yaml-cpp error
/// with its line; anything else as an internal error).
[[noreturn]] void RethrowAsInputError(const std::string& label);

/// `load()`, letting only InputError leave, whatever goes wrong inside.
template <typename Fn>
auto GuardInputErrors(const std::string& label, Fn&& load) -> decltype(load()) {
  try {
    return load();
  } catch (...) {
    RethrowAsInputError(label);
  }
}

}  // namespace stiction
