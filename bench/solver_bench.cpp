// SAP vs CANAL vs SubADMM (1 and 2 threads) side by side (issue 6):
//   stiction-solver-bench [SECONDS] [SCENE.yaml ...]
// Default scenes: assets/scenes/clutter.yaml (δt = 10 ms) and
// assets/scenes/quadrupeds8.yaml (8 trees of 18 DOF). Prints per solver the
// mean wall time per step, mean contact-solver iterations (SAP: Newton;
// CANAL: AL iterations and inner Newton steps; SubADMM: iterations), the
// largest e_m ([SAP] Eq. 32), the mean AL residual, steps at the AL
// cap, the mean of the per-step maximum penetration and the final kinetic
// energy (how far the scene is from rest: the drift). Figures go to
// docs/benchmarks.md.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/simulation.h"

namespace {

struct Variant {
  const char* label;
  stiction::SolverType type;
  int threads;
};

void Run(const std::string& path, double seconds, const Variant& v) {
  stiction::Simulation sim = stiction::Simulation::FromFile(path);
  stiction::SolverSettings s = sim.solver_settings();
  s.type = v.type;
  s.subadmm.num_threads = v.threads;
  sim.SetSolver(s);
  const int steps = static_cast<int>(seconds / sim.time_step() + 0.5);
  double wall = 0, iterations = 0, outer = 0, residual = 0, max_em = 0, penetration = 0, contacts = 0;
  int unconverged = 0, done = 0;
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
    contacts += r.stats.num_contacts;
    if (!r.stats.solver_converged) ++unconverged;
  }
  const double n = std::max(done, 1);
  std::printf("  %-14s %9.3f %9.1f %9.1f %10.2e %10.2e %6d %9.3f %10.2e %8.1f\n", v.label,
              1e3 * wall / n, outer / n, iterations / n, max_em, residual / n, unconverged,
              1e3 * penetration / n, sim.CalcKineticEnergy(), contacts / n);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  std::vector<std::string> scenes;
  for (int i = 2; i < argc; ++i) scenes.emplace_back(argv[i]);
  if (scenes.empty()) {
    scenes = {std::string(STICTION_SOURCE_DIR) + "/assets/scenes/clutter.yaml",
              std::string(STICTION_SOURCE_DIR) + "/assets/scenes/quadrupeds8.yaml"};
  }
  using stiction::SolverType;
  const Variant variants[] = {{"sap", SolverType::kSap, 1},
                              {"canal", SolverType::kCanal, 1},
                              {"subadmm 1 thr", SolverType::kSubAdmm, 1},
                              {"subadmm 2 thr", SolverType::kSubAdmm, 2}};
  try {
    for (const std::string& scene : scenes) {
      std::printf("%s, %.2f s\n", scene.c_str(), seconds);
      std::printf("  %-14s %9s %9s %9s %10s %10s %6s %9s %10s %8s\n", "solver", "ms/step", "AL it",
                  "iters", "max e_m", "residual", "capped", "pen mm", "final KE", "contacts");
      for (const Variant& v : variants) Run(scene, seconds, v);
    }
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-solver-bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
