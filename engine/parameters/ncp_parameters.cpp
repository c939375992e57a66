#include "engine/parameters/ncp_parameters.h"

namespace stiction {

ParameterBinding PenetrationRecoveryParameter(double* recovery) {
  return {"penetration_recovery", "", "fraction r of an overlap removed per step (e_n = r phi0/dt)", recovery,
          {0, 1, true, false}};
}

ParameterBinding SplitRecoveryParameter(bool* split) {
  return {"split_recovery", "",
          "remove overlaps by a position correction after the step (split impulse: no kinetic energy, no corner "
          "jam) instead of a separating velocity in the NCP",
          split,
          {}};
}

}  // namespace stiction
