// The NMDP paper's evaluation (issue 17; [NMDP] Sec. VI, Figs. 3-6;
// docs/nmdp.md Sec. 10) on the quadruped's jumping and walking gaits:
//
//   stiction-nmdp-bench [--seconds S] [--dt-ms 1,2,5,10,20]
//                       [--schemes nmdp_pgm,nmdp_zopgm,ne_mdp,theta_method]
//                       [--csv FILE] [SCENE.yaml ...]
//
// Default scenes: assets/scenes/quadruped_jump.yaml and
// quadruped_walk.yaml. Every scheme runs every scene at every δt from the
// same initial state (theta_method with the scene's contact solver, SAP).
// Per run it prints the status (or the time and reason of the first failed
// step), the torso's largest tilt (Fig. 3: the symmetric jump should keep it
// at zero), the spread of the jump apexes (Fig. 4: periodic), the RMS of
// the torso height against the same scheme's smallest δt (Fig. 4:
// consistent across δt), the walking speed (least-squares slope of the
// torso's x, Fig. 5), and the cost (Fig. 6): PGM outer iterations,
// QP iterations and projection Newton steps per step, Alg. 2's
// subdivisions and smallest δt, and steps per second of wall time. Then per
// scheme the spread of the walking speed across δt. Figures go to
// docs/benchmarks.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/simulation.h"

namespace {

using stiction::SteppingScheme;

// Samples are kept at multiples of this [s] (every δt of the sweep divides it).
constexpr double kSampleInterval = 0.02;

struct Run {
  std::string scene, scheme;
  double dt = 0;
  bool failed = false;
  double failed_at = 0;
  std::string failure;
  double max_tilt_deg = 0;
  std::vector<double> height;  // Torso height at the sample times.
  std::vector<double> x;       // Torso x at the sample times.
  double apex_spread_mm = NAN;
  double height_rms_mm = NAN;  // Against the same scheme's smallest δt.
  double speed = NAN;          // [m/s]
  double outer = 0, qp = 0, newton = 0, wall = 0;
  int steps = 0, subdivisions = 0;
  double min_dt = INFINITY;
};

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

int TorsoIndex(const stiction::Simulation& sim) {
  const std::vector<stiction::BodyState> states = sim.CalcBodyStates();
  for (std::size_t i = 0; i < states.size(); ++i) {
    const std::string& n = states[i].name;
    if (n == "trunk" || (n.size() > 6 && n.compare(n.size() - 6, 6, "/trunk") == 0)) return static_cast<int>(i);
  }
  return 0;  // The first body: a scene without a trunk is measured on its root.
}

// Start of the periodic motion [s]: the latest oscillator start.
double GaitStart(const stiction::Simulation& sim) {
  double start = 0;
  for (const auto& o : sim.scene().oscillators) start = std::max(start, o.start);
  return start;
}

double GaitPeriod(const stiction::Simulation& sim) {
  return sim.scene().oscillators.empty() ? 0.5 : sim.scene().oscillators.front().period;
}

// Steps `run`'s scene `steps` times (or to the first failed step), summing
// the cost figures, tracking the torso's tilt and sampling its height and x
// every kSampleInterval.
void StepAndSample(stiction::Simulation& sim, int torso, int steps, Run* run) {
  const int per_sample = static_cast<int>(std::lround(kSampleInterval / run->dt));
  auto sample = [&] {
    const stiction::BodyState b = sim.CalcBodyStates()[static_cast<std::size_t>(torso)];
    run->height.push_back(b.position.z());
    run->x.push_back(b.position.x());
  };
  sample();
  for (int i = 0; i < steps; ++i) {
    const stiction::StepResult r = sim.Step();
    if (r.status != stiction::StepStatus::kSuccess) {
      run->failed = true;
      run->failed_at = sim.time();
      run->failure = r.message;
      break;
    }
    ++run->steps;
    run->outer += r.stats.outer_iterations;
    run->qp += r.stats.qp_iterations;
    run->newton += r.stats.iterations;
    run->wall += r.stats.wall_time_s;
    run->subdivisions += r.stats.subdivisions;
    if (r.stats.smallest_dt_s > 0) run->min_dt = std::min(run->min_dt, r.stats.smallest_dt_s);
    const stiction::BodyState b = sim.CalcBodyStates()[static_cast<std::size_t>(torso)];
    const double up = (b.orientation * stiction::Vector3::UnitZ()).z();
    run->max_tilt_deg = std::max(run->max_tilt_deg, std::acos(std::clamp(up, -1.0, 1.0)) * 180 / M_PI);
    if ((i + 1) % per_sample == 0) sample();
  }
}

// Apexes: the highest torso per gait period after the first; their spread
// [mm], NaN with fewer than two.
double ApexSpreadMm(const std::vector<double>& height, double start, double period, double seconds) {
  std::vector<double> apex;
  for (double t0 = start + period; t0 + period <= seconds + 1e-9; t0 += period) {
    const auto a = static_cast<std::size_t>(std::lround(t0 / kSampleInterval));
    const auto b = static_cast<std::size_t>(std::lround((t0 + period) / kSampleInterval));
    if (b >= height.size()) break;
    apex.push_back(*std::max_element(height.begin() + static_cast<long>(a), height.begin() + static_cast<long>(b)));
  }
  if (apex.size() < 2) return NAN;
  return 1e3 * (*std::max_element(apex.begin(), apex.end()) - *std::min_element(apex.begin(), apex.end()));
}

// Walking speed: least squares of x over the samples from `from` [s] on;
// NaN with fewer than three.
double WalkingSpeed(const std::vector<double>& x, double from) {
  double n = 0, st = 0, sx = 0, stt = 0, stx = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double t = static_cast<double>(k) * kSampleInterval;
    if (t < from) continue;
    n += 1;
    st += t;
    sx += x[k];
    stt += t * t;
    stx += t * x[k];
  }
  return n >= 3 ? (n * stx - st * sx) / (n * stt - st * st) : NAN;
}

Run RunOne(const std::string& path, SteppingScheme scheme, double dt, double seconds) {
  Run run;
  run.scene = path.substr(path.find_last_of('/') + 1);
  run.scheme = std::string(stiction::SteppingSchemeName(scheme));
  run.dt = dt;
  stiction::Simulation sim = stiction::Simulation::FromFile(path);
  sim.SetSteppingScheme(scheme);
  sim.SetTimeStep(dt);
  StepAndSample(sim, TorsoIndex(sim), static_cast<int>(std::lround(seconds / dt)), &run);
  const double start = GaitStart(sim), period = GaitPeriod(sim);
  run.apex_spread_mm = ApexSpreadMm(run.height, start, period, seconds);
  run.speed = WalkingSpeed(run.x, start + period);
  if (run.failed) run.speed = NAN;  // The state before a failed step may already have blown up.
  return run;
}

struct Options {
  double seconds = 3.0;
  std::vector<double> dts = {0.001, 0.002, 0.005, 0.01, 0.02};
  std::vector<SteppingScheme> schemes;
  std::vector<std::string> scenes;
  std::string csv_path;
};

// False after --help (usage printed). Throws InputError for a bad argument.
bool ParseArguments(int argc, char** argv, Options* o) {
  std::vector<std::string> scheme_names = {"ne_mdp", "nmdp_pgm", "nmdp_zopgm", "theta_method"};
  const auto positive = [](double x) { return x > 0; };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw stiction::InputError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--seconds") {
      o->seconds = stiction::ParseNumberOrThrow(arg, value(), "must be > 0", positive);
    } else if (arg == "--dt-ms") {
      o->dts.clear();
      for (const std::string& s : Split(value())) {
        o->dts.push_back(stiction::ParseNumberOrThrow(arg, s, "every value must be > 0", positive) * 1e-3);
      }
    } else if (arg == "--schemes") {
      scheme_names = Split(value());
    } else if (arg == "--csv") {
      o->csv_path = value();
    } else if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: stiction-nmdp-bench [--seconds S] [--dt-ms 1,2,5,10,20] [--schemes "
          "ne_mdp,nmdp_pgm,nmdp_zopgm,theta_method] [--csv FILE] [SCENE.yaml ...]\n");
      return false;
    } else {
      o->scenes.push_back(arg);
    }
  }
  for (double dt : o->dts) {
    if (std::abs(kSampleInterval / dt - std::round(kSampleInterval / dt)) > 1e-9) {
      throw stiction::InputError("every --dt-ms must divide " + stiction::StringPrintf("%g", kSampleInterval * 1e3) +
                                 " ms");
    }
  }
  for (const std::string& name : scheme_names) {
    const auto s = stiction::ParseSteppingScheme(name);
    if (!s) throw stiction::InputError("unknown scheme '" + name + "'");
    o->schemes.push_back(*s);
  }
  if (o->scenes.empty()) {
    o->scenes = {std::string(STICTION_SOURCE_DIR) + "/assets/scenes/quadruped_jump.yaml",
                 std::string(STICTION_SOURCE_DIR) + "/assets/scenes/quadruped_walk.yaml"};
  }
  std::sort(o->dts.begin(), o->dts.end());
  return true;
}

void PrintRun(const Run& r) {
  const double steps = std::max(r.steps, 1);
  const std::string status = r.failed ? stiction::StringPrintf("fail@%.2fs", r.failed_at) : "ok";
  std::printf("%-20s %-13s %6g %-9s %8.2f %9.1f %9.1f %8.3f %7.2f %7.1f %7.1f %6d %7.3f %8.0f\n", r.scene.c_str(),
              r.scheme.c_str(), r.dt * 1e3, status.c_str(), r.max_tilt_deg, r.apex_spread_mm, r.height_rms_mm,
              r.speed, r.outer / steps, r.qp / steps, r.newton / steps, r.subdivisions,
              std::isfinite(r.min_dt) ? r.min_dt * 1e3 : 0.0, r.wall > 0 ? r.steps / r.wall : 0.0);
  if (r.failed) std::printf("    first failed step: %s\n", r.failure.c_str());
}

// One scheme on one scene at every δt (smallest first); each run's torso
// height against the smallest δt's, on the samples they share.
std::vector<Run> RunScheme(const std::string& scene, SteppingScheme scheme, const Options& o) {
  std::vector<Run> mine;
  for (const double dt : o.dts) mine.push_back(RunOne(scene, scheme, dt, o.seconds));
  for (Run& r : mine) {
    const std::vector<double>& ref = mine.front().height;
    const std::size_t n = std::min(ref.size(), r.height.size());
    double sum = 0;
    for (std::size_t k = 0; k < n; ++k) sum += (r.height[k] - ref[k]) * (r.height[k] - ref[k]);
    if (n > 0 && !r.failed && !mine.front().failed) r.height_rms_mm = 1e3 * std::sqrt(sum / static_cast<double>(n));
  }
  return mine;
}

// The spread of the walking speed across δt, over the runs that did not fail.
void PrintSpeedSpread(const std::vector<Run>& mine) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Run& r : mine) {
    if (r.failed || !std::isfinite(r.speed)) continue;
    lo = std::min(lo, r.speed);
    hi = std::max(hi, r.speed);
  }
  if (hi >= lo) {
    std::printf("%-20s %-13s speed across dt: %.3f .. %.3f m/s (spread %.3f m/s)\n", mine.front().scene.c_str(),
                mine.front().scheme.c_str(), lo, hi, hi - lo);
  }
}

// False when the file cannot be written.
bool WriteCsv(const std::string& path, const std::vector<Run>& runs) {
  std::ofstream csv(path);
  csv << "scene,scheme,dt_s,failed,failed_at_s,max_tilt_deg,apex_spread_mm,height_rms_mm,speed_m_s,"
         "outer_per_step,qp_per_step,newton_per_step,subdivisions,min_dt_s,steps_per_s\n";
  for (const Run& r : runs) {
    const double steps = std::max(r.steps, 1);
    csv << r.scene << ',' << r.scheme << ',' << r.dt << ',' << r.failed << ',' << r.failed_at << ','
        << r.max_tilt_deg << ',' << r.apex_spread_mm << ',' << r.height_rms_mm << ',' << r.speed << ','
        << r.outer / steps << ',' << r.qp / steps << ',' << r.newton / steps << ',' << r.subdivisions << ','
        << (std::isfinite(r.min_dt) ? r.min_dt : 0) << ',' << (r.wall > 0 ? r.steps / r.wall : 0) << '\n';
  }
  return static_cast<bool>(csv);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    if (!ParseArguments(argc, argv, &o)) return 0;
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-nmdp-bench: %s\n", e.what());
    return 2;
  }
  std::vector<Run> runs;
  std::printf("%-20s %-13s %6s %-9s %8s %9s %9s %8s %7s %7s %7s %6s %7s %8s\n", "scene", "scheme", "dt_ms",
              "status", "tilt_deg", "apex_mm", "h_rms_mm", "speed", "outer", "qp", "newton", "subdiv", "min_dt",
              "steps/s");
  for (const std::string& scene : o.scenes) {
    for (const SteppingScheme scheme : o.schemes) {
      std::vector<Run> mine;
      try {
        mine = RunScheme(scene, scheme, o);
      } catch (const stiction::InputError& e) {
        std::fprintf(stderr, "stiction-nmdp-bench: %s\n", e.what());
        return 1;
      }
      for (const Run& r : mine) PrintRun(r);
      PrintSpeedSpread(mine);
      runs.insert(runs.end(), mine.begin(), mine.end());
    }
  }
  if (!o.csv_path.empty() && !WriteCsv(o.csv_path, runs)) {
    std::fprintf(stderr, "stiction-nmdp-bench: cannot write %s\n", o.csv_path.c_str());
    return 1;
  }
  return 0;
}
