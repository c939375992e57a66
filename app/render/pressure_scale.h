#pragma once
// How pressure-field contact patches are coloured (Visualization >
// pressure patches): a perceptually uniform colour map (viridis: dark
// purple at 0, yellow at the top, readable against the grey ground and the
// palette's body colours, and in grey scale) over [0, max] Pa, where max is
// either the user's fixed value or the frames' peak pressure, smoothed so
// that the legend and the colours do not flicker when the peak jumps from
// step to step. Pure functions and a small state: no GL, no ImGui.
#include <string>

#include "app/render/gl_math.h"

namespace stiction::app {

/// The colour map's stops: matplotlib's viridis at t = 0, 0.1, ..., 1
/// (display RGB), linear in between, which stays within a few 1/255 of the
/// full 256-entry table. PressureColor and the patch shader (pressure.frag,
/// which gets this table as a uniform array) interpolate the same stops.
inline constexpr int kPressureColorStops = 11;
inline constexpr float kPressureColorMap[kPressureColorStops][3] = {
    {0.267004f, 0.004874f, 0.329415f}, {0.282623f, 0.140926f, 0.457517f}, {0.253935f, 0.265254f, 0.529983f},
    {0.206756f, 0.371758f, 0.553117f}, {0.163625f, 0.471133f, 0.558148f}, {0.127568f, 0.566949f, 0.550556f},
    {0.134692f, 0.658636f, 0.517649f}, {0.266941f, 0.748751f, 0.440573f}, {0.477504f, 0.821444f, 0.318195f},
    {0.741388f, 0.873449f, 0.149561f}, {0.993248f, 0.906157f, 0.143936f}};

/// The colour map at t ∈ [0, 1] (clamped; NaN counts as 0), opaque RGB.
Vec4f PressureColor(double t);

/// The user's choices (Visualization section).
struct PressureScaleSettings {
  bool show_patches = true;  ///< Draw the patches and the legend.
  bool automatic = true;     ///< Scale to the (smoothed) peak; false: to fixed_max_kpa.
  double fixed_max_kpa = 100.0;  ///< [kPa]
};

/// The smoothed peak of automatic mode. Rises at once to a higher peak (no
/// pressure beyond the bar's top while it is climbing to it), falls towards
/// a lower one by a fraction per frame (half-life 8 frames: ~0.13 s at
/// 60 frames/s, so a bouncing contact's alternating peaks do not make the
/// colours pulse), and keeps its value while there is no contact (the next
/// touch starts from it rather than from 0).
class AutoPressureMax {
 public:
  /// One frame's peak pressure [Pa] (0: no contact surface this frame).
  void Update(double peak_pa);
  void Reset() { max_pa_ = 0; }
  double max_pa() const { return max_pa_; }
  static constexpr double kFallPerFrame = 0.083;  ///< 1 − 2^(−1/8).

 private:
  double max_pa_ = 0;
};

/// What the colour bar shows and the patches are coloured with: [0, max_pa]
/// and the unit its labels are in (Pa below 1 kPa, kPa below 1 MPa, else
/// MPa), so that the labels keep three significant digits.
struct PressureLegend {
  double max_pa = 1.0;       ///< Top of the scale [Pa], > 0.
  bool automatic = true;
  const char* unit = "kPa";  ///< "Pa", "kPa" or "MPa".
  double unit_pa = 1e3;      ///< Pascals per unit.
  /// Position of `pressure_pa` on the colour map, in [0, 1].
  double Fraction(double pressure_pa) const;
  /// "12.3" in the legend's unit (no unit suffix).
  std::string Label(double pressure_pa) const;
  /// "pressure [kPa]".
  std::string Title() const;
  /// "auto (peak)" or "fixed".
  const char* ModeName() const { return automatic ? "auto (peak)" : "fixed"; }
};

/// The legend for the settings and the automatic mode's smoothed peak. A
/// zero or invalid top (no contact yet, a fixed max ≤ 0) becomes 1 Pa, so
/// the scale is never empty.
PressureLegend MakePressureLegend(const PressureScaleSettings& settings, double auto_max_pa);

}  // namespace stiction::app
