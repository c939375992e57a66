#pragma once
// Whether and how a contact solver splits its problem into islands
// (engine/solvers/islands.h): groups of trees coupled by constraints, the
// connected components of [SAP] Sec. IV-D's forest graph. Every solver may
// use them; each solver's parameters hold their own, with its own defaults.
#include "engine/parameters/parameter_binding.h"

namespace stiction {

struct IslandParameters {
  /// Solve each island as a separate problem. For SAP ℓ_p is a sum over
  /// islands, so each island's Newton iteration is exactly SAP on that
  /// island, and a calm island stops iterating while another still resolves
  /// an impact; Eq. (26) is then checked per island. Reported: iterations,
  /// e_m and e_μ the largest over the islands; line-search iterations, cost
  /// and times their sums.
  bool enabled = true;
  /// With `enabled`: solve the islands on two threads (this one and a worker
  /// the solver keeps) when there are at least `parallel_min_velocities`
  /// velocities in all and a split of the islands in which the smaller share
  /// holds at least a fifth of them. The result is the same as on one
  /// thread, bit for bit (each island is solved by the same code on its own
  /// scratch; results are merged in island order). Off by default: on the
  /// project's 2-vCPU machine two threads deliver 1.1× the throughput of one
  /// (measured), so the hand-off never pays there (docs/benchmarks.md).
  bool parallel = false;
  int parallel_min_velocities = 120;  ///< ≥ 0.
};

/// `islands`, `parallel_islands`, `parallel_min_velocities`: the keys every
/// solver's parameters carry (each solver's table appends them).
ParameterTable BindParameters(IslandParameters& p);
/// `table` followed by the rows of `more`.
ParameterTable AppendParameters(ParameterTable table, const ParameterTable& more);

}  // namespace stiction
