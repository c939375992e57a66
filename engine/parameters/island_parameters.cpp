#include "engine/parameters/island_parameters.h"

namespace stiction {

ParameterTable BindParameters(IslandParameters& p) {
  return {
      {"islands", "", "solve independent islands of trees as separate problems", &p.enabled, {}},
      {"parallel_islands", "", "solve the islands on two threads when they are large enough", &p.parallel, {}},
      {"parallel_min_velocities", "", "velocities in all below which the islands stay on one thread",
       &p.parallel_min_velocities, ClosedRange(0, 1e9)},
  };
}

ParameterTable AppendParameters(ParameterTable table, const ParameterTable& more) {
  table.insert(table.end(), more.begin(), more.end());
  return table;
}

}  // namespace stiction
