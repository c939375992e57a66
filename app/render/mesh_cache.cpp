#include "app/render/mesh_cache.h"

#include <vector>

namespace stiction::app {

MeshCache::~MeshCache() { Clear(); }

void MeshCache::Add(const std::string& key, const RenderMesh& mesh) {
  if (meshes_.contains(key) || mesh.indices.empty()) return;
  std::vector<float> interleaved;
  interleaved.reserve(mesh.positions_G.size() * 6);
  for (size_t i = 0; i < mesh.positions_G.size(); ++i) {
    const Eigen::Vector3f& p = mesh.positions_G[i];
    const Eigen::Vector3f n = i < mesh.normals_G.size() ? mesh.normals_G[i] : Eigen::Vector3f::UnitZ();
    interleaved.insert(interleaved.end(), {p.x(), p.y(), p.z(), n.x(), n.y(), n.z()});
  }
  GpuMesh g;
  glGenVertexArrays(1, &g.vao);
  glGenBuffers(1, &g.vbo);
  glGenBuffers(1, &g.ebo);
  glBindVertexArray(g.vao);
  glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(interleaved.size() * sizeof(float)),
               interleaved.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(std::uint32_t)),
               mesh.indices.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
  g.num_indices = static_cast<GLsizei>(mesh.indices.size());
  meshes_.emplace(key, g);
}

const GpuMesh* MeshCache::Find(const std::string& key) const {
  auto it = meshes_.find(key);
  return it == meshes_.end() ? nullptr : &it->second;
}

void MeshCache::Clear() {
  for (auto& [key, g] : meshes_) {
    glDeleteVertexArrays(1, &g.vao);
    glDeleteBuffers(1, &g.vbo);
    glDeleteBuffers(1, &g.ebo);
  }
  meshes_.clear();
}

}  // namespace stiction::app
