#pragma once
// Gravity compensation (robots key `gravity_compensation`): on chosen joint
// velocities, the generalized force that holds the bodies outboard of them
// against gravity, τ = −τ_g(q) (inverse dynamics at v = 0, v̇ = 0), applied
// as an explicit force of the step at its start configuration, as a robot's
// controller adds gravity feed-forward to its joint PD. Only joint
// coordinates are compensated, never a floating base's: nothing floats.
// docs/scene-format.md, "Robots".
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/multibody/multibody_model.h"

namespace stiction {

struct GravityCompensation {
  std::vector<int> trees;       ///< The trees holding a compensated velocity (each once).
  std::vector<int> velocities;  ///< Compensated velocity indices (revolute and prismatic joints).
};

/// Adds −τ_g(q) on comp.velocities to *tau (size nv).
void AddGravityCompensation(const MultibodyModel& model, const GravityCompensation& comp, const VectorX& q,
                            VectorX* tau);

}  // namespace stiction
