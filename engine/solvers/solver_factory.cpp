#include "engine/solvers/solver_factory.h"

#include <cmath>

#include "engine/common/error.h"

namespace stiction {

void ValidateSapParameters(const SapSolverParameters& p) {
  if (!std::isfinite(p.relative_tolerance) || p.relative_tolerance < 0 || p.relative_tolerance > 1) {
    throw InputError("solver relative tolerance must be in [0, 1]");
  }
  if (!std::isfinite(p.absolute_tolerance) || p.absolute_tolerance < 0) {
    throw InputError("solver absolute tolerance must be >= 0 and finite");
  }
  if (p.max_iterations < 1) throw InputError("solver maximum iterations must be >= 1");
  if (!(p.backtracking_rho > 0 && p.backtracking_rho < 1) || !(p.armijo_c > 0 && p.armijo_c < 1) ||
      !(p.backtracking_alpha_max > 0) || !(p.exact_alpha_max > 0)) {
    throw InputError("line search parameters out of range (0 < rho < 1, 0 < c < 1, alpha_max > 0)");
  }
  if (!(p.exact_line_search_tolerance > 0 && p.exact_line_search_tolerance < 1)) {
    throw InputError("exact line search tolerance must be in (0, 1)");
  }
}

void ValidateSolverSettings(const SolverSettings& settings) {
  bool known = false;
  for (std::string_view t : kSolverTypes) known = known || t == settings.type;
  if (!known) throw InputError("unknown solver '" + settings.type + "' (expected sap, canal, subadmm)");
  ValidateSapParameters(settings.sap);
  ValidateCanalParameters(settings.canal);
  ValidateSubAdmmParameters(settings.subadmm);
}

std::unique_ptr<ContactSolver> MakeContactSolver(const SolverSettings& settings) {
  if (settings.type == "canal") return std::make_unique<CanalSolver>(settings.canal);
  if (settings.type == "subadmm") return std::make_unique<SubAdmmSolver>(settings.subadmm);
  return std::make_unique<SapSolver>(settings.sap);
}

void ConfigureContactSolver(const SolverSettings& settings, std::unique_ptr<ContactSolver>* solver) {
  if (*solver == nullptr || (*solver)->name() != settings.type) {
    *solver = MakeContactSolver(settings);
    return;
  }
  if (auto* sap = dynamic_cast<SapSolver*>(solver->get())) sap->set_parameters(settings.sap);
  if (auto* canal = dynamic_cast<CanalSolver*>(solver->get())) canal->set_parameters(settings.canal);
  if (auto* admm = dynamic_cast<SubAdmmSolver*>(solver->get())) admm->set_parameters(settings.subadmm);
}

}  // namespace stiction
