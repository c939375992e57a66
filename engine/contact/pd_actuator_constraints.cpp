#include "engine/contact/pd_actuator_constraints.h"

#include <cassert>
#include <cstdint>

namespace stiction {

int AppendJointPdRow(ConstraintAssembly* assembly, int joint, double K, double D, double e0, double v_d,
                     double effort_limit, ConstraintOrigin origin, std::uint64_t key) {
  const MultibodyModel& model = assembly->model();
  const Joint& j = model.joint(joint);
  assert(j.nv == 1);  // Revolute or prismatic: callers refuse other joints.
  const int tree = model.body(j.child).tree;
  const Tree& t = model.tree(tree);
  if (t.nv == 0) return -1;
  const int index = assembly->num_constraints();
  Constraint& c = assembly->Append(1);
  c.kind = ConstraintKind::kClamped;
  c.num_rows = 1;
  c.blocks[0].tree = tree;
  c.blocks[0].J.setZero(1, t.nv);
  c.blocks[0].J(0, j.v_start - t.v_start) = 1.0;  // v_c = joint velocity.
  c.clamped = ImplicitPdRow(assembly->dt(), K, D, e0, v_d, effort_limit);
  c.origin = origin;
  c.key = key;
  return index;
}

void AddPdActuatorConstraints(const std::vector<JointActuator>& actuators, ConstraintAssembly* assembly,
                              std::vector<int>* constraint_of_actuator) {
  constraint_of_actuator->assign(actuators.size(), -1);
  for (std::size_t i = 0; i < actuators.size(); ++i) {
    const JointActuator& a = actuators[i];
    const MultibodyModel& model = assembly->model();
    const Joint& joint = model.joint(a.joint);
    // A tree without velocities (welded to the world) gets no row, and its
    // joint may have no position to read (a fixed joint: reading q_start was
    // a heap overflow ASan found).
    if (model.tree(model.body(joint.child).tree).nv == 0) continue;
    // δt Kp + Kd > 0 (validated by the facade).
    (*constraint_of_actuator)[i] = AppendJointPdRow(
        assembly, a.joint, a.kp, a.kd, assembly->q0()[joint.q_start] - a.target_position,
        a.target_velocity, a.effort_limit, ConstraintOrigin::kActuator,
        MakeConstraintKey(ConstraintOrigin::kActuator, i, 0, 0));
  }
}

}  // namespace stiction
