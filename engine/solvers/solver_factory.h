#pragma once
// Which contact solver runs, with the parameters of every solver (so that a
// switch back restores what was set), and the factory that builds it.
#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "engine/solvers/canal_solver.h"
#include "engine/solvers/contact_solver.h"
#include "engine/solvers/sap_solver.h"
#include "engine/solvers/subadmm_solver.h"

namespace stiction {

/// Solver names, as in scene files (`solver.type`), --solver and the viewer.
inline constexpr std::array<std::string_view, 3> kSolverTypes = {"sap", "canal", "subadmm"};

struct SolverSettings {
  std::string type = "sap";  ///< One of kSolverTypes.
  SapSolverParameters sap;
  CanalSolverParameters canal;
  SubAdmmSolverParameters subadmm;
};

/// Throws InputError naming the parameter when out of range or NaN.
void ValidateSapParameters(const SapSolverParameters& p);
/// Validates the type and every solver's parameters. Throws InputError.
void ValidateSolverSettings(const SolverSettings& settings);

/// A new solver of settings.type with its parameters (settings validated).
std::unique_ptr<ContactSolver> MakeContactSolver(const SolverSettings& settings);
/// Makes *solver the configured one: same type → new parameters, keeping its
/// warm-start state; otherwise a new solver.
void ConfigureContactSolver(const SolverSettings& settings, std::unique_ptr<ContactSolver>* solver);

}  // namespace stiction
