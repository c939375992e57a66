#include "engine/contact/pd_actuator_constraints.h"

#include <cassert>
#include <cstdint>

namespace stiction {

void AddPdActuatorConstraints(const std::vector<JointActuator>& actuators, ConstraintAssembly* assembly,
                              std::vector<int>* constraint_of_actuator) {
  // A clamped row on the joint velocity with the PD law of ImplicitPdRow
  // (clamped_constraint.h), the error being q0 − q_d.
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
    (*constraint_of_actuator)[i] = assembly->num_constraints();
    Constraint& c = assembly->Append(1);
    c.kind = ConstraintKind::kClamped;
    c.num_rows = 1;
    c.blocks[0].tree = tree;
    c.blocks[0].J.setZero(1, t.nv);
    c.blocks[0].J(0, j.v_start - t.v_start) = 1.0;  // v_c = joint velocity.
    // δt Kp + Kd > 0 (validated by the facade).
    c.clamped = ImplicitPdRow(dt, a.kp, a.kd, assembly->q0()[j.q_start] - a.target_position, a.target_velocity,
                              a.effort_limit);
    c.origin = ConstraintOrigin::kActuator;
    c.key = MakeConstraintKey(ConstraintOrigin::kActuator, i, 0, 0);
  }
}

}  // namespace stiction
