#include "engine/multibody/gravity_compensation.h"

#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"

namespace stiction {

void AddGravityCompensation(const MultibodyModel& model, const GravityCompensation& comp, const VectorX& q,
                            VectorX* tau) {
  if (comp.velocities.empty()) return;
  const VectorX zero = VectorX::Zero(model.num_velocities());
  KinematicsCache cache(model);
  CalcKinematics(model, q, zero, BodyRange::All(model), &cache);
  // Inverse dynamics at v = 0 and v̇ = 0: τ = C·0 − τ_g = −τ_g, the force
  // that holds the configuration.
  VectorX hold = VectorX::Zero(model.num_velocities());
  for (int t : comp.trees) CalcTreeInverseDynamics(model, cache, t, zero, &hold);
  for (int v : comp.velocities) (*tau)[v] += hold[v];
}

}  // namespace stiction
