#include "bench/side_by_side/bench_report.h"

#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include "engine/common/text.h"

namespace stiction::bench {
namespace {

/// Least-squares slopes of log(time per step) against log(objects) per
/// engine over the scaling series (engine key -> exponent, sizes).
std::map<std::string, std::pair<double, int>> ScalingExponents(const std::vector<Row>& rows) {
  std::map<std::string, std::vector<std::pair<double, double>>> points;
  for (const Row& r : rows) {
    if (!r.scaling || !r.available || !r.result.ok || r.result.steps == 0) continue;
    points[r.engine_key].emplace_back(std::log(r.objects), std::log(r.median_wall_s / r.result.steps));
  }
  std::map<std::string, std::pair<double, int>> exponents;
  for (const auto& [key, p] : points) {
    if (p.size() < 2) continue;
    double mx = 0, my = 0;
    for (const auto& [x, y] : p) mx += x, my += y;
    mx /= p.size(), my /= p.size();
    double sxy = 0, sxx = 0;
    for (const auto& [x, y] : p) sxy += (x - mx) * (y - my), sxx += (x - mx) * (x - mx);
    exponents[key] = {sxy / sxx, static_cast<int>(p.size())};
  }
  return exponents;
}

// The first available row of `key` on a scene whose name starts with
// `scene_prefix`.
const Row* Find(const std::vector<Row>& rows, const std::string& scene_prefix, const std::string& key) {
  for (const Row& r : rows) {
    if (r.scene.rfind(scene_prefix, 0) == 0 && r.engine_key == key && r.available) return &r;
  }
  return nullptr;
}

// The targets' lines, "- [met] TEXT" or "- [MISSED] TEXT".
class TargetLines {
 public:
  void Add(bool pass, const std::string& text) { out_ << "- [" << (pass ? "met" : "MISSED") << "] " << text << "\n"; }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

// clutter40_walls at 10 ms: SAP's speed against the peers' defaults and its
// steady-state iterations; the scaling exponent without walls.
void AddClutterTargets(const std::vector<Row>& rows, TargetLines* out) {
  const Row* sap = nullptr;
  for (const Row& r : rows) {
    if (r.scene == "clutter40_walls" && std::abs(r.dt - 0.01) < 1e-12 && r.engine_key == "sap") sap = &r;
  }
  if (sap && sap->result.ok) {
    for (const char* peer : {"mujoco", "bullet"}) {
      for (const Row& r : rows) {
        if (r.scene == sap->scene && std::abs(r.dt - sap->dt) < 1e-12 && r.engine_key == peer && r.available &&
            r.result.ok) {
          out->Add(sap->rtf() >= r.rtf(), "clutter40_walls, 10 ms: SAP real-time factor " +
                                               StringPrintf("%.2f", sap->rtf()) + " vs " + r.label + " " +
                                               StringPrintf("%.2f", r.rtf()));
        }
      }
    }
    out->Add(sap->result.steady_iterations <= 3, "clutter40_walls, 10 ms: SAP steady-state iterations/step " +
                                                     StringPrintf("%.2f", sap->result.steady_iterations) +
                                                     " (target ≤ 3)");
  }
  const auto exponents = ScalingExponents(rows);
  if (const auto e = exponents.find("sap"); e != exponents.end() && e->second.second >= 3) {
    out->Add(e->second.first <= 1.2, "clutter without walls: SAP time per step ∝ objects^" +
                                         StringPrintf("%.2f", e->second.first) + " (target ≤ 1.2)");
  }
}

// The incline: SAP's creep while sticking, its acceleration error sliding.
void AddInclineTargets(const std::vector<Row>& rows, TargetLines* out) {
  if (const Row* r = Find(rows, "incline_stick", "sap"); r && r->result.ok) {
    out->Add(std::abs(r->result.metric) <= r->creep_bound,
             "incline stick: SAP creep " + StringPrintf("%.4f", 1e3 * r->result.metric) + " mm/s (bound μσgδt " +
                 StringPrintf("%.4f", 1e3 * r->creep_bound) + ")");
  }
  if (const Row* r = Find(rows, "incline_slide", "sap"); r && r->result.ok) {
    const double error = std::abs(r->result.metric / r->expected_acceleration - 1);
    out->Add(error <= 0.01,
             "incline slide: SAP acceleration error " + StringPrintf("%.2f", 100 * error) + "% (target ≤ 1%)");
  }
}

// A held object's drift (or slip) under `key` on `scene`: held, and at most
// `limit` [m/s]; "LABEL <drift> mm/s (target ≤ TARGET)". The drift, when
// the row ran.
std::optional<double> AddDriftTarget(const std::vector<Row>& rows, const char* scene, const char* key,
                                     const std::string& label, double limit, const char* format,
                                     const char* target, TargetLines* out) {
  const Row* r = Find(rows, scene, key);
  if (!r || !r->result.ok) return std::nullopt;
  const double drift = std::abs(r->result.metric);
  out->Add(r->result.metric_pass && drift <= limit,
           label + StringPrintf(format, 1e3 * drift) + " mm/s (target ≤ " + target + ")");
  return drift;
}

// The held box (SAP's and CANAL's drift, MuJoCo's against SAP's) and the
// stack standing.
void AddHoldTargets(const std::vector<Row>& rows, TargetLines* out) {
  if (const std::optional<double> drift =
          AddDriftTarget(rows, "grasp_hold", "sap", "grasp hold: SAP drift ", 2e-4, "%.4f", "0.2", out)) {
    if (const Row* m = Find(rows, "grasp_hold", "mujoco"); m && m->result.ok) {
      const double ratio = *drift > 0 ? std::abs(m->result.metric) / *drift : INFINITY;
      out->Add(ratio >= 10,
               "grasp hold: MuJoCo default drift / SAP drift = " + StringPrintf("%.1f", ratio) + " (target ≥ 10)");
    }
  }
  AddDriftTarget(rows, "grasp_hold", "canal", "grasp hold: CANAL drift ", 1e-6, "%.2e", "1e-3", out);
  if (const Row* r = Find(rows, "stack10", "sap"); r) {
    out->Add(r->result.ok && r->result.metric_pass, "stack10 at 10 ms with SAP: " + r->result.metric_text);
  }
}

// Issue 15, item 8: the articulated rows; and the mass ratio of issue 21.
void AddArticulatedTargets(const std::vector<Row>& rows, TargetLines* out) {
  AddDriftTarget(rows, "arm_hold", "sap", "arm hold (issue 15): SAP slip ", 2e-4, "%.4f", "0.2", out);
  AddDriftTarget(rows, "arm_hold", "canal", "arm hold (issue 15): CANAL slip ", 1e-6, "%.2e", "1e-3", out);
  if (const Row* r = Find(rows, "quadrupeds8", "sap"); r) {
    out->Add(r->result.ok && r->result.metric_pass, "quadrupeds8 (issue 15) with SAP: " + r->result.metric_text);
  }
  if (const Row* r = Find(rows, "mass_ratio", "sap"); r) {
    out->Add(r->result.ok && r->result.metric_pass,
             "mass ratio 1000 (5 kg on 5 g) with SAP: " + r->result.metric_text + " (target ≤ 1 mm)");
  }
}

}  // namespace

std::string Table(const std::vector<Row>& rows) {
  // Scene and δt -> RTF of MuJoCo's default configuration.
  auto key = [](const Row& r) { return r.scene + "@" + StringPrintf("%g", r.dt); };
  std::map<std::string, double> mujoco_rtf;
  for (const Row& r : rows) {
    if (r.engine_key == "mujoco" && r.available && r.result.ok) mujoco_rtf[key(r)] = r.rtf();
  }
  std::ostringstream out;
  out << "| scene | δt [ms] | T [s] | engine | runs | wall [s] (median) | real-time factor | × MuJoCo default"
         " | iterations/step | steady iterations/step | steady penetration [mm] | metric |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    out << "| " << r.scene << " | " << StringPrintf("%g", 1e3 * r.dt) << " | " << StringPrintf("%g", r.duration)
        << " | " << r.label << " | ";
    if (!r.available) {
      out << "– | – | – | – | – | – | – | n/a: " << r.why_not << " |\n";
      continue;
    }
    const auto mj = mujoco_rtf.find(key(r));
    out << r.runs << " | " << StringPrintf("%.3f", r.median_wall_s) << " | "
        << (r.result.ok ? StringPrintf("%.2f", r.rtf()) : "–") << " | "
        << (mj != mujoco_rtf.end() && r.result.ok && mj->second > 0 ? StringPrintf("%.2f", r.rtf() / mj->second)
                                                                    : "–")
        << " | " << StringPrintf("%.2f", r.result.mean_iterations) << " | "
        << StringPrintf("%.2f", r.result.steady_iterations) << " | "
        << StringPrintf("%.3f", 1e3 * r.result.steady_penetration_m) << " | " << r.result.metric_text
        << (r.result.ok ? "" : ": " + r.result.error) << " |\n";
  }
  return out.str();
}

std::string ScalingFit(const std::vector<Row>& rows) {
  std::map<std::string, std::string> labels;
  for (const Row& r : rows) labels[r.engine_key] = r.label;
  std::ostringstream out;
  for (const auto& [key, fit] : ScalingExponents(rows)) {
    out << "- " << labels[key] << ": time per step ∝ objects^" << StringPrintf("%.2f", fit.first) << " over "
        << fit.second << " sizes\n";
  }
  return out.str();
}

std::string Targets(const std::vector<Row>& rows) {
  TargetLines out;
  AddClutterTargets(rows, &out);
  AddInclineTargets(rows, &out);
  AddHoldTargets(rows, &out);
  AddArticulatedTargets(rows, &out);
  return out.str();
}

}  // namespace stiction::bench
