#pragma once
// The θ-method of [SAP] Sec. II-C, Eq. (6): its presets (the registry of
// integrator names) and the settings a scene, the CLI and the viewer choose.
#include <span>
#include <string>
#include <string_view>

#include "engine/parameters/parameter_binding.h"

namespace stiction {

/// θ, θ_vq of Eq. (6) and the name they go by: a preset's, or "custom".
struct IntegratorSettings {
  std::string name = "midpoint";  ///< A preset name, or "custom" for raw θ values.
  double theta = 0.5;             ///< θ in [0, 1].
  double theta_vq = 0.5;          ///< θ_vq in [0, 1].
};

/// A named θ-method preset ([SAP] Sec. II-C).
struct IntegratorPresetInfo {
  std::string_view name;
  std::string_view description;
  double theta = 0;
  double theta_vq = 0;
};

/// Every preset, in the order help texts and the viewer list them.
std::span<const IntegratorPresetInfo> IntegratorPresets();
/// The settings of a preset; throws InputError naming the presets when
/// `name` is not one.
IntegratorSettings IntegratorPreset(std::string_view name);
/// The name raw θ values go by.
inline constexpr std::string_view kCustomIntegrator = "custom";

/// θ and θ_vq, each in [0, 1].
ParameterTable BindParameters(IntegratorSettings& s);
/// Throws InputError unless θ and θ_vq are in [0, 1].
void ValidateIntegratorSettings(const IntegratorSettings& s);

}  // namespace stiction
