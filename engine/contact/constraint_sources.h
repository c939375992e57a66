#pragma once
// What a simulation acts on its bodies with besides gravity and joint
// springs, and the contact materials: compiled from the scene
// (engine/scene_compiler.h), edited between steps through the facade's
// setters (gains, targets, controllers, materials), and read by every
// stepping scheme — the θ-method's contact problem turns each into
// constraints (ContactProblemBuilder), the NMDP schemes take the materials
// and the PD actuators (and refuse the rest). One owner (Simulation), so
// that switching schemes keeps every edit.
#include <vector>

#include "engine/contact/cartesian_impedance_constraints.h"
#include "engine/contact/contact_constraints.h"
#include "engine/contact/joint_coupler_constraints.h"
#include "engine/contact/pd_actuator_constraints.h"
#include "engine/contact/tendon_constraints.h"
#include "engine/contact/weld_constraints.h"

namespace stiction {

struct ConstraintSources {
  /// The scene's materials and each collision geometry's.
  GeometryMaterials materials;
  /// Implicit PD controllers on revolute and prismatic joints ([SAP] Sec. VII).
  std::vector<JointActuator> actuators;
  /// Weld and ball constraints between two bodies (or a body and the world).
  std::vector<BodyConstraint> body_constraints;
  /// Holonomic couplings q_b = ρ q_a + Δ of two revolute or prismatic joints.
  std::vector<JointCoupler> joint_couplers;
  /// Limits and equalities on fixed tendons' lengths Σ c_i q_i.
  std::vector<TendonConstraint> tendons;
  /// PD servos on fixed tendons' lengths.
  std::vector<TendonServo> tendon_servos;
  /// Task-space impedance controllers (the arm gripper's is controller 0).
  std::vector<CartesianImpedance> cartesian_impedances;
};

}  // namespace stiction
