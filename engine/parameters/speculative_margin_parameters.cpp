#include "engine/parameters/speculative_margin_parameters.h"

namespace stiction {

ParameterTable BindParameters(SpeculativeMarginParameters& p) {
  return {
      {"speculative_body_extents", "",
       "bound each body's approach speed by |v_cm| + r |omega| with r its own extent about its centre of mass "
       "(false: r = 0.1 m for every body); small spinning bodies (marbles) then widen the speculative margin "
       "less (theta-method)",
       &p.body_extents, {}},
  };
}

}  // namespace stiction
