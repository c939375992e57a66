#pragma once
// What the grasp is doing, per finger, from the last step's contacts: grip
// normal force, friction utilisation |γ_t|/(μ γ_n), slip speed of the held
// object relative to the finger, stick or slip ([SAP] Sec. V-A regions).
#include <array>
#include <string>

#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

namespace stiction {

struct FingerReadout {
  int num_contacts = 0;        ///< Contacts between this finger and a non-gripper body.
  double normal_force = 0;     ///< Σ γ_n / δt over them [N].
  /// max over the contacts of |γ_t| / (μ γ_n) (1 = at the friction cone's
  /// edge, sliding); 0 without normal impulse.
  double friction_utilisation = 0;
  /// max over the contacts of the tangential speed of the object relative to
  /// the finger, ‖v_t‖ at the end of the step [m/s].
  double slip_speed = 0;
  bool slipping = false;       ///< Some contact is in the sliding region.
};

struct GraspReadout {
  std::array<FingerReadout, 2> fingers;  ///< Left, right.
  int held_body = -1;         ///< The body both fingers press (largest force); −1: none.
  std::string held_name;
  bool holding() const { return held_body > 0; }
};

/// From sim.contacts() (the last step); `dt` is that step's δt [s].
GraspReadout CalcGraspReadout(const Simulation& sim, const GripperController& gripper, double dt);

}  // namespace stiction
