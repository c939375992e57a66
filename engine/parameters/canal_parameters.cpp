#include "engine/parameters/canal_parameters.h"

#include "engine/common/error.h"
#include "engine/parameters/ncp_parameters.h"

namespace stiction {

ParameterTable BindParameters(CanalSolverParameters& p) {
  const ParameterTable own = {
      {"initial_penalty_ratio", "", "rho0: AL penalty at the start of each step, times each constraint's effective mass",
       &p.initial_penalty_ratio, kPositive},
      {"warm_penalty_ratio", "", "rho0 of a warm-started solve (most constraints carry the last step's impulses)",
       &p.warm_penalty_ratio, kPositive},
      {"penalty_growth", "", "kappa of Eq. (27): rho <- min(kappa rho, rho_max) when the residual stalls",
       &p.penalty_growth, Above(1)},
      {"max_penalty_ratio", "", "rho_max of Eq. (27), >= initial_penalty_ratio", &p.max_penalty_ratio, kPositive},
      {"residual_ratio", "", "zeta of Alg. 1: rho grows unless ||J v - z|| shrank below zeta times its last value",
       &p.residual_ratio, OpenRange(0, 1)},
      {"tolerance", "m/s", "stop when ||J v - z|| and the change of J v are below this", &p.tolerance, kPositive},
      {"max_iterations", "", "AL (outer) iterations; at the cap the last iterate is used", &p.max_iterations,
       ClosedRange(1, 1e9)},
      {"newton_tolerance", "", "inner Newton stop, relative to the scaled momentum (as [SAP] Eq. (26))",
       &p.newton_tolerance, {0, 1, false, true}},
      {"max_newton_iterations", "", "Newton iterations per inner problem", &p.max_newton_iterations,
       ClosedRange(1, 1e9)},
      {"line_search_tolerance", "", "inner exact line search: stop at |dh/dalpha| <= this |dh/dalpha(0)|",
       &p.line_search_tolerance, OpenRange(0, 1)},
      PenetrationRecoveryParameter(&p.penetration_recovery),
      SplitRecoveryParameter(&p.split_recovery),
      {"acceleration_memory", "", "Anderson acceleration of the AL update: iterates mixed (0: the plain update)",
       &p.acceleration_memory, ClosedRange(0, 50)},
      {"warm_start", "", "start u and z from the previous step's values (Sec. V-D)", &p.warm_start, {}},
  };
  return AppendParameters(own, BindParameters(p.islands));
}

void ValidateCanalParameters(const CanalSolverParameters& p) {
  CheckParameterRanges("canal", p);
  if (!(p.max_penalty_ratio >= p.initial_penalty_ratio)) {
    throw InputError("canal: max_penalty_ratio (rho_max) must be >= initial_penalty_ratio");
  }
  if (!(p.warm_penalty_ratio <= p.max_penalty_ratio)) {
    throw InputError("canal: warm_penalty_ratio must be <= max_penalty_ratio (rho_max)");
  }
  if (p.dense_max_size < 0) throw InputError("canal: dense_max_size must be >= 0");
}

}  // namespace stiction
