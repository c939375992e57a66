#pragma once
// The solver-agnostic contact problem of stage 2 (SAP paper Eq. 18 and
// Sec. III): minimize over v the cost ½‖v − v*‖²_A + Σ_i ℓ_i(J_i v). It knows
// no solver; SAP, and later CANAL and others, consume it.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/sap_constraint.h"

namespace stiction {

/// The non-zero block of a constraint's Jacobian on one tree.
struct ConstraintJacobianBlock {
  int tree = -1;
  MatrixX J;  ///< rows × nv_tree: v_c = Σ_blocks J · v_tree.
};

enum class ConstraintKind {
  kFrictionCone,  ///< 3 rows, SapFrictionConeParameters.
  kClamped,       ///< 1 row, SapClampedParameters (limits, PD with effort limit).
  kBilateral,     ///< k rows, R and v̂ (welds, ball joints).
};

struct Constraint {
  ConstraintKind kind = ConstraintKind::kFrictionCone;
  int num_rows = 3;
  std::vector<ConstraintJacobianBlock> blocks;  ///< One or two trees.
  SapFrictionConeParameters cone;
  SapClampedParameters clamped;
  VectorX bilateral_R, bilateral_v_hat;

  /// Evaluates ℓ, γ and G at the constraint velocity vc.
  void Evaluate(const VectorX& vc, ConstraintEvaluation* out) const;
};

struct ContactProblem {
  double dt = 0;                    ///< δt [s].
  std::vector<int> tree_v_start;    ///< Per tree: first velocity index.
  std::vector<int> tree_nv;         ///< Per tree: number of velocities.
  std::vector<MatrixX> A;           ///< Per tree: SPD block of Eq. (15).
  VectorX v_star;                   ///< Free-motion velocities (all trees).
  std::vector<Constraint> constraints;

  int num_velocities() const { return static_cast<int>(v_star.size()); }
  int num_trees() const { return static_cast<int>(A.size()); }
  /// Total constraint rows.
  int num_rows() const;
};

}  // namespace stiction
