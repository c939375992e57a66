#include "engine/parameters/solver_settings.h"

#include <array>

#include "engine/common/named_choice.h"

namespace stiction {

namespace {

constexpr std::array<SolverTypeInfo, 3> kSolverTypes = {{
    {SolverType::kSap, "sap",
     "SAP: Newton on the unconstrained convex cost of compliant contact, exact line search ([SAP])",
     /*exact_contact=*/false, /*augmented_lagrangian=*/false, /*own_map=*/false, [](SolverSettings& s) { return BindParameters(s.sap); },
     [](const SolverSettings& s) { ValidateSapParameters(s.sap); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.sap.islands; }},
    {SolverType::kCanal, "canal",
     "CANAL: the exact Signorini-Coulomb NCP by an augmented Lagrangian with Newton inner solves ([CANAL] Alg. 1)",
     /*exact_contact=*/true, /*augmented_lagrangian=*/true, /*own_map=*/true,
     [](SolverSettings& s) { return BindParameters(s.canal); },
     [](const SolverSettings& s) { ValidateCanalParameters(s.canal); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.canal.islands; }},
    {SolverType::kSubAdmm, "subadmm",
     "SubADMM: the exact NCP by ADMM with one subsystem per tree, parallel per tree ([CANAL] Alg. 2)",
     /*exact_contact=*/true, /*augmented_lagrangian=*/true, /*own_map=*/true,
     [](SolverSettings& s) { return BindParameters(s.subadmm); },
     [](const SolverSettings& s) { ValidateSubAdmmParameters(s.subadmm); },
     [](const SolverSettings& s) -> const IslandParameters& { return s.subadmm.islands; }},
}};

}  // namespace

std::span<const SolverTypeInfo> SolverTypes() { return kSolverTypes; }

const SolverTypeInfo& GetSolverTypeInfo(SolverType type) {
  for (const SolverTypeInfo& info : kSolverTypes) {
    if (info.type == type) return info;
  }
  return kSolverTypes[0];  // Unreachable: every enumerator has an entry.
}

std::string_view SolverTypeName(SolverType type) { return GetSolverTypeInfo(type).name; }

std::optional<SolverType> ParseSolverType(std::string_view name) {
  const SolverTypeInfo* info = FindChoice(SolverTypes(), name);
  if (info == nullptr) return std::nullopt;
  return info->type;
}

void ValidateSolverSettings(const SolverSettings& settings) {
  for (const SolverTypeInfo& info : kSolverTypes) info.validate(settings);
}

}  // namespace stiction
