#include "engine/scene/scene_source.h"

#include <exception>
#include <fstream>
#include <sstream>
#include <system_error>

#include <yaml-cpp/yaml.h>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/robot_file_scene.h"
#include "engine/scene/yaml_reader.h"

namespace stiction {

namespace fs = std::filesystem;

SceneSource ReadSceneSource(const std::string& path) {
  SceneSource source;
  if (IsRobotFile(path)) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) throw InputError(path + ": no such robot file");
    source.text = RobotFileScene(path);
  } else {
    source.text = ReadFileText(path, "scene file", path, [&](const std::string& reason) {
      throw InputError(OneLine(path + ": " + reason));
    });
  }
  source.label = path;
  source.base_dir = DirOf(fs::path(path));
  source.identity = Identity(path);
  return source;
}

std::string ReadFileText(const fs::path& path, const std::string& what, const std::string& shown,
                         const std::function<void(const std::string&)>& fail) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    fail(what + " " + Quote(shown) + " not found (resolved to " +
         fs::absolute(path, ec).lexically_normal().string() + ")");
  }
  if (fs::is_directory(status)) fail(what + " " + Quote(shown) + " is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open " + what + " " + Quote(shown));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail("cannot read " + what + " " + Quote(shown));
  return text.str();
}

std::string Identity(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec) canonical = fs::absolute(path, ec).lexically_normal();
  return canonical.string();
}

std::string DirOf(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

void RethrowAsInputError(const std::string& label) {
  try {
    throw;
  } catch (const InputError&) {
    throw;
  } catch (const YAML::Exception& e) {
    std::string message = label;
    if (!e.mark.is_null() && e.mark.line >= 0) message += ":" + std::to_string(e.mark.line + 1);
    throw InputError(OneLine(message + ": YAML error: " + e.msg));
  } catch (const std::exception& e) {
    throw InputError(OneLine(label + ": internal error while loading the scene: " + e.what()));
  } catch (...) {
    throw InputError(OneLine(label + ": unknown internal error while loading the scene"));
  }
}

}  // namespace stiction
