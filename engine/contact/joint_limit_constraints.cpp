#include "engine/contact/joint_limit_constraints.h"

#include <cmath>
#include <cstdint>
#include <span>

#include "engine/contact/near_rigid.h"

namespace stiction {
namespace {

// The mass [kg] of the bodies a joint moves: its child and the child's
// descendants.
double SubtreeMass(const MultibodyModel& model, const Joint& joint) {
  double mass = 0;
  for (int b : model.Subtree(joint.child)) mass += model.body(b).mass;
  return mass;
}

// λ of the carried-load estimate (near_rigid.h, Eq. L1) for a limit row with
// Delassus value w that held the impulse of the previous step. A prismatic
// row is translational (ℓ = 1). A revolute row's impulse is an angular one;
// ℓ is the radius of gyration of the moving subtree about the axis,
// ℓ² = 1/(w m_sub), so that a pendulum resting on its limit under its own
// weight has λ = 1, as a body resting on the ground does.
double LimitLoadFactor(const MultibodyModel& model, const Joint& j, double w, std::uint64_t key,
                       const ContactModelParameters& params, const ConstraintAssembly& assembly) {
  const std::span<const double> previous = assembly.PreviousImpulse(key, 1);
  if (previous.empty() || !(previous[0] > 0)) return 1;
  const double length = j.type == JointType::kRevolute ? 1 / std::sqrt(w * SubtreeMass(model, j)) : 1.0;
  return assembly.LoadFactor(w, previous[0], length, params);
}

}  // namespace

void AddJointLimitConstraints(const ContactModelParameters& params, ConstraintAssembly* assembly) {
  const MultibodyModel& model = assembly->model();
  const ContactProblem& problem = assembly->problem();
  const double dt = assembly->dt();
  const double beta = params.near_rigid_threshold;
  for (const Joint& j : model.joints()) {
    if (j.type != JointType::kRevolute && j.type != JointType::kPrismatic) continue;
    const int tree = model.body(j.child).tree;
    const Tree& t = model.tree(tree);
    const int col = j.v_start - t.v_start;
    const double q = assembly->q0()[j.q_start];
    const double speed = std::abs(problem.v_star[j.v_start]);
    const double reach = assembly->margin() + 2 * dt * speed;
    for (int side = 0; side < 2; ++side) {
      const double limit = side == 0 ? j.lower_limit : j.upper_limit;
      if (!std::isfinite(limit)) continue;
      const double phi = side == 0 ? q - limit : limit - q;
      if (phi > reach) continue;
      const double sign = side == 0 ? 1.0 : -1.0;
      // The row's Delassus value: the joint's diagonal entry of A⁻¹.
      const double w = assembly->InverseDiagonal(tree, col);
      const double tau_d = NearRigidDissipationTime(beta, dt);
      const std::uint64_t key = MakeConstraintKey(ConstraintOrigin::kJointLimit,
                                                  static_cast<std::uint64_t>(&j - model.joints().data()),
                                                  static_cast<std::uint64_t>(side), 0);
      const double lambda = LimitLoadFactor(model, j, w, key, params, *assembly);
      Constraint& c = assembly->Append(1);
      c.kind = ConstraintKind::kClamped;
      c.num_rows = 1;
      c.blocks[0].tree = tree;
      c.blocks[0].J.setZero(1, t.nv);
      c.blocks[0].J(0, col) = sign;
      c.clamped.R = RigidConstraintRegularization(beta, w / lambda);
      c.clamped.v_hat = -phi / (dt + tau_d);
      c.clamped.lower = 0;
      c.origin = ConstraintOrigin::kJointLimit;
      c.phi0 = phi;
      c.key = key;
    }
  }
}

}  // namespace stiction
