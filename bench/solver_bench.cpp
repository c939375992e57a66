// SAP vs CANAL vs SubADMM (1 and 2 threads) vs PGS side by side (issues 6, 18):
//   stiction-solver-bench [--budget-ms MS] [--rest-after S] [SECONDS] [SCENE.yaml ...]
// Default scenes: assets/scenes/clutter.yaml (δt = 10 ms) and
// assets/scenes/quadrupeds8.yaml (8 trees of 18 DOF). Prints per solver the
// mean wall time per step, mean contact-solver iterations (SAP: Newton;
// CANAL: AL iterations and inner Newton steps; SubADMM: iterations; PGS:
// sweeps), the largest e_m ([SAP] Eq. 32), the mean AL residual, steps
// stopped short of the tolerance (cap or budget) and of them at the time
// budget, the mean and largest per-step maximum penetration, the mean NCP
// residual ([CANAL] Sec. VII-A), the jitter (the largest body speed after
// --rest-after seconds, when the scene should be at rest) and the final
// kinetic energy (how far the scene is from rest: the drift). --budget-ms
// gives every solver that time budget per step (solver.budget_ms). Figures
// go to docs/benchmarks.md.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/simulation.h"

namespace {

struct Variant {
  const char* label;
  stiction::SolverType type;
  int threads;
  bool regularized;
};

struct Options {
  double seconds = 3.0;
  double budget_ms = 0;      // 0: none.
  double rest_after = -1;    // < 0: no jitter column.
};

void Run(const std::string& path, const Options& o, const Variant& v) {
  stiction::Simulation sim = stiction::Simulation::FromFile(path);
  stiction::SolverSettings s = sim.solver_settings();
  s.type = v.type;
  s.subadmm.num_threads = v.threads;
  s.pgs.regularized = v.regularized;
  s.budget.time_ms = o.budget_ms;
  sim.SetSolver(s);
  const int steps = static_cast<int>(o.seconds / sim.time_step() + 0.5);
  double wall = 0, iterations = 0, outer = 0, residual = 0, max_em = 0, penetration = 0, max_penetration = 0,
         contacts = 0, ncp = 0, jitter = 0;
  int unconverged = 0, budget_hits = 0, done = 0, contact_steps = 0;
  for (int i = 0; i < steps; ++i) {
    const stiction::StepResult r = sim.Step();
    if (r.status != stiction::StepStatus::kSuccess) {
      std::printf("  %-14s step %d failed: %s\n", v.label, i + 1, r.message.c_str());
      break;
    }
    ++done;
    wall += r.stats.wall_time_s;
    iterations += r.stats.iterations;
    outer += r.stats.outer_iterations;
    residual += r.stats.constraint_residual;
    max_em = std::max(max_em, r.stats.momentum_error);
    penetration += r.stats.max_penetration_m;
    max_penetration = std::max(max_penetration, r.stats.max_penetration_m);
    contacts += r.stats.num_contacts;
    if (r.stats.num_contacts > 0) {
      ncp += r.stats.ncp_residual;
      ++contact_steps;
    }
    if (!r.stats.solver_converged) ++unconverged;
    if (r.stats.budget_hit) ++budget_hits;
    if (o.rest_after >= 0 && sim.time() > o.rest_after) {
      for (const stiction::BodyState& b : sim.CalcBodyStates()) jitter = std::max(jitter, b.linear_velocity.norm());
    }
  }
  const double n = std::max(done, 1);
  std::printf("  %-14s %9.3f %9.1f %9.1f %10.2e %10.2e %6d %6d %9.3f %9.3f %10.2e", v.label, 1e3 * wall / n,
              outer / n, iterations / n, max_em, residual / n, unconverged, budget_hits, 1e3 * penetration / n,
              1e3 * max_penetration, ncp / std::max(contact_steps, 1));
  if (o.rest_after >= 0) std::printf(" %9.3f", 1e3 * jitter);
  std::printf(" %10.2e %8.1f\n", sim.CalcKineticEnergy(), contacts / n);
}

// False after --help (usage printed). Throws InputError for a bad argument.
bool ParseArguments(int argc, char** argv, Options* o, std::vector<std::string>* scenes) {
  bool seconds_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() {
      if (i + 1 >= argc) throw stiction::InputError(arg + " needs a number");
      return stiction::ParseNumberOrThrow(arg, argv[++i], "expected a number >= 0", [](double x) { return x >= 0; });
    };
    if (arg == "--budget-ms") {
      o->budget_ms = value();
    } else if (arg == "--rest-after") {
      o->rest_after = value();
    } else if (arg == "--help" || arg == "-h") {
      std::printf("usage: stiction-solver-bench [--budget-ms MS] [--rest-after S] [SECONDS] [SCENE.yaml ...]\n");
      return false;
    } else if (!seconds_given && scenes->empty()) {
      o->seconds =
          stiction::ParseNumberOrThrow("SECONDS", arg, "expected a positive number", [](double x) { return x > 0; });
      seconds_given = true;
    } else {
      scenes->push_back(arg);
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<std::string> scenes;
  try {
    if (!ParseArguments(argc, argv, &o, &scenes)) return 0;
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-solver-bench: %s\n", e.what());
    return 2;
  }
  if (scenes.empty()) {
    scenes = {std::string(STICTION_SOURCE_DIR) + "/assets/scenes/clutter.yaml",
              std::string(STICTION_SOURCE_DIR) + "/assets/scenes/quadrupeds8.yaml"};
  }
  using stiction::SolverType;
  const Variant variants[] = {{"sap", SolverType::kSap, 1, false},
                              {"canal", SolverType::kCanal, 1, false},
                              {"subadmm 1 thr", SolverType::kSubAdmm, 1, false},
                              {"subadmm 2 thr", SolverType::kSubAdmm, 2, false},
                              {"pgs", SolverType::kPgs, 1, false},
                              {"pgs reg", SolverType::kPgs, 1, true}};
  try {
    for (const std::string& scene : scenes) {
      std::printf("%s, %.2f s", scene.c_str(), o.seconds);
      if (o.budget_ms > 0) std::printf(", budget %.3g ms per step", o.budget_ms);
      std::printf("\n  %-14s %9s %9s %9s %10s %10s %6s %6s %9s %9s %10s", "solver", "ms/step", "AL it", "iters",
                  "max e_m", "residual", "short", "budget", "pen mm", "max pen", "NCP res");
      if (o.rest_after >= 0) std::printf(" %9s", "jit mm/s");
      std::printf(" %10s %8s\n", "final KE", "contacts");
      for (const Variant& v : variants) Run(scene, o, v);
    }
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-solver-bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
