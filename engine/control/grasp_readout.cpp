#include "engine/control/grasp_readout.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace stiction {

GraspReadout CalcGraspReadout(const Simulation& sim, const GripperController& gripper, double dt) {
  GraspReadout out;
  const int finger_body[2] = {gripper.left_finger_body(), gripper.right_finger_body()};
  // Normal force per (finger, object) to find the object both fingers press.
  std::map<int, double> force_on[2];
  for (const ContactReport& c : sim.contacts()) {
    for (int f = 0; f < 2; ++f) {
      int other = -1;
      if (c.body_a == finger_body[f]) other = c.body_b;
      if (c.body_b == finger_body[f]) other = c.body_a;
      if (other <= 0 || gripper.IsGripperBody(other)) continue;  // World or the gripper itself.
      FingerReadout& r = out.fingers[f];
      const double gamma_n = c.gamma_C.z();
      if (!(gamma_n > 0)) continue;  // Separating: no grip.
      ++r.num_contacts;
      r.normal_force += gamma_n / dt;
      force_on[f][other] += gamma_n / dt;
      const double gamma_t = c.gamma_C.head<2>().norm();
      if (c.mu > 0) r.friction_utilisation = std::max(r.friction_utilisation, gamma_t / (c.mu * gamma_n));
      r.slip_speed = std::max(r.slip_speed, c.vc.head<2>().norm());
      r.slipping = r.slipping || c.region == ConeRegion::kSliding;
    }
  }
  double best = 0;
  for (const auto& [body, f_left] : force_on[0]) {
    const auto right = force_on[1].find(body);
    if (right == force_on[1].end()) continue;
    const double f = std::min(f_left, right->second);
    if (f > best) {
      best = f;
      out.held_body = body;
    }
  }
  if (out.held_body > 0) out.held_name = sim.model().body(out.held_body).name;
  return out;
}

}  // namespace stiction
