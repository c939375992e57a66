#pragma once
// The θ-method stepper: one time step of [SAP] Alg. 1, as the named stages
// of ThetaMethodStepper::Step:
//   (kinematics at q0, v0: the explicit guess of stage 1, the contacts and J)
//   SolveFreeMotion      stage 1: v* from m(v*) = 0 (Eq. 13), per tree;
//   CalcLinearization    A = M + δt² θ θ_vq K + δt θ D (Eq. 15), per tree;
//   QueryContacts        the contact points at q0 (FCL);
//   BuildContactProblem  the constraints of every family at q0 (Eq. 7);
//   SolveContactProblem  A (v − v*) = Jᵀ γ (Eq. 18) by the chosen solver;
//   ReportResults        per-contact impulses and states, actuator efforts;
//   CalcPositionRecovery a pseudo-velocity that ends an impact no deeper
//                        than the contact problem predicted, and with split
//                        recovery removes overlaps (position_recovery.h).
//   UpdatePositions      q = q0 + δt N(q^θ) v^θvq (Eqs. 11–12), normalized.
// A step that fails is taken again in halves (solver.max_step_halvings).
// Its sibling for the NMDP schemes is NmdpStepper (stepper.h).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_history.h"
#include "engine/contact/constraint_sources.h"
#include "engine/contact/contact_problem.h"
#include "engine/contact/contact_problem_builder.h"
#include "engine/geometry/collision_world.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/speculative_margin_parameters.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/ncp_residual.h"
#include "engine/solvers/position_recovery.h"
#include "engine/stepping/sleep_tracker.h"
#include "engine/stepping/step_result.h"
#include "engine/stepping/stepper.h"
#include "engine/stepping/theta_method.h"

namespace stiction {

class ThetaMethodStepper : public Stepper {
 public:
  /// `collision` may be null (no contact) and `sources` null (no materials,
  /// actuators, welds or controllers); when given they must outlive the
  /// stepper, as must `model`.
  explicit ThetaMethodStepper(const MultibodyModel& model, CollisionWorld* collision = nullptr,
                              const ConstraintSources* sources = nullptr);
  ~ThetaMethodStepper() override;

  StepStatus Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                  const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                  std::string* message) override;
  /// Forgets the constraints' warm starts and carried loads, and wakes
  /// every sleeping island.
  void ClearHistory() override;
  void Wake() override { sleep_.WakeAll(); }
  double ContactStoredEnergy() const override { return history_.ContactStoredEnergy(); }
  /// Which islands sleep (solver.sleep).
  const SleepTracker& sleep() const { return sleep_; }
  void SaveMemory(StepperMemory* m) const override;
  void RestoreMemory(const StepperMemory& m) override;

 private:
  // One step of params.dt (the stages below); Step falls back to
  // StepInHalves when it fails.
  StepStatus StepOnce(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                      const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats, std::string* message);
  // params.dt as two steps of params.dt/2, each halved again where it fails
  // while depth < solver.max_step_halvings; *total sums their statistics.
  StepStatus StepInHalves(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                          const VectorX* tau_ext, int depth, VectorX* q, VectorX* v, StepStats* total,
                          std::string* message);
  // The stages of StepOnce, in order (see the file comment). A stage that can
  // fail returns its status and sets *message.
  StepStatus SolveFreeMotion(const ThetaParameters& theta, const VectorX& q0, const VectorX& v0,
                             const VectorX* tau_ext, StepStats* stats, std::string* message);
  void CalcLinearization(const ThetaParameters& theta);
  void QueryContacts(const SpeculativeMarginParameters& margin);
  void BuildContactProblem(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                           StepStats* stats);
  StepStatus SolveContactProblem(const StepperParameters& params, const VectorX& v0, VectorX* v, StepStats* stats,
                                 std::string* message);
  void ReportResults(const StepperParameters& params, const VectorX& v, StepStats* stats);
  // ReportResults' parts: each contact's velocity, impulse and cone region;
  // the actuators' and Cartesian controllers' efforts (γ/δt of their rows).
  void ReportContacts(const StepperParameters& params, const VectorX& v);
  void ReportEfforts();
  // StepStats' work of τ_ext and of the actuator and Cartesian rows.
  void MeterWork(const VectorX& v0, const VectorX& v, const VectorX* tau_ext, StepStats* stats);
  // With split recovery (SolverTypeInfo::position_recovery), the
  // pseudo-velocity that removes overlaps in positions (position_recovery.h)
  // into pseudo_v_, and its figures into *stats; false without it.
  bool CalcPositionRecovery(const StepperParameters& params, const ThetaParameters& theta, const VectorX& v0,
                            const VectorX& v, StepStats* stats);
  // q from (q0, v0, v), plus δt N pseudo_v when given.
  StepStatus UpdatePositions(const ThetaParameters& theta, const VectorX& q0, const VectorX& v0, const VectorX& v,
                             const VectorX* pseudo_v, VectorX* q, std::string* message);
  // Speculative margin [m]: pairs that can touch within the step.
  // With body_extents, each body's own extent bounds its surface speed
  // (solver.speculative_body_extents); else 0.1 m.
  double CalcSpeculativeMargin(double dt, bool body_extents) const;
  // The sleeping islands' frozen contacts appended to the step's reports.
  void AddSleepingContacts();
  // Sleeping trees keep v = 0 and, with q, their start-of-step positions.
  void FreezeSleepers(const VectorX& q0, VectorX* q, VectorX* v) const;

  const MultibodyModel& model_;
  CollisionWorld* collision_;
  const ConstraintSources no_sources_;  // What sources_ points at when none are given.
  const ConstraintSources& sources_;
  ThetaMethod theta_method_;
  ContactProblemBuilder builder_;
  std::unique_ptr<ContactSolver> solver_;
  ConstraintHistory history_;  // γ and z of the last usable solve, by key.
  SleepTracker sleep_;         // Which islands sleep (solver.sleep).
  VectorX resolve_guess_;      // A sudden-load re-solve starts from the solve before it.
  std::optional<SolverType> history_solver_;  // The solver that wrote history_.
  // Stage 1's first-guess corrections, carried across steps; a copy from
  // the start of the step, which every retry of it starts from.
  FreeMotionHistory free_motion_history_, free_motion_before_;
  KinematicsCache cache_;     // Mid-step kinematics (stage 1 scratch).
  KinematicsCache cache_q0_;  // Start-of-step kinematics (contact query, J).
  VectorX K_, D_;  // Joint stiffness and damping diagonals (constant).
  double margin_ = 0;  // Speculative margin of the step [m].
  // Per body: the radius about its centre of mass of a sphere holding its
  // collision geometry [m]; −1 for a body without any (it never touches).
  std::vector<double> body_extent_;
  std::vector<ContactPoint> contact_points_;
  NcpResidual ncp_residual_;  ///< Scratch of StepStats::ncp_residual.
  PositionRecovery position_recovery_;  // Split recovery's correction solve.
  VectorX pseudo_v_;                    // Its pseudo-velocity.
  VectorX q_theta_;
  VectorX energy_scratch_;  // Jᵀγ of an iterate short of convergence (CreatedEnergy).
  double energy_tolerance_ = 0;  // [J] What such an iterate may create per step.
  bool stage1_failed_ = false;   // The last StepOnce failed in stage 1 (not in the contact solve).
};

}  // namespace stiction
