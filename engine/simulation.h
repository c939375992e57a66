#pragma once
// The facade the app and the CLI use: load a scene, step, reset, read state.
// Everything behind it (model, stepping, solvers) can change without touching
// its users.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem_builder.h"
#include "engine/multibody/multibody_model.h"
#include "engine/solvers/solver_factory.h"
#include "engine/scene/scene_description.h"

namespace stiction {

enum class StepStatus {
  kSuccess = 0,
  kSolverFailed,  ///< A solver did not converge; the state was not advanced.
  kNonFinite,     ///< The step produced NaN/Inf; the state was not advanced.
};

/// Per-step statistics. Contact-related entries are zero until contact exists.
struct StepStats {
  int iterations = 0;              ///< Solver iterations (stage 1 Newton + contact solver;
                                   ///< CANAL: inner Newton steps summed; SubADMM: ADMM iterations).
  int line_search_iterations = 0;
  int num_contacts = 0;
  double momentum_error = 0;       ///< e_m, [SAP] Eq. (32).
  double complementarity_error = 0;  ///< e_μ, [SAP] Eq. (33).
  double max_penetration_m = 0;    ///< max(-φ) over contacts [m], ≥ 0.
  double wall_time_s = 0;          ///< Time spent inside Step() [s].
  std::string solver;              ///< The contact solver that ran (sap, canal, subadmm).
  // Augmented-Lagrangian solvers (CANAL, SubADMM); zero for SAP.
  int outer_iterations = 0;        ///< CANAL: AL (outer) iterations.
  double constraint_residual = 0;  ///< ‖J v̂ − z‖ at exit [m/s] (SubADMM: θ_p + θ_d).
  double penalty = 0;              ///< AL penalty β at exit [kg] (not SAP's near-rigid β).
  bool solver_converged = true;    ///< False when an AL solver stopped at its iteration cap.
  /// Where the step's time went [s] (benchmarks, docs/benchmarks.md).
  struct TimeSplit {
    double free_motion = 0;    ///< Stage 1 (θ-method Newton per tree).
    double collision = 0;      ///< FCL broad + narrow phase.
    double assembly = 0;       ///< Contact problem + Newton matrix H assembly.
    double factorization = 0;  ///< Sparse Cholesky of H.
    double line_search = 0;    ///< Exact/backtracking line search.
  } time;
};

struct StepResult {
  StepStatus status = StepStatus::kSuccess;
  std::string message;  ///< Empty on success; a one-line reason otherwise.
  StepStats stats;
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

class TimeStepper;
class CollisionWorld;

class Simulation {
 public:
  /// Builds a simulation from a validated scene. Throws InputError when the
  /// scene cannot be turned into a model (e.g. an unknown parent body).
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
  double time_step() const;
  /// Changes δt from the next step on. Throws InputError unless finite and > 0.
  void SetTimeStep(double dt);
  const IntegratorDescription& integrator() const;
  /// Changes θ, θ_vq from the next step on. Throws InputError unless in [0, 1].
  void SetIntegrator(const IntegratorDescription& integrator);
  /// The contact solver that runs (sap, canal, subadmm).
  std::string solver_name() const { return solver_.type; }

  /// Contact model parameters β, σ ([SAP] Eqs. 29–30), from the next
  /// step on. Throws InputError when out of range (β ≥ 0, σ > 0, finite).
  void SetContactModelParameters(const ContactModelParameters& p);
  const ContactModelParameters& contact_model_parameters() const { return contact_params_; }
  /// SAP solver parameters (tolerances, iteration cap, line search), from the
  /// next step on. Throws InputError when out of range.
  void SetSolverParameters(const SapSolverParameters& p);
  const SapSolverParameters& solver_parameters() const { return solver_.sap; }
  /// Chooses the contact solver and every solver's parameters from the next
  /// step on (docs/solvers.md). Validates everything before changing
  /// anything; throws InputError naming the bad parameter.
  void SetSolver(const SolverSettings& settings);
  const SolverSettings& solver_settings() const { return solver_; }
  /// Changes a material's k [N/m], τd [s] and μ for every geometry that uses
  /// it, from the next step on. Throws InputError for an unknown name or
  /// out-of-range values (k > 0, τd ≥ 0, μ ≥ 0, finite).
  void SetMaterial(const std::string& name, const ContactMaterial& material);
  /// The material of a name as currently used. Throws InputError if unknown.
  ContactMaterial GetMaterial(const std::string& name) const;
  /// Contacts of the last successful step (points, frames, impulses, state).
  /// Only contacts: joint limits, actuators and weld/ball constraints are not
  /// reported here.
  const std::vector<ContactReport>& contacts() const;
  /// The stage-2 problem of the last step (for benchmarks and diagnostics:
  /// A, J, the constraint bundle).
  const ContactProblem& last_contact_problem() const;
  /// The contact solver's result of the last step that had constraints
  /// (v, γ, iterations, residual histories when recorded).
  const SolverResult& solver_result() const;

  /// Names of the scene's PD actuators (scene `actuators:`), in scene order.
  std::vector<std::string> actuator_names() const;
  /// Sets an actuator's target q_d [rad or m] and v_d [rad/s or m/s] from the
  /// next step on (kept across Reset()). Throws InputError for an unknown
  /// name or a non-finite value.
  void SetActuatorTarget(const std::string& name, double position, double velocity);
  /// Sets an actuator's gains kp ≥ 0, kd ≥ 0 (kp + kd > 0) and effort limit
  /// > 0 (+∞ allowed: unlimited) from the next step on (kept across Reset()).
  /// Throws InputError for an unknown name or out-of-range values.
  void SetActuatorGains(const std::string& name, double kp, double kd, double effort_limit);
  /// Per actuator (scene order): the generalized force it applied during the
  /// last step [N m or N], i.e. its impulse / δt; |effort| ≤ effort_limit.
  /// Empty before the first step.
  const std::vector<double>& actuator_efforts() const;

  const SceneDescription& scene() const { return scene_; }
  const MultibodyModel& model() const { return *model_; }
  const VectorX& positions() const { return q_; }
  const VectorX& velocities() const { return v_; }
  /// Replaces the state (sizes must match; quaternions are normalized).
  void SetState(const VectorX& q, const VectorX& v);
  /// Wrenches applied from the next step on, until replaced (an empty list
  /// removes them). Throws InputError on a bad body index or non-finite data.
  void SetExternalWrenches(std::vector<ExternalWrench> wrenches);

  /// World-frame pose and velocity of every body except the world.
  std::vector<BodyState> CalcBodyStates() const;
  double CalcKineticEnergy() const;    ///< [J].
  double CalcPotentialEnergy() const;  ///< Gravity + joint springs [J].

 private:
  SceneDescription scene_;
  std::unique_ptr<MultibodyModel> model_;
  std::unique_ptr<CollisionWorld> collision_;
  std::vector<std::string> geometry_materials_;  // Material name per collision geometry.
  std::unique_ptr<TimeStepper> stepper_;
  ContactModelParameters contact_params_;
  SolverSettings solver_;
  VectorX q0_, v0_;  // Initial state from the scene.
  std::vector<ExternalWrench> wrenches_;
  size_t FindActuator(const std::string& name) const;
  VectorX q_, v_;
  double time_ = 0;
  std::int64_t step_index_ = 0;
};

}  // namespace stiction
