#include "engine/parameters/sap_parameters.h"

#include <array>

#include "engine/common/error.h"
#include "engine/common/named_choice.h"

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
  return ChoiceOf(LineSearches(), &LineSearchInfo::kind, kind);
}

ParameterTable BindParameters(SapSolverParameters& p) {
  const ParameterTable own = {
      {"relative_tolerance", "", "epsilon_r of [SAP] Eq. (26)", &p.relative_tolerance, ClosedRange(0, 1)},
      {"absolute_tolerance", "sqrt(J)", "epsilon_a of [SAP] Eq. (26)", &p.absolute_tolerance, kNonNegative},
      {"max_iterations", "", "Newton iterations per step before the step fails", &p.max_iterations,
       ClosedRange(1, 1e9)},
      {"line_search_tolerance", "",
       "exact line search: stop at |dl/dalpha| <= this |dl/dalpha(0)|", &p.exact_line_search_tolerance,
       OpenRange(0, 1)},
      {"backtracking_rho", "", "backtracking line search: step ratio", &p.backtracking_rho, OpenRange(0, 1)},
      {"armijo_c", "", "backtracking line search: Armijo's sufficient decrease", &p.armijo_c, OpenRange(0, 1)},
      {"backtracking_alpha_max", "", "backtracking line search: first step", &p.backtracking_alpha_max, kPositive},
  };
  return AppendParameters(own, BindParameters(p.islands));
}

void ValidateSapParameters(const SapSolverParameters& p) {
  CheckParameterRanges("sap", p);
  // The parameters scenes do not set (the viewer and the API do).
  SapSolverParameters copy = p;
  CheckParameters("sap", {
      {"exact_alpha_max", "", "exact line search bracket", &copy.exact_alpha_max, kPositive},
      {"max_line_search_iterations", "", "line-search samples", &copy.max_line_search_iterations,
       ClosedRange(1, 1e9)},
      {"cost_abs_tolerance", "J", "round-off stall test", &copy.cost_abs_tolerance, kNonNegative},
      {"cost_rel_tolerance", "", "round-off stall test", &copy.cost_rel_tolerance, kNonNegative},
      {"stall_momentum_error", "", "e_m below which a stall counts as converged", &copy.stall_momentum_error,
       kNonNegative},
      {"dense_max_size", "", "velocities up to which kAuto factors densely", &copy.dense_max_size,
       ClosedRange(0, 1e9)},
  });
}

}  // namespace stiction
