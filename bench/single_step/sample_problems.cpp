#include "bench/single_step/sample_problems.h"

#include <cmath>
#include <random>

#include "engine/common/error.h"
#include "engine/simulation.h"

namespace stiction::bench {

std::vector<ProblemFamily> SingleStepFamilies(const std::string& scenes_dir) {
  return {
      {"clutter", "clutter pile", scenes_dir + "/clutter.yaml", 0.6, 0.1, {"sphere_", "box_"}},
      {"dish_pile", "plates under a 5 kg pot", scenes_dir + "/dish_pile.yaml", 0.4, 0.1, {"plate_", "pot"}},
      {"grasp", "box in a parallel grasp", scenes_dir + "/grasp_hold.yaml", 0.5, 0.1, {"box"}},
  };
}

std::vector<ContactProblem> SampleProblems(const ProblemFamily& family, int states, int wrenches, unsigned seed) {
  Simulation sim = Simulation::FromFile(family.scene);
  std::vector<int> bodies;
  for (int b = 1; b < sim.model().num_bodies(); ++b) {
    for (const std::string& prefix : family.prefixes) {
      if (sim.model().body(b).name.rfind(prefix, 0) == 0) bodies.push_back(b);
    }
  }
  if (bodies.empty()) throw InputError(family.scene + ": no body named " + family.prefixes.front() + "…");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<ContactProblem> problems;
  double advance = family.first_time;
  for (int state = 0; state < states; ++state) {
    sim.SetExternalWrenches({});
    const long steps = std::lround(advance / sim.time_step());
    for (long i = 0; i < steps; ++i) {
      const StepResult r = sim.Step();
      if (r.status != StepStatus::kSuccess) throw InputError(family.scene + ": " + r.message);
    }
    advance = family.every;
    const VectorX q = sim.positions(), v = sim.velocities();
    for (int w = 0; w < wrenches; ++w) {
      const int body = bodies[static_cast<std::size_t>(rng() % bodies.size())];
      const double weight = 9.81 * sim.model().body(body).mass;
      ExternalWrench wrench;
      wrench.body = body;
      wrench.p_WP = sim.CalcFramePose(sim.model().body(body).name).p;
      wrench.f_W = weight * Vector3(unit(rng), unit(rng), unit(rng));
      wrench.tau_W = 0.05 * weight * Vector3(unit(rng), unit(rng), unit(rng));
      sim.SetState(q, v);
      sim.SetExternalWrenches({wrench});
      // The step builds the problem (SAP solves it; the state is put back).
      const StepResult step = sim.Step();
      if (step.status != StepStatus::kSuccess) throw InputError(family.scene + ": " + step.message);
      ContactProblem problem = sim.last_contact_problem();
      for (Constraint& c : problem.constraints) {
        c.warm_gamma.resize(0);
        c.warm_slack.resize(0);
      }
      problems.push_back(std::move(problem));
    }
    sim.SetState(q, v);
  }
  return problems;
}

}  // namespace stiction::bench
