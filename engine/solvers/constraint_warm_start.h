#pragma once
// Warm starts across steps ([CANAL] Sec. V-D: u and z from the previous time
// step). The stepper keeps each constraint's impulse and slack in a
// ConstraintHistory (engine/contact/constraint_history.h) and, before a
// solve, writes them into the constraints it recognizes
// (Constraint::warm_gamma, warm_slack); a solver that warm starts reads
// them back with LoadWarmStart.
#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/solvers/solver_layout.h"

namespace stiction {

/// For solvers: overwrites the rows (stacked in problem order, `layout`) of
/// *gamma and *slack of every constraint that carries warm-start values;
/// leaves the others. Returns how many constraints had values.
int LoadWarmStart(const ContactProblem& problem, const SolverLayout& layout, VectorX* gamma, VectorX* slack);

}  // namespace stiction
