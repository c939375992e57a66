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
  };
  return AppendParameters(own, BindParameters(p.islands));
}

void ValidateSapParameters(const SapSolverParameters& p) {
  CheckParameterRanges("sap", p);
  if (!(p.backtracking_rho > 0 && p.backtracking_rho < 1) || !(p.armijo_c > 0 && p.armijo_c < 1) ||
      !(p.backtracking_alpha_max > 0) || !(p.exact_alpha_max > 0)) {
    throw InputError("line search parameters out of range (0 < rho < 1, 0 < c < 1, alpha_max > 0)");
  }
}

}  // namespace stiction
