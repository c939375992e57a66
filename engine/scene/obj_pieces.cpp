#include "engine/scene/obj_pieces.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/common/error.h"

namespace stiction {
namespace {

struct RawPiece {
  std::string name;
  std::vector<std::vector<int>> faces;  ///< Global vertex indices, 0-based.
};

[[noreturn]] void FailAt(const std::string& path, int line, const std::string& reason) {
  throw InputError(path + ":" + std::to_string(line) + ": " + reason);
}

double ParseNumber(const std::string& path, int line, const std::string& token) {
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value)) {
    FailAt(path, line, "expected a finite number, got '" + token + "'");
  }
  return value;
}

}  // namespace

std::vector<MeshData> ReadObjPieces(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot be read");
  std::vector<Vector3> vertices;
  std::vector<RawPiece> by_object, by_group;
  bool has_objects = false;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    std::istringstream words(text);
    std::string keyword;
    if (!(words >> keyword) || keyword[0] == '#') continue;
    if (keyword == "v") {
      std::string x, y, z;
      if (!(words >> x >> y >> z)) FailAt(path, line, "a vertex needs three coordinates");
      vertices.emplace_back(ParseNumber(path, line, x), ParseNumber(path, line, y), ParseNumber(path, line, z));
    } else if (keyword == "o" || keyword == "g") {
      std::string name;
      std::getline(words >> std::ws, name);
      while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
      if (keyword == "o") has_objects = true;
      (keyword == "o" ? by_object : by_group).push_back({name, {}});
    } else if (keyword == "f") {
      std::vector<int> face;
      std::string corner;
      while (words >> corner) {
        // "a", "a/b", "a//c", "a/b/c": the vertex index is before the first '/'.
        const std::string index_text = corner.substr(0, corner.find('/'));
        int index = 0;
        const auto [end, ec] = std::from_chars(index_text.data(), index_text.data() + index_text.size(), index);
        if (ec != std::errc() || end != index_text.data() + index_text.size() || index == 0) {
          FailAt(path, line, "expected a vertex index, got '" + corner + "'");
        }
        const int resolved = index > 0 ? index - 1 : static_cast<int>(vertices.size()) + index;
        if (resolved < 0 || resolved >= static_cast<int>(vertices.size())) {
          FailAt(path, line, "vertex index " + index_text + " is out of range (" + std::to_string(vertices.size()) +
                                 " vertices so far)");
        }
        face.push_back(resolved);
      }
      if (face.size() < 3) FailAt(path, line, "a face needs at least three vertices");
      for (auto* list : {&by_object, &by_group}) {
        if (list->empty()) list->push_back({"", {}});
        list->back().faces.push_back(face);
      }
    }
  }
  const std::string file_name = std::filesystem::path(path).filename().string();
  std::vector<MeshData> out;
  const std::vector<RawPiece>& raw = has_objects ? by_object : by_group;
  for (const RawPiece& piece : raw) {
    if (piece.faces.empty()) continue;
    MeshData mesh;
    const std::string label = piece.name.empty() ? "piece " + std::to_string(out.size() + 1) : "'" + piece.name + "'";
    mesh.name = label + " of " + file_name;
    std::map<int, int> local;
    for (const auto& face : piece.faces) {
      for (int v : face) {
        if (local.emplace(v, static_cast<int>(mesh.vertices_G.size())).second) mesh.vertices_G.push_back(vertices[v]);
      }
      for (std::size_t i = 1; i + 1 < face.size(); ++i) {
        mesh.triangles.push_back({local[face[0]], local[face[i]], local[face[i + 1]]});
      }
    }
    out.push_back(std::move(mesh));
  }
  if (out.empty()) throw InputError(path + ": has no faces");
  return out;
}

}  // namespace stiction
