#include "engine/scene/robot_file_scene.h"

#include <filesystem>
#include <fstream>

namespace stiction {
namespace {

namespace fs = std::filesystem;

/// A YAML double-quoted string.
std::string YamlQuoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

bool IsRobotFile(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".urdf" || ext == ".URDF" || ext == ".xml" || ext == ".XML" || ext == ".mjcf";
}

bool LooksLikeUrdf(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".urdf" || ext == ".URDF") return true;
  std::ifstream in(path);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const std::size_t robot = head.find("<robot");
  const std::size_t mujoco = head.find("<mujoco");
  return robot != std::string::npos && (mujoco == std::string::npos || robot < mujoco);
}

std::string RobotFileScene(const std::string& path) {
  const std::string file = fs::absolute(fs::path(path)).lexically_normal().string();
  std::string yaml = "description: " + YamlQuoted("Robot file " + fs::path(path).filename().string() +
                                                  " opened on its own (docs/robots.md).") + "\n";
  if (LooksLikeUrdf(file)) {
    yaml += "world_geometry:\n  - name: ground\n    shape: {type: half_space}\n    color: [0.55, 0.57, 0.6, 1]\n";
    yaml += "robots:\n  - file: " + YamlQuoted(file) +
            "\n    joint_pd: {kp: 100, kd: 10}\n    gravity_compensation: true\n    rest_on_ground: true\n";
  } else {
    yaml += "robots:\n  - file: " + YamlQuoted(file) + "\n    use_file_options: true\n";
  }
  return yaml;
}

}  // namespace stiction
