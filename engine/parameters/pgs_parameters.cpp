#include "engine/parameters/pgs_parameters.h"

#include "engine/parameters/ncp_parameters.h"

namespace stiction {

ParameterTable BindParameters(PgsSolverParameters& p) {
  const ParameterTable own = {
      {"regularized", "",
       "solve the regularized dual of SAP's convex problem (MuJoCo's PGS) instead of the exact NCP", &p.regularized,
       {}},
      {"relaxation", "", "SOR factor omega: each local update moves omega times its Gauss-Seidel step",
       &p.relaxation, OpenRange(0, 2)},
      {"tolerance", "m/s", "stop when no constraint's velocity changes by more than this in a sweep", &p.tolerance,
       kPositive},
      {"max_iterations", "", "Gauss-Seidel sweeps; at the cap the last iterate is used", &p.max_iterations,
       ClosedRange(1, 1e9)},
      PenetrationRecoveryParameter(&p.penetration_recovery),
      SplitRecoveryParameter(&p.split_recovery),
      {"warm_start", "", "start gamma from the previous step's values", &p.warm_start, {}},
  };
  return AppendParameters(own, BindParameters(p.islands));
}

}  // namespace stiction
