#include "engine/contact/pd_actuator_constraints.h"

#include <cassert>
#include <cstdint>

namespace stiction {

void AddPdActuatorConstraints(const std::vector<JointActuator>& actuators, ConstraintAssembly* assembly,
                              std::vector<int>* constraint_of_actuator) {
  // With q = q0 + δt v (the end-of-step position SAP linearizes about) the
  // PD impulse over the step is
  //   γ = −δt (Kp (q0 + δt v − q_d) + Kd (v − v_d)) = −(v − v̂) / R,
  //   R = 1 / (δt (δt Kp + Kd)),  v̂ = (Kd v_d − Kp (q0 − q_d)) / (δt Kp + Kd),
  // a clamped row on the joint velocity with bounds ±δt·effort_limit: the
  // Huber cost of EvaluateClamped. Gains enter R (a convex cost), never an
  // explicit force, so arbitrarily stiff gains stay stable.
  const MultibodyModel& model = assembly->model();
  const double dt = assembly->dt();
  constraint_of_actuator->assign(actuators.size(), -1);
  for (std::size_t i = 0; i < actuators.size(); ++i) {
    const JointActuator& a = actuators[i];
    const Joint& j = model.joint(a.joint);
    assert(j.nv == 1);  // Revolute or prismatic: the facade refuses other joints.
    const int tree = model.body(j.child).tree;
    const Tree& t = model.tree(tree);
    if (t.nv == 0) continue;
    const double gain = dt * a.kp + a.kd;  // δt Kp + Kd > 0 (validated).
    (*constraint_of_actuator)[i] = assembly->num_constraints();
    Constraint& c = assembly->Append(1);
    c.kind = ConstraintKind::kClamped;
    c.num_rows = 1;
    c.blocks[0].tree = tree;
    c.blocks[0].J.setZero(1, t.nv);
    c.blocks[0].J(0, j.v_start - t.v_start) = 1.0;  // v_c = joint velocity.
    c.clamped.R = 1.0 / (dt * gain);
    c.clamped.v_hat = (a.kd * a.target_velocity - a.kp * (assembly->q0()[j.q_start] - a.target_position)) / gain;
    c.clamped.lower = -dt * a.effort_limit;
    c.clamped.upper = dt * a.effort_limit;
    c.origin = ConstraintOrigin::kActuator;
    c.key = MakeConstraintKey(ConstraintOrigin::kActuator, i, 0, 0);
  }
}

}  // namespace stiction
