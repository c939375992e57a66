#pragma once
// The time-stepping schemes (the registry of scheme names) and the
// parameters of the NMDP schemes of [NMDP] (docs/nmdp.md), with units.
//
//   theta_method  [SAP]'s θ-method + the chosen contact solver (the default);
//   nmdp_pgm      backward Euler + the nonconvex maximal dissipation
//                 principle, first-order projected gradient ([NMDP] Alg. 1);
//   nmdp_zopgm    the same with the zeroth-order variant (Eqs. 10–11);
//   ne_mdp        the linearized (forward) dynamics, one MDP QP per step
//                 (Eq. 3; [MDP]), the paper's baseline.
#include <optional>
#include <span>
#include <string_view>

#include "engine/parameters/parameter_binding.h"

namespace stiction {

enum class SteppingScheme { kThetaMethod, kNmdpPgm, kNmdpZopgm, kNeMdp };

struct SteppingSchemeInfo {
  SteppingScheme scheme;
  std::string_view name;         ///< As scenes (`stepping`), --stepping and the viewer spell it.
  std::string_view title;        ///< As messages and tables name it: "NMDP-PGM".
  std::string_view description;  ///< One line.
  /// Whether the step solves a contact problem with the chosen contact
  /// solver (`solver:`); the NMDP schemes carry their own forces.
  bool uses_contact_solver = false;
};

/// Every scheme, in the order help texts and the viewer list them.
std::span<const SteppingSchemeInfo> SteppingSchemes();
const SteppingSchemeInfo& GetSteppingSchemeInfo(SteppingScheme scheme);
/// "theta_method", "nmdp_pgm", "nmdp_zopgm", "ne_mdp".
std::string_view SteppingSchemeName(SteppingScheme scheme);
/// The scheme called `name`; nullopt if there is none.
std::optional<SteppingScheme> ParseSteppingScheme(std::string_view name);

/// The parameters of the NMDP schemes (`nmdp:` in scenes; docs/nmdp.md).
struct NmdpParameters {
  // The wrench polytope of each contact point (docs/nmdp.md Sec. 2).
  double stiffness = 2e4;           ///< k [N/m]: force per metre of penetration. > 0.
  double activation_length = 1e-3;  ///< ℓ [m]: width of the smooth onset of contact. > 0.
  int pyramid_edges = 4;            ///< K: edges of the linearized friction pyramid, in [3, 64].
  /// false: each point's weights sum to one, so its normal force is the
  /// smooth penalty k s(−φ) and maximal dissipation chooses the friction
  /// (docs/nmdp.md Sec. 2); true: they sum to at most one, so maximal
  /// dissipation also chooses the normal force, up to k s(−φ).
  bool free_normal_force = false;
  // The projected gradient method (Alg. 1).
  int max_outer_iterations = 50;    ///< PGM iterations per (sub)step, ≥ 1.
  /// Stop when no weight changed by more than this in an outer iteration
  /// (weights are dimensionless, in [0, 1]). > 0.
  double weight_tolerance = 1e-4;
  /// Or when the kinetic energy fell by less than this fraction. > 0.
  double energy_tolerance = 1e-6;
  /// The QP's proximal term I/α starts at this fraction of the largest
  /// diagonal entry of PᵀMP (Eq. 8); the line search doubles it. > 0.
  double proximal_ratio = 1e-6;
  int max_line_search_halvings = 30;  ///< Halvings of α before the PGM stops, in [0, 60].
  // The manifold projection (Eqs. 9, 11).
  double projection_tolerance = 1e-8;  ///< ‖F‖∞ at convergence [N, N m]. > 0.
  int projection_max_iterations = 30;  ///< Newton steps per projection, ≥ 1.
  // Alg. 2.
  int max_subdivisions = 6;  ///< Halvings of δt before the step fails, in [0, 30].
};

/// The scene keys of `nmdp:`.
ParameterTable BindParameters(NmdpParameters& p);
/// Throws InputError naming the parameter when out of range or NaN.
inline void ValidateNmdpParameters(const NmdpParameters& p) { CheckParameterRanges("nmdp", p); }

}  // namespace stiction
