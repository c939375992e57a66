#pragma once
// The solver-agnostic contact problem of stage 2 ([SAP] Eq. 18 and
// Sec. III): minimize over v the cost ½‖v − v*‖²_A + Σ_i ℓ_i(J_i v). It knows
// no solver; SAP, CANAL and SubADMM consume it. Each constraint is one of
// the families of this folder (a tagged union, so that the solvers' loops
// dispatch without virtual calls and storage is recycled across steps).
#include <cstdint>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/bilateral_constraint.h"
#include "engine/contact/clamped_constraint.h"
#include "engine/contact/constraint_evaluation.h"
#include "engine/contact/friction_cone_constraint.h"
#include "engine/contact/hunt_crossley_constraint.h"

namespace stiction {

/// The non-zero block of a constraint's Jacobian on one tree.
struct ConstraintJacobianBlock {
  int tree = -1;
  MatrixX J;  ///< rows × nv_tree: v_c = Σ_blocks J · v_tree.
};

/// The cost function a constraint evaluates (which parameters it uses).
enum class ConstraintKind {
  kFrictionCone,  ///< 3 rows, SapFrictionConeParameters.
  kClamped,       ///< 1 row, SapClampedParameters (limits, PD with effort limit).
  kBilateral,     ///< k rows, SapBilateralParameters (welds, ball joints, joint couplers).
  kHuntCrossley,  ///< 3 rows, HuntCrossleyParameters (Lagged or Similar contact).
};

/// What a constraint models, for solvers that treat the physics differently
/// (CANAL and SubADMM solve contacts and joint limits as hard constraints of
/// the exact NCP and use phi0/mu below instead of SAP's regularization).
enum class ConstraintOrigin {
  kContact,     ///< Rows [t1, t2, n] of a contact point.
  kJointLimit,  ///< One unilateral row: joint velocity towards the free side.
  kActuator,    ///< One PD row with effort limits (a soft constraint).
  kWeld,        ///< Weld or ball rows (bilateral).
  kCartesian,   ///< One Cartesian-impedance or posture PD row (soft, like kActuator).
  kCoupler,     ///< One joint-coupler row q_b − ρ q_a − Δ (bilateral, like kWeld).
  kTendon,      ///< One tendon row on Σ c_i q_i: a limit (unilateral) or an equality (bilateral).
};

struct Constraint {
  ConstraintKind kind = ConstraintKind::kFrictionCone;
  int num_rows = 3;
  std::vector<ConstraintJacobianBlock> blocks;  ///< One or two trees.
  SapFrictionConeParameters cone;
  SapClampedParameters clamped;
  HuntCrossleyParameters hc;
  SapBilateralParameters bilateral;

  ConstraintOrigin origin = ConstraintOrigin::kContact;
  /// Contacts: signed distance φ0 at the step start [m] (< 0 overlapping);
  /// joint limits: the gap q − q_lower or q_upper − q [m or rad] (≥ 0 when
  /// within limits). Unused otherwise.
  double phi0 = 0;
  /// Contacts: the combined friction coefficient μ of the pair.
  double mu = 0;
  /// Contacts: a pressure-field polygon (contact_surface.h), whose overlap
  /// is the compliant contact's deformation rather than an error. The
  /// exact-NCP solvers keep its compliant cost (ncp_constraints.h) instead
  /// of making it rigid.
  bool compliant = false;
  /// Identity of the constraint across steps, for warm starts: contacts
  /// hash the geometry pair and the point's index within its manifold;
  /// other constraints their origin and index. Equal keys on consecutive
  /// steps mean "probably the same constraint", never more.
  std::uint64_t key = 0;
  /// Values carried from the previous step's solve for this key (impulse γ
  /// and, for augmented-Lagrangian solvers, the slack z, one entry per row),
  /// filled before the solve for solvers that warm start
  /// (engine/solvers/constraint_warm_start.h); empty when there are none.
  VectorX warm_gamma, warm_slack;
  /// Contacts under the carried-load estimate (near_rigid.h): the Delassus
  /// estimate w [s/kg] and the λ their parameters were made with, and the
  /// index of the first constraint of their manifold (−1: no estimate).
  /// Read after the solve to see whether the load jumped (sudden loads).
  double load_w = 0;
  double load_factor = 1;
  int load_group = -1;

  /// Evaluates ℓ, γ and G at the constraint velocity vc (any contiguous
  /// segment, no temporary).
  void Evaluate(Eigen::Ref<const VectorX> vc, ConstraintEvaluation* out) const;
};

/// Constraint identity for warm starts (see Constraint::key): the top byte
/// is the origin, the rest the geometry pair and point index (contacts) or
/// the index of the limit, actuator or body constraint.
std::uint64_t MakeConstraintKey(ConstraintOrigin origin, std::uint64_t a, std::uint64_t b, std::uint64_t c);

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
  /// Row `row` of constraint `c`'s Jacobian times the velocities `v` (every
  /// tree's, in the problem's order); for a contact, row 2 is its normal
  /// velocity, positive when separating [m/s].
  double RowVelocity(const Constraint& c, int row, const VectorX& v) const {
    double value = 0;
    for (const ConstraintJacobianBlock& b : c.blocks) {
      value += b.J.row(row).dot(v.segment(tree_v_start[b.tree], tree_nv[b.tree]));
    }
    return value;
  }
};

}  // namespace stiction
