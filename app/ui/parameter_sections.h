#pragma once
// The live-tuning sections of the left column: the Simulation section's δt
// and integrator, the Contact section (β, σ, every material) and the Solver
// section (type and every solver's parameters). Each field reaches the
// engine on the next step as soon as it is committed — a slider or a combo
// as it changes, a typed number on Enter or when the field loses focus —
// built from the engine's current values with that one field changed, so a
// refused value never blocks the others. A refused field stays red with the
// engine's reason; a field whose engine value differs from the scene's is
// marked "*", and each section's Revert restores the scene's values.
#include "app/ui/ui_state.h"
#include "engine/simulation.h"

namespace stiction::app {

class AppCommands;

/// δt and integrator (inside the Simulation section).
void DrawSimulationParameters(const Simulation& sim, UiState* ui, AppCommands* commands);
/// The Contact section's body.
void DrawContactParameters(const Simulation& sim, UiState* ui, AppCommands* commands);
/// The Solver section's body.
void DrawSolverParameters(const Simulation& sim, UiState* ui, AppCommands* commands);

}  // namespace stiction::app
