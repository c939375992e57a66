#include "engine/parameters/solver_settings.h"

#include <array>

#include "engine/common/named_choice.h"
#include "engine/parameters/ncp_parameters.h"

namespace stiction {

namespace {

constexpr bool kAlways(const SolverSettings&) { return true; }
constexpr bool kNever(const SolverSettings&) { return false; }
double CanalRecovery(const SolverSettings& s) { return VelocityRecovery(s.canal); }
double NoPositionRecovery(const SolverSettings&) { return 0; }

constexpr std::array<SolverTypeInfo, 4> kSolverTypes = {{
    {SolverType::kSap, "sap", "SAP",
     "SAP: Newton on the unconstrained convex cost of compliant contact, exact line search ([SAP])",
     /*exact_contact=*/kNever, /*augmented_lagrangian=*/false, /*own_map=*/false,
     [](SolverSettings& s) { return BindParameters(s.sap); },
     [](const SolverSettings& s) { ValidateSapParameters(s.sap); }, CanalRecovery, NoPositionRecovery,
     [](const SolverSettings& s) -> const IslandParameters& { return s.sap.islands; }},
    {SolverType::kCanal, "canal", "CANAL",
     "CANAL: the exact Signorini-Coulomb NCP by an augmented Lagrangian with Newton inner solves ([CANAL] Alg. 1)",
     /*exact_contact=*/kAlways, /*augmented_lagrangian=*/true, /*own_map=*/true,
     [](SolverSettings& s) { return BindParameters(s.canal); },
     [](const SolverSettings& s) { ValidateCanalParameters(s.canal); }, CanalRecovery,
     [](const SolverSettings& s) { return PositionRecoveryFraction(s.canal); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.canal.islands; }},
    {SolverType::kSubAdmm, "subadmm", "SubADMM",
     "SubADMM: the exact NCP by ADMM with one subsystem per tree, parallel per tree ([CANAL] Alg. 2)",
     /*exact_contact=*/kAlways, /*augmented_lagrangian=*/true, /*own_map=*/true,
     [](SolverSettings& s) { return BindParameters(s.subadmm); },
     [](const SolverSettings& s) { ValidateSubAdmmParameters(s.subadmm); },
     [](const SolverSettings& s) { return VelocityRecovery(s.subadmm); },
     [](const SolverSettings& s) { return PositionRecoveryFraction(s.subadmm); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.subadmm.islands; }},
    {SolverType::kPgs, "pgs", "PGS",
     "PGS: projected Gauss-Seidel on the exact NCP or, regularized, on SAP's dual (the per-contact baseline of "
     "[CANAL] Sec. VII)",
     /*exact_contact=*/[](const SolverSettings& s) { return !s.pgs.regularized; }, /*augmented_lagrangian=*/false,
     /*own_map=*/true, [](SolverSettings& s) { return BindParameters(s.pgs); },
     [](const SolverSettings& s) { ValidatePgsParameters(s.pgs); },
     // Regularized, PGS solves SAP's problem: split_recovery does not apply.
     [](const SolverSettings& s) { return s.pgs.regularized ? s.pgs.penetration_recovery : VelocityRecovery(s.pgs); },
     [](const SolverSettings& s) { return s.pgs.regularized ? 0.0 : PositionRecoveryFraction(s.pgs); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.pgs.islands; }},
}};

}  // namespace

// The lookups, over the table above (engine/common/named_choice.h).
std::span<const SolverTypeInfo> SolverTypes() { return kSolverTypes; }
const SolverTypeInfo& GetSolverTypeInfo(SolverType t) { return ChoiceOf(SolverTypes(), &SolverTypeInfo::type, t); }
std::string_view SolverTypeName(SolverType t) { return GetSolverTypeInfo(t).name; }
std::optional<SolverType> ParseSolverType(std::string_view name) { return ParseChoice(SolverTypes(), &SolverTypeInfo::type, name); }

ParameterTable BindParameters(SolverBudget& b) {
  return {{"budget_ms", "ms",
           "wall-clock time per step for the contact solver, whichever runs; 0 = none. At the budget the step goes "
           "on with the solver's last iterate",
           &b.time_ms, ClosedRange(0, 1e6)},  // Up to 1000 s: a deadline in int64 nanoseconds.
          {"max_step_halvings", "",
           "a step that fails (stage 1 or the contact solve does not converge) is taken again as two steps of dt/2, "
           "each halved again if it fails, down to dt/2^n (a contact solver other than SAP first hands the step to "
           "SAP); 0 = the step fails (theta-method)",
           &b.max_step_halvings, ClosedRange(0, 6)}};  // A failed step costs at most 2^(n+1) solves.
}

ParameterTable BindStepParameters(SolverSettings& s) {
  return AppendParameters(AppendParameters(BindParameters(s.budget), BindParameters(s.sleep)),
                          BindParameters(s.margin));
}

void ValidateSolverSettings(const SolverSettings& settings) {
  CheckParameterRanges("solver", settings.budget);
  CheckParameterRanges("solver", settings.sleep);
  CheckParameterRanges("solver", settings.margin);
  for (const SolverTypeInfo& info : kSolverTypes) info.validate(settings);
}

}  // namespace stiction
