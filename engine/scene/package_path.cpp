#include "engine/scene/package_path.h"

#include <cstdlib>
#include <filesystem>

#include "engine/common/error.h"

namespace stiction {

namespace fs = std::filesystem;

namespace {

void AppendColonList(const char* value, std::vector<std::string>* out) {
  if (value == nullptr) return;
  const std::string text(value);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find(':', start);
    const std::string entry = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!entry.empty()) out->push_back(entry);
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

bool IsFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// D/PKG/REL, or D/REL when D is itself the package directory PKG.
bool TryPackageDir(const fs::path& dir, const std::string& package, const fs::path& rel, fs::path* out) {
  if (IsFile(dir / package / rel)) {
    *out = dir / package / rel;
    return true;
  }
  if (dir.filename() == package && IsFile(dir / rel)) {
    *out = dir / rel;
    return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> PackagePathFromEnvironment() {
  std::vector<std::string> out;
  AppendColonList(std::getenv("STICTION_PACKAGE_PATH"), &out);
  AppendColonList(std::getenv("ROS_PACKAGE_PATH"), &out);
  return out;
}

std::string ResolveRobotUri(const std::string& uri, const std::string& robot_file,
                            const std::vector<std::string>& search_path, const std::string& where,
                            const std::string& what) {
  auto fail = [&](const std::string& reason) {
    throw InputError(where + ": " + what + " '" + uri + "': " + reason);
  };
  std::error_code ec;
  // Beside the real file: a link to a robot file (a corpus of links, a
  // workspace's symlinked package) finds its meshes as the file does.
  fs::path real = fs::canonical(fs::path(robot_file), ec);
  if (ec) real = fs::absolute(fs::path(robot_file), ec);
  const fs::path robot_dir = real.parent_path().lexically_normal();
  const std::string kPackage = "package://";
  const std::string kFile = "file://";
  if (uri.rfind(kPackage, 0) == 0) {
    const std::string rest = uri.substr(kPackage.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 >= rest.size()) {
      fail("expected package://PACKAGE/PATH");
    }
    const std::string package = rest.substr(0, slash);
    const fs::path rel = fs::path(rest.substr(slash + 1)).lexically_normal();
    fs::path found;
    for (const std::string& dir : search_path) {
      if (TryPackageDir(fs::path(dir), package, rel, &found)) return fs::absolute(found, ec).lexically_normal().string();
    }
    for (fs::path dir = robot_dir; !dir.empty(); dir = dir.parent_path()) {
      if (TryPackageDir(dir, package, rel, &found)) return found.lexically_normal().string();
      if (dir == dir.parent_path()) break;
    }
    std::string searched;
    for (const std::string& dir : search_path) searched += (searched.empty() ? "" : ", ") + dir;
    fail("package '" + package + "' has no file '" + rel.string() + "' in the package path (" +
         (searched.empty() ? std::string("empty") : searched) +
         ") nor beside the robot file; add the directory that holds '" + package +
         "' to the scene key 'package_path' or to STICTION_PACKAGE_PATH");
  }
  fs::path path = uri.rfind(kFile, 0) == 0 ? fs::path(uri.substr(kFile.size())) : fs::path(uri);
  if (path.empty()) fail("empty file name");
  if (path.is_relative()) path = robot_dir / path;
  path = path.lexically_normal();
  if (!IsFile(path)) fail("file not found (resolved to " + path.string() + ")");
  return path.string();
}

}  // namespace stiction
