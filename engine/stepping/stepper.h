#pragma once
// The time-stepping schemes behind one call, as MuJoCo's mj_step chooses
// mj_Euler, mj_RungeKutta or mj_implicit: a Stepper advances (q0, v0) by one
// step and leaves what it found for the viewer and the CLI. Two siblings
// implement it (docs/architecture.md, "One step, top to bottom"):
//   ThetaMethodStepper  [SAP] Alg. 1: free motion, the convex contact
//                       problem of every constraint family, a contact solver;
//   NmdpStepper         the [NMDP] schemes: contact forces of the nonconvex
//                       maximal dissipation principle at contact points, no
//                       contact problem and no contact solver.
// Simulation owns one of each and steps the one its scheme names
// (StepperParameters::scheme); both read the same ConstraintSources.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/cartesian_impedance_constraints.h"
#include "engine/contact/constraint_history.h"
#include "engine/contact/contact_constraints.h"
#include "engine/contact/contact_problem.h"
#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/solver_settings.h"
#include "engine/solvers/contact_solver.h"
#include "engine/stepping/free_motion_history.h"
#include "engine/stepping/sleep_tracker.h"
#include "engine/stepping/step_result.h"

namespace stiction {

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

/// What a stepper carries from one step to the next (warm starts, the
/// carried loads) and what its last step reported (contacts, efforts), saved
/// by Simulation::SaveState so that a restored state steps exactly as it did
/// (the timeline, docs/viewer.md). Each stepper fills its own part.
struct StepperMemory {
  std::vector<ContactReport> reports;
  std::vector<double> actuator_efforts;
  std::vector<CartesianImpedanceEffort> cartesian_efforts;
  // ThetaMethodStepper: γ and slack of the last usable solve, and its solver.
  ConstraintHistory history;
  std::optional<SolverType> history_solver;
  // ThetaMethodStepper: which islands sleep (engine/stepping/sleep_tracker.h).
  SleepState sleep;
  // ThetaMethodStepper: stage 1's corrections of its first guess
  // (engine/stepping/free_motion_history.h).
  FreeMotionHistory free_motion;
  // NmdpStepper: the warm-start weights per contact key.
  std::unordered_map<std::uint64_t, Eigen::VectorXd> warm_weights;
};

class Stepper {
 public:
  virtual ~Stepper() = default;

  /// Advances (q0, v0) by one step of params.dt into (q, v) under the
  /// generalized forces tau_ext (may be null). Returns kSuccess or a
  /// failure status with a one-line *message; never throws, and on failure
  /// leaves what the last successful step reported.
  virtual StepStatus Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                          const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                          std::string* message) = 0;
  /// Forgets what carried over from the previous step (warm starts, the
  /// loads of the carried-load regularization), after a reset or a jump of
  /// the state.
  virtual void ClearHistory() = 0;
  /// A parameter was edited: sleeping islands wake (sleep_tracker.h).
  virtual void Wake() {}
  /// The energy the last step's contacts hold [J]
  /// (ConstraintHistory::ContactStoredEnergy); 0 for a scheme that keeps
  /// no contact ends.
  virtual double ContactStoredEnergy() const { return 0; }
  /// Copies what carries over and what the last step reported into *m.
  virtual void SaveMemory(StepperMemory* m) const {
    m->reports = reports_;
    m->actuator_efforts = actuator_efforts_;
    m->cartesian_efforts = cartesian_efforts_;
  }
  /// Makes the stepper as it was when `m` was saved (the problem and solver
  /// result of the last step are not restored: they are rebuilt each step).
  virtual void RestoreMemory(const StepperMemory& m) {
    reports_ = m.reports;
    actuator_efforts_ = m.actuator_efforts;
    cartesian_efforts_ = m.cartesian_efforts;
  }

  // What the last step left.
  /// The stage-2 problem (A, v*, constraints); no constraints for a scheme
  /// without a contact problem.
  const ContactProblem& problem() const { return problem_; }
  /// The contact solver's result (v, γ, statistics); empty without one.
  const SolverResult& solver_result() const { return solver_result_; }
  /// Per contact: where, its impulse and its state, in constraint order.
  const std::vector<ContactReport>& contacts() const { return reports_; }
  /// Per actuator: the generalized force it applied over the step [N m] or
  /// [N] (empty before the first step).
  const std::vector<double>& actuator_efforts() const { return actuator_efforts_; }
  /// Per Cartesian impedance controller: the force and torque it applied
  /// over the step (empty before the first step).
  const std::vector<CartesianImpedanceEffort>& cartesian_efforts() const { return cartesian_efforts_; }

 protected:
  ContactProblem problem_;
  SolverResult solver_result_;
  std::vector<ContactReport> reports_;
  std::vector<double> actuator_efforts_;
  std::vector<CartesianImpedanceEffort> cartesian_efforts_;
};

}  // namespace stiction
