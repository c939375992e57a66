#pragma once
// Sleeping islands (engine/stepping/sleep_tracker.h): bodies at rest stop
// costing until something touches them. Keys at `solver:`'s top level
// (`solver.sleep`, ...), live like every other solver key.
#include "engine/parameters/parameter_binding.h"

namespace stiction {

struct SleepParameters {
  /// Put islands of bodies at rest to sleep. Off by default: a sleeping
  /// body is frozen (v = 0, q unchanged) until woken, which is an
  /// approximation a user turns on for scenes with many resting bodies.
  bool enabled = false;
  /// A body is at rest while the speed of its centre of mass is below
  /// linear_speed [m/s] and its angular speed below angular_speed [rad/s].
  double linear_speed = 1e-3;
  double angular_speed = 1e-2;
  /// An island sleeps once every body in it has been at rest this long [s].
  double time = 0.5;
};

/// `sleep`, `sleep_linear_speed`, `sleep_angular_speed`, `sleep_time`.
ParameterTable BindParameters(SleepParameters& p);

}  // namespace stiction
