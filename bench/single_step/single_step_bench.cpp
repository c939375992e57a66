// The single-step tests of [CANAL] Sec. VII-A1/VII-B1 (issue 18, item 3):
//   stiction-single-step [--states N] [--wrenches M] [--seed S] [--csv FILE] [--png-prefix PREFIX]
//                        [--penetration-recovery R] [--friction MU]
// For three families of contact-rich states (the clutter pile, plates under
// a heavy pot, a box in a parallel grasp), N states along a SAP run of the
// shipped scene, each with M random external wrenches on one of its free
// bodies (N × M problems per family, 10 × 10 by default), build the step's
// contact problem and solve it with every solver from the same cold start
// (γ = 0, v = v*), capped at k iterations for k on a grid, so that each
// point is the answer a budget of k iterations gives. Each answer is scored
// by the NCP residual of [CANAL] Sec. VII-A (engine/solvers/ncp_residual.h)
// and timed. Prints per family and solver the median residual and time per
// cap, and how many problems reach 1e-4 and 1e-8; writes every point as CSV
// and the median curves as a PNG per family (residual against iterations and
// against wall time). Figures go to docs/benchmarks.md. --penetration-recovery
// sets r of the exact solvers and of the scoring (default: the scene's): the
// locked clutter problems that no solver converges on with r = 0.2 are
// solvable with r → 0 (docs/solvers.md, "CANAL in piles"). --friction sets μ
// of every contact in the sampled problems (default: the scene's), the
// states left as sampled: at μ = 1 a body that recovery pushes out of a
// right-angle corner has no exact answer (tests/solvers/corner_jam_test.cpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/single_step/plot_png.h"
#include "bench/single_step/sample_problems.h"
#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/scene_loader.h"
#include "engine/solvers/ncp_residual.h"
#include "engine/solvers/solver_factory.h"

namespace stiction::bench {
namespace {

struct SolverRun {
  const char* label;
  SolverType type;
  std::vector<int> caps;
  std::array<std::uint8_t, 3> color;
};

struct Point {  // One solve; its cap is the index into the solver's caps.
  double residual = 0, time_ms = 0;
};

std::vector<int> Caps(int largest) {
  std::vector<int> caps;
  for (int k : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}) {
    if (k <= largest) caps.push_back(k);
  }
  return caps;
}

// The solver's iteration cap and a tolerance no answer meets before the cap
// (so that every run does k iterations unless it solved the problem).
void SetCap(SolverSettings* s, int k) {
  s->sap.max_iterations = k;
  s->sap.relative_tolerance = 1e-15;
  s->sap.absolute_tolerance = 1e-300;
  s->canal.max_iterations = k;
  s->canal.tolerance = 1e-15;
  s->subadmm.max_iterations = k;
  s->subadmm.tolerance = 1e-15;
  s->pgs.max_iterations = k;
  s->pgs.tolerance = 1e-15;
  s->canal.warm_start = s->subadmm.warm_start = s->pgs.warm_start = false;
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(std::lround(q * static_cast<double>(v.size() - 1)))];
}

struct Options {
  int states = 10, wrenches = 10;
  unsigned seed = 1;
  std::string csv_path = "single_step.csv", png_prefix = "single_step";
  double recovery_override = 0;  // 0: the scene's.
  double friction_override = 0;  // 0: the scene's.
};

// False after --help (usage printed). Throws InputError for a bad argument.
bool ParseArguments(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw InputError(arg + ": needs a value");
      return argv[++i];
    };
    const auto count = [&](const std::string& text) {
      return static_cast<int>(ParseIntegerOrThrow(arg, text, 1, 1000));
    };
    // A number in (0, high].
    const auto in_range = [&](const std::string& text, double high, const char* what) {
      const std::string requirement =
          std::string("expected ") + what + " in (0, " + std::to_string(static_cast<int>(high)) + "]";
      return ParseNumberOrThrow(arg, text, requirement, [high](double x) { return x > 0 && x <= high; });
    };
    if (arg == "--states") {
      o->states = count(next());
    } else if (arg == "--wrenches") {
      o->wrenches = count(next());
    } else if (arg == "--seed") {
      o->seed = static_cast<unsigned>(count(next()));
    } else if (arg == "--csv") {
      o->csv_path = next();
    } else if (arg == "--png-prefix") {
      o->png_prefix = next();
    } else if (arg == "--penetration-recovery") {
      o->recovery_override = in_range(next(), 1, "a fraction");
    } else if (arg == "--friction") {
      o->friction_override = in_range(next(), 10, "a friction coefficient");
    } else if (arg == "--help" || arg == "-h") {
      std::printf("usage: stiction-single-step [--states N] [--wrenches M] [--seed S] [--csv FILE] "
                  "[--png-prefix PREFIX] [--penetration-recovery R] [--friction MU]\n");
      return false;
    } else {
      throw InputError("unknown argument '" + arg + "' (--help lists the options)");
    }
  }
  return true;
}

const std::vector<SolverRun>& Solvers() {
  static const std::vector<SolverRun> solvers = {
      {"sap", SolverType::kSap, Caps(32), {90, 90, 90}},
      {"canal", SolverType::kCanal, Caps(64), {200, 60, 40}},
      {"subadmm", SolverType::kSubAdmm, Caps(256), {40, 120, 200}},
      {"pgs", SolverType::kPgs, Caps(256), {60, 160, 60}},
  };
  return solvers;
}

// The family's problems, with --friction's μ on every contact.
std::vector<ContactProblem> SampleFamily(const ProblemFamily& family, const Options& o) {
  std::vector<ContactProblem> sampled = SampleProblems(family, o.states, o.wrenches, o.seed);
  if (o.friction_override > 0) {
    for (ContactProblem& problem : sampled) {
      for (Constraint& c : problem.constraints) {
        if (c.origin == ConstraintOrigin::kContact) c.mu = c.cone.mu = o.friction_override;
      }
    }
  }
  return sampled;
}

// The scene's solver settings, with --penetration-recovery's r.
SolverSettings FamilySettings(const ProblemFamily& family, const Options& o) {
  SolverSettings settings = LoadSceneFile(family.scene).solver;
  if (o.recovery_override > 0) {
    settings.canal.penetration_recovery = settings.subadmm.penetration_recovery =
        settings.pgs.penetration_recovery = o.recovery_override;
  }
  return settings;
}

// points[solver][cap index][problem]: every solver at every cap on every
// problem, each point a CSV line.
using FamilyPoints = std::vector<std::vector<std::vector<Point>>>;

// One problem with solver `run` at each of its caps, from the same cold start.
void SolveAtEveryCap(const ContactProblem& problem, const SolverRun& run, const SolverSettings& scene_settings,
                     NcpResidual& residual, const std::string& csv_prefix, std::ostream& csv,
                     std::vector<std::vector<Point>>* points) {
  SolverSettings settings = scene_settings;
  settings.type = run.type;
  std::unique_ptr<ContactSolver> solver = MakeSingleContactSolver(settings);
  const double recovery = GetSolverTypeInfo(settings.type).penetration_recovery(settings);
  for (std::size_t c = 0; c < run.caps.size(); ++c) {
    SetCap(&settings, run.caps[c]);
    solver->SetParameters(settings);
    SolverResult result;
    const auto t0 = std::chrono::steady_clock::now();
    solver->Solve(problem, problem.v_star, &result);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double r = result.gamma.size() == problem.num_rows() && result.gamma.allFinite()
                         ? residual.Calc(problem, result.gamma, recovery)
                         : std::nan("");
    (*points)[c].push_back({r, ms});
    csv << csv_prefix << ',' << run.label << ',' << run.caps[c] << ',' << r << ',' << ms << ','
        << problem.constraints.size() << '\n';
  }
}

FamilyPoints SolveFamily(const ProblemFamily& family, const std::vector<ContactProblem>& sampled,
                         const SolverSettings& scene_settings, const Options& o, NcpResidual& residual,
                         std::ostream& csv) {
  const std::vector<SolverRun>& solvers = Solvers();
  FamilyPoints points(solvers.size());
  for (std::size_t s = 0; s < solvers.size(); ++s) points[s].resize(solvers[s].caps.size());
  for (std::size_t index = 0; index < sampled.size(); ++index) {
    const int state = static_cast<int>(index) / o.wrenches, w = static_cast<int>(index) % o.wrenches;
    const std::string csv_prefix = family.key + ',' + std::to_string(state) + ',' + std::to_string(w);
    for (std::size_t s = 0; s < solvers.size(); ++s) {
      SolveAtEveryCap(sampled[index], solvers[s], scene_settings, residual, csv_prefix, csv, &points[s]);
    }
    std::fprintf(stderr, "\r%s: %d/%zu problems", family.key.c_str(), static_cast<int>(index) + 1, sampled.size());
  }
  std::fprintf(stderr, "\n");
  return points;
}

// One solver's line: the median residual [median ms] at a few caps, how many
// problems reach 1e-4 and 1e-8 (and the median time they take), the
// residual's quartiles at the largest cap; its two plot series.
void PrintSolver(const SolverRun& run, const std::vector<std::vector<Point>>& points, int problems,
                 PlotPanel* by_iterations, PlotPanel* by_time) {
  std::printf("  %-8s", run.label);
  PlotSeries it{run.label, run.color, {}, {}}, tm = it;
  for (std::size_t c = 0; c < run.caps.size(); ++c) {
    std::vector<double> r, t;
    for (const Point& p : points[c]) {
      r.push_back(std::isfinite(p.residual) ? p.residual : 1e300);
      t.push_back(p.time_ms);
    }
    const double mr = Median(r), mt = Median(t);
    it.x.push_back(run.caps[c]);
    it.y.push_back(mr);
    tm.x.push_back(mt);
    tm.y.push_back(mr);
    const int k = run.caps[c];
    if (k == 1 || k == 4 || k == 16 || k == 32 || k == 64 || k == 256) {
      std::printf("  k=%-3d %8.1e [%7.3f]", k, mr, mt);
    }
  }
  // Per problem: the smallest cap (and its time) at which it reached 1e-4
  // and 1e-8.
  int reach4 = 0, reach8 = 0;
  std::vector<double> t4, t8;
  for (int p = 0; p < problems; ++p) {
    bool got4 = false, got8 = false;
    for (std::size_t c = 0; c < run.caps.size(); ++c) {
      const Point& pt = points[c][static_cast<std::size_t>(p)];
      if (!got4 && pt.residual <= 1e-4) {
        got4 = true;
        t4.push_back(pt.time_ms);
      }
      if (!got8 && pt.residual <= 1e-8) {
        got8 = true;
        t8.push_back(pt.time_ms);
      }
    }
    reach4 += got4;
    reach8 += got8;
  }
  std::vector<double> last;  // Residuals at the largest cap.
  for (const Point& pt : points.back()) last.push_back(pt.residual);
  std::printf("\n           reach 1e-4: %3d/%d (median %.3f ms), 1e-8: %3d/%d (median %.3f ms); "
              "residual at the largest cap: quartiles %.1e %.1e %.1e\n",
              reach4, problems, Median(t4), reach8, problems, Median(t8), Quantile(last, 0.25), Median(last),
              Quantile(last, 0.75));
  by_iterations->series.push_back(it);
  by_time->series.push_back(tm);
}

// The family's table on stdout and its plot PNG.
void ReportFamily(const ProblemFamily& family, const std::vector<ContactProblem>& sampled,
                  const FamilyPoints& points, const std::string& png_prefix) {
  const int problems = static_cast<int>(sampled.size());
  int contacts_total = 0;
  for (const ContactProblem& problem : sampled) contacts_total += static_cast<int>(problem.constraints.size());
  std::printf("\n%s (%s): %d problems, %.0f constraints on average; median NCP residual [median ms] per cap\n",
              family.title.c_str(), std::filesystem::path(family.scene).filename().c_str(), problems,
              static_cast<double>(contacts_total) / problems);
  PlotPanel by_iterations{family.title + ": residual vs iterations", "iterations (cap)",
                          "NCP residual (median of " + std::to_string(problems) + ")", {}};
  PlotPanel by_time{family.title + ": residual vs time", "wall time [ms] (median)", "NCP residual (median)", {}};
  const std::vector<SolverRun>& solvers = Solvers();
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    PrintSolver(solvers[s], points[s], problems, &by_iterations, &by_time);
  }
  std::string error;
  const std::string png = png_prefix + "_" + family.key + ".png";
  if (!WriteLogLogPlotPng(png, {by_iterations, by_time}, 560, 400, &error)) throw InputError(error);
  std::printf("  plot: %s\n", png.c_str());
}

int Run(int argc, char** argv) {
  Options o;
  if (!ParseArguments(argc, argv, &o)) return 0;
  std::ofstream csv(o.csv_path);
  if (!csv) throw InputError(o.csv_path + ": cannot open for writing");
  csv << "family,state,wrench,solver,cap,residual,time_ms,contacts\n";
  NcpResidual residual;
  for (const ProblemFamily& family : SingleStepFamilies(std::string(STICTION_SOURCE_DIR) + "/assets/scenes")) {
    const std::vector<ContactProblem> sampled = SampleFamily(family, o);
    const SolverSettings scene_settings = FamilySettings(family, o);
    const FamilyPoints points = SolveFamily(family, sampled, scene_settings, o, residual, csv);
    ReportFamily(family, sampled, points, o.png_prefix);
  }
  std::printf("\nevery point: %s\n", o.csv_path.c_str());
  return 0;
}

}  // namespace
}  // namespace stiction::bench

int main(int argc, char** argv) {
  try {
    return stiction::bench::Run(argc, argv);
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-single-step: %s\n", e.what());
    return 2;
  }
}
