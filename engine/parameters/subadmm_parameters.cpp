#include "engine/parameters/subadmm_parameters.h"

#include "engine/common/error.h"
#include "engine/parameters/ncp_parameters.h"

namespace stiction {

ParameterTable BindParameters(SubAdmmSolverParameters& p) {
  const ParameterTable own = {
      {"initial_penalty", "kg", "beta0; 0 = the paper's rule ([CANAL] Sec. VI-D, geometric mean of pseudo-densities)",
       &p.initial_penalty, kNonNegative},
      {"penalty_balance", "", "gamma of Eq. (43): rebalance beta when one residual exceeds gamma times the other",
       &p.penalty_balance, Above(1)},
      {"tolerance", "", "stop when theta_p + theta_d is below this (Eq. 42; m/s and N s summed)", &p.tolerance,
       kPositive},
      {"max_iterations", "", "ADMM iterations; at the cap the last iterate is used", &p.max_iterations,
       ClosedRange(1, 1e9)},
      {"num_threads", "", "threads for the per-tree updates (Eq. 34)", &p.num_threads, ClosedRange(1, 256)},
      PenetrationRecoveryParameter(&p.penetration_recovery),
      SplitRecoveryParameter(&p.split_recovery),
      {"warm_start", "", "start lambda from the previous step's values", &p.warm_start, {}},
  };
  return AppendParameters(own, BindParameters(p.islands));
}

}  // namespace stiction
