#pragma once
// Which contact solver runs, with the parameters of every solver (so that a
// switch back restores what was set), and the registry of solver types: the
// one place a solver's name, description, properties and parameter keys are
// listed. The factory that builds a solver of a type is
// engine/solvers/solver_factory.h.
#include <optional>
#include <span>
#include <string_view>

#include "engine/parameters/canal_parameters.h"
#include "engine/parameters/island_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/pgs_parameters.h"
#include "engine/parameters/sap_parameters.h"
#include "engine/parameters/sleep_parameters.h"
#include "engine/parameters/speculative_margin_parameters.h"
#include "engine/parameters/subadmm_parameters.h"

namespace stiction {

enum class SolverType { kSap, kCanal, kSubAdmm, kPgs };

/// A wall-clock budget per step for whichever solver runs ([CANAL] Sec. VII:
/// the manipulation demos give CANAL and SubADMM 0.5 and 1 ms per step).
/// The iteration budget is each solver's own `max_iterations`.
struct SolverBudget {
  /// Milliseconds of contact solve per step; 0 = no budget. A solver that
  /// reaches it stops and the step goes on with its last iterate
  /// (SolverResult::budget_hit), as at an AL iteration cap.
  double time_ms = 0;
  /// The θ-method's fallback for a step that fails (stage 1 or the contact
  /// solve short of convergence, or a non-finite result): it is taken again
  /// as two steps of δt/2, each halved again when it fails, down to
  /// δt/2^max_step_halvings, in [0, 6]; 0: the step fails at once. A
  /// contact solver other than SAP that fails first hands the step to SAP.
  /// NMDP schemes subdivide by their own `nmdp.max_subdivisions`.
  int max_step_halvings = 3;
};

/// The keys `budget_ms` and `max_step_halvings` at `solver:`'s top level.
ParameterTable BindParameters(SolverBudget& b);

struct SolverSettings {
  SolverType type = SolverType::kSap;
  SolverBudget budget;
  SleepParameters sleep;  ///< Sleeping islands, whichever solver runs (θ-method).
  SpeculativeMarginParameters margin;  ///< The contact query's speculative margin (θ-method).
  SapSolverParameters sap;
  CanalSolverParameters canal;
  SubAdmmSolverParameters subadmm;
  PgsSolverParameters pgs;
};

struct SolverTypeInfo {
  SolverType type;
  std::string_view name;         ///< As scenes (`solver.type`), --solver and the viewer spell it.
  std::string_view title;        ///< As messages name it: "SAP", "CANAL", "SubADMM".
  std::string_view description;  ///< One line.
  /// Whether, with these settings, it solves the exact Signorini–Coulomb NCP
  /// ([CANAL] Eq. 5): contacts and joint limits are hard constraints, the
  /// contact regularization (R, v̂) is unused, and a contact's stick/slip
  /// state is read from its impulse. (PGS solves either formulation.)
  bool (*exact_contact)(const SolverSettings& s) = nullptr;
  /// An augmented-Lagrangian solver: reports outer iterations, a constraint
  /// residual and a penalty (SolverResult), and at its iteration cap
  /// returns a usable last iterate.
  bool augmented_lagrangian = false;
  /// Its parameters sit in their own map `solver.<name>:`; false for SAP,
  /// whose keys sit at `solver:`'s top level.
  bool own_map = false;
  /// Binds its parameters within the settings (the keys of its map).
  ParameterTable (*bind)(SolverSettings& s) = nullptr;
  /// Range and cross-parameter checks of its parameters; throws InputError.
  void (*validate)(const SolverSettings& s) = nullptr;
  /// The fraction of an overlap the NCP's error term removes per step
  /// (NcpErrorTerm): its own `penetration_recovery` (0 with
  /// `split_recovery`), or CANAL's for a
  /// solver without one (SAP), so that the common NCP residual
  /// (engine/solvers/ncp_residual.h) is measured against one problem.
  double (*penetration_recovery)(const SolverSettings& s) = nullptr;
  /// The fraction of what overlaps after the step that a position
  /// correction removes (`split_recovery`, engine/solvers/position_recovery.h;
  /// penetration_recovery above is then 0); 0: none.
  double (*position_recovery)(const SolverSettings& s) = nullptr;
  /// Its island settings (engine/solvers/islands.h) within the settings.
  const IslandParameters& (*islands)(const SolverSettings& s) = nullptr;
};

/// Every solver, in the order help texts and the viewer list them.
std::span<const SolverTypeInfo> SolverTypes();
const SolverTypeInfo& GetSolverTypeInfo(SolverType type);
/// "sap", "canal", "subadmm", "pgs".
std::string_view SolverTypeName(SolverType type);
/// The solver called `name`; nullopt if there is none.
std::optional<SolverType> ParseSolverType(std::string_view name);

/// Validates every solver's parameters (not only the chosen one's, so that
/// a later switch cannot meet a bad value). Throws InputError naming the
/// solver and the parameter.
void ValidateSolverSettings(const SolverSettings& settings);
/// The keys at `solver:`'s top level that belong to no one solver: the
/// budget and halving of a step (SolverBudget), then sleeping
/// (SleepParameters), then the speculative margin
/// (SpeculativeMarginParameters).
ParameterTable BindStepParameters(SolverSettings& s);

}  // namespace stiction
