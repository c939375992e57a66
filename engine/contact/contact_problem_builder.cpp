#include "engine/contact/contact_problem_builder.h"

#include "engine/contact/joint_limit_constraints.h"

namespace stiction {

ContactProblemBuilder::ContactProblemBuilder(const MultibodyModel& model, GeometryMaterials materials)
    : assembly_(model), materials_(std::move(materials)) {}

void ContactProblemBuilder::Build(const KinematicsCache& cache_q0, const VectorX& q0, const VectorX& v0,
                                  const std::vector<ContactPoint>& contacts, const ContactModelParameters& params,
                                  double margin, const ConstraintHistory* history, ContactProblem* problem,
                                  std::vector<ContactReport>* reports) {
  reports->clear();
  assembly_.Begin(cache_q0, q0, v0, margin, history, problem);
  AddContactConstraints(contacts, materials_, params, &assembly_, reports);
  AddJointLimitConstraints(params, &assembly_);
  AddPdActuatorConstraints(actuators_, &assembly_, &actuator_constraints_);
  AddCartesianImpedanceConstraints(cartesian_impedances_, &assembly_, &cartesian_constraints_, &cartesian_rows_);
  AddWeldConstraints(body_constraints_, params, &assembly_);
}

}  // namespace stiction
