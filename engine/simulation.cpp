#include "engine/simulation.h"

#include <chrono>
#include <cmath>

#include "engine/common/error.h"
#include "engine/geometry/collision_world.h"
#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/model_builder.h"
#include "engine/scene/scene_loader.h"
#include "engine/stepping/time_stepper.h"

namespace stiction {

namespace {

ContactMaterial ToContactMaterial(const MaterialDescription& m) {
  ContactMaterial c;
  c.stiffness = m.stiffness;
  c.dissipation = m.dissipation;
  c.friction = m.friction;
  c.hc_dissipation = m.hc_dissipation;
  c.stiction_velocity = m.stiction_velocity;
  if (!m.contact_model.empty()) c.model = ParseContactModel(m.contact_model);
  return c;
}

void CheckMaterial(const std::string& name, const ContactMaterial& m) {
  if (!std::isfinite(m.stiffness) || !(m.stiffness > 0)) {
    throw InputError("material '" + name + "': stiffness must be positive and finite [N/m]");
  }
  if (!std::isfinite(m.dissipation) || m.dissipation < 0) {
    throw InputError("material '" + name + "': dissipation must be >= 0 and finite [s]");
  }
  if (!std::isfinite(m.friction) || m.friction < 0) {
    throw InputError("material '" + name + "': friction must be >= 0 and finite");
  }
  if (!std::isfinite(m.hc_dissipation) || m.hc_dissipation < 0) {
    throw InputError("material '" + name + "': hc_dissipation must be >= 0 and finite [s/m]");
  }
  if (!std::isfinite(m.stiction_velocity) || !(m.stiction_velocity > 0)) {
    throw InputError("material '" + name + "': stiction_velocity must be positive and finite [m/s]");
  }
}

}  // namespace

Simulation::Simulation(const SceneDescription& scene) : scene_(scene) {
  BuiltModel built = BuildModel(scene_);
  model_ = std::move(built.model);
  q0_ = std::move(built.q0);
  v0_ = std::move(built.v0);

  // Collision geometry of every body (by model index) and of the world.
  std::vector<CollisionGeometrySpec> specs;
  for (const GeometryDescription& g : scene_.world_geometries) specs.push_back({0, g});
  for (const BodyDescription& b : scene_.bodies) {
    const int index = model_->FindBody(b.name);
    for (const GeometryDescription& g : b.geometries) specs.push_back({index, g});
  }
  // Bodies joined by a joint do not collide, except with the world, so that
  // a body on a rail or hinge to the world still rests on the ground.
  CollisionFilter filter;
  for (const Joint& j : model_->joints()) {
    if (j.parent != 0) filter.ExcludeBodyPair(j.parent, j.child);
  }
  // Likewise bodies joined by a weld or ball constraint.
  auto body_index = [&](const std::string& name) {
    return name == "world" ? 0 : model_->FindBody(name);
  };
  std::vector<BodyConstraint> body_constraints;
  for (const ConstraintDescription& c : scene_.constraints) {
    BodyConstraint bc;
    bc.kind = c.type == BodyConstraintType::kWeld ? BodyConstraintKind::kWeld : BodyConstraintKind::kBall;
    bc.body_a = body_index(c.body_a);
    bc.body_b = body_index(c.body_b);
    if (bc.body_a < 0 || bc.body_b < 0 || bc.body_a == bc.body_b) {
      throw InputError(c.where.ToString() + ": constraints: constraint '" + c.name +
                       "' needs two different known bodies");
    }
    bc.X_AFa = c.X_AFa;
    bc.X_BFb = c.X_BFb;
    if (bc.body_a != 0 && bc.body_b != 0) filter.ExcludeBodyPair(bc.body_a, bc.body_b);
    body_constraints.push_back(bc);
  }
  std::vector<ContactMaterial> materials;
  for (const CollisionGeometrySpec& spec : specs) {
    const std::string& name = spec.description.material;
    geometry_materials_.push_back(name);
    materials.push_back(GetMaterial(name));
  }
  collision_ = std::make_unique<CollisionWorld>(std::move(specs), std::move(filter));
  stepper_ = std::make_unique<TimeStepper>(*model_, collision_.get(), std::move(materials));
  stepper_->body_constraints() = std::move(body_constraints);
  for (const ActuatorDescription& a : scene_.actuators) {
    JointActuator actuator;
    for (int j = 0; j < model_->num_joints(); ++j) {
      if (model_->joint(j).name == a.joint) actuator.joint = j;
    }
    if (actuator.joint < 0 || (model_->joint(actuator.joint).type != JointType::kRevolute &&
                               model_->joint(actuator.joint).type != JointType::kPrismatic)) {
      throw InputError(a.where.ToString() + ": actuators: actuator '" + a.name +
                       "' needs a revolute or prismatic joint, got '" + a.joint + "'");
    }
    stepper_->actuators().push_back(actuator);
  }
  for (const ActuatorDescription& a : scene_.actuators) {
    SetActuatorGains(a.name, a.kp, a.kd, a.effort_limit);
    SetActuatorTarget(a.name, a.target_position, a.target_velocity);
  }

  SetTimeStep(scene_.time_step);
  SetIntegrator(scene_.integrator);
  ContactModelParameters contact;
  contact.near_rigid_threshold = scene_.solver.near_rigid_threshold;
  contact.stiction_tolerance = scene_.solver.stiction_tolerance;
  contact.model = ParseContactModel(scene_.contact_model).value_or(ContactModel::kSap);
  SetContactModelParameters(contact);
  SolverSettings solver;
  solver.type = scene_.solver.type;
  solver.sap.relative_tolerance = scene_.solver.relative_tolerance;
  solver.sap.absolute_tolerance = scene_.solver.absolute_tolerance;
  solver.sap.max_iterations = scene_.solver.max_iterations;
  solver.sap.line_search = scene_.solver.line_search == "backtracking" ? LineSearchKind::kBacktracking
                                                                       : LineSearchKind::kExact;
  solver.sap.exact_line_search_tolerance = scene_.solver.line_search_tolerance;
  solver.canal = scene_.solver.canal;
  solver.subadmm = scene_.solver.subadmm;
  SetSolver(solver);
  Reset();
}

void Simulation::SetContactModelParameters(const ContactModelParameters& p) {
  if (!std::isfinite(p.near_rigid_threshold) || p.near_rigid_threshold < 0) {
    throw InputError("near-rigid threshold beta must be >= 0 and finite");
  }
  if (!std::isfinite(p.stiction_tolerance) || !(p.stiction_tolerance > 0)) {
    throw InputError("stiction tolerance sigma must be positive and finite");
  }
  contact_params_ = p;
}

void Simulation::SetSolverParameters(const SapSolverParameters& p) {
  ValidateSapParameters(p);
  solver_.sap = p;
}

void Simulation::SetSolver(const SolverSettings& settings) {
  ValidateSolverSettings(settings);
  solver_ = settings;
}

ContactMaterial Simulation::GetMaterial(const std::string& name) const {
  for (const MaterialDescription& m : scene_.materials) {
    if (m.name == name) return ToContactMaterial(m);
  }
  throw InputError("unknown material '" + name + "'");
}

void Simulation::SetMaterial(const std::string& name, const ContactMaterial& material) {
  CheckMaterial(name, material);
  MaterialDescription* found = nullptr;
  for (MaterialDescription& m : scene_.materials) {
    if (m.name == name) found = &m;
  }
  if (found == nullptr) throw InputError("unknown material '" + name + "'");
  if (material.model) {
    // A pair's model is the one its materials name; two that name different
    // models would leave their pair ambiguous (docs/scene-format.md).
    for (const MaterialDescription& m : scene_.materials) {
      if (m.name != name && !m.contact_model.empty() && m.contact_model != ContactModelName(*material.model)) {
        throw InputError("material '" + name + "': contact model " + ContactModelName(*material.model) +
                         " conflicts with material '" + m.name + "' (" + m.contact_model +
                         "); clear one of them to use the scene's model");
      }
    }
  }
  found->stiffness = material.stiffness;
  found->dissipation = material.dissipation;
  found->friction = material.friction;
  found->hc_dissipation = material.hc_dissipation;
  found->stiction_velocity = material.stiction_velocity;
  found->contact_model = material.model ? ContactModelName(*material.model) : "";
  std::vector<ContactMaterial>& per_geometry = stepper_->materials();
  for (size_t g = 0; g < geometry_materials_.size(); ++g) {
    if (geometry_materials_[g] == name) per_geometry[g] = material;
  }
}

const std::vector<ContactReport>& Simulation::contacts() const { return stepper_->contacts(); }
const ContactProblem& Simulation::last_contact_problem() const { return stepper_->problem(); }

const SolverResult& Simulation::solver_result() const { return stepper_->solver_result(); }

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

void Simulation::SetActuatorTarget(const std::string& name, double position, double velocity) {
  const size_t i = FindActuator(name);
  if (!std::isfinite(position) || !std::isfinite(velocity)) {
    throw InputError("actuator '" + name + "': target position and velocity must be finite");
  }
  scene_.actuators[i].target_position = position;
  scene_.actuators[i].target_velocity = velocity;
  JointActuator& a = stepper_->actuators()[i];
  a.target_position = position;
  a.target_velocity = velocity;
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
  scene_.actuators[i].kp = kp;
  scene_.actuators[i].kd = kd;
  scene_.actuators[i].effort_limit = effort_limit;
  JointActuator& a = stepper_->actuators()[i];
  a.kp = kp;
  a.kd = kd;
  a.effort_limit = effort_limit;
}

const std::vector<double>& Simulation::actuator_efforts() const {
  return stepper_->actuator_efforts();
}

Simulation::~Simulation() = default;
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;

Simulation Simulation::FromFile(const std::string& path,
                                const std::vector<std::string>& overrides) {
  return Simulation(LoadSceneFile(path, overrides));
}

double Simulation::time_step() const { return scene_.time_step; }

void Simulation::SetTimeStep(double dt) {
  if (!std::isfinite(dt) || !(dt > 0)) {
    throw InputError("time_step: must be finite and positive, got " + std::to_string(dt));
  }
  scene_.time_step = dt;
}

const IntegratorDescription& Simulation::integrator() const { return scene_.integrator; }

void Simulation::SetIntegrator(const IntegratorDescription& integrator) {
  for (double x : {integrator.theta, integrator.theta_vq}) {
    if (!std::isfinite(x) || x < 0 || x > 1) {
      throw InputError("integrator: theta and theta_vq must be in [0, 1]");
    }
  }
  scene_.integrator = integrator;
}


void Simulation::Reset() {
  q_ = q0_;
  v_ = v0_;
  time_ = 0;
  step_index_ = 0;
  stepper_->ClearSolverWarmStart();
}

void Simulation::SetState(const VectorX& q, const VectorX& v) {
  if (q.size() != model_->num_positions() || v.size() != model_->num_velocities()) {
    throw InputError("SetState: wrong state size");
  }
  if (!q.allFinite() || !v.allFinite()) throw InputError("SetState: non-finite state");
  q_ = q;
  v_ = v;
  model_->NormalizeQuaternions(&q_);
  stepper_->ClearSolverWarmStart();
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

StepResult Simulation::Step() {
  const auto start = std::chrono::steady_clock::now();
  StepResult result;
  StepperParameters params;
  params.dt = scene_.time_step;
  params.theta = {scene_.integrator.theta, scene_.integrator.theta_vq};
  params.contact = contact_params_;
  params.solver = solver_;
  VectorX tau_ext;
  if (!wrenches_.empty()) {
    // Generalized forces τ = Jᵀ [τ_W; f_W] at the start-of-step configuration.
    tau_ext = VectorX::Zero(model_->num_velocities());
    KinematicsCache cache(*model_);
    CalcKinematics(*model_, q_, v_, BodyRange::All(*model_), &cache);
    for (const ExternalWrench& w : wrenches_) {
      Vector6 F;
      F << w.tau_W, w.f_W;
      tau_ext += CalcFrameJacobian(*model_, cache, w.body, w.p_WP).transpose() * F;
    }
  }
  VectorX q, v;
  result.status = stepper_->Step(params, q_, v_, wrenches_.empty() ? nullptr : &tau_ext, &q, &v,
                                 &result.stats, &result.message);
  if (result.status == StepStatus::kSuccess) {
    q_ = std::move(q);
    v_ = std::move(v);
    time_ += scene_.time_step;
    ++step_index_;
  }
  result.stats.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

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

double Simulation::CalcPotentialEnergy() const {
  KinematicsCache cache(*model_);
  CalcKinematics(*model_, q_, v_, BodyRange::All(*model_), &cache);
  return stiction::CalcPotentialEnergy(*model_, cache, q_);
}

}  // namespace stiction
