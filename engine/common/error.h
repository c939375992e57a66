#pragma once
// Errors thrown at the engine's API edges (loading, parameter changes). The
// stepping loop itself never throws; it returns a StepStatus instead.
#include <stdexcept>
#include <string>

namespace stiction {

/// Bad input at an API edge: a malformed scene, an out-of-range parameter.
/// what() is a complete one-line message meant for the user, e.g.
/// "scenes/box.yaml:12: bodies[0].mass: must be positive, got -1".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace stiction
