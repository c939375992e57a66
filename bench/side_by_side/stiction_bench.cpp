// stiction-bench: the side-by-side benchmark of issue 8. Builds the same
// scenes (bench_scenes.h) in Stiction (every solver and contact model), in
// MuJoCo (pyramidal Newton = its default, elliptic Newton, elliptic + noslip)
// and in Bullet (its default sequential-impulse solver), runs them one after
// the other in this process and prints one markdown table, the scaling
// exponent of time per step versus object count, and where Stiction stands
// against the issue's targets.
//
//   stiction-bench [--short] [--scene NAME]... [--engine KEY]... [--reps N]
//                  [--budget S] [--markdown FILE] [--write-mjcf DIR]
//
// docs/benchmarks.md ("Side by side") holds the table from the project's
// machine and what every column means.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/side_by_side/bench_metrics.h"
#include "bench/side_by_side/bench_scenes.h"
#include "bench/side_by_side/mujoco_scene_writer.h"
#include "bench/side_by_side/peer_engine.h"
#include "bench/side_by_side/stiction_engine.h"
#include "engine/common/error.h"

namespace {

using namespace stiction::bench;
using stiction::SceneDescription;

struct EngineSpec {
  std::string key;  ///< --engine key.
  std::function<std::unique_ptr<PeerEngine>(const SceneDescription&, std::string*)> make;
  bool in_scaling = false;  ///< Also runs the large scaled clutters by default.
};

std::vector<EngineSpec> AllEngines() {
  std::vector<EngineSpec> engines;
  for (StictionVariant v : AllStictionVariants()) {
    engines.push_back({StictionVariantKey(v),
                       [v](const SceneDescription& s, std::string* why) { return MakeStictionEngine(s, v, why); },
                       v == StictionVariant::kSap});
  }
  const std::pair<const char*, MujocoConfig> mujoco[] = {{"mujoco", MujocoConfig::kPyramidalNewton},
                                                         {"mujoco_elliptic", MujocoConfig::kEllipticNewton},
                                                         {"mujoco_noslip", MujocoConfig::kEllipticNoslip}};
  for (const auto& [key, config] : mujoco) {
    const MujocoConfig c = config;
    engines.push_back({key,
                       [c](const SceneDescription& s, std::string* why) { return MakeMujocoEngine(s, c, why); },
                       c == MujocoConfig::kPyramidalNewton});
  }
  engines.push_back({"bullet", [](const SceneDescription& s, std::string* why) { return MakeBulletEngine(s, why); },
                     true});
  return engines;
}

struct Row {
  std::string scene;
  double dt = 0, duration = 0;
  int objects = 0;
  bool scaling = false;
  double creep_bound = 0, expected_acceleration = 0;  // The scene's references.
  std::string engine_key, label;
  bool available = true;
  std::string why_not;
  int runs = 0;
  double median_wall_s = 0;
  RunResult result;  ///< Of the first run (iterates are deterministic per engine).
  double rtf() const { return result.ok && median_wall_s > 0 ? duration / median_wall_s : 0; }
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void Progress(int done, int total, const std::string& what) {
  const int width = 30;
  const int filled = total > 0 ? width * done / total : width;
  std::fprintf(stderr, "\r[%s%s] %3d/%d %-60.60s", std::string(filled, '#').c_str(),
               std::string(width - filled, '.').c_str(), done, total, what.c_str());
  std::fflush(stderr);
}

std::string Fixed(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string Table(const std::vector<Row>& rows) {
  // Scene and δt -> RTF of MuJoCo's default configuration.
  auto key = [](const Row& r) { return r.scene + "@" + Fixed("%g", r.dt); };
  std::map<std::string, double> mujoco_rtf;
  for (const Row& r : rows) {
    if (r.engine_key == "mujoco" && r.available && r.result.ok) mujoco_rtf[key(r)] = r.rtf();
  }
  std::ostringstream out;
  out << "| scene | δt [ms] | T [s] | engine | runs | wall [s] (median) | real-time factor | × MuJoCo default"
         " | iterations/step | steady iterations/step | steady penetration [mm] | metric |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    out << "| " << r.scene << " | " << Fixed("%g", 1e3 * r.dt) << " | " << Fixed("%g", r.duration) << " | "
        << r.label << " | ";
    if (!r.available) {
      out << "– | – | – | – | – | – | – | n/a: " << r.why_not << " |\n";
      continue;
    }
    const auto mj = mujoco_rtf.find(key(r));
    out << r.runs << " | " << Fixed("%.3f", r.median_wall_s) << " | "
        << (r.result.ok ? Fixed("%.2f", r.rtf()) : "–") << " | "
        << (mj != mujoco_rtf.end() && r.result.ok && mj->second > 0 ? Fixed("%.2f", r.rtf() / mj->second) : "–")
        << " | " << Fixed("%.2f", r.result.mean_iterations) << " | " << Fixed("%.2f", r.result.steady_iterations)
        << " | " << Fixed("%.3f", 1e3 * r.result.steady_penetration_m) << " | " << r.result.metric_text
        << (r.result.ok ? "" : ": " + r.result.error) << " |\n";
  }
  return out.str();
}

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

std::string ScalingFit(const std::vector<Row>& rows) {
  std::map<std::string, std::string> labels;
  for (const Row& r : rows) labels[r.engine_key] = r.label;
  std::ostringstream out;
  for (const auto& [key, fit] : ScalingExponents(rows)) {
    out << "- " << labels[key] << ": time per step ∝ objects^" << Fixed("%.2f", fit.first) << " over "
        << fit.second << " sizes\n";
  }
  return out.str();
}

const Row* Find(const std::vector<Row>& rows, const std::string& scene_prefix, const std::string& key) {
  for (const Row& r : rows) {
    if (r.scene.rfind(scene_prefix, 0) == 0 && r.engine_key == key && r.available) return &r;
  }
  return nullptr;
}

/// Where Stiction stands against the targets of issue 8 (only those whose
/// rows ran).
std::string Targets(const std::vector<Row>& rows) {
  std::ostringstream out;
  auto line = [&](bool pass, const std::string& text) { out << "- [" << (pass ? "met" : "MISSED") << "] " << text << "\n"; };
  const Row* sap = nullptr;
  for (const Row& r : rows) {
    if (r.scene == "clutter40_walls" && std::abs(r.dt - 0.01) < 1e-12 && r.engine_key == "sap") sap = &r;
  }
  if (sap && sap->result.ok) {
    for (const char* peer : {"mujoco", "bullet"}) {
      for (const Row& r : rows) {
        if (r.scene == sap->scene && std::abs(r.dt - sap->dt) < 1e-12 && r.engine_key == peer && r.available &&
            r.result.ok) {
          line(sap->rtf() >= r.rtf(), "clutter40_walls, 10 ms: SAP real-time factor " + Fixed("%.2f", sap->rtf()) +
                                          " vs " + r.label + " " + Fixed("%.2f", r.rtf()));
        }
      }
    }
    line(sap->result.steady_iterations <= 3, "clutter40_walls, 10 ms: SAP steady-state iterations/step " +
                                                 Fixed("%.2f", sap->result.steady_iterations) + " (target ≤ 3)");
  }
  const auto exponents = ScalingExponents(rows);
  if (const auto e = exponents.find("sap"); e != exponents.end() && e->second.second >= 3) {
    line(e->second.first <= 1.2, "clutter without walls: SAP time per step ∝ objects^" +
                                     Fixed("%.2f", e->second.first) + " (target ≤ 1.2)");
  }
  if (const Row* r = Find(rows, "incline_stick", "sap"); r && r->result.ok) {
    line(std::abs(r->result.metric) <= r->creep_bound, "incline stick: SAP creep " +
                                                           Fixed("%.4f", 1e3 * r->result.metric) + " mm/s (bound μσgδt " +
                                                           Fixed("%.4f", 1e3 * r->creep_bound) + ")");
  }
  if (const Row* r = Find(rows, "incline_slide", "sap"); r && r->result.ok) {
    const double error = std::abs(r->result.metric / r->expected_acceleration - 1);
    line(error <= 0.01, "incline slide: SAP acceleration error " + Fixed("%.2f", 100 * error) + "% (target ≤ 1%)");
  }
  if (const Row* r = Find(rows, "grasp_hold", "sap"); r && r->result.ok) {
    const double drift = std::abs(r->result.metric);
    line(r->result.metric_pass && drift <= 2e-4,
         "grasp hold: SAP drift " + Fixed("%.4f", 1e3 * drift) + " mm/s (target ≤ 0.2)");
    if (const Row* m = Find(rows, "grasp_hold", "mujoco"); m && m->result.ok) {
      const double ratio = drift > 0 ? std::abs(m->result.metric) / drift : INFINITY;
      line(ratio >= 10, "grasp hold: MuJoCo default drift / SAP drift = " + Fixed("%.1f", ratio) + " (target ≥ 10)");
    }
  }
  if (const Row* r = Find(rows, "grasp_hold", "canal"); r && r->result.ok) {
    const double drift = std::abs(r->result.metric);
    line(r->result.metric_pass && drift <= 1e-6,
         "grasp hold: CANAL drift " + Fixed("%.2e", 1e3 * drift) + " mm/s (target ≤ 1e-3)");
  }
  if (const Row* r = Find(rows, "stack10", "sap"); r) {
    line(r->result.ok && r->result.metric_pass, "stack10 at 10 ms with SAP: " + r->result.metric_text);
  }
  // Issue 15, item 8: the articulated rows.
  if (const Row* r = Find(rows, "arm_hold", "sap"); r && r->result.ok) {
    const double slip = std::abs(r->result.metric);
    line(r->result.metric_pass && slip <= 2e-4,
         "arm hold (issue 15): SAP slip " + Fixed("%.4f", 1e3 * slip) + " mm/s (target ≤ 0.2)");
  }
  if (const Row* r = Find(rows, "arm_hold", "canal"); r && r->result.ok) {
    const double slip = std::abs(r->result.metric);
    line(r->result.metric_pass && slip <= 1e-6,
         "arm hold (issue 15): CANAL slip " + Fixed("%.2e", 1e3 * slip) + " mm/s (target ≤ 1e-3)");
  }
  if (const Row* r = Find(rows, "quadrupeds8", "sap"); r) {
    line(r->result.ok && r->result.metric_pass, "quadrupeds8 (issue 15) with SAP: " + r->result.metric_text);
  }
  if (const Row* r = Find(rows, "mass_ratio", "sap"); r) {
    line(r->result.ok && r->result.metric_pass,
         "mass ratio 1000 (5 kg on 5 g) with SAP: " + r->result.metric_text + " (target ≤ 1 mm)");
  }
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stiction-bench: Stiction, MuJoCo and Bullet side by side on the same scenes (issue 8)"};
  bool short_run = false;
  std::vector<std::string> scene_filter, engine_filter;
  int reps = 3;
  double budget = 30;
  std::string markdown;
  app.add_flag("--short", short_run, "every scene kind briefly, one run each (CI; under a minute)");
  app.add_option("--scene", scene_filter, "run only scenes whose name starts with this (repeatable)");
  app.add_option("--engine", engine_filter,
                 "run only these engines (repeatable): sap sap_paper lagged similar reg_lagged canal subadmm1 subadmm2 "
                 "pgs pgs_reg mujoco mujoco_elliptic mujoco_noslip bullet");
  app.add_option("--reps", reps, "runs per row; the wall time is their median")->check(CLI::Range(1, 99));
  app.add_option("--budget", budget, "stop repeating a row once its runs took this long [s]")
      ->check(CLI::PositiveNumber);
  app.add_option("--markdown", markdown, "also write the table to this file");
  std::string mjcf_dir;
  app.add_option("--write-mjcf", mjcf_dir,
                 "write the MJCF MuJoCo runs for each selected scene to DIR/<scene>.xml (default configuration) "
                 "and exit");
  CLI11_PARSE(app, argc, argv);
  if (short_run && app.count("--reps") == 0) reps = 1;

  std::vector<BenchScene> scenes;
  try {
    for (BenchScene& s : MakeBenchScenes(short_run)) {
      bool keep = scene_filter.empty();
      for (const std::string& f : scene_filter) keep = keep || s.name.rfind(f, 0) == 0;
      if (keep) scenes.push_back(std::move(s));
    }
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-bench: %s\n", e.what());
    return 2;
  }
  if (!mjcf_dir.empty()) {
    // The exact model text the MuJoCo rows load (pyramidal Newton; the other
    // configurations differ in <option cone, noslip_iterations> and <size>).
    for (const BenchScene& s : scenes) {
      std::string why;
      const std::string mjcf = WriteMjcf(s.scene, MujocoConfig::kPyramidalNewton, &why);
      const std::string path = mjcf_dir + "/" + s.name + ".xml";
      if (mjcf.empty()) {
        std::fprintf(stderr, "stiction-bench: %s: not mapped to MuJoCo: %s\n", s.name.c_str(), why.c_str());
        continue;
      }
      std::ofstream file(path);
      file << mjcf;
      if (!file) {
        std::fprintf(stderr, "stiction-bench: cannot write %s\n", path.c_str());
        return 1;
      }
      std::printf("%s\n", path.c_str());
    }
    return 0;
  }
  const std::vector<EngineSpec> all = AllEngines();
  for (const std::string& f : engine_filter) {
    if (std::none_of(all.begin(), all.end(), [&](const EngineSpec& e) { return e.key == f; })) {
      std::fprintf(stderr, "stiction-bench: unknown engine '%s' (see --help)\n", f.c_str());
      return 2;
    }
  }
  auto selected = [&](const EngineSpec& e, const BenchScene& s) {
    if (!engine_filter.empty()) return std::find(engine_filter.begin(), engine_filter.end(), e.key) != engine_filter.end();
    // The large scaled clutters run SAP and the peers' defaults only; SAP
    // with the paper's estimate runs where loads matter (and on the clutter).
    if (e.key == "sap_paper") return s.compare_paper_estimate || (s.name == "clutter40_walls" && !s.scaling);
    return !(s.scaling && s.objects > 40 && !short_run) || e.in_scaling;
  };

  // Which peers are built in at all (said once, above the table).
  std::vector<std::string> notes;
  {
    SceneDescription empty;
    std::string why;
    if (!MakeMujocoEngine(empty, MujocoConfig::kPyramidalNewton, &why)) notes.push_back("MuJoCo unavailable: " + why);
    if (!MakeBulletEngine(empty, &why)) notes.push_back("Bullet unavailable: " + why);
  }

  int total = 0, done = 0;
  for (const BenchScene& s : scenes) {
    for (const EngineSpec& e : all) total += selected(e, s) ? 1 : 0;
  }
  std::vector<Row> rows;
  for (const BenchScene& s : scenes) {
    for (const EngineSpec& e : all) {
      if (!selected(e, s)) continue;
      Row row;
      row.scene = s.name;
      row.dt = s.scene.time_step;
      row.duration = s.duration;
      row.objects = s.objects;
      row.scaling = s.scaling;
      row.creep_bound = s.creep_bound;
      row.expected_acceleration = s.expected_acceleration;
      row.engine_key = e.key;
      Progress(done, total, s.name + " " + Fixed("%g ms", 1e3 * row.dt) + ": " + e.key);
      std::vector<double> walls;
      for (int rep = 0; rep < reps; ++rep) {
        std::string why;
        std::unique_ptr<PeerEngine> engine = e.make(s.scene, &why);
        if (!engine) {
          row.available = false;
          row.why_not = why;
          row.label = e.key;
          break;
        }
        row.label = engine->label();
        RunResult result = RunScene(s, *engine);
        walls.push_back(result.wall_s);
        if (rep == 0) row.result = result;
        double spent = 0;
        for (double w : walls) spent += w;
        if (!result.ok || spent >= budget) break;
      }
      row.runs = static_cast<int>(walls.size());
      if (!walls.empty()) row.median_wall_s = Median(walls);
      rows.push_back(row);
      ++done;
    }
  }
  Progress(done, total, "done");
  std::fprintf(stderr, "\n");

  std::ostringstream report;
  report << "# stiction-bench" << (short_run ? " --short" : "") << "\n\n";
  for (const std::string& n : notes) report << "- " << n << "\n";
  if (!notes.empty()) report << "\n";
  report << Table(rows) << "\n";
  const std::string fit = ScalingFit(rows);
  if (!fit.empty()) report << "Scaling (clutter without walls, time per step vs object count):\n" << fit << "\n";
  const std::string targets = Targets(rows);
  if (!targets.empty()) report << "Targets (issue 8):\n" << targets;
  std::cout << report.str() << std::flush;
  if (!markdown.empty()) {
    std::ofstream file(markdown);
    file << report.str();
    if (!file) {
      std::fprintf(stderr, "stiction-bench: cannot write %s\n", markdown.c_str());
      return 1;
    }
  }
  return 0;
}
