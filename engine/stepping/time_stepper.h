#pragma once
// One time step of [SAP] Alg. 1, as the named stages of TimeStepper::Step:
//   SolveFreeMotion      stage 1: v* from m(v*) = 0 (Eq. 13), per tree;
//   CalcLinearization    A = M + δt² θ θ_vq K + δt θ D (Eq. 15), per tree;
//   QueryContacts        kinematics at q0 and the contact points (FCL);
//   BuildContactProblem  the constraints of every family at q0 (Eq. 7);
//   SolveContactProblem  A (v − v*) = Jᵀ γ (Eq. 18) by the chosen solver;
//   ReportResults        per-contact impulses and states, actuator efforts;
//   UpdatePositions      q = q0 + δt N(q^θ) v^θvq (Eqs. 11–12), normalized.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_history.h"
#include "engine/contact/contact_problem.h"
#include "engine/contact/contact_problem_builder.h"
#include "engine/geometry/collision_world.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/solver_settings.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/ncp_residual.h"
#include "engine/stepping/step_result.h"
#include "engine/stepping/theta_method.h"

namespace stiction {

class NmdpStepper;  // engine/stepping/nmdp_stepper.h

/// Everything a step reads that may change between steps (the facade keeps
/// the one live copy).
struct StepperParameters {
  double dt = 0.01;  ///< δt [s], > 0.
  IntegratorSettings integrator;   ///< θ, θ_vq of Eq. (6).
  ContactModelParameters contact;  ///< β, σ and the scene's contact model.
  SolverSettings solver;           ///< Which contact solver, and every solver's parameters.
  /// The time-stepping scheme: the θ-method with `solver`, or an NMDP
  /// scheme with `nmdp` (docs/nmdp.md), which ignores `integrator` and `solver`.
  SteppingScheme scheme = SteppingScheme::kThetaMethod;
  NmdpParameters nmdp;
};

class TimeStepper {
 public:
  /// `collision` may be null (no contact); when given it must outlive the
  /// stepper, as must `model`.
  TimeStepper(const MultibodyModel& model, CollisionWorld* collision = nullptr,
              GeometryMaterials materials = {});
  ~TimeStepper();

  /// Advances (q0, v0) by one step into (q, v) under the generalized forces
  /// tau_ext (may be null). Returns kSuccess or a failure status with a
  /// one-line message; never throws.
  StepStatus Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                  const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                  std::string* message);

  /// Forgets what the constraints carried in the previous step (warm starts
  /// and the loads of the carried-load regularization), after a reset.
  void ClearConstraintHistory();
  /// The stage-2 problem of the last step (A, v*, constraints).
  const ContactProblem& problem() const { return problem_; }
  /// Per-contact results of the last step, in constraint order.
  const std::vector<ContactReport>& contacts() const { return reports_; }
  /// Solver result of the last step (v, γ, statistics).
  const SolverResult& solver_result() const { return solver_result_; }
  GeometryMaterials& materials() { return builder_.materials(); }
  /// PD actuators and weld/ball constraints added to every step's problem.
  std::vector<JointActuator>& actuators() { return builder_.actuators(); }
  std::vector<BodyConstraint>& body_constraints() { return builder_.body_constraints(); }
  /// Cartesian impedance controllers added to every step's problem.
  std::vector<CartesianImpedance>& cartesian_impedances() { return builder_.cartesian_impedances(); }
  /// Per actuator: the generalized force it applied over the last step,
  /// γ/δt [N m] or [N] (empty before the first step).
  const std::vector<double>& actuator_efforts() const { return actuator_efforts_; }
  /// Per Cartesian impedance controller: the force and torque it applied
  /// over the last step (empty before the first step).
  const std::vector<CartesianImpedanceEffort>& cartesian_efforts() const { return cartesian_efforts_; }

 private:
  // The stages of Step, in order (see the file comment). A stage that can
  // fail returns its status and sets *message.
  StepStatus SolveFreeMotion(const ThetaParameters& theta, const VectorX& q0, const VectorX& v0,
                             const VectorX* tau_ext, StepStats* stats, std::string* message);
  void CalcLinearization(const ThetaParameters& theta);
  void QueryContacts(const VectorX& q0, const VectorX& v0);
  void BuildContactProblem(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                           StepStats* stats);
  StepStatus SolveContactProblem(const StepperParameters& params, const VectorX& v0, VectorX* v, StepStats* stats,
                                 std::string* message);
  void ReportResults(const StepperParameters& params, const VectorX& v, StepStats* stats);
  StepStatus UpdatePositions(const ThetaParameters& theta, const VectorX& q0, const VectorX& v0, const VectorX& v,
                             VectorX* q, std::string* message);
  // The step of an NMDP scheme (params.scheme, docs/nmdp.md) instead of
  // the stages above: its own contact forces, no contact problem.
  StepStatus StepNmdp(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                      const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats, std::string* message);
  // Speculative margin [m]: pairs that can touch within the step.
  double CalcSpeculativeMargin(double dt) const;

  const MultibodyModel& model_;
  CollisionWorld* collision_;
  ThetaMethod theta_method_;
  ContactProblemBuilder builder_;
  std::unique_ptr<ContactSolver> solver_;
  ConstraintHistory history_;  // γ and z of the last usable solve, by key.
  std::optional<SolverType> history_solver_;  // The solver that wrote history_.
  KinematicsCache cache_;     // Mid-step kinematics (stage 1 scratch).
  KinematicsCache cache_q0_;  // Start-of-step kinematics (contact query, J).
  VectorX K_, D_;  // Joint stiffness and damping diagonals (constant).
  ContactProblem problem_;
  double margin_ = 0;  // Speculative margin of the step [m].
  std::vector<ContactPoint> contact_points_;
  std::vector<ContactReport> reports_;
  std::vector<double> actuator_efforts_;
  std::vector<CartesianImpedanceEffort> cartesian_efforts_;
  SolverResult solver_result_;
  NcpResidual ncp_residual_;  ///< Scratch of StepStats::ncp_residual.
  VectorX q_theta_;
  std::unique_ptr<NmdpStepper> nmdp_;  // The NMDP schemes' stepper and warm start.
};

}  // namespace stiction
