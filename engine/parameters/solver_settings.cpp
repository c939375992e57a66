#include "engine/parameters/solver_settings.h"

#include <array>

#include "engine/common/named_choice.h"

namespace stiction {

namespace {

constexpr std::array<SolverTypeInfo, 3> kSolverTypes = {{
    {SolverType::kSap, "sap", "SAP",
     "SAP: Newton on the unconstrained convex cost of compliant contact, exact line search ([SAP])",
     /*exact_contact=*/false, /*augmented_lagrangian=*/false, /*own_map=*/false, [](SolverSettings& s) { return BindParameters(s.sap); },
     [](const SolverSettings& s) { ValidateSapParameters(s.sap); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.sap.islands; }},
    {SolverType::kCanal, "canal", "CANAL",
     "CANAL: the exact Signorini-Coulomb NCP by an augmented Lagrangian with Newton inner solves ([CANAL] Alg. 1)",
     /*exact_contact=*/true, /*augmented_lagrangian=*/true, /*own_map=*/true,
     [](SolverSettings& s) { return BindParameters(s.canal); },
     [](const SolverSettings& s) { ValidateCanalParameters(s.canal); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.canal.islands; }},
    {SolverType::kSubAdmm, "subadmm", "SubADMM",
     "SubADMM: the exact NCP by ADMM with one subsystem per tree, parallel per tree ([CANAL] Alg. 2)",
     /*exact_contact=*/true, /*augmented_lagrangian=*/true, /*own_map=*/true,
     [](SolverSettings& s) { return BindParameters(s.subadmm); },
     [](const SolverSettings& s) { ValidateSubAdmmParameters(s.subadmm); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.subadmm.islands; }},
}};

}  // namespace

// The lookups, over the table above (engine/common/named_choice.h).
std::span<const SolverTypeInfo> SolverTypes() { return kSolverTypes; }
const SolverTypeInfo& GetSolverTypeInfo(SolverType t) { return ChoiceOf(SolverTypes(), &SolverTypeInfo::type, t); }
std::string_view SolverTypeName(SolverType t) { return GetSolverTypeInfo(t).name; }
std::optional<SolverType> ParseSolverType(std::string_view name) { return ParseChoice(SolverTypes(), &SolverTypeInfo::type, name); }

void ValidateSolverSettings(const SolverSettings& settings) {
  for (const SolverTypeInfo& info : kSolverTypes) info.validate(settings);
}

}  // namespace stiction
