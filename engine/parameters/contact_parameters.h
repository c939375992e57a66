#pragma once
// The physical parameters of contact: the convex contact models (their
// registry), the material of a geometry (k, τd, μ, d, v_s with units and
// defaults) and the model-wide regularization (β, σ of [SAP] Sec. V-B).
// docs/contact-model.md explains each.
#include <optional>
#include <span>
#include <string_view>

#include "engine/parameters/parameter_binding.h"

namespace stiction {

/// The convex contact models (docs/contact-model.md).
enum class ContactModel {
  kSap,                ///< [SAP] Eqs. 27–30: linear dissipation τd, regularized friction.
  kLagged,             ///< [ICF] Sec. VI-B: Hunt & Crossley, friction bound lagged.
  kSimilar,            ///< [ICF] Sec. VI-C: Hunt & Crossley, strongly coupled friction.
  kRegularizedLagged,  ///< [ICF] Eq. (44): Lagged with SAP's stiction tolerance in impacts.
};

struct ContactModelInfo {
  ContactModel model;
  std::string_view name;         ///< As scenes, the CLI and the viewer spell it.
  std::string_view description;  ///< One line.
  bool hunt_crossley = false;    ///< Uses d and v_s (Hunt & Crossley); else τd (SAP).
};

/// Every contact model, in the order help texts and the viewer list them.
std::span<const ContactModelInfo> ContactModels();
const ContactModelInfo& GetContactModelInfo(ContactModel model);
/// "sap", "lagged", "similar", "regularized_lagged".
std::string_view ContactModelName(ContactModel model);
/// The model called `name`; nullopt if there is none.
std::optional<ContactModel> ParseContactModel(std::string_view name);

/// Physical contact parameters of one material (SI units). The defaults are
/// a scene material's defaults (docs/scene-format.md, `materials:`).
struct ContactMaterial {
  double stiffness = 1e6;           ///< k [N/m], > 0 (every model).
  double dissipation = 0.01;        ///< τd [s], ≥ 0 (SAP).
  double friction = 0.5;            ///< μ, ≥ 0 (every model).
  double hc_dissipation = 10.0;     ///< Hunt & Crossley d [s/m], ≥ 0 (Lagged, Similar).
  double stiction_velocity = 1e-4;  ///< Stiction tolerance v_s [m/s], > 0 (Lagged, Similar).
  /// Hydroelastic modulus E [Pa], > 0: the pressure p = E e of compliant
  /// geometries (pressure-field contact); rigid geometries ignore it.
  double hydroelastic_modulus = 1e6;
  /// The model for contacts with this material; nullopt: the scene's.
  std::optional<ContactModel> model;
};

/// k, τd, μ, d, v_s with their units and ranges (scene keys of `materials:`).
ParameterTable BindParameters(ContactMaterial& m);
/// Throws InputError "material '<name>': <key> must be …" when out of range.
void ValidateContactMaterial(std::string_view name, const ContactMaterial& m);

/// Model-wide contact parameters ([SAP] Sec. V-B, the carried-load
/// estimate) and the scene's model.
struct ContactModelParameters {
  double near_rigid_threshold = 1.0;  ///< β of [SAP] Eq. (29), ≥ 0 (SAP and Similar models).
  double stiction_tolerance = 1e-3;   ///< σ of [SAP] Eq. (30), > 0 (SAP, regularized Lagged).
  /// The carried-load estimate of near-rigid constraints (SAP model, joint
  /// limits, welds; docs/contact-model.md): a constraint that carried more
  /// than its own effective mass weighs is stiffened to the load. false:
  /// [SAP] Eq. (29) as published (the Delassus diagonal alone).
  bool load_aware_regularization = true;
  double max_load_factor = 1e4;  ///< λ_max ≥ 1: at most this many times stiffer than Eq. (29).
  /// Sudden loads: when a contact manifold's solved impulses say it carries
  /// more than `load_resolve_ratio` times the load its λ assumed (the
  /// estimate lags by a step), the step is rebuilt with those impulses and
  /// solved again, at most `max_load_resolves` times (0: never).
  int max_load_resolves = 3;
  double load_resolve_ratio = 2.0;  ///< > 1.
  /// Impact arrival (engine/solvers/position_recovery.h): with θ_vq < 1 the
  /// positions integrate v^θvq, which carries a contact or joint limit that
  /// the step stops (1 − θ_vq) δt Δv_n deeper than the contact problem's own
  /// prediction φ0 + δt J_n v; a position correction (no velocity change)
  /// ends it no deeper than that prediction (or 0, if it stays open).
  /// Off by default until it passes the clutter's CI soak and the jar task
  /// (docs/contact-model.md, step 6).
  bool arrival_correction = false;
  ContactModel model = ContactModel::kSap;  ///< For pairs whose materials name none.
};

/// β, σ and the carried-load estimate (scene keys `solver.near_rigid_threshold`,
/// `solver.stiction_tolerance`, `solver.load_aware_regularization`, `solver.max_load_factor`,
/// `solver.max_load_resolves`, `solver.load_resolve_ratio`).
ParameterTable BindParameters(ContactModelParameters& p);
/// Throws InputError when β or σ is out of range.
void ValidateContactModelParameters(const ContactModelParameters& p);

}  // namespace stiction
