#include "engine/geometry/tet_bvh.h"

#include <algorithm>
#include <numeric>

namespace stiction {
namespace {
constexpr int kLeafSize = 4;
constexpr int kMaxDepth = 30;  // Query stacks hold 64 entries: 2 per level.
}  // namespace

TetBvh::TetBvh(const VolumeMesh& mesh) {
  const int n = static_cast<int>(mesh.tets.size());
  if (n == 0) return;
  std::vector<Box> boxes(n);
  std::vector<Vector3> centres(n);
  for (int t = 0; t < n; ++t) {
    Box& b = boxes[t];
    b.min = b.max = mesh.vertices[mesh.tets[t][0]];
    for (int k = 1; k < 4; ++k) {
      b.min = b.min.cwiseMin(mesh.vertices[mesh.tets[t][k]]);
      b.max = b.max.cwiseMax(mesh.vertices[mesh.tets[t][k]]);
    }
    centres[t] = 0.5 * (b.min + b.max);
  }
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0);
  nodes_.reserve(2 * n / kLeafSize + 2);
  nodes_.emplace_back();
  Build(boxes, centres, 0, n, 0, 0);
}

// Fills node `index` (already allocated) for order_[begin, end).
void TetBvh::Build(const std::vector<Box>& boxes, const std::vector<Vector3>& centres, int begin, int end,
                   int depth, int index) {
  Box box = boxes[order_[begin]];
  for (int k = begin + 1; k < end; ++k) {
    box.min = box.min.cwiseMin(boxes[order_[k]].min);
    box.max = box.max.cwiseMax(boxes[order_[k]].max);
  }
  nodes_[index].box = box;
  if (end - begin <= kLeafSize || depth >= kMaxDepth) {
    nodes_[index].first = begin;
    nodes_[index].count = end - begin;
    return;
  }
  int axis = 0;
  (box.max - box.min).maxCoeff(&axis);
  const int middle = (begin + end) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                   [&](int a, int b) { return centres[a][axis] < centres[b][axis]; });
  // Children are allocated as a pair so that the right one is left + 1.
  const int left = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  nodes_.emplace_back();
  nodes_[index].first = left;
  nodes_[index].count = 0;
  Build(boxes, centres, begin, middle, depth + 1, left);
  Build(boxes, centres, middle, end, depth + 1, left + 1);
}

}  // namespace stiction
