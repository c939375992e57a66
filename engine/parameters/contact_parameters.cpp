#include "engine/parameters/contact_parameters.h"

#include <array>
#include <string>

#include "engine/common/named_choice.h"

namespace stiction {

namespace {

constexpr std::array<ContactModelInfo, 4> kContactModels = {{
    {ContactModel::kSap, "sap", "SAP: compliant k with linear dissipation tau_d, regularized friction (sigma)",
     false},
    {ContactModel::kLagged, "lagged",
     "Hunt & Crossley k, d with friction bounded by the previous normal impulse; no gliding", true},
    {ContactModel::kSimilar, "similar", "Hunt & Crossley k, d with normal and friction strongly coupled", true},
    {ContactModel::kRegularizedLagged, "regularized_lagged",
     "Lagged with SAP's stiction tolerance during impacts (fewer Newton iterations)", true},
}};

}  // namespace

// The lookups, over the table above (engine/common/named_choice.h).
std::span<const ContactModelInfo> ContactModels() { return kContactModels; }
const ContactModelInfo& GetContactModelInfo(ContactModel m) { return ChoiceOf(ContactModels(), &ContactModelInfo::model, m); }
std::string_view ContactModelName(ContactModel m) { return GetContactModelInfo(m).name; }
std::optional<ContactModel> ParseContactModel(std::string_view name) {
  return ParseChoice(ContactModels(), &ContactModelInfo::model, name);
}

ParameterTable BindParameters(ContactMaterial& m) {
  return {
      {"friction", "", "Coulomb friction coefficient mu", &m.friction, kNonNegative},
      {"stiffness", "N/m", "contact stiffness k (every model)", &m.stiffness, kPositive},
      {"dissipation", "s", "SAP dissipation time scale tau_d", &m.dissipation, kNonNegative},
      {"hc_dissipation", "s/m", "Hunt & Crossley dissipation d (Lagged, Similar)", &m.hc_dissipation,
       kNonNegative},
      {"stiction_velocity", "m/s", "stiction tolerance v_s of the regularized friction (Lagged, Similar)",
       &m.stiction_velocity, kPositive},
      {"hydroelastic_modulus", "Pa", "E: pressure p = E e of compliant geometries (pressure-field contact)",
       &m.hydroelastic_modulus, kPositive},
  };
}

void ValidateContactMaterial(std::string_view name, const ContactMaterial& m) {
  CheckParameterRanges("material '" + std::string(name) + "'", m);
}

ParameterTable BindParameters(ContactModelParameters& p) {
  return {
      {"near_rigid_threshold", "",
       "beta of [SAP] Eq. (29): SAP and Similar contacts are never stiffer than a period of beta dt "
       "(0 = physical k only)",
       &p.near_rigid_threshold, kNonNegative},
      {"stiction_tolerance", "", "sigma of [SAP] Eq. (30): regularized friction slips at most mu sigma g dt",
       &p.stiction_tolerance, kPositive},
      {"load_aware_regularization", "",
       "near-rigid constraints are stiffened to the load they carry (false: [SAP] Eq. (29) as published)",
       &p.load_aware_regularization, kAnyNumber},
      {"max_load_factor", "",
       "lambda_max: a loaded constraint is at most this many times stiffer than [SAP] Eq. (29)",
       &p.max_load_factor, AtLeast(1)},
      {"max_load_resolves", "",
       "sudden loads: solve a step again with its own impulses as the load, at most this many times (0 = never)",
       &p.max_load_resolves, ClosedRange(0, 100)},
      {"load_resolve_ratio", "",
       "sudden loads: solve again when a contact carries more than this many times the load its stiffness assumed",
       &p.load_resolve_ratio, AtLeast(1)},
      {"arrival_correction", "",
       "with theta_vq < 1, positions after a step end no deeper into a contact or joint limit than the contact "
       "problem predicted (a position correction: no velocity, no kinetic energy)",
       &p.arrival_correction, kAnyNumber},
  };
}

void ValidateContactModelParameters(const ContactModelParameters& p) {
  CheckParameterRanges("contact", p);
}

}  // namespace stiction
