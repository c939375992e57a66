#pragma once
// The facade the app and the CLI use: load a scene, step, reset, read state.
// Everything behind it (model, stepping, solvers) can change without touching
// its users.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/cartesian_impedance_constraints.h"
#include "engine/contact/constraint_sources.h"
#include "engine/contact/contact_constraints.h"
#include "engine/contact/contact_problem.h"
#include "engine/contact/pd_actuator_constraints.h"
#include "engine/multibody/gravity_compensation.h"
#include "engine/multibody/joint_motors.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/solver_settings.h"
#include "engine/scene/scene_description.h"
#include "engine/scene/scene_writer.h"
#include "engine/solvers/contact_solver.h"
#include "engine/stepping/step_result.h"
#include "engine/stepping/nmdp_stepper.h"
#include "engine/stepping/stepper.h"
#include "engine/stepping/theta_method_stepper.h"

namespace stiction {

/// A saved simulation state (Simulation::SaveState); opaque but for its
/// time, step index and size.
struct SimulationState {
  VectorX q, v;
  double time = 0;             ///< [s]
  std::int64_t step_index = 0;
  bool nmdp_last = false;      ///< The last step was an NMDP scheme's.
  StepperMemory theta, nmdp;
  /// Bytes held (vectors' capacity and the saved reports and histories),
  /// for a history's memory cap.
  std::size_t Bytes() const;
};

/// World-frame state of one body, SI units.
struct BodyState {
  std::string name;
  Vector3 position = Vector3::Zero();            ///< Body origin p_WB [m].
  Quaternion orientation = Quaternion::Identity();  ///< R_WB.
  Vector3 linear_velocity = Vector3::Zero();     ///< v_WB of the origin [m/s].
  Vector3 angular_velocity = Vector3::Zero();    ///< ω_WB [rad/s].
};

/// A force and torque applied to a body (e.g. the viewer's mouse spring),
/// held constant over each step until replaced.
struct ExternalWrench {
  int body = 0;                        ///< Model body index (≥ 1).
  Vector3 p_WP = Vector3::Zero();      ///< Application point, world [m].
  Vector3 f_W = Vector3::Zero();       ///< Force, world [N].
  Vector3 tau_W = Vector3::Zero();     ///< Torque, world [N m].
};

class CollisionWorld;
struct CompiledScene;

class Simulation {
 public:
  /// Builds a simulation from a loaded scene (compiled by CompileScene,
  /// engine/scene_compiler.h). Throws InputError when the scene cannot be
  /// turned into a model (e.g. a body's inertia, a geometry's size).
  explicit Simulation(const SceneDescription& scene);
  ~Simulation();
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;

  /// Convenience: LoadSceneFile + constructor. Throws InputError.
  static Simulation FromFile(const std::string& path,
                             const std::vector<std::string>& overrides = {});

  /// Advances one time step. Never throws; on failure the state is unchanged
  /// and the status says why.
  StepResult Step();
  /// Back to the scene's initial state at t = 0.
  void Reset();

  double time() const { return time_; }
  /// Successful steps since construction or the last Reset(): the index of
  /// the next step. Command logs are keyed by it (engine/control/).
  std::int64_t step_index() const { return step_index_; }
  /// δt [s] of the next step.
  double time_step() const { return params_.dt; }
  /// Changes δt from the next step on. Throws InputError unless finite and > 0.
  void SetTimeStep(double dt);
  const IntegratorSettings& integrator() const { return params_.integrator; }
  /// Changes θ, θ_vq from the next step on. Throws InputError unless in [0, 1].
  void SetIntegrator(const IntegratorSettings& integrator);
  /// The contact solver that runs (under the θ-method; the NMDP schemes
  /// use none).
  SolverType solver_type() const { return params_.solver.type; }
  /// The time-stepping scheme (docs/nmdp.md): the θ-method with the
  /// integrator and contact solver, or an NMDP scheme with nmdp_parameters().
  SteppingScheme stepping_scheme() const { return params_.scheme; }
  /// Changes the time-stepping scheme from the next step on. The settings of
  /// the others are kept, so that a switch back restores them.
  void SetSteppingScheme(SteppingScheme scheme);
  const NmdpParameters& nmdp_parameters() const { return params_.nmdp; }
  /// The NMDP schemes' parameters, from the next step on (kept whatever the
  /// scheme). Throws InputError naming the parameter when out of range.
  void SetNmdpParameters(const NmdpParameters& p);

  /// Contact model parameters β, σ ([SAP] Eqs. 29–30) and the default
  /// model, from the next step on. Throws InputError when out of range
  /// (β ≥ 0, σ > 0, finite).
  void SetContactModelParameters(const ContactModelParameters& p);
  const ContactModelParameters& contact_model_parameters() const { return params_.contact; }
  /// SAP solver parameters (tolerances, iteration cap, line search), from the
  /// next step on. Throws InputError when out of range.
  void SetSolverParameters(const SapSolverParameters& p);
  const SapSolverParameters& solver_parameters() const { return params_.solver.sap; }
  /// Chooses the contact solver and every solver's parameters from the next
  /// step on (docs/solvers.md). Validates everything before changing
  /// anything; throws InputError naming the bad parameter.
  void SetSolver(const SolverSettings& settings);
  const SolverSettings& solver_settings() const { return params_.solver; }
  /// Changes a material's parameters for every geometry that uses it, from
  /// the next step on. Throws InputError for an unknown name, out-of-range
  /// values (k > 0, τd ≥ 0, μ ≥ 0, d ≥ 0, v_s > 0, finite) or a model that
  /// conflicts with another material's.
  void SetMaterial(const std::string& name, const ContactMaterial& material);
  /// The material of a name as currently used. Throws InputError if unknown.
  ContactMaterial GetMaterial(const std::string& name) const;
  /// The scene's material names, in scene order.
  std::vector<std::string> material_names() const;
  /// Contacts of the last successful step (points, frames, impulses, state).
  /// Only contacts: joint limits, actuators, weld/ball constraints and joint
  /// couplers are not reported here.
  const std::vector<ContactReport>& contacts() const;
  /// The pressure-field contact surfaces of the last step's contact query
  /// (ContactReport::surface indexes them); empty without compliant
  /// geometry.
  const std::vector<ContactSurface>& contact_surfaces() const;
  /// The collision world (geometries, compliant volume meshes).
  const CollisionWorld& collision_world() const { return *collision_; }
  /// The stage-2 problem of the last step (for benchmarks and diagnostics:
  /// A, J, the constraint bundle).
  const ContactProblem& last_contact_problem() const;
  /// The contact solver's result of the last step that had constraints
  /// (v, γ, iterations, residual histories when recorded).
  const SolverResult& solver_result() const;

  /// Names of the scene's PD actuators (scene `actuators:`), in scene order.
  std::vector<std::string> actuator_names() const;
  /// An actuator's current joint, gains, effort limit and targets. Throws
  /// InputError for an unknown name.
  const JointActuator& actuator(const std::string& name) const;
  /// Sets an actuator's target q_d [rad or m] and v_d [rad/s or m/s] from the
  /// next step on (kept across Reset()). Throws InputError for an unknown
  /// name or a non-finite value.
  void SetActuatorTarget(const std::string& name, double position, double velocity);
  /// The target position q_d [rad or m] last given to an actuator (by the
  /// scene or SetActuatorTarget). It equals actuator(name).target_position
  /// except for an actuator driven by an oscillator (scene `oscillators:`),
  /// whose target moves about this value; a control slider shows and sets
  /// this one, so that it does not jump with the oscillation. Throws
  /// InputError for an unknown name.
  double actuator_commanded_position(const std::string& name) const;
  /// Sets an actuator's gains kp ≥ 0, kd ≥ 0 (kp + kd > 0) and effort limit
  /// > 0 (+∞ allowed: unlimited) from the next step on (kept across Reset()).
  /// Throws InputError for an unknown name or out-of-range values.
  void SetActuatorGains(const std::string& name, double kp, double kd, double effort_limit);
  /// Per actuator (scene order): the generalized force it applied during the
  /// last step [N m or N], i.e. its impulse / δt; |effort| ≤ effort_limit.
  /// Empty before the first step.
  const std::vector<double>& actuator_efforts() const;

  /// Names of the scene's motors (scene `motors:`, MJCF <motor>), in scene
  /// order.
  std::vector<std::string> motor_names() const;
  /// A motor's joints, gain, control range, control and effort limit.
  /// Throws InputError for an unknown name.
  const JointMotor& motor(const std::string& name) const;
  /// Sets a motor's control from the next step on (kept across Reset()),
  /// clamped into its control range as MuJoCo clamps a limited ctrl. Throws
  /// InputError for an unknown name or a non-finite value.
  void SetMotorControl(const std::string& name, double ctrl);

  /// Cartesian impedance controllers (docs/contact-model.md, "Cartesian
  /// impedance"): a frame E on a body pulled to a target pose by an implicit
  /// spring-damper with force and torque limits, solved inside the convex
  /// problem. Controllers and their targets are kept across Reset().
  ///
  /// Adds a controller on the body named `body_name` (controller.body is
  /// replaced by that body's index; posture joints are model joint indices,
  /// see SetCartesianPosture for names) from the next step on; returns its
  /// index. Throws InputError naming the bad parameter (unknown body or the
  /// world, non-finite pose or twist, negative gains, limits ≤ 0).
  int AddCartesianImpedance(const std::string& body_name, CartesianImpedance controller);
  int num_cartesian_impedances() const;
  /// A controller as it is now. Throws InputError for a bad index.
  const CartesianImpedance& cartesian_impedance(int index) const;
  /// Moves a controller's target pose X_WT [m] and target twist v_WT [m/s],
  /// w_WT [rad/s] (world) from the next step on. Throws InputError for a bad
  /// index, non-finite values or a rotation that is not orthonormal.
  void SetCartesianTarget(int index, const RigidTransform& X_WT, const Vector3& v_WT = Vector3::Zero(),
                          const Vector3& w_WT = Vector3::Zero());
  /// Gains K_t [N/m], D_t [N s/m], K_r [N m/rad], D_r [N m s/rad] (≥ 0,
  /// finite) and limits F_max [N], T_max [N m] (> 0, +∞ allowed) from the
  /// next step on. Throws InputError naming the bad parameter.
  void SetCartesianGains(int index, double translational_stiffness, double translational_damping,
                         double rotational_stiffness, double rotational_damping, double max_force,
                         double max_torque);
  /// Replaces a controller's posture term: joints by name with their nominal
  /// positions, gains k_null ≥ 0, d_null ≥ 0 (sum > 0 unless `joints` is
  /// empty) and an effort limit > 0 (+∞ allowed). Throws InputError.
  void SetCartesianPosture(int index, const std::vector<std::pair<std::string, double>>& joints,
                           double stiffness, double damping,
                           double effort_limit = std::numeric_limits<double>::infinity());
  /// Per controller: the force and torque it applied during the last step
  /// (empty before the first step).
  const std::vector<CartesianImpedanceEffort>& cartesian_efforts() const;
  /// World pose X_WE = X_WB X_BE of a frame on the body named `body_name`
  /// (the world for "world") in the current state. Throws InputError for an
  /// unknown body or a non-finite X_BE.
  RigidTransform CalcFramePose(const std::string& body_name, const RigidTransform& X_BE = {}) const;

  /// The live-editable parameters as they are now (δt, stepping scheme,
  /// integrator, contact model parameters, every material in scene order,
  /// the solver settings, the NMDP parameters): what "Save scene as" writes
  /// (engine/scene/scene_writer.h).
  SceneParameters CalcSceneParameters() const;
  /// Makes the live-editable parameters `p` from the next step on (a
  /// command file's `set:` entries, engine/scene/parameter_assignments.h).
  /// Validates everything first and changes nothing on an error: throws
  /// InputError naming the parameter, or for materials that are not the
  /// scene's (by name, in scene order).
  void SetSceneParameters(const SceneParameters& p);

  /// The scene as loaded. Settings changed since (δt, stepping scheme,
  /// integrator, solver, NMDP parameters, materials, actuators) are read
  /// through the accessors above.
  const SceneDescription& scene() const { return scene_; }
  /// What loading accepted but a user should know, one line each: every
  /// robot's import notes ("ROBOT (FORMAT): NOTE", the elements of its file
  /// that were skipped or changed), then the collision world's (meshes used
  /// through their hull), then the compiler's (coupled joints started on
  /// their coupling, robot links that overlap at the start and ignore each
  /// other). The viewer lists them under "Import notes", the
  /// CLI prints them and writes them to its report.
  const std::vector<std::string>& load_notes() const { return load_notes_; }
  const MultibodyModel& model() const { return *model_; }
  const VectorX& positions() const { return q_; }
  const VectorX& velocities() const { return v_; }
  /// Replaces the state (sizes must match; quaternions are normalized).
  void SetState(const VectorX& q, const VectorX& v);
  /// Everything that carries from one step to the next: q, v, t, the step
  /// index, the steppers' warm starts and carried loads, and what the last
  /// step reported (contacts, efforts). Parameters, actuator targets and
  /// external wrenches are not in it: they are settings, set before a step.
  SimulationState SaveState() const;
  /// Makes the simulation as it was when `state` was saved, so that it
  /// steps on bit-identically under the same settings (the timeline,
  /// docs/viewer.md). Throws InputError for a state of another model.
  void RestoreState(const SimulationState& state);
  /// Wrenches applied from the next step on, until replaced (an empty list
  /// removes them). Throws InputError on a bad body index or non-finite data.
  void SetExternalWrenches(std::vector<ExternalWrench> wrenches);

  /// Per body (index = body index, 0 = the world): 1 while asleep
  /// (solver.sleep; engine/stepping/sleep_tracker.h).
  const std::vector<char>& asleep_bodies() const;

  /// World-frame pose and velocity of every body except the world.
  std::vector<BodyState> CalcBodyStates() const;
  double CalcKineticEnergy() const;    ///< [J].
  double CalcPotentialEnergy() const;  ///< Gravity + joint springs [J].
  /// The elastic energy the last step's compliant contacts hold, Σ F²/2k
  /// (ConstraintHistory::ContactStoredEnergy) [J]; 0 before the first step,
  /// under NMDP and for a rigid solve's overlap. Part of the mechanical
  /// energy a model or solver switch hands over.
  double CalcContactStoredEnergy() const;

 private:
  // The constructor's steps, in order.
  /// The model, initial state, collision world and the stepper with the
  /// compiled materials, welds, joint couplers and actuators.
  void TakeCompiledScene(CompiledScene* compiled);
  void InstallOscillators();
  /// The scene's actuator gains and targets, through their setters.
  void SetActuatorsFromScene();
  /// δt, stepping scheme, integrator, contact, solver and NMDP settings,
  /// through their setters.
  void SetParametersFromScene();
  /// The arm grippers' controllers, as controllers 0, 1, ... in scene order.
  void AddGripperImpedances(const std::vector<std::pair<std::ptrdiff_t, CartesianImpedance>>& impedances);

  size_t FindActuator(const std::string& name) const;
  size_t FindMotor(const std::string& name) const;
  // Validates `c` (throws InputError) and stores it as controller `index`.
  void ReplaceCartesianImpedance(int index, const CartesianImpedance& c);
  int FindBodyOrWorld(const std::string& name) const;
  size_t FindMaterial(const std::string& name) const;

  SceneDescription scene_;  // As loaded; never edited.
  std::vector<std::string> load_notes_;  // load_notes(), set by TakeCompiledScene.
  std::unique_ptr<MultibodyModel> model_;
  std::unique_ptr<CollisionWorld> collision_;
  // The one live copy of everything a step reads that may change: δt,
  // stepping scheme, integrator, contact, solver and NMDP settings here;
  // materials, actuators, welds and Cartesian controllers in sources_
  // (behind a pointer: both steppers hold its address).
  StepperParameters params_;
  std::unique_ptr<ConstraintSources> sources_;
  // The stepping schemes, siblings behind Stepper (stepper.h): Step() runs
  // the one params_.scheme names; the accessors of what a step left read
  // the one that stepped last.
  std::unique_ptr<ThetaMethodStepper> theta_stepper_;
  std::unique_ptr<NmdpStepper> nmdp_stepper_;
  Stepper* last_stepper_ = nullptr;
  Stepper& SchemeStepper();
  void ClearStepperHistories();
  VectorX q0_, v0_;  // Initial state from the scene.
  std::vector<ExternalWrench> wrenches_;
  std::vector<JointMotor> motors_;  // Their controls, set by SetMotorControl.
  GravityCompensation gravity_compensation_;  // Robots' `gravity_compensation`.
  VectorX q_, v_;
  double time_ = 0;
  std::int64_t step_index_ = 0;
  // The scene's oscillators (scene_description.h): the actuator they drive
  // and its own target c (SetActuatorTarget sets c for them); Step() writes
  // c + oscillation as the actuator's target for the step's end time.
  struct Oscillator {
    OscillatorDescription d;
    size_t actuator = 0;
    double centre_position = 0, centre_velocity = 0;
  };
  std::vector<Oscillator> oscillators_;
  void ApplyOscillators(double t);
};

}  // namespace stiction
