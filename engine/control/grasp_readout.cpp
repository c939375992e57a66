#include "engine/control/grasp_readout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace stiction {

GraspReadout CalcGraspReadout(const Simulation& sim, const GripperController& gripper, double dt) {
  GraspReadout out;
  const int n = gripper.num_fingers();
  out.fingers.resize(n);
  // Which finger each body belongs to (−1: none).
  std::vector<int> finger_of(sim.model().num_bodies(), -1);
  for (int f = 0; f < n; ++f) {
    out.fingers[f].name = gripper.finger_name(f);
    for (int b : gripper.finger_bodies(f)) finger_of[b] = f;
  }
  // Normal force per object and finger, to find what the fingers hold.
  std::map<int, std::vector<double>> force_on;
  // A pressure-field patch is judged as a whole: its rim polygons sit at the
  // cone's edge while the patch holds, so per (finger, surface) the net
  // friction over μ times the net normal impulse, and "sliding" when most
  // of its normal impulse is in sliding polygons.
  struct Patch {
    Vector3 gamma_t_W = Vector3::Zero();
    double gamma_n = 0, mu_gamma_n = 0, sliding_gamma_n = 0;
  };
  std::map<std::pair<int, int>, Patch> patches;
  for (const ContactReport& c : sim.contacts()) {
    for (const auto& [finger_body, other] : {std::pair{c.body_a, c.body_b}, std::pair{c.body_b, c.body_a}}) {
      const int f = finger_of[finger_body];
      if (f < 0 || other <= 0 || gripper.IsGripperBody(other)) continue;  // World or the gripper itself.
      FingerReadout& r = out.fingers[f];
      const double gamma_n = c.gamma_C.z();
      if (!(gamma_n > 0)) continue;  // Separating: no grip.
      ++r.num_contacts;
      r.normal_force += gamma_n / dt;
      std::vector<double>& per_finger = force_on[other];
      per_finger.resize(n, 0.0);
      per_finger[f] += gamma_n / dt;
      r.slip_speed = std::max(r.slip_speed, c.vc.head<2>().norm());
      if (c.surface >= 0) {
        Patch& p = patches[{f, c.surface}];
        p.gamma_t_W += c.R_WC.leftCols<2>() * c.gamma_C.head<2>();
        p.gamma_n += gamma_n;
        p.mu_gamma_n += c.mu * gamma_n;
        if (c.region == ConeRegion::kSliding) p.sliding_gamma_n += gamma_n;
        continue;
      }
      const double gamma_t = c.gamma_C.head<2>().norm();
      if (c.mu > 0) r.friction_utilisation = std::max(r.friction_utilisation, gamma_t / (c.mu * gamma_n));
      r.slipping = r.slipping || c.region == ConeRegion::kSliding;
    }
  }
  for (const auto& [key, p] : patches) {
    FingerReadout& r = out.fingers[key.first];
    if (p.mu_gamma_n > 0) r.friction_utilisation = std::max(r.friction_utilisation, p.gamma_t_W.norm() / p.mu_gamma_n);
    r.slipping = r.slipping || p.sliding_gamma_n > 0.5 * p.gamma_n;
  }
  double best = 0;
  for (const auto& [body, forces] : force_on) {
    const double total = std::accumulate(forces.begin(), forces.end(), 0.0);
    const double opposed = total - *std::max_element(forces.begin(), forces.end());
    if (opposed > best) {  // Zero unless two fingers press it.
      best = opposed;
      out.held_body = body;
    }
  }
  if (out.held_body > 0) out.held_name = sim.model().body(out.held_body).name;
  return out;
}

}  // namespace stiction
