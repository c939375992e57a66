// stiction-bench: the side-by-side benchmark of issue 8. Builds the same
// scenes (bench_scenes.h) in Stiction (every solver and contact model), in
// MuJoCo (pyramidal Newton = its default, elliptic Newton, elliptic + noslip)
// and in Bullet (its default sequential-impulse solver), runs them one after
// the other in this process and prints one markdown table, the scaling
// exponent of time per step versus object count, and where Stiction stands
// against the targets (bench_report.h).
//
//   stiction-bench [--short] [--scene NAME]... [--engine KEY]... [--reps N]
//                  [--budget S] [--markdown FILE] [--write-mjcf DIR]
//
// docs/benchmarks.md ("Side by side") holds the table from the project's
// machine and what every column means.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/side_by_side/bench_metrics.h"
#include "bench/side_by_side/bench_report.h"
#include "bench/side_by_side/bench_scenes.h"
#include "bench/side_by_side/mujoco_scene_writer.h"
#include "bench/side_by_side/peer_engine.h"
#include "bench/side_by_side/stiction_engine.h"
#include "engine/common/error.h"
#include "engine/common/text.h"

namespace {

using namespace stiction::bench;
using stiction::SceneDescription;
using stiction::StringPrintf;

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

struct BenchOptions {
  bool short_run = false;
  std::vector<std::string> scene_filter, engine_filter;
  int reps = 3;
  double budget = 30;
  std::string markdown;
  std::string mjcf_dir;
};

// nullopt when the command line parsed; otherwise the exit code (--help
// printed, or an error).
std::optional<int> ParseOptions(int argc, char** argv, BenchOptions* o) {
  CLI::App app{"stiction-bench: Stiction, MuJoCo and Bullet side by side on the same scenes (issue 8)"};
  app.add_flag("--short", o->short_run, "every scene kind briefly, one run each (CI; under a minute)");
  app.add_option("--scene", o->scene_filter, "run only scenes whose name starts with this (repeatable)");
  app.add_option("--engine", o->engine_filter,
                 "run only these engines (repeatable): sap sap_paper lagged similar reg_lagged canal subadmm1 subadmm2 "
                 "pgs pgs_reg mujoco mujoco_elliptic mujoco_noslip bullet");
  app.add_option("--reps", o->reps, "runs per row; the wall time is their median")->check(CLI::Range(1, 99));
  app.add_option("--budget", o->budget, "stop repeating a row once its runs took this long [s]")
      ->check(CLI::PositiveNumber);
  app.add_option("--markdown", o->markdown, "also write the table to this file");
  app.add_option("--write-mjcf", o->mjcf_dir,
                 "write the MJCF MuJoCo runs for each selected scene to DIR/<scene>.xml (default configuration) "
                 "and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (o->short_run && app.count("--reps") == 0) o->reps = 1;
  return std::nullopt;
}

// The scenes whose names start with one of --scene (all without it).
std::vector<BenchScene> SelectScenes(const BenchOptions& o) {
  std::vector<BenchScene> scenes;
  for (BenchScene& s : MakeBenchScenes(o.short_run)) {
    bool keep = o.scene_filter.empty();
    for (const std::string& f : o.scene_filter) keep = keep || s.name.rfind(f, 0) == 0;
    if (keep) scenes.push_back(std::move(s));
  }
  return scenes;
}

// --write-mjcf: the exact model text the MuJoCo rows load (pyramidal Newton;
// the other configurations differ in <option cone, noslip_iterations> and
// <size>). The exit code.
int WriteMjcfFiles(const std::vector<BenchScene>& scenes, const std::string& dir) {
  for (const BenchScene& s : scenes) {
    std::string why;
    const std::string mjcf = WriteMjcf(s.scene, MujocoConfig::kPyramidalNewton, &why);
    const std::string path = dir + "/" + s.name + ".xml";
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

// The first --engine that names no engine, if any.
std::optional<std::string> UnknownEngine(const std::vector<EngineSpec>& all, const BenchOptions& o) {
  for (const std::string& f : o.engine_filter) {
    if (std::none_of(all.begin(), all.end(), [&](const EngineSpec& e) { return e.key == f; })) return f;
  }
  return std::nullopt;
}

bool Selected(const EngineSpec& e, const BenchScene& s, const BenchOptions& o) {
  if (!o.engine_filter.empty()) {
    return std::find(o.engine_filter.begin(), o.engine_filter.end(), e.key) != o.engine_filter.end();
  }
  // The large scaled clutters run SAP and the peers' defaults only; SAP
  // with the paper's estimate runs where loads matter (and on the clutter).
  if (e.key == "sap_paper") return s.compare_paper_estimate || (s.name == "clutter40_walls" && !s.scaling);
  return !(s.scaling && s.objects > 40 && !o.short_run) || e.in_scaling;
}

// Which peers are built in at all (said once, above the table).
std::vector<std::string> PeerNotes() {
  std::vector<std::string> notes;
  SceneDescription empty;
  std::string why;
  if (!MakeMujocoEngine(empty, MujocoConfig::kPyramidalNewton, &why)) notes.push_back("MuJoCo unavailable: " + why);
  if (!MakeBulletEngine(empty, &why)) notes.push_back("Bullet unavailable: " + why);
  return notes;
}

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

// Scene `s` on engine `e`: up to --reps runs (fewer once they took
// --budget, or after a failed one), their median wall time and the first
// run's figures.
Row RunRow(const BenchScene& s, const EngineSpec& e, const BenchOptions& o) {
  Row row;
  row.scene = s.name;
  row.dt = s.scene.time_step;
  row.duration = s.duration;
  row.objects = s.objects;
  row.scaling = s.scaling;
  row.creep_bound = s.creep_bound;
  row.expected_acceleration = s.expected_acceleration;
  row.engine_key = e.key;
  std::vector<double> walls;
  for (int rep = 0; rep < o.reps; ++rep) {
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
    if (!result.ok || spent >= o.budget) break;
  }
  row.runs = static_cast<int>(walls.size());
  if (!walls.empty()) row.median_wall_s = Median(walls);
  return row;
}

// Every selected scene on every selected engine, with a progress bar on
// stderr.
std::vector<Row> RunRows(const std::vector<BenchScene>& scenes, const std::vector<EngineSpec>& engines,
                         const BenchOptions& o) {
  int total = 0, done = 0;
  for (const BenchScene& s : scenes) {
    for (const EngineSpec& e : engines) total += Selected(e, s, o) ? 1 : 0;
  }
  std::vector<Row> rows;
  for (const BenchScene& s : scenes) {
    for (const EngineSpec& e : engines) {
      if (!Selected(e, s, o)) continue;
      Progress(done, total, s.name + " " + StringPrintf("%g ms", 1e3 * s.scene.time_step) + ": " + e.key);
      rows.push_back(RunRow(s, e, o));
      ++done;
    }
  }
  Progress(done, total, "done");
  std::fprintf(stderr, "\n");
  return rows;
}

std::string Report(const std::vector<Row>& rows, const std::vector<std::string>& notes, bool short_run) {
  std::ostringstream report;
  report << "# stiction-bench" << (short_run ? " --short" : "") << "\n\n";
  for (const std::string& n : notes) report << "- " << n << "\n";
  if (!notes.empty()) report << "\n";
  report << Table(rows) << "\n";
  const std::string fit = ScalingFit(rows);
  if (!fit.empty()) report << "Scaling (clutter without walls, time per step vs object count):\n" << fit << "\n";
  const std::string targets = Targets(rows);
  if (!targets.empty()) report << "Targets (issue 8):\n" << targets;
  return report.str();
}

}  // namespace

int main(int argc, char** argv) {
  BenchOptions options;
  if (const std::optional<int> exit_code = ParseOptions(argc, argv, &options)) return *exit_code;
  std::vector<BenchScene> scenes;
  try {
    scenes = SelectScenes(options);
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-bench: %s\n", e.what());
    return 2;
  }
  if (!options.mjcf_dir.empty()) return WriteMjcfFiles(scenes, options.mjcf_dir);
  const std::vector<EngineSpec> engines = AllEngines();
  if (const std::optional<std::string> unknown = UnknownEngine(engines, options)) {
    std::fprintf(stderr, "stiction-bench: unknown engine '%s' (see --help)\n", unknown->c_str());
    return 2;
  }
  const std::vector<std::string> notes = PeerNotes();
  const std::string report = Report(RunRows(scenes, engines, options), notes, options.short_run);
  std::cout << report << std::flush;
  if (!options.markdown.empty()) {
    std::ofstream file(options.markdown);
    file << report;
    if (!file) {
      std::fprintf(stderr, "stiction-bench: cannot write %s\n", options.markdown.c_str());
      return 1;
    }
  }
  return 0;
}
