#pragma once
// What the exact-NCP solvers (CANAL, SubADMM, exact PGS) share in their
// parameters: the error term of the Signorini condition for overlapping
// contacts (engine/solvers/ncp_constraints.h, NcpErrorTerm), and whether
// overlaps are removed there or in positions after the step
// (engine/solvers/position_recovery.h).
#include "engine/parameters/parameter_binding.h"

namespace stiction {

/// Key `penetration_recovery`: the fraction r in (0, 1] of an overlap φ0 < 0
/// removed per step (e_n = r φ0/δt), bound to *recovery.
ParameterBinding PenetrationRecoveryParameter(double* recovery);

/// Key `split_recovery`: remove overlaps by a position correction after the
/// step (a split impulse, engine/solvers/position_recovery.h) instead of a
/// separating velocity inside the velocity NCP; bound to *split.
ParameterBinding SplitRecoveryParameter(bool* split);

/// The r of the velocity NCP's error term for parameters `p` with
/// `penetration_recovery` and `split_recovery`: 0 when overlaps are removed
/// in positions (the velocity problem then only keeps them from deepening).
template <typename Parameters>
double VelocityRecovery(const Parameters& p) {
  return p.split_recovery ? 0.0 : p.penetration_recovery;
}

/// The r of the position correction after the step: 0 without split recovery.
template <typename Parameters>
double PositionRecoveryFraction(const Parameters& p) {
  return p.split_recovery ? p.penetration_recovery : 0.0;
}

}  // namespace stiction
