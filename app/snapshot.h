#pragma once
// What the renderer and the panels read of the simulation after a frame's
// physics: an immutable copy, so that drawing never reaches into the engine.
// If physics ever moves to its own thread this is what it would hand over.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/simulation.h"

namespace stiction::app {

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
  // Contact points, impulses and stick/slip state will be added here when the
  // engine's contact solver reports them (issue 4, contact inspector).
};

/// Reads the simulation's current state into a snapshot.
inline Snapshot MakeSnapshot(const Simulation& sim, const StepStats& last_stats) {
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
  return s;
}

}  // namespace stiction::app
