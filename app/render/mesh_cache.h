#pragma once
// GPU meshes (VAO + interleaved position/normal VBO + index buffer) keyed by
// shape (MeshKey), so equal shapes share one upload: primitives by their
// dimensions, mesh files by path and scale, in-memory meshes (MJCF) by name
// and content hash (MeshDataKey). Needs a current context.
#include <string>
#include <unordered_map>

#include "app/render/gl.h"
#include "engine/geometry/mesh_loader.h"

namespace stiction::app {

struct GpuMesh {
  GLuint vao = 0, vbo = 0, ebo = 0;
  GLsizei num_indices = 0;
};

class MeshCache {
 public:
  MeshCache() = default;
  ~MeshCache();
  MeshCache(const MeshCache&) = delete;
  MeshCache& operator=(const MeshCache&) = delete;

  /// Uploads `mesh` under `key` unless the key is present.
  void Add(const std::string& key, const RenderMesh& mesh);
  /// nullptr when absent.
  const GpuMesh* Find(const std::string& key) const;
  void Clear();
  size_t size() const { return meshes_.size(); }

 private:
  std::unordered_map<std::string, GpuMesh> meshes_;
};

}  // namespace stiction::app
