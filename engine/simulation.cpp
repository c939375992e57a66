#include "engine/simulation.h"

#include <chrono>
#include <cmath>

#include "engine/common/error.h"
#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/model_builder.h"
#include "engine/scene/scene_loader.h"
#include "engine/stepping/time_stepper.h"

namespace stiction {

Simulation::Simulation(const SceneDescription& scene) : scene_(scene) {
  BuiltModel built = BuildModel(scene_);
  model_ = std::move(built.model);
  q0_ = std::move(built.q0);
  v0_ = std::move(built.v0);
  stepper_ = std::make_unique<TimeStepper>(*model_);
  SetTimeStep(scene_.time_step);
  SetIntegrator(scene_.integrator);
  Reset();
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

std::string Simulation::solver_name() const { return scene_.solver.type; }

void Simulation::Reset() {
  q_ = q0_;
  v_ = v0_;
  time_ = 0;
}

void Simulation::SetState(const VectorX& q, const VectorX& v) {
  if (q.size() != model_->num_positions() || v.size() != model_->num_velocities()) {
    throw InputError("SetState: wrong state size");
  }
  if (!q.allFinite() || !v.allFinite()) throw InputError("SetState: non-finite state");
  q_ = q;
  v_ = v;
  model_->NormalizeQuaternions(&q_);
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
