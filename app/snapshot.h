#pragma once
// What the renderer and the panels read of the simulation after a frame's
// physics: an immutable copy, so that drawing never reaches into the engine.
// If physics ever moves to its own thread this is what it would hand over.
#include <string>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/simulation.h"

namespace stiction::app {

/// One contact point of the last step, in viewer terms (SI units).
struct ContactSnapshot {
  int body_a = 0, body_b = 0;        ///< Model body indices (0 = world).
  std::string name_a, name_b;
  Vector3 p_W = Vector3::Zero();     ///< Contact point [m].
  Matrix3 R_WC = Matrix3::Identity(); ///< Contact frame; z = normal from A to B.
  double phi = 0;                    ///< Signed distance at the step start [m] (< 0: overlap).
  double mu = 0;                     ///< Friction coefficient of the pair.
  Vector3 gamma_C = Vector3::Zero(); ///< Impulse on B in frame C [N s] (z: normal).
  Vector3 f_W = Vector3::Zero();     ///< Average force on B over the step, γ/δt, world [N].
  double slip_speed = 0;             ///< ‖v_t‖ of B relative to A [m/s].
  double utilisation = 0;            ///< |γ_t| / (μ γ_n); 0 without normal impulse.
  ConeRegion region = ConeRegion::kNoContact;
  double normal_force() const { return f_W.dot(R_WC.col(2)); }  ///< f_n [N].
  Vector3 normal_force_W() const { return normal_force() * R_WC.col(2); }
  Vector3 friction_force_W() const { return f_W - normal_force_W(); }
};

struct Snapshot {
  double time = 0;  ///< Simulated time [s].
  /// Pose of every model body in the world, indexed by model body (0 = the
  /// world, identity).
  std::vector<RigidTransform> X_WB;
  /// Centre of mass of every model body in the world [m] (index 0 unused).
  std::vector<Vector3> p_WBcm;
  /// Spatial velocity parts of every body (index 0 zero): origin velocity
  /// [m/s] and angular velocity [rad/s], world frame.
  std::vector<Vector3> v_WB, w_WB;
  StepStats last_stats;        ///< Statistics of the last step taken.
  double kinetic_energy = 0;   ///< [J]
  /// The contacts of the last step taken (empty after a load or a reset).
  std::vector<ContactSnapshot> contacts;
  /// Bodies drawn a second time, see-through, at these poses: the gripper's
  /// target pose (the teleop "ghost"). Empty when the scene has no gripper.
  std::vector<std::pair<int, RigidTransform>> ghost_bodies;
};

/// The state a contact glyph is coloured by.
inline bool IsSeparating(const ContactSnapshot& c) {
  return c.region == ConeRegion::kNoContact || !(c.gamma_C.z() > 0);
}
inline const char* ContactStateName(const ContactSnapshot& c) {
  if (IsSeparating(c)) return "separating";
  return c.region == ConeRegion::kStiction ? "stick" : "slip";
}

/// One contact of the last step, copied from Simulation::contacts().
inline ContactSnapshot MakeContactSnapshot(const Simulation& sim, const ContactReport& r, double dt) {
  ContactSnapshot c;
  c.body_a = r.body_a;
  c.body_b = r.body_b;
  const int nb = sim.model().num_bodies();
  c.name_a = r.body_a >= 0 && r.body_a < nb ? sim.model().body(r.body_a).name : "?";
  c.name_b = r.body_b >= 0 && r.body_b < nb ? sim.model().body(r.body_b).name : "?";
  if (r.body_a == 0) c.name_a = "world";
  if (r.body_b == 0) c.name_b = "world";
  c.p_W = r.p_W;
  c.R_WC = r.R_WC;
  c.phi = r.phi;
  c.mu = r.mu;
  c.gamma_C = r.gamma_C;
  c.f_W = r.R_WC * r.gamma_C / dt;
  c.slip_speed = r.vc.head<2>().norm();
  const double gamma_t = r.gamma_C.head<2>().norm();
  const double bound = r.mu * r.gamma_C.z();
  c.utilisation = bound > 0 ? gamma_t / bound : 0.0;
  c.region = r.region;
  return c;
}

/// Reads the simulation's current state into a snapshot.
/// `with_contacts`: copy Simulation::contacts() (false right after a load or
/// reset, when the engine still holds the reports of an older step).
/// `step_dt`: the δt of that step [s] (forces are γ/δt); 0: the current δt.
inline Snapshot MakeSnapshot(const Simulation& sim, const StepStats& last_stats, bool with_contacts = true,
                             double step_dt = 0) {
  Snapshot s;
  s.time = sim.time();
  const std::vector<BodyState> states = sim.CalcBodyStates();
  const int nb = sim.model().num_bodies();
  s.X_WB.assign(nb, RigidTransform::Identity());
  s.p_WBcm.assign(nb, Vector3::Zero());
  s.v_WB.assign(nb, Vector3::Zero());
  s.w_WB.assign(nb, Vector3::Zero());
  for (int b = 1; b < nb; ++b) {
    const BodyState& st = states[b - 1];
    s.X_WB[b] = RigidTransform{st.orientation.toRotationMatrix(), st.position};
    s.p_WBcm[b] = s.X_WB[b] * sim.model().body(b).com_B;
    s.v_WB[b] = st.linear_velocity;
    s.w_WB[b] = st.angular_velocity;
  }
  s.last_stats = last_stats;
  s.kinetic_energy = sim.CalcKineticEnergy();
  if (with_contacts) {
    const double dt = step_dt > 0 ? step_dt : sim.time_step();
    s.contacts.reserve(sim.contacts().size());
    for (const ContactReport& r : sim.contacts()) s.contacts.push_back(MakeContactSnapshot(sim, r, dt));
  }
  return s;
}

}  // namespace stiction::app
