#include "engine/contact/contact_problem_builder.h"

#include "engine/contact/joint_limit_constraints.h"

namespace stiction {

ContactProblemBuilder::ContactProblemBuilder(const MultibodyModel& model) : assembly_(model) {}

void ContactProblemBuilder::Build(const KinematicsCache& cache_q0, const VectorX& q0, const VectorX& v0,
                                  const std::vector<ContactPoint>& contacts, const ConstraintSources& sources,
                                  const ContactModelParameters& params, double margin,
                                  const ConstraintHistory* history, ContactProblem* problem,
                                  std::vector<ContactReport>* reports) {
  reports->clear();
  assembly_.Begin(cache_q0, q0, v0, margin, history, problem);
  AddContactConstraints(contacts, sources.materials, params, &assembly_, reports);
  AddJointLimitConstraints(params, &assembly_);
  AddPdActuatorConstraints(sources.actuators, &assembly_, &actuator_constraints_);
  AddCartesianImpedanceConstraints(sources.cartesian_impedances, &assembly_, &cartesian_constraints_,
                                   &cartesian_rows_);
  AddWeldConstraints(sources.body_constraints, params, &assembly_);
  // Last, so that a scene without couplers builds the problem it built
  // before they existed, constraint for constraint.
  AddJointCouplerConstraints(sources.joint_couplers, params, &assembly_);
  AddTendonConstraints(sources.tendons, params, &assembly_);
  AddTendonServoConstraints(sources.tendon_servos, &assembly_);
}

}  // namespace stiction
