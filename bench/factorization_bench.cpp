// Measures SAP's Newton-matrix factorization on a scene: dense LLT, Eigen's
// simplicial sparse Cholesky and the supernodal-by-tree block Cholesky:
//   stiction-factorization-bench SCENE.yaml [SECONDS]
// Prints ms per step and the factorization share for each choice, so that
// SapSolverParameters::dense_max_size can be chosen by measurement.
#include <cstdio>
#include <string>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/simulation.h"

namespace {

struct Result {
  double ms_per_step = 0, factorization_ms = 0, mean_iterations = 0;
  bool ok = true;
};

Result Run(const std::string& path, double seconds, stiction::LinearSolverKind kind) {
  stiction::Simulation sim = stiction::Simulation::FromFile(path);
  stiction::SapSolverParameters p = sim.solver_parameters();
  p.linear_solver = kind;
  sim.SetSolverParameters(p);
  Result r;
  const int steps = static_cast<int>(seconds / sim.time_step());
  for (int i = 0; i < steps; ++i) {
    const stiction::StepResult s = sim.Step();
    if (s.status != stiction::StepStatus::kSuccess) {
      r.ok = false;
      break;
    }
    r.ms_per_step += 1e3 * s.stats.wall_time_s / steps;
    r.factorization_ms += 1e3 * s.stats.time.factorization / steps;
    r.mean_iterations += static_cast<double>(s.stats.iterations) / steps;
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SCENE.yaml [SECONDS]\n", argv[0]);
    return 2;
  }
  try {
    const double seconds = argc > 2 ? stiction::ParseNumberOrThrow("SECONDS", argv[2], "must be a positive number",
                                                                   [](double x) { return x > 0; })
                                    : 2.0;
    std::printf("%-8s %12s %18s %10s\n", "solver", "ms/step", "factorization ms", "iters");
    for (auto [name, kind] : {std::pair{"dense", stiction::LinearSolverKind::kDense},
                              std::pair{"sparse", stiction::LinearSolverKind::kSparse},
                              std::pair{"block", stiction::LinearSolverKind::kBlock}}) {
      const Result r = Run(argv[1], seconds, kind);
      std::printf("%-8s %12.4f %18.4f %10.2f%s\n", name, r.ms_per_step, r.factorization_ms,
                  r.mean_iterations, r.ok ? "" : "  (a step failed)");
    }
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction-factorization-bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
