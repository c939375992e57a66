#pragma once
// A bounding-volume hierarchy (axis-aligned boxes, median splits) over the
// tetrahedra of a VolumeMesh, in the mesh's frame: a contact-surface query
// visits only the tetrahedra whose boxes meet the query's box or plane.
#include <cmath>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/geometry/volume_mesh.h"

namespace stiction {

class TetBvh {
 public:
  struct Box {
    Vector3 min = Vector3::Zero(), max = Vector3::Zero();
    bool Overlaps(const Box& o) const {
      return (min.array() <= o.max.array()).all() && (o.min.array() <= max.array()).all();
    }
  };

  TetBvh() = default;
  explicit TetBvh(const VolumeMesh& mesh);

  /// Calls visit(t) for every tetrahedron t whose box overlaps `box`.
  template <typename Visit>
  void Query(const Box& box, Visit&& visit) const {
    Traverse([&](const Box& node) { return node.Overlaps(box); }, visit);
  }

  /// Calls visit(t) for every tetrahedron t whose box the plane
  /// normal · x = offset crosses.
  template <typename Visit>
  void QueryPlane(const Vector3& normal, double offset, Visit&& visit) const {
    Traverse(
        [&](const Box& node) {
          const Vector3 centre = 0.5 * (node.min + node.max), half = 0.5 * (node.max - node.min);
          return std::abs(normal.dot(centre) - offset) <= normal.cwiseAbs().dot(half);
        },
        visit);
  }

  /// The box of every tetrahedron (the root's).
  const Box& root() const { return nodes_.front().box; }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }

 private:
  struct Node {
    Box box;
    int first = 0;  ///< Leaf: first index into order_; inner: index of the left child (right = first + 1).
    int count = 0;  ///< Leaf: tetrahedra; 0 for inner nodes.
  };
  // Depth-first over the nodes whose box `accept` takes; visit(t) for the
  // tetrahedra of accepted leaves. Depth ≤ kMaxDepth keeps the stack in 64.
  template <typename Accept, typename Visit>
  void Traverse(Accept&& accept, Visit&& visit) const {
    if (nodes_.empty()) return;
    int stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& n = nodes_[stack[--top]];
      if (!accept(n.box)) continue;
      if (n.count > 0) {
        for (int k = 0; k < n.count; ++k) visit(order_[n.first + k]);
      } else {
        stack[top++] = n.first;
        stack[top++] = n.first + 1;
      }
    }
  }
  void Build(const std::vector<Box>& boxes, const std::vector<Vector3>& centres, int begin, int end, int depth,
             int index);

  std::vector<Node> nodes_;
  std::vector<int> order_;
};

}  // namespace stiction
