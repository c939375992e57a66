#pragma once
// What the grasp is doing, per finger, from the last step's contacts: grip
// normal force, friction utilisation |γ_t|/(μ γ_n), slip speed of the held
// object relative to the finger, stick or slip ([SAP] Sec. V-A regions).
#include <string>
#include <vector>

#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

namespace stiction {

struct FingerReadout {
  std::string name;            ///< The finger's name (gripper_controller.h).
  int num_contacts = 0;        ///< Contacts between this finger's links and a non-gripper body.
  double normal_force = 0;     ///< Σ γ_n / δt over them [N].
  /// max over the contacts of |γ_t| / (μ γ_n) (1 = at the friction cone's
  /// edge, sliding); 0 without normal impulse. A pressure-field patch counts
  /// as one contact: |Σ γ_t| / Σ μ γ_n over its polygons.
  double friction_utilisation = 0;
  /// max over the contacts of the tangential speed of the object relative to
  /// the finger, ‖v_t‖ at the end of the step [m/s].
  double slip_speed = 0;
  bool slipping = false;       ///< Some contact (a patch: most of its load) is in the sliding region.
};

struct GraspReadout {
  std::vector<FingerReadout> fingers;  ///< In the gripper's finger order.
  /// The body at least two fingers press, the one with the largest force
  /// left when the strongest finger's is taken away (with two fingers: the
  /// weaker finger's force), i.e. what the others oppose to it; −1: none.
  int held_body = -1;
  std::string held_name;
  bool holding() const { return held_body > 0; }
};

/// From sim.contacts() (the last step); `dt` is that step's δt [s].
GraspReadout CalcGraspReadout(const Simulation& sim, const GripperController& gripper, double dt);

}  // namespace stiction
