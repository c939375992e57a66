#pragma once
// Mathematical constants the engine shares.
#include <numbers>

namespace stiction {

inline constexpr double kPi = std::numbers::pi;

}  // namespace stiction
