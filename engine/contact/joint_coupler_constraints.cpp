#include "engine/contact/joint_coupler_constraints.h"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <set>
#include <span>

#include "engine/contact/near_rigid.h"

namespace stiction {
namespace {

[[maybe_unused]] bool IsAxial(JointType type) { return type == JointType::kRevolute || type == JointType::kPrismatic; }

// ℓ [m] of the carried-load estimate (near_rigid.h, Eq. L1) for a coupler
// row with Delassus value w. The row's impulse is a generalized impulse on
// the follower b: a force for a prismatic b (ℓ = 1), an angular impulse for
// a revolute one, which acts at the radius of gyration of what the row
// moves, ℓ² = 1/(w m) with m the mass of both joints' subtrees (as a
// revolute joint limit takes its subtree's, joint_limit_constraints.cpp).
double CouplerLoadLength(const MultibodyModel& model, const JointCoupler& coupler, double w) {
  if (model.joint(coupler.joint).type != JointType::kRevolute) return 1.0;
  std::set<int> moved;
  for (int j : {coupler.joint, coupler.leader}) {
    for (int b : model.Subtree(model.joint(j).child)) moved.insert(b);
  }
  double mass = 0;
  for (int b : moved) mass += model.body(b).mass;
  return mass > 0 ? 1 / std::sqrt(w * mass) : 1.0;
}

}  // namespace

double CalcJointCouplerError(const MultibodyModel& model, const JointCoupler& coupler, const VectorX& q) {
  const double q_b = q[model.joint(coupler.joint).q_start];
  const double q_a = q[model.joint(coupler.leader).q_start];
  return q_b - coupler.ratio * q_a - coupler.offset;
}

void AddJointCouplerConstraints(const std::vector<JointCoupler>& couplers, const ContactModelParameters& params,
                                ConstraintAssembly* assembly) {
  // ġ = v_b − ρ v_a = J v: the row's impulse γ acts on b as +γ and on a as
  // −ργ (Jᵀγ), so that the pair exchanges no power beyond the constraint's
  // own: it is a gear train. With no physical compliance of its own the
  // row is near-rigid ([SAP] Sec. V-B), exactly as a weld row:
  //   R = β²/(4π²) w/λ,  τd = β δt/π,  v̂ = −g(q0)/(δt + τd),
  // w = J A⁻¹ Jᵀ exact (one row: no estimate needed), λ the carried-load
  // factor from the row's previous impulse.
  const MultibodyModel& model = assembly->model();
  const double beta = params.near_rigid_threshold;
  const double dt = assembly->dt();
  const double tau_d = NearRigidDissipationTime(beta, dt);
  for (const JointCoupler& coupler : couplers) {
    assert(IsAxial(model.joint(coupler.joint).type) && IsAxial(model.joint(coupler.leader).type));
    assert(coupler.joint != coupler.leader);
    const std::uint64_t index = static_cast<std::uint64_t>(&coupler - couplers.data());
    const Joint& b = model.joint(coupler.joint);
    const Joint& a = model.joint(coupler.leader);
    const int tree_b = model.body(b.child).tree;
    const int tree_a = model.body(a.child).tree;
    const int col_b = b.v_start - model.tree(tree_b).v_start;
    const int col_a = a.v_start - model.tree(tree_a).v_start;
    const bool same_tree = tree_a == tree_b;
    Constraint& c = assembly->Append(same_tree ? 1 : 2);
    c.kind = ConstraintKind::kBilateral;
    c.origin = ConstraintOrigin::kCoupler;
    c.num_rows = 1;
    c.blocks[0].tree = tree_b;
    c.blocks[0].J.setZero(1, model.tree(tree_b).nv);
    c.blocks[0].J(0, col_b) = 1;
    if (same_tree) {
      c.blocks[0].J(0, col_a) -= coupler.ratio;
    } else {
      c.blocks[1].tree = tree_a;
      c.blocks[1].J.setZero(1, model.tree(tree_a).nv);
      c.blocks[1].J(0, col_a) = -coupler.ratio;
    }
    const double w = assembly->RowDelassus(c);
    c.key = MakeConstraintKey(ConstraintOrigin::kCoupler, index, 0, 0);
    const std::span<const double> previous = assembly->PreviousImpulse(c.key, 1);
    const double load = previous.empty() ? 0.0 : std::abs(previous[0]);
    const double lambda = assembly->LoadFactor(w, load, CouplerLoadLength(model, coupler, w), params);
    c.bilateral.R.resize(1);
    c.bilateral.R[0] = RigidConstraintRegularization(beta, w / lambda);
    c.bilateral.v_hat.resize(1);
    c.bilateral.v_hat[0] = -CalcJointCouplerError(model, coupler, assembly->q0()) / (dt + tau_d);
  }
}

}  // namespace stiction
