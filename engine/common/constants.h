#pragma once
// Mathematical constants the engine shares.
#include <numbers>

namespace stiction {

inline constexpr double kPi = std::numbers::pi;
/// Standard gravity g0 [m/s²] (the reference acceleration of scenes without gravity).
inline constexpr double kStandardGravity = 9.80665;

}  // namespace stiction
