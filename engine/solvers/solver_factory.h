#pragma once
// Builds the contact solver of a type (the registry of types and their
// parameters is engine/parameters/solver_settings.h).
#include <memory>

#include "engine/parameters/solver_settings.h"
#include "engine/solvers/contact_solver.h"

namespace stiction {

/// A new solver of settings.type, island by island as its island settings
/// say (island_solver.h). `settings` must be valid (ValidateSolverSettings).
std::unique_ptr<ContactSolver> MakeContactSolver(const SolverSettings& settings);
/// A new solver of settings.type that solves every problem whole.
std::unique_ptr<ContactSolver> MakeSingleContactSolver(const SolverSettings& settings);
/// Makes *solver the configured one: same type → new parameters, keeping
/// its scratch; otherwise a new solver.
void ConfigureContactSolver(const SolverSettings& settings, std::unique_ptr<ContactSolver>* solver);

}  // namespace stiction
