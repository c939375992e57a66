#pragma once
// Helpers for scenario tests: run shipped scenes through the Simulation facade.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <functional>
#include <string>
#include <vector>

#include "engine/common/text.h"
#include "engine/simulation.h"

namespace stiction::test {

// Appended rather than `std::string(...) + "..."`, which g++ 12 misreads
// as an out-of-bounds copy at -O1 (-Warray-bounds, GCC PR 105651).
inline std::string ScenePath(const std::string& name) {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/assets/scenes/").append(name);
  return path;
}

/// A double as text that parses back to the same value (for --set overrides).
inline std::string Num(double x) { return FormatNumber(x, kRoundTripDigits); }

/// assets/scenes/incline.yaml tilted to tan α = `tan_alpha`: ramp and box
/// pitched by α about y, the box's bottom face on the ramp (10 cm box).
/// `extra` overrides are appended (e.g. "solver.type=canal").
inline Simulation MakeIncline(double tan_alpha, const std::vector<std::string>& extra = {}) {
  const double a = std::atan(tan_alpha), half = 0.05;
  const std::string rpy = "[0," + Num(a) + ",0]";
  std::vector<std::string> overrides = {
      "world_geometry.ramp.pose.rpy=" + rpy, "bodies.box.pose.rpy=" + rpy,
      "bodies.box.pose.position=[" + Num(half * std::sin(a)) + ",0," + Num(half * std::cos(a)) + "]"};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  return Simulation::FromFile(ScenePath("incline.yaml"), overrides);
}

/// Unit vector down the incline of MakeIncline (descending towards +x).
inline Vector3 Downhill(double tan_alpha) {
  const double a = std::atan(tan_alpha);
  return Vector3(std::cos(a), 0, -std::sin(a));
}

/// The state of the body named `name` (fails the test if absent).
inline BodyState BodyNamed(const Simulation& sim, const std::string& name) {
  for (const BodyState& b : sim.CalcBodyStates()) {
    if (b.name == name) return b;
  }
  ADD_FAILURE() << "no body named " << name;
  return {};
}

/// The rotation about world y that takes the body's x axis down (nose down
/// > 0) [deg]: the pitch of a held spatula or rod.
inline double PitchDegrees(const BodyState& b) {
  const Matrix3 R = b.orientation.toRotationMatrix();
  return std::atan2(-R(2, 0), R(0, 0)) * 180.0 / std::numbers::pi;
}

/// Steps `sim` until `duration` seconds, calling `observe` after every step
/// (and once before the first). Fails the test on a failed step.
inline void Run(Simulation* sim, double duration, const std::function<void()>& observe) {
  observe();
  const int steps = static_cast<int>(std::lround(duration / sim->time_step()));
  for (int i = 0; i < steps; ++i) {
    const StepResult r = sim->Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
    observe();
  }
}

/// Least-squares slope of log(e) against log(dt): the observed order.
inline double FittedOrder(const std::vector<double>& dts, const std::vector<double>& errors) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(dts.size());
  for (size_t i = 0; i < dts.size(); ++i) {
    const double x = std::log(dts[i]), y = std::log(errors[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/// RMS of x(t) − exact(t) over samples: the paper's e_q metric (Sec. VI-B).
inline double RmsError(const std::vector<double>& t, const std::vector<double>& x,
                       const std::function<double(double)>& exact) {
  double sum = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const double e = x[i] - exact(t[i]);
    sum += e * e;
  }
  return std::sqrt(sum / static_cast<double>(t.size()));
}

/// Classic RK4 for y' = f(y), used for independent reference solutions.
template <typename Vec, typename F>
Vec Rk4Step(const Vec& y, double h, const F& f) {
  const Vec k1 = f(y);
  const Vec k2 = f(Vec(y + 0.5 * h * k1));
  const Vec k3 = f(Vec(y + 0.5 * h * k2));
  const Vec k4 = f(Vec(y + h * k3));
  return y + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
}

}  // namespace stiction::test
