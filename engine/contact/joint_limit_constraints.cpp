#include "engine/contact/joint_limit_constraints.h"

#include <cmath>
#include <cstdint>

#include "engine/contact/near_rigid.h"

namespace stiction {

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
      const double w = assembly->InverseA(tree)(col, col);
      const double tau_d = NearRigidDissipationTime(beta, dt);
      Constraint& c = assembly->Append(1);
      c.kind = ConstraintKind::kClamped;
      c.num_rows = 1;
      c.blocks[0].tree = tree;
      c.blocks[0].J.setZero(1, t.nv);
      c.blocks[0].J(0, col) = sign;
      c.clamped.R = RigidConstraintRegularization(beta, w);
      c.clamped.v_hat = -phi / (dt + tau_d);
      c.clamped.lower = 0;
      c.origin = ConstraintOrigin::kJointLimit;
      c.phi0 = phi;
      c.key = MakeConstraintKey(ConstraintOrigin::kJointLimit,
                                static_cast<std::uint64_t>(&j - model.joints().data()),
                                static_cast<std::uint64_t>(side), 0);
    }
  }
}

}  // namespace stiction
