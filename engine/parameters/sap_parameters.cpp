#include "engine/parameters/sap_parameters.h"

#include <array>

#include "engine/common/error.h"

namespace stiction {

namespace {

constexpr std::array<LineSearchInfo, 2> kLineSearches = {{
    {LineSearchKind::kExact, "exact",
     "rtsafe on dl/dalpha in (0, alpha_max], to line_search_tolerance ([SAP] Sec. IV-C)"},
    {LineSearchKind::kBacktracking, "backtracking", "alpha <- rho alpha from alpha_max until Armijo's rule holds"},
}};

}  // namespace

std::span<const LineSearchInfo> LineSearches() { return kLineSearches; }

const LineSearchInfo& GetLineSearchInfo(LineSearchKind kind) {
  for (const LineSearchInfo& info : kLineSearches) {
    if (info.kind == kind) return info;
  }
  return kLineSearches[0];  // Unreachable: every enumerator has an entry.
}

ParameterTable BindParameters(SapSolverParameters& p) {
  return {
      {"relative_tolerance", "", "epsilon_r of [SAP] Eq. (26)", &p.relative_tolerance, ClosedRange(0, 1)},
      {"absolute_tolerance", "sqrt(J)", "epsilon_a of [SAP] Eq. (26)", &p.absolute_tolerance, kNonNegative},
      {"max_iterations", "", "Newton iterations per step before the step fails", &p.max_iterations,
       ClosedRange(1, 1e9)},
      {"line_search_tolerance", "",
       "exact line search: stop at |dl/dalpha| <= this |dl/dalpha(0)|", &p.exact_line_search_tolerance,
       OpenRange(0, 1)},
      {"islands", "", "solve independent islands of trees as separate problems", &p.islands.enabled, {}},
      {"parallel_islands", "", "solve the islands on two threads when they are large enough",
       &p.islands.parallel, {}},
  };
}

void ValidateSapParameters(const SapSolverParameters& p) {
  SapSolverParameters copy = p;
  CheckParameters("sap", BindParameters(copy));
  if (!(p.backtracking_rho > 0 && p.backtracking_rho < 1) || !(p.armijo_c > 0 && p.armijo_c < 1) ||
      !(p.backtracking_alpha_max > 0) || !(p.exact_alpha_max > 0)) {
    throw InputError("line search parameters out of range (0 < rho < 1, 0 < c < 1, alpha_max > 0)");
  }
  if (p.islands.parallel_min_velocities < 0) throw InputError("sap: parallel_min_velocities must be >= 0");
}

}  // namespace stiction
