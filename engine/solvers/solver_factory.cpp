#include "engine/solvers/solver_factory.h"

#include "engine/solvers/canal_solver.h"
#include "engine/solvers/island_solver.h"
#include "engine/solvers/pgs_solver.h"
#include "engine/solvers/sap_solver.h"
#include "engine/solvers/subadmm_solver.h"

namespace stiction {

std::unique_ptr<ContactSolver> MakeSingleContactSolver(const SolverSettings& settings) {
  switch (settings.type) {
    case SolverType::kSap:
      return std::make_unique<SapSolver>(settings.sap);
    case SolverType::kCanal:
      return std::make_unique<CanalSolver>(settings.canal);
    case SolverType::kSubAdmm:
      return std::make_unique<SubAdmmSolver>(settings.subadmm);
    case SolverType::kPgs:
      return std::make_unique<PgsSolver>(settings.pgs);
  }
  return std::make_unique<SapSolver>(settings.sap);  // Unreachable.
}

std::unique_ptr<ContactSolver> MakeContactSolver(const SolverSettings& settings) {
  return std::make_unique<IslandSolver>(settings);
}

void ConfigureContactSolver(const SolverSettings& settings, std::unique_ptr<ContactSolver>* solver) {
  if (*solver == nullptr || (*solver)->type() != settings.type) {
    *solver = MakeContactSolver(settings);
    return;
  }
  (*solver)->SetParameters(settings);
}

}  // namespace stiction
