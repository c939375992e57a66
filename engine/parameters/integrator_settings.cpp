#include "engine/parameters/integrator_settings.h"

#include <array>

#include "engine/common/error.h"
#include "engine/common/named_choice.h"

namespace stiction {

namespace {

constexpr std::array<IntegratorPresetInfo, 4> kPresets = {{
    {"explicit_euler", "theta = theta_vq = 0: explicit in positions and velocities", 0.0, 0.0},
    {"symplectic_euler", "theta = 0, theta_vq = 1: positions from the new velocities", 0.0, 1.0},
    {"implicit_euler", "theta = theta_vq = 1: implicit, dissipative, the most stable", 1.0, 1.0},
    {"midpoint", "theta = theta_vq = 1/2: second order, conserves energy of free motion", 0.5, 0.5},
}};

}  // namespace

std::span<const IntegratorPresetInfo> IntegratorPresets() { return kPresets; }

IntegratorSettings IntegratorPreset(std::string_view name) {
  const IntegratorPresetInfo* preset = FindChoice(IntegratorPresets(), name);
  if (preset == nullptr) {
    throw InputError("unknown integrator preset '" + std::string(name) +
                     "' (expected one of: " + ChoiceNames(IntegratorPresets()) + ")");
  }
  return IntegratorSettings{std::string(preset->name), preset->theta, preset->theta_vq};
}

ParameterTable BindParameters(IntegratorSettings& s) {
  return {
      {"theta", "", "theta of Eq. (6): where the dynamics are evaluated within the step", &s.theta,
       ClosedRange(0, 1)},
      {"theta_vq", "", "theta_vq of Eq. (6): which velocity advances the positions", &s.theta_vq,
       ClosedRange(0, 1)},
  };
}

void ValidateIntegratorSettings(const IntegratorSettings& s) {
  CheckParameterRanges("integrator", s);
}

}  // namespace stiction
