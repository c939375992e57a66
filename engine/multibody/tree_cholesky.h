#pragma once
// The Cholesky factorization A = Lᵀ L of one tree's joint-space matrix (its
// mass matrix plus diagonal terms) that keeps the tree's sparsity ([RBDA]
// Ch. 6, the LTL factorization). Velocities are numbered parents first,
// and A_ij ≠ 0 only when velocity i is an ancestor of j or j of i; factoring
// from the leaves up then creates no fill-in, so L has A's pattern, and a
// right-hand side that lives on one branch (a contact's Jacobian touches a
// foot's ancestors only) is solved along that branch: O(n d) per solve for
// depth d instead of O(n²), and the factorization O(n d²) instead of O(n³).
//
// A matrix with an entry off the pattern (a constraint that couples two
// branches, or a tree whose velocities are not numbered parents first) is
// factored with every earlier velocity as an ancestor: the same algorithm
// as a dense Cholesky, so the answers are right either way.
#include <span>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/multibody/multibody_model.h"

namespace stiction {

class TreeCholesky {
 public:
  TreeCholesky() = default;
  /// For a tree whose velocity k (tree-local) has parent `parent[k]` < k, or
  /// −1 at a root velocity.
  explicit TreeCholesky(std::vector<int> parent);

  /// The parent of each of `tree`'s velocities, tree-local: the previous
  /// velocity of the same joint, else the last velocity of the nearest
  /// ancestor body whose joint has velocities, else −1. Within one joint
  /// (a free or ball joint) the velocities form a chain, so its dense block
  /// is inside the pattern. Empty when a parent's velocity does not come
  /// before its child's (then factor with the dense pattern).
  static std::vector<int> VelocityParents(const MultibodyModel& model, int tree);

  /// Factors A (n × n, symmetric; only its lower triangle is read). Returns
  /// false when A is not positive definite (a pivot ≤ 0 or not finite);
  /// every solve with that factor is then NaN.
  bool Factor(const MatrixX& A);
  int size() const { return static_cast<int>(U_.rows()); }
  /// Whether the last Factor used the tree's pattern (false: dense).
  bool sparse() const { return sparse_; }

  /// x ← A⁻¹ x.
  void Solve(Eigen::Ref<VectorX> x) const;
  /// (A⁻¹)_kk = ‖L⁻ᵀ e_k‖², along k's ancestors only.
  double InverseDiagonal(int k) const;
  /// W += J A⁻¹ Jᵀ = YᵀY with Y = L⁻ᵀ Jᵀ, for J with R rows (R = Eigen::Dynamic
  /// for any): the rows of Y below J's deepest column, and off the branches
  /// J touches, stay zero and are skipped.
  template <int R>
  void AddDelassus(const MatrixX& J, Eigen::Matrix<double, R, R>* W) const;
  /// A⁻¹, dense.
  void Inverse(MatrixX* A_inverse) const;

 private:
  // Ancestors of velocity k (parent first), from the pattern in use.
  std::span<const int> Ancestors(int k) const {
    const std::vector<int>& start = sparse_ ? tree_start_ : dense_start_;
    const std::vector<int>& list = sparse_ ? tree_list_ : dense_list_;
    return {list.data() + start[k], list.data() + start[k + 1]};
  }
  static void BuildAncestors(const std::vector<int>& parent, std::vector<int>* start, std::vector<int>* list);
  // y ← L⁻ᵀ y, rows processed from `last` down (rows below it are zero).
  template <typename Rhs>
  void HalfSolve(int last, Rhs* Y) const;

  std::vector<int> tree_start_, tree_list_;    // The tree's ancestor lists.
  std::vector<int> dense_start_, dense_list_;  // Every earlier velocity.
  std::vector<unsigned char> on_pattern_;      // n × n: j is k's ancestor, or j = k.
  bool sparse_ = false;
  MatrixX U_;  // Lᵀ: column k holds row k of L (its ancestors' entries and the pivot).
  // Scratch for L⁻ᵀ Jᵀ: grows and never shrinks, so that right-hand sides
  // of every size (one per contact and step) allocate nothing once sized.
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Block<RowMajorMatrix> Scratch(int rows, int cols) const;
  mutable RowMajorMatrix Y_;
  mutable VectorX e_;  // Scratch for L⁻ᵀ e_k, grown likewise.
};

}  // namespace stiction
