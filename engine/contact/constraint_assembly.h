#pragma once
// What every constraint family needs to add its rows to a step's problem:
// the kinematics at q0 (J is evaluated there, [SAP] Eq. 7), A_t⁻¹ per tree
// for the O(n) Delassus estimates of [SAP] Sec. V-B, the impulses of the
// previous step for the carried-load estimate (near_rigid.h), and constraint storage
// recycled from the previous step so that building allocates nothing in
// steady state. One object lives as long as the stepper; Begin() starts each
// step's problem. The families (contact_constraints.h, joint_limit_…,
// pd_actuator_…, weld_constraints.h) use it; none knows another.
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Cholesky>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_history.h"
#include "engine/contact/contact_problem.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/multibody/tree_cholesky.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

class ConstraintAssembly {
 public:
  /// `model` must outlive the assembly.
  explicit ConstraintAssembly(const MultibodyModel& model);

  /// Starts the constraints of `problem`, whose dt, trees, A and v* are set:
  /// its previous constraints go to the storage pool. `cache_q0` holds the
  /// kinematics at q0; it, q0, v0 and *problem must outlive the families'
  /// calls. margin [m]: how far apart pairs and limits are still included
  /// (speculative constraints). `history` (may be null: every constraint
  /// is new) holds what each constraint carried in the previous step and
  /// must outlive the families' calls.
  void Begin(const KinematicsCache& cache_q0, const VectorX& q0, const VectorX& v0, double margin,
             const ConstraintHistory* history, ContactProblem* problem);

  const MultibodyModel& model() const { return model_; }
  const KinematicsCache& kinematics() const { return *cache_; }
  const VectorX& q0() const { return *q0_; }
  const VectorX& v0() const { return *v0_; }
  double margin() const { return margin_; }
  double dt() const { return problem_->dt; }
  const ContactProblem& problem() const { return *problem_; }
  int num_constraints() const { return static_cast<int>(problem_->constraints.size()); }
  /// Constraint i of this step's problem (valid until the next Append).
  Constraint& constraint(int i) { return problem_->constraints[static_cast<std::size_t>(i)]; }
  /// The impulse the constraint `key` with `rows` rows carried in the
  /// previous step; empty when it is new (or there is no history).
  std::span<const double> PreviousImpulse(std::uint64_t key, int rows) const {
    return history_ != nullptr ? history_->Impulse(key, rows) : std::span<const double>();
  }
  /// What the previous step's solve left of the contact constraint `key`
  /// (ConstraintHistory::PreviousContactEnd); NaN when it is new.
  ContactEnd PreviousContactEnd(std::uint64_t key) const {
    return history_ != nullptr ? history_->PreviousContactEnd(key) : ContactEnd{};
  }
  /// The time step [s] over which the previous impulses acted.
  double previous_dt() const { return history_ != nullptr ? history_->dt() : 0.0; }
  /// The unclamped λ of the carried-load estimate (near_rigid.h, Eq. L1),
  /// w γ ℓ/(a δt), for a row with Delassus estimate w that carried
  /// `impulse` (≤ 0 counts as none) over the previous step δt, with ℓ =
  /// `length` (1 for translational rows) and a the model's |g| (standard
  /// gravity when it has none). 0 without a previous step.
  double RawLoadFactor(double w, double impulse, double length) const;
  /// a of Eq. (L1): the model's |g|, standard gravity when it has none [m/s²].
  double LoadReferenceAcceleration() const;
  /// λ itself: RawLoadFactor clamped by ClampLoadFactor (near_rigid.h).
  double LoadFactor(double w, double impulse, double length, const ContactModelParameters& params) const;

  /// The tree of `body` when that tree has velocities; −1 for the world and
  /// for welded trees (nothing to solve for them).
  int MovingTree(int body) const;
  /// Appends a constraint with `num_blocks` Jacobian blocks, reusing the
  /// storage of a recycled one: the blocks' tree and J hold stale values
  /// (a family sets both in full); every other field has its default.
  Constraint& Append(int num_blocks);
  /// Removes the constraint Append returned last (its storage goes back to
  /// the pool), for a family that finds it can act on nothing.
  void DropLast();
  /// A_t⁻¹, formed on demand once per tree and step (fixed-size LLT for
  /// 6-DOF trees, from FactorA otherwise).
  const MatrixX& InverseA(int tree);
  /// A_t = Lᵀ L with the tree's sparsity (tree_cholesky.h), factored on
  /// demand once per tree and step.
  const TreeCholesky& FactorA(int tree);
  /// x ← A_t⁻¹ x for tree t of the problem being (or last) built, with the
  /// 6 × 6 inverse or the factor the assembly keeps (formed if not yet).
  void SolveA(int tree, Eigen::Ref<VectorX> x);
  /// W += J A_t⁻¹ Jᵀ for a 3-row block (fixed-size kernels for 6 columns,
  /// the tree's factor along the branch J touches otherwise).
  void AddDelassusBlock(const ConstraintJacobianBlock& b, Matrix3* W);
  /// (A_t⁻¹)_kk: the Delassus value of a row on velocity k of `tree` alone
  /// (a joint limit's).
  double InverseDiagonal(int tree, int k);
  /// The exact Delassus value w = Σ_blocks J A⁻¹ Jᵀ of a one-row constraint
  /// (a joint coupler's or a tendon's row).
  double RowDelassus(const Constraint& c);
  /// The frame Jacobian (6 × nv_tree, [ω; v of the point]) of `body`'s tree
  /// at the world point p_W; valid until the next call.
  const Matrix6X& TreeJacobian(int body, const Vector3& p_W);
  /// Appends a constraint on the velocity of body B relative to body A:
  /// one Jacobian block per moving tree, B's first, or a single block
  /// J_B − J_A when both bodies lie on one tree (self-contact, a weld across
  /// one tree). `jacobian(body, sign, J)` writes `sign` times the body's
  /// rows into *J (sign +1 for B, −1 for A); the constraint's other fields
  /// have their defaults. Returns null, appending nothing, when neither
  /// body moves.
  template <typename Jacobian>
  Constraint* AppendRelative(int body_a, int body_b, Jacobian&& jacobian);

 private:
  const MultibodyModel& model_;
  const KinematicsCache* cache_ = nullptr;
  const VectorX* q0_ = nullptr;
  const VectorX* v0_ = nullptr;
  double margin_ = 0;
  const ConstraintHistory* history_ = nullptr;
  ContactProblem* problem_ = nullptr;
  std::vector<MatrixX> A_inverse_;
  std::vector<bool> A_inverse_valid_;
  std::vector<Constraint> pool_;  // Recycled constraints.
  Matrix6X jacobian_;             // Scratch: a tree frame Jacobian.
  std::vector<TreeCholesky> A_factor_;  // Per tree: A = LᵀL, when asked for.
  std::vector<bool> A_factor_valid_;
  MatrixX same_tree_;             // Scratch: A's block within B's tree (AppendRelative).
};

template <typename Jacobian>
Constraint* ConstraintAssembly::AppendRelative(int body_a, int body_b, Jacobian&& jacobian) {
  const int tree_a = MovingTree(body_a);
  const int tree_b = MovingTree(body_b);
  if (tree_a < 0 && tree_b < 0) return nullptr;  // Two welded bodies: nothing to solve.
  const bool same_tree = tree_a >= 0 && tree_a == tree_b;
  Constraint& c = Append(same_tree ? 1 : static_cast<int>(tree_a >= 0) + static_cast<int>(tree_b >= 0));
  int block = 0;
  if (tree_b >= 0) {
    c.blocks[block].tree = tree_b;
    jacobian(body_b, 1.0, &c.blocks[block].J);
    ++block;
  }
  if (tree_a >= 0) {
    if (same_tree) {  // Reused, so that it allocates only while it grows.
      jacobian(body_a, -1.0, &same_tree_);
      c.blocks[0].J += same_tree_;
    } else {
      c.blocks[block].tree = tree_a;
      jacobian(body_a, -1.0, &c.blocks[block].J);
    }
  }
  return &c;
}

}  // namespace stiction
