#pragma once
// One time step of [SAP] Alg. 1, top to bottom:
//   stage 1: free-motion velocities v* from m(v*) = 0 (Eq. 13), per tree;
//   stage 2: the linearized balance of momentum A (v − v*) = Jᵀ γ (Eq. 18)
//            with A = M + δt² θ θ_vq K + δt θ D (Eq. 15): contact query at
//            q0, the contact problem, and the contact solver (SAP);
//   update:  q = q0 + δt N(q^θ) v^θvq (Eqs. 11–12), quaternions normalized.
#include <memory>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/contact/contact_problem_builder.h"
#include "engine/geometry/collision_world.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/simulation.h"
#include "engine/solvers/solver_factory.h"
#include "engine/stepping/theta_method.h"

namespace stiction {

struct StepperParameters {
  double dt = 0.01;  ///< δt [s].
  ThetaParameters theta;
  ContactModelParameters contact;
  SolverSettings solver;  ///< Which contact solver, and its parameters.
};

class TimeStepper {
 public:
  /// `collision` may be null (no contact); when given it must outlive the
  /// stepper. `materials[g]` is the contact material of collision geometry g.
  TimeStepper(const MultibodyModel& model, CollisionWorld* collision = nullptr,
              std::vector<ContactMaterial> materials = {});

  /// Advances (q0, v0) by one step into (q, v) under the generalized forces
  /// tau_ext (may be null). Returns kSuccess or a failure status with a
  /// one-line message; never throws.
  StepStatus Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                  const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                  std::string* message);

  /// Forgets the contact solver's warm-start state (after a reset).
  void ClearSolverWarmStart() {
    if (solver_ != nullptr) solver_->ClearWarmStart();
  }
  /// The stage-2 problem of the last step (A, v*, constraints).
  const ContactProblem& problem() const { return problem_; }
  /// Per-contact results of the last step, in constraint order.
  const std::vector<ContactReport>& contacts() const { return reports_; }
  /// Solver result of the last step (v, γ, statistics).
  const SolverResult& solver_result() const { return solver_result_; }
  std::vector<ContactMaterial>& materials() { return builder_.materials(); }
  /// PD actuators and weld/ball constraints added to every step's problem.
  std::vector<JointActuator>& actuators() { return builder_.actuators(); }
  std::vector<BodyConstraint>& body_constraints() { return builder_.body_constraints(); }
  /// Per actuator: the generalized force it applied over the last step,
  /// γ/δt [N m] or [N] (empty before the first step).
  const std::vector<double>& actuator_efforts() const { return actuator_efforts_; }

 private:
  double CalcSpeculativeMargin(double dt) const;

  const MultibodyModel& model_;
  CollisionWorld* collision_;
  ThetaMethod theta_method_;
  ContactProblemBuilder builder_;
  std::unique_ptr<ContactSolver> solver_;
  KinematicsCache cache_;     // Mid-step kinematics (stage 1 scratch).
  KinematicsCache cache_q0_;  // Start-of-step kinematics (contact query, J).
  VectorX K_, D_;  // Joint stiffness and damping diagonals (constant).
  ContactProblem problem_;
  std::vector<ContactPoint> contact_points_;
  std::vector<ContactReport> reports_;
  std::vector<double> actuator_efforts_;
  SolverResult solver_result_;
  MatrixX M_t_;
  VectorX q_theta_;
};

}  // namespace stiction
