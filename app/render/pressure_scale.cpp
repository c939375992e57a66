#include "app/render/pressure_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stiction::app {

Vec4f PressureColor(double t) {
  if (!(t > 0)) t = 0;  // NaN too.
  t = std::min(t, 1.0);
  constexpr size_t kSegments = kPressureColorStops - 1;
  const double x = t * kSegments;
  const size_t i = std::min(static_cast<size_t>(x), kSegments - 1);
  const double u = x - static_cast<double>(i);
  Vec4f c(0, 0, 0, 1);
  for (int k = 0; k < 3; ++k) {
    c[k] = static_cast<float>((1 - u) * kPressureColorMap[i][k] + u * kPressureColorMap[i + 1][k]);
  }
  return c;
}

void AutoPressureMax::Update(double peak_pa) {
  if (!(peak_pa > 0)) return;  // No contact: keep the scale.
  if (peak_pa >= max_pa_) {
    max_pa_ = peak_pa;
  } else {
    max_pa_ += kFallPerFrame * (peak_pa - max_pa_);
  }
}

double PressureLegend::Fraction(double pressure_pa) const {
  const double t = pressure_pa / max_pa;
  return std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
}

std::string PressureLegend::Label(double pressure_pa) const {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", pressure_pa / unit_pa);
  return text;
}

std::string PressureLegend::Title() const { return std::string("pressure [") + unit + "]"; }

PressureLegend MakePressureLegend(const PressureScaleSettings& settings, double auto_max_pa) {
  PressureLegend legend;
  legend.automatic = settings.automatic;
  const double max_pa = settings.automatic ? auto_max_pa : settings.fixed_max_kpa * 1e3;
  legend.max_pa = std::isfinite(max_pa) && max_pa > 0 ? max_pa : 1.0;
  if (legend.max_pa < 1e3) {
    legend.unit = "Pa";
    legend.unit_pa = 1.0;
  } else if (legend.max_pa < 1e6) {
    legend.unit = "kPa";
    legend.unit_pa = 1e3;
  } else {
    legend.unit = "MPa";
    legend.unit_pa = 1e6;
  }
  return legend;
}

}  // namespace stiction::app
