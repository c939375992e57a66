#pragma once
// What the exact-NCP solvers (CANAL, SubADMM) share in their parameters:
// the error term of the Signorini condition for overlapping contacts
// (engine/solvers/ncp_constraints.h, NcpErrorTerm).
#include "engine/parameters/parameter_binding.h"

namespace stiction {

/// Key `penetration_recovery`: the fraction r in (0, 1] of an overlap φ0 < 0
/// removed per step (e_n = r φ0/δt), bound to *recovery.
ParameterBinding PenetrationRecoveryParameter(double* recovery);

}  // namespace stiction
