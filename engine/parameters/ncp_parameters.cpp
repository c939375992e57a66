#include "engine/parameters/ncp_parameters.h"

namespace stiction {

ParameterBinding PenetrationRecoveryParameter(double* recovery) {
  return {"penetration_recovery", "", "fraction r of an overlap removed per step (e_n = r phi0/dt)", recovery,
          {0, 1, true, false}};
}

}  // namespace stiction
