#include "engine/parameters/sleep_parameters.h"

namespace stiction {

ParameterTable BindParameters(SleepParameters& p) {
  return {
      {"sleep", "",
       "put islands of bodies at rest to sleep (frozen, no cost) until a contact with a moving body, a force, an "
       "edit or a reset wakes them (theta-method)",
       &p.enabled, {}},
      {"sleep_linear_speed", "m/s", "a body is at rest while its centre of mass is slower than this",
       &p.linear_speed, ClosedRange(0, 10)},
      {"sleep_angular_speed", "rad/s", "... and it turns slower than this", &p.angular_speed, ClosedRange(0, 100)},
      {"sleep_time", "s", "an island sleeps once all its bodies have been at rest this long", &p.time,
       ClosedRange(0, 1e6)},
  };
}

}  // namespace stiction
