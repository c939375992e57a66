// Iterations and conditioning per contact model on the clutter, the
// figures of [ICF] Sec. X-A (Figs. 14–16): SAP, Lagged, Similar and
// regularized Lagged on the 40-object clutter with k = 1e7 N/m,
// d = 10 s/m, v_s = 1e-4 m/s, σ = 1e-3, symplectic Euler.
//
//   stiction-contact-model-bench [--dt S] [--duration S] [--every N]
//
// Prints per model: mean Newton iterations during the impacts (t ≤ 1.5 s)
// and after, mean log10 of the condition number of the Newton matrix
// H = A + JᵀGJ at the solution, scaled as the solver sees it
// (D H D, D = diag(A)^-½, [SAP] Eq. 25), sampled every N steps, and the
// wall time per step. The condition number is computed densely (all trees,
// eigenvalues), so sampling is sparse.
#include <Eigen/Eigenvalues>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/simulation.h"

namespace {

using namespace stiction;

// log10 cond(D H D) of the last step's Newton matrix at its solution.
double LogConditionNumber(const Simulation& sim) {
  const ContactProblem& p = sim.last_contact_problem();
  const SolverResult& r = sim.solver_result();
  const int n = p.num_velocities();
  if (p.constraints.empty() || r.v.size() != n) return std::nan("");
  MatrixX H = MatrixX::Zero(n, n);
  for (int t = 0; t < p.num_trees(); ++t) {
    H.block(p.tree_v_start[t], p.tree_v_start[t], p.tree_nv[t], p.tree_nv[t]) = p.A[t];
  }
  ConstraintEvaluation eval;
  for (const Constraint& c : p.constraints) {
    VectorX vc = VectorX::Zero(c.num_rows);
    for (const ConstraintJacobianBlock& b : c.blocks) vc += b.J * r.v.segment(p.tree_v_start[b.tree], p.tree_nv[b.tree]);
    c.Evaluate(vc, &eval);
    for (const ConstraintJacobianBlock& bi : c.blocks) {
      for (const ConstraintJacobianBlock& bj : c.blocks) {
        H.block(p.tree_v_start[bi.tree], p.tree_v_start[bj.tree], p.tree_nv[bi.tree], p.tree_nv[bj.tree]) +=
            bi.J.transpose() * eval.G * bj.J;
      }
    }
  }
  // Only velocities some constraint touches (the others keep v = v*).
  std::vector<int> active;
  std::vector<bool> touched(n, false);
  for (const Constraint& c : p.constraints) {
    for (const ConstraintJacobianBlock& b : c.blocks) {
      for (int i = 0; i < p.tree_nv[b.tree]; ++i) touched[p.tree_v_start[b.tree] + i] = true;
    }
  }
  for (int i = 0; i < n; ++i) {
    if (touched[i]) active.push_back(i);
  }
  const int m = static_cast<int>(active.size());
  MatrixX Hs(m, m);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      Hs(i, j) = H(active[i], active[j]);
    }
  }
  // D = diag(A)^-½ (Eq. 25).
  VectorX d(m);
  for (int i = 0; i < m; ++i) {
    int t = 0;
    while (!(active[i] >= p.tree_v_start[t] && active[i] < p.tree_v_start[t] + p.tree_nv[t])) ++t;
    const int k = active[i] - p.tree_v_start[t];
    d[i] = 1 / std::sqrt(p.A[t](k, k));
  }
  Hs = d.asDiagonal() * Hs * d.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<MatrixX> eig(Hs, Eigen::EigenvaluesOnly);
  return std::log10(eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff());
}

struct Options {
  double dt = 2e-3, duration = 3.0;
  int every = 10;
};

// Throws InputError for a bad value; false for an unknown option.
bool ParseArguments(int argc, char** argv, Options* o) {
  const auto positive = [](double x) { return x > 0; };
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], value = argv[i + 1];
    if (a == "--dt") {
      o->dt = ParseNumberOrThrow(a, value, "must be > 0 [s]", positive);
    } else if (a == "--duration") {
      o->duration = ParseNumberOrThrow(a, value, "must be > 0 [s]", positive);
    } else if (a == "--every") {
      o->every = static_cast<int>(ParseIntegerOrThrow(a, value, 1, std::numeric_limits<int>::max()));
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    if (!ParseArguments(argc, argv, &o)) {
      std::fprintf(stderr, "usage: %s [--dt S] [--duration S] [--every N]\n", argv[0]);
      return 2;
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "stiction-contact-model-bench: %s\n", e.what());
    return 2;
  }
  const double dt = o.dt, duration = o.duration;
  const int every = o.every;
  const std::string scene = std::string(STICTION_SOURCE_DIR) + "/assets/scenes/clutter.yaml";
  std::printf("clutter (40 objects), k = 1e7 N/m, d = 10 s/m, tau_d = 1e-3 s (SAP), v_s = 1e-4 m/s, "
              "sigma = 1e-3, dt = %g s, %g s, symplectic Euler\n", dt, duration);
  std::printf("%-20s %12s %12s %14s %14s %10s\n", "model", "iters<=1.5s", "iters>1.5s", "log10cond<=1.5",
              "log10cond>1.5", "ms/step");
  for (const ContactModelInfo& info : ContactModels()) {  // Every model of the engine's registry.
    const std::string model(info.name);
    Simulation sim = Simulation::FromFile(
        scene, {"contact_model=" + model, "time_step=" + std::to_string(dt),
                "integrator=symplectic_euler", "materials.clutter.stiffness=1e7",
                "materials.clutter.hc_dissipation=10", "materials.clutter.dissipation=1e-3",
                "materials.clutter.stiction_velocity=1e-4"});
    const long steps = std::lround(duration / dt);
    double it[2] = {0, 0}, cond[2] = {0, 0}, wall = 0;
    long n_it[2] = {0, 0}, n_cond[2] = {0, 0};
    for (long s = 0; s < steps; ++s) {
      const StepResult r = sim.Step();
      if (r.status != StepStatus::kSuccess) {
        std::printf("%-20s step %ld failed: %s\n", model.c_str(), s, r.message.c_str());
        break;
      }
      wall += r.stats.wall_time_s;
      const int phase = sim.time() <= 1.5 ? 0 : 1;
      it[phase] += r.stats.iterations;
      ++n_it[phase];
      if (s % every == 0) {
        const double c = LogConditionNumber(sim);
        if (std::isfinite(c)) {
          cond[phase] += c;
          ++n_cond[phase];
        }
      }
    }
    std::printf("%-20s %12.2f %12.2f %14.2f %14.2f %10.2f\n", model.c_str(), it[0] / std::max(1L, n_it[0]),
                it[1] / std::max(1L, n_it[1]), cond[0] / std::max(1L, n_cond[0]), cond[1] / std::max(1L, n_cond[1]),
                1e3 * wall / steps);
  }
  return 0;
}
