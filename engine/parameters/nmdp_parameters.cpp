#include "engine/parameters/nmdp_parameters.h"

#include <array>

#include "engine/common/named_choice.h"

namespace stiction {

namespace {

constexpr std::array<SteppingSchemeInfo, 4> kSchemes = {{
    {SteppingScheme::kThetaMethod, "theta_method", "theta-method",
     "the theta-method of SAP with the chosen contact solver (convex contact, the default)", true},
    {SteppingScheme::kNmdpPgm, "nmdp_pgm", "NMDP-PGM",
     "backward Euler with maximal dissipation, first-order projected gradient (NMDP Alg. 1)", false},
    {SteppingScheme::kNmdpZopgm, "nmdp_zopgm", "NMDP-ZOPGM",
     "backward Euler with maximal dissipation, zeroth-order projected gradient (NMDP Eqs. 10-11)", false},
    {SteppingScheme::kNeMdp, "ne_mdp", "NE-MDP",
     "linearized (forward) dynamics with one maximal-dissipation QP per step (NMDP's baseline)", false},
}};

}  // namespace

std::span<const SteppingSchemeInfo> SteppingSchemes() { return kSchemes; }

const SteppingSchemeInfo& GetSteppingSchemeInfo(SteppingScheme scheme) {
  return ChoiceOf(SteppingSchemes(), &SteppingSchemeInfo::scheme, scheme);
}

std::string_view SteppingSchemeName(SteppingScheme scheme) { return GetSteppingSchemeInfo(scheme).name; }

std::optional<SteppingScheme> ParseSteppingScheme(std::string_view name) {
  return ParseChoice(SteppingSchemes(), &SteppingSchemeInfo::scheme, name);
}

ParameterTable BindParameters(NmdpParameters& p) {
  return {
      {"stiffness", "N/m", "contact force per metre of penetration (the polytope's scale k)", &p.stiffness,
       kPositive},
      {"activation_length", "m", "width of the smooth (softplus) onset of contact force", &p.activation_length,
       kPositive},
      {"pyramid_edges", "", "edges of the linearized friction pyramid per contact point", &p.pyramid_edges,
       ClosedRange(3, 64)},
      {"free_normal_force", "",
       "let maximal dissipation choose the normal force too (weights sum to at most one) instead of the "
       "penalty k s(-phi)",
       &p.free_normal_force, {}},
      {"max_outer_iterations", "", "projected-gradient iterations per step or substep", &p.max_outer_iterations,
       ClosedRange(1, 1e6)},
      {"weight_tolerance", "", "stop when no polytope weight changes by more than this", &p.weight_tolerance,
       kPositive},
      {"energy_tolerance", "", "or when the kinetic energy falls by less than this fraction", &p.energy_tolerance,
       kPositive},
      {"proximal_ratio", "", "initial proximal weight 1/alpha as a fraction of the QP's largest curvature",
       &p.proximal_ratio, kPositive},
      {"max_line_search_halvings", "", "halvings of the QP step alpha before the gradient method stops",
       &p.max_line_search_halvings, ClosedRange(0, 60)},
      {"projection_tolerance", "N", "residual of the backward-Euler dynamics at which the projection stops",
       &p.projection_tolerance, kPositive},
      {"projection_max_iterations", "", "Newton steps per manifold projection", &p.projection_max_iterations,
       ClosedRange(1, 1e6)},
      {"max_subdivisions", "", "halvings of the time step (Alg. 2) before the step fails", &p.max_subdivisions,
       ClosedRange(0, 30)},
  };
}

}  // namespace stiction
