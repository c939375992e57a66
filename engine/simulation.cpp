#include "engine/simulation.h"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/common/stopwatch.h"
#include "engine/common/text.h"
#include "engine/geometry/collision_world.h"
#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "engine/scene/scene_loader.h"
#include "engine/scene_compiler.h"

namespace stiction {

Simulation::Simulation(const SceneDescription& scene) : scene_(scene) {
  CompiledScene compiled = CompileScene(scene_);
  TakeCompiledScene(&compiled);
  InstallOscillators();
  SetActuatorsFromScene();
  SetParametersFromScene();
  Reset();
  AddGripperImpedances(compiled.gripper_impedances);
}

void Simulation::TakeCompiledScene(CompiledScene* compiled) {
  model_ = std::move(compiled->multibody.model);
  q0_ = std::move(compiled->multibody.q0);
  v0_ = std::move(compiled->multibody.v0);
  collision_ = std::move(compiled->collision);
  // The load notes, gathered once: the viewer lists them every frame.
  load_notes_.clear();
  for (const RobotSummary& robot : scene_.robots) {
    for (const std::string& note : robot.notes) load_notes_.push_back(robot.name + " (" + robot.format + "): " + note);
  }
  load_notes_.insert(load_notes_.end(), collision_->notes().begin(), collision_->notes().end());
  load_notes_.insert(load_notes_.end(), compiled->notes.begin(), compiled->notes.end());
  sources_ = std::make_unique<ConstraintSources>();
  sources_->materials = std::move(compiled->materials);
  sources_->body_constraints = std::move(compiled->body_constraints);
  sources_->joint_couplers = std::move(compiled->joint_couplers);
  sources_->tendons = std::move(compiled->tendons);
  sources_->tendon_servos = std::move(compiled->tendon_servos);
  sources_->actuators = std::move(compiled->actuators);
  motors_ = std::move(compiled->motors);
  gravity_compensation_ = std::move(compiled->gravity_compensation);
  theta_stepper_ = std::make_unique<ThetaMethodStepper>(*model_, collision_.get(), sources_.get());
  nmdp_stepper_ = std::make_unique<NmdpStepper>(*model_, collision_.get(), sources_.get());
  last_stepper_ = theta_stepper_.get();
}

void Simulation::InstallOscillators() {
  for (const OscillatorDescription& o : scene_.oscillators) {
    oscillators_.push_back(Oscillator{o, FindActuator(o.actuator), 0, 0});
  }
}

void Simulation::SetActuatorsFromScene() {
  // Through the setters, with their checks; an oscillating actuator's
  // target is the centre it oscillates about.
  for (const ActuatorDescription& a : scene_.actuators) {
    SetActuatorGains(a.name, a.kp, a.kd, a.effort_limit);
    SetActuatorTarget(a.name, a.target_position, a.target_velocity);
  }
}

void Simulation::SetParametersFromScene() {
  SetTimeStep(scene_.time_step);
  SetSteppingScheme(scene_.scheme);
  SetIntegrator(scene_.integrator);
  SetContactModelParameters(scene_.contact);
  SetSolver(scene_.solver);
  SetNmdpParameters(scene_.nmdp);
}

void Simulation::AddGripperImpedances(const std::vector<std::pair<std::ptrdiff_t, CartesianImpedance>>& impedances) {
  // Controller k for the k-th arm gripper (docs/teleop.md).
  for (const auto& [index, impedance] : impedances) {
    const GripperDescription& g = scene_.grippers[static_cast<size_t>(index)];
    try {
      AddCartesianImpedance(g.end_effector_body, impedance);
    } catch (const InputError& e) {
      throw InputError(g.where.ToString() + ": gripper " + g.name + ": " + e.what());
    }
  }
}

void Simulation::SetContactModelParameters(const ContactModelParameters& p) {
  ValidateContactModelParameters(p);
  params_.contact = p;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
}

void Simulation::SetSolverParameters(const SapSolverParameters& p) {
  ValidateSapParameters(p);
  params_.solver.sap = p;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
}

void Simulation::SetSolver(const SolverSettings& settings) {
  ValidateSolverSettings(settings);
  params_.solver = settings;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
}

void Simulation::SetSteppingScheme(SteppingScheme scheme) {
  // An enumerator outside the registry (a cast) is refused here rather than
  // reaching the stepper's dispatch.
  bool known = false;
  for (const SteppingSchemeInfo& info : SteppingSchemes()) known |= info.scheme == scheme;
  if (!known) {
    throw InputError("stepping: unknown scheme " + std::to_string(static_cast<int>(scheme)) +
                     " (expected one of: " + ChoiceNames(SteppingSchemes()) + ")");
  }
  params_.scheme = scheme;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
}

void Simulation::SetNmdpParameters(const NmdpParameters& p) {
  ValidateNmdpParameters(p);
  params_.nmdp = p;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
}

size_t Simulation::FindMaterial(const std::string& name) const { return FindMaterialIndex(scene_, name); }

SceneParameters Simulation::CalcSceneParameters() const {
  SceneParameters p{.time_step = params_.dt,
                    .scheme = params_.scheme,
                    .integrator = params_.integrator,
                    .contact = params_.contact,
                    .materials = {},
                    .solver = params_.solver,
                    .nmdp = params_.nmdp};
  const std::vector<ContactMaterial>& materials = sources_->materials.materials;
  for (size_t i = 0; i < scene_.materials.size(); ++i) p.materials.emplace_back(scene_.materials[i].name, materials[i]);
  return p;
}

void Simulation::SetSceneParameters(const SceneParameters& p) {
  if (!std::isfinite(p.time_step) || !(p.time_step > 0)) {
    throw InputError("time_step: must be positive and finite, got " + FormatNumber(p.time_step) + " [s]");
  }
  ValidateIntegratorSettings(p.integrator);
  ValidateContactModelParameters(p.contact);
  ValidateSolverSettings(p.solver);
  ValidateNmdpParameters(p.nmdp);
  if (p.materials.size() != scene_.materials.size()) {
    throw InputError("parameters: " + std::to_string(p.materials.size()) + " materials given, the scene has " +
                     std::to_string(scene_.materials.size()));
  }
  std::optional<ContactModel> material_model;
  for (std::size_t i = 0; i < p.materials.size(); ++i) {
    const auto& [name, material] = p.materials[i];
    if (name != scene_.materials[i].name) {
      throw InputError("parameters: material " + std::to_string(i) + " is '" + name + "', the scene's is '" +
                       scene_.materials[i].name + "'");
    }
    ValidateContactMaterial(name, material);
    if (material.model && material_model && *material.model != *material_model) {
      throw InputError("material '" + name + "': contact model " + std::string(ContactModelName(*material.model)) +
                       " conflicts with another material's (" + std::string(ContactModelName(*material_model)) + ")");
    }
    if (material.model) material_model = material.model;
  }
  // Everything checked: nothing below can refuse.
  SetTimeStep(p.time_step);
  SetSteppingScheme(p.scheme);
  SetIntegrator(p.integrator);
  SetContactModelParameters(p.contact);
  SetSolver(p.solver);
  SetNmdpParameters(p.nmdp);
  // Models first cleared, so that no intermediate state has two that conflict.
  for (const auto& [name, material] : p.materials) {
    ContactMaterial m = GetMaterial(name);
    if (m.model != material.model && m.model) {
      m.model.reset();
      SetMaterial(name, m);
    }
  }
  for (const auto& [name, material] : p.materials) SetMaterial(name, material);
}

std::vector<std::string> Simulation::material_names() const {
  std::vector<std::string> names;
  for (const MaterialDescription& m : scene_.materials) names.push_back(m.name);
  return names;
}

ContactMaterial Simulation::GetMaterial(const std::string& name) const {
  return sources_->materials.materials[FindMaterial(name)];
}

void Simulation::SetMaterial(const std::string& name, const ContactMaterial& material) {
  const size_t index = FindMaterial(name);
  ValidateContactMaterial(name, material);
  std::vector<ContactMaterial>& materials = sources_->materials.materials;
  if (material.model) {
    // A pair's model is the one its materials name; two that name different
    // models would leave their pair ambiguous (docs/scene-format.md).
    for (size_t i = 0; i < materials.size(); ++i) {
      if (i != index && materials[i].model && *materials[i].model != *material.model) {
        throw InputError("material '" + name + "': contact model " + std::string(ContactModelName(*material.model)) +
                         " conflicts with material '" + scene_.materials[i].name + "' (" +
                         std::string(ContactModelName(*materials[i].model)) +
                         "); clear one of them to use the scene's model");
      }
    }
  }
  materials[index] = material;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
  const std::vector<int>& of_geometry = sources_->materials.of_geometry;
  for (int g = 0; g < collision_->num_geometries(); ++g) {
    if (collision_->is_compliant(g) && of_geometry[g] == static_cast<int>(index)) {
      collision_->SetHydroelasticModulus(g, material.hydroelastic_modulus);
    }
  }
}

const std::vector<ContactReport>& Simulation::contacts() const { return last_stepper_->contacts(); }
const std::vector<ContactSurface>& Simulation::contact_surfaces() const { return collision_->contact_surfaces(); }
const ContactProblem& Simulation::last_contact_problem() const { return last_stepper_->problem(); }

const SolverResult& Simulation::solver_result() const { return last_stepper_->solver_result(); }

std::vector<std::string> Simulation::actuator_names() const {
  std::vector<std::string> names;
  for (const ActuatorDescription& a : scene_.actuators) names.push_back(a.name);
  return names;
}

size_t Simulation::FindActuator(const std::string& name) const {
  for (size_t i = 0; i < scene_.actuators.size(); ++i) {
    if (scene_.actuators[i].name == name) return i;
  }
  throw InputError("unknown actuator '" + name + "'");
}

const JointActuator& Simulation::actuator(const std::string& name) const {
  return sources_->actuators[FindActuator(name)];
}

void Simulation::SetActuatorTarget(const std::string& name, double position, double velocity) {
  const size_t i = FindActuator(name);
  if (!std::isfinite(position) || !std::isfinite(velocity)) {
    throw InputError("actuator '" + name + "': target position and velocity must be finite");
  }
  for (Oscillator& o : oscillators_) {
    if (o.actuator != i) continue;
    // An oscillating actuator: this is the centre it oscillates about.
    o.centre_position = position;
    o.centre_velocity = velocity;
    ApplyOscillators(time_ + params_.dt);
    return;
  }
  JointActuator& a = sources_->actuators[i];
  a.target_position = position;
  a.target_velocity = velocity;
}

double Simulation::actuator_commanded_position(const std::string& name) const {
  const size_t i = FindActuator(name);
  for (const Oscillator& o : oscillators_) {
    if (o.actuator == i) return o.centre_position;
  }
  return sources_->actuators[i].target_position;
}

void Simulation::ApplyOscillators(double t) {
  for (const Oscillator& o : oscillators_) {
    JointActuator& a = sources_->actuators[o.actuator];
    a.target_position = o.centre_position;
    a.target_velocity = o.centre_velocity;
    const OscillatorDescription& d = o.d;
    if (t <= d.start) continue;
    // e(t) A sin θ with θ = 2π ((t − start)/T + φ) and e rising from 0 to 1
    // over the first period: d/dt = e' A sin θ + e A (2π/T) cos θ.
    const double cycles = (t - d.start) / d.period;
    const double e = std::min(cycles, 1.0);
    const double de = cycles < 1.0 ? 1.0 / d.period : 0.0;
    const double theta = 2 * std::numbers::pi * (cycles + d.phase);
    a.target_position += e * d.amplitude * std::sin(theta);
    a.target_velocity += de * d.amplitude * std::sin(theta) + e * d.amplitude * (2 * std::numbers::pi / d.period) * std::cos(theta);
  }
}

void Simulation::SetActuatorGains(const std::string& name, double kp, double kd,
                                  double effort_limit) {
  const size_t i = FindActuator(name);
  if (!std::isfinite(kp) || kp < 0 || !std::isfinite(kd) || kd < 0 || !(kp + kd > 0)) {
    throw InputError("actuator '" + name + "': kp and kd must be >= 0 and finite, kp + kd > 0");
  }
  if (std::isnan(effort_limit) || !(effort_limit > 0)) {
    throw InputError("actuator '" + name + "': effort limit must be positive");
  }
  JointActuator& a = sources_->actuators[i];
  a.kp = kp;
  a.kd = kd;
  a.effort_limit = effort_limit;
}

const std::vector<double>& Simulation::actuator_efforts() const {
  return last_stepper_->actuator_efforts();
}

std::vector<std::string> Simulation::motor_names() const {
  std::vector<std::string> names;
  for (const MotorDescription& m : scene_.motors) names.push_back(m.name);
  return names;
}

size_t Simulation::FindMotor(const std::string& name) const {
  for (size_t i = 0; i < scene_.motors.size(); ++i) {
    if (scene_.motors[i].name == name) return i;
  }
  throw InputError("unknown motor '" + name + "'");
}

const JointMotor& Simulation::motor(const std::string& name) const { return motors_[FindMotor(name)]; }

void Simulation::SetMotorControl(const std::string& name, double ctrl) {
  JointMotor& m = motors_[FindMotor(name)];
  if (!std::isfinite(ctrl)) throw InputError("motor '" + name + "': ctrl must be finite");
  m.ctrl = std::clamp(ctrl, m.ctrl_min, m.ctrl_max);
}

int Simulation::FindBodyOrWorld(const std::string& name) const {
  if (name == "world") return 0;
  const int b = model_->FindBody(name);
  if (b < 0) throw InputError("unknown body '" + name + "'");
  return b;
}

void Simulation::ReplaceCartesianImpedance(int index, const CartesianImpedance& c) {
  ValidateCartesianImpedance(c, *model_);
  sources_->cartesian_impedances[static_cast<size_t>(index)] = c;
}

int Simulation::AddCartesianImpedance(const std::string& body_name, CartesianImpedance controller) {
  const int body = FindBodyOrWorld(body_name);
  if (body == 0) throw InputError("cartesian impedance: body: must be a moving body, got 'world'");
  controller.body = body;
  ValidateCartesianImpedance(controller, *model_);
  sources_->cartesian_impedances.push_back(std::move(controller));
  return num_cartesian_impedances() - 1;
}

int Simulation::num_cartesian_impedances() const {
  return static_cast<int>(sources_->cartesian_impedances.size());
}

const CartesianImpedance& Simulation::cartesian_impedance(int index) const {
  if (index < 0 || index >= num_cartesian_impedances()) {
    throw InputError("cartesian impedance: no controller with index " + std::to_string(index));
  }
  return sources_->cartesian_impedances[static_cast<size_t>(index)];
}

void Simulation::SetCartesianTarget(int index, const RigidTransform& X_WT, const Vector3& v_WT,
                                    const Vector3& w_WT) {
  CartesianImpedance c = cartesian_impedance(index);
  c.X_WT = X_WT;
  c.v_WT = v_WT;
  c.w_WT = w_WT;
  ReplaceCartesianImpedance(index, c);
}

void Simulation::SetCartesianGains(int index, double translational_stiffness, double translational_damping,
                                   double rotational_stiffness, double rotational_damping, double max_force,
                                   double max_torque) {
  CartesianImpedance c = cartesian_impedance(index);
  c.translational_stiffness = translational_stiffness;
  c.translational_damping = translational_damping;
  c.rotational_stiffness = rotational_stiffness;
  c.rotational_damping = rotational_damping;
  c.max_force = max_force;
  c.max_torque = max_torque;
  ReplaceCartesianImpedance(index, c);
}

void Simulation::SetCartesianPosture(int index, const std::vector<std::pair<std::string, double>>& joints,
                                     double stiffness, double damping, double effort_limit) {
  CartesianImpedance c = cartesian_impedance(index);
  c.posture.clear();
  for (const auto& [name, q_nominal] : joints) {
    CartesianPostureTerm term;
    term.joint = model_->FindJoint(name);
    if (term.joint < 0) throw InputError("cartesian impedance: posture: unknown joint '" + name + "'");
    term.q_nominal = q_nominal;
    c.posture.push_back(term);
  }
  c.posture_stiffness = stiffness;
  c.posture_damping = damping;
  c.posture_effort_limit = effort_limit;
  ReplaceCartesianImpedance(index, c);
}

const std::vector<CartesianImpedanceEffort>& Simulation::cartesian_efforts() const {
  return last_stepper_->cartesian_efforts();
}

RigidTransform Simulation::CalcFramePose(const std::string& body_name, const RigidTransform& X_BE) const {
  const int body = FindBodyOrWorld(body_name);
  if (!X_BE.R.allFinite() || !X_BE.p.allFinite()) throw InputError("CalcFramePose: X_BE: must be finite");
  KinematicsCache cache(*model_);
  CalcKinematics(*model_, q_, v_, BodyRange::All(*model_), &cache);
  return cache.X_WB[static_cast<size_t>(body)] * X_BE;
}

Simulation::~Simulation() = default;
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;

Simulation Simulation::FromFile(const std::string& path,
                                const std::vector<std::string>& overrides) {
  return Simulation(LoadSceneFile(path, overrides));
}

void Simulation::SetTimeStep(double dt) {
  if (!std::isfinite(dt) || !(dt > 0)) {
    throw InputError("time_step: must be finite and positive, got " + std::to_string(dt));
  }
  params_.dt = dt;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
}

void Simulation::SetIntegrator(const IntegratorSettings& integrator) {
  ValidateIntegratorSettings(integrator);
  params_.integrator = integrator;
  theta_stepper_->Wake();  // An edit wakes sleeping islands.
}


void Simulation::Reset() {
  q_ = q0_;
  v_ = v0_;
  time_ = 0;
  step_index_ = 0;
  ClearStepperHistories();
}

void Simulation::SetState(const VectorX& q, const VectorX& v) {
  if (q.size() != model_->num_positions() || v.size() != model_->num_velocities()) {
    throw InputError("SetState: wrong state size");
  }
  if (!q.allFinite() || !v.allFinite()) throw InputError("SetState: non-finite state");
  q_ = q;
  v_ = v;
  model_->NormalizeQuaternions(&q_);
  ClearStepperHistories();
}

SimulationState Simulation::SaveState() const {
  SimulationState s;
  s.q = q_;
  s.v = v_;
  s.time = time_;
  s.step_index = step_index_;
  s.nmdp_last = last_stepper_ == nmdp_stepper_.get();
  theta_stepper_->SaveMemory(&s.theta);
  nmdp_stepper_->SaveMemory(&s.nmdp);
  return s;
}

void Simulation::RestoreState(const SimulationState& s) {
  if (s.q.size() != model_->num_positions() || s.v.size() != model_->num_velocities()) {
    throw InputError("restore: the state is of another model (" + std::to_string(s.q.size()) + " positions, " +
                     std::to_string(s.v.size()) + " velocities; this one has " +
                     std::to_string(model_->num_positions()) + " and " + std::to_string(model_->num_velocities()) +
                     ")");
  }
  q_ = s.q;
  v_ = s.v;
  time_ = s.time;
  step_index_ = s.step_index;
  theta_stepper_->RestoreMemory(s.theta);
  nmdp_stepper_->RestoreMemory(s.nmdp);
  last_stepper_ = s.nmdp_last ? static_cast<Stepper*>(nmdp_stepper_.get()) : theta_stepper_.get();
}

std::size_t SimulationState::Bytes() const {
  std::size_t bytes = sizeof(*this) + sizeof(double) * static_cast<std::size_t>(q.size() + v.size());
  for (const StepperMemory* m : {&theta, &nmdp}) {
    bytes += m->reports.capacity() * sizeof(ContactReport) + m->actuator_efforts.capacity() * sizeof(double) +
             m->cartesian_efforts.capacity() * sizeof(CartesianImpedanceEffort) + m->history.Bytes() +
             m->sleep.asleep.capacity() + m->sleep.island.capacity() * sizeof(int) +
             m->sleep.rest_time.capacity() * sizeof(double) + m->sleep.touching.capacity() * sizeof(std::pair<int, int>) +
             m->free_motion.Bytes();
    for (const auto& [key, w] : m->warm_weights) bytes += sizeof(key) + sizeof(w) + sizeof(double) * w.size() + 16;
  }
  return bytes;
}

void Simulation::SetExternalWrenches(std::vector<ExternalWrench> wrenches) {
  for (const ExternalWrench& w : wrenches) {
    if (w.body < 1 || w.body >= model_->num_bodies()) {
      throw InputError("external wrench: no body with index " + std::to_string(w.body));
    }
    if (!w.p_WP.allFinite() || !w.f_W.allFinite() || !w.tau_W.allFinite()) {
      throw InputError("external wrench on '" + model_->body(w.body).name + "': non-finite value");
    }
  }
  wrenches_ = std::move(wrenches);
}

Stepper& Simulation::SchemeStepper() {
  if (params_.scheme == SteppingScheme::kThetaMethod) return *theta_stepper_;
  return *nmdp_stepper_;
}

void Simulation::ClearStepperHistories() {
  theta_stepper_->ClearHistory();
  nmdp_stepper_->ClearHistory();
}

StepResult Simulation::Step() {
  const auto start = std::chrono::steady_clock::now();
  StepResult result;
  VectorX tau_ext;
  const bool has_tau_ext = !wrenches_.empty() || !motors_.empty() || !gravity_compensation_.velocities.empty();
  if (has_tau_ext) tau_ext = VectorX::Zero(model_->num_velocities());
  AddMotorForces(motors_, &tau_ext);
  AddGravityCompensation(*model_, gravity_compensation_, q_, &tau_ext);
  if (!wrenches_.empty()) {
    // Generalized forces τ = Jᵀ [τ_W; f_W] at the start-of-step configuration.
    KinematicsCache cache(*model_);
    CalcKinematics(*model_, q_, v_, BodyRange::All(*model_), &cache);
    for (const ExternalWrench& w : wrenches_) {
      Vector6 F;
      F << w.tau_W, w.f_W;
      tau_ext += CalcFrameJacobian(*model_, cache, w.body, w.p_WP).transpose() * F;
    }
  }
  // Targets for the end of this step (as a controller sets them).
  if (!oscillators_.empty()) ApplyOscillators(time_ + params_.dt);
  VectorX q, v;
  Stepper& stepper = SchemeStepper();
  last_stepper_ = &stepper;
  result.status = stepper.Step(params_, q_, v_, has_tau_ext ? &tau_ext : nullptr, &q, &v,
                                 &result.stats, &result.message);
  if (result.status == StepStatus::kSuccess) {
    q_ = std::move(q);
    v_ = std::move(v);
    time_ += params_.dt;
    ++step_index_;
  }
  result.stats.wall_time_s = SecondsSince(start);
  return result;
}

const std::vector<char>& Simulation::asleep_bodies() const { return theta_stepper_->sleep().asleep_bodies(); }

std::vector<BodyState> Simulation::CalcBodyStates() const {
  KinematicsCache cache(*model_);
  CalcKinematics(*model_, q_, v_, BodyRange::All(*model_), &cache);
  std::vector<BodyState> states;
  states.reserve(model_->num_bodies() - 1);
  for (int b = 1; b < model_->num_bodies(); ++b) {
    BodyState s;
    s.name = model_->body(b).name;
    s.position = cache.X_WB[b].p;
    s.orientation = Quaternion(cache.X_WB[b].R);
    s.angular_velocity = cache.V_WB[b].head<3>();
    s.linear_velocity = cache.V_WB[b].tail<3>() + s.angular_velocity.cross(s.position);
    states.push_back(s);
  }
  return states;
}

double Simulation::CalcKineticEnergy() const {
  KinematicsCache cache(*model_);
  CalcKinematics(*model_, q_, v_, BodyRange::All(*model_), &cache);
  return stiction::CalcKineticEnergy(*model_, cache, v_);
}

double Simulation::CalcContactStoredEnergy() const { return last_stepper_->ContactStoredEnergy(); }

double Simulation::CalcPotentialEnergy() const {
  KinematicsCache cache(*model_);
  CalcKinematics(*model_, q_, v_, BodyRange::All(*model_), &cache);
  return stiction::CalcPotentialEnergy(*model_, cache, q_);
}

}  // namespace stiction
