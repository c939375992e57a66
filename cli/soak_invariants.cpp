#include "cli/soak_invariants.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/multibody/kinematics.h"

namespace stiction::cli {

bool StateIsFinite(const VectorX& q, const VectorX& v) { return q.allFinite() && v.allFinite(); }

bool StateIsFinite(const Simulation& sim) { return StateIsFinite(sim.positions(), sim.velocities()); }

double DeepestPenetration(const std::vector<ContactReport>& contacts) {
  double deepest = 0;
  for (const ContactReport& c : contacts) {
    if (std::isnan(c.phi)) return std::numeric_limits<double>::quiet_NaN();
    if (-c.phi > deepest) deepest = -c.phi;
  }
  return deepest;
}

double MaxBodySpeed(const Simulation& sim) {
  double fastest = 0;
  for (const BodyState& b : sim.CalcBodyStates()) fastest = std::max(fastest, b.linear_velocity.norm());
  return fastest;
}

std::string DeepestContactBodies(const Simulation& sim) {
  const ContactReport* deepest = nullptr;
  for (const ContactReport& c : sim.contacts()) {
    if (deepest == nullptr || c.phi < deepest->phi) deepest = &c;
  }
  if (deepest == nullptr) return "";
  auto name = [&](int b) { return b == 0 ? std::string("world") : sim.model().body(b).name; };
  return name(deepest->body_a) + "/" + name(deepest->body_b);
}

void WorkMeter::BeginStep(const Simulation& sim, const std::vector<ExternalWrench>& wrenches) {
  const MultibodyModel& model = sim.model();
  dt_ = sim.time_step();
  v0_ = sim.velocities();
  tau_wrenches_ = VectorX::Zero(model.num_velocities());
  cartesian_J_.clear();
  const int num_controllers = sim.num_cartesian_impedances();
  if (wrenches.empty() && num_controllers == 0) return;
  KinematicsCache cache(model);
  CalcKinematics(model, sim.positions(), sim.velocities(), BodyRange::All(model), &cache);
  for (const ExternalWrench& w : wrenches) {
    Vector6 F;
    F << w.tau_W, w.f_W;
    tau_wrenches_ += CalcFrameJacobian(model, cache, w.body, w.p_WP).transpose() * F;
  }
  for (int i = 0; i < num_controllers; ++i) {
    const CartesianImpedance& c = sim.cartesian_impedance(i);
    const Vector3 p_WE = cache.X_WB[c.body] * c.X_BE.p;
    cartesian_J_.push_back(CalcFrameJacobian(model, cache, c.body, p_WE));
  }
}

StepWork WorkMeter::EndStep(const Simulation& sim, const StepStats& stats) const {
  if (stats.work_metered) return {stats.work_external_J, stats.work_actuators_J, stats.work_cartesian_J};
  const MultibodyModel& model = sim.model();
  const VectorX v_mid = 0.5 * (v0_ + sim.velocities());
  StepWork work;
  work.perturbation = dt_ * tau_wrenches_.dot(v_mid);
  const std::vector<double>& efforts = sim.actuator_efforts();
  const std::vector<std::string> names = sim.actuator_names();
  for (std::size_t i = 0; i < efforts.size() && i < names.size(); ++i) {
    const Joint& joint = model.joint(sim.actuator(names[i]).joint);
    work.actuators += dt_ * efforts[i] * v_mid[joint.v_start];
  }
  const std::vector<CartesianImpedanceEffort>& cartesian = sim.cartesian_efforts();
  for (std::size_t i = 0; i < cartesian.size() && i < cartesian_J_.size(); ++i) {
    Vector6 F;
    F << cartesian[i].torque_W, cartesian[i].force_W;
    work.cartesian += dt_ * F.dot(cartesian_J_[i] * v_mid);
    const CartesianImpedance& c = sim.cartesian_impedance(static_cast<int>(i));
    for (std::size_t k = 0; k < cartesian[i].posture.size() && k < c.posture.size(); ++k) {
      work.cartesian += dt_ * cartesian[i].posture[k] * v_mid[model.joint(c.posture[k].joint).v_start];
    }
  }
  return work;
}

double EnergyFloor(const MultibodyModel& model, double height_m) {
  double mass = 0;
  for (int b = 1; b < model.num_bodies(); ++b) mass += model.body(b).mass;
  const double g = model.gravity().norm() > 0 ? model.gravity().norm() : 9.81;
  return mass * g * height_m;
}

double SmallestRadiusOfGyration(const MultibodyModel& model, double fallback_m) {
  double smallest = std::numeric_limits<double>::infinity();
  for (int b = 1; b < model.num_bodies(); ++b) {
    const Body& body = model.body(b);
    if (model.joint(body.joint).type != JointType::kFree || !(body.mass > 0)) continue;
    smallest = std::min(smallest, std::sqrt(body.I_Bcm_B.trace() / (2 * body.mass)));
  }
  return std::isfinite(smallest) ? smallest : fallback_m;
}

}  // namespace stiction::cli
