#pragma once
// Contact-rich single-step problems for the solver comparison of [CANAL]
// Sec. VII-A1 (bench/single_step/single_step_bench.cpp and its test): states
// along a SAP run of a scene, each pushed by random external wrenches.
#include <string>
#include <vector>

#include "engine/contact/contact_problem.h"

namespace stiction::bench {

struct ProblemFamily {
  std::string key;                    ///< CSV and file names ("clutter").
  std::string title;                  ///< Table and plot titles.
  std::string scene;                  ///< Path of the scene file.
  double first_time = 0;              ///< [s] of SAP before the first state.
  double every = 0;                   ///< [s] of SAP between states.
  std::vector<std::string> prefixes;  ///< Names of the bodies the wrenches push.
};

/// The three families of the issue: the clutter pile, plates under a heavy
/// pot, a box in a parallel grasp (shipped scenes under `scenes_dir`).
std::vector<ProblemFamily> SingleStepFamilies(const std::string& scenes_dir);

/// `states` states `every` seconds apart after `first_time`; at each,
/// `wrenches` random wrenches (a force up to the body's weight and a torque
/// up to its weight times 5 cm, on a random body named with one of the
/// prefixes), each giving the contact problem of one step from that state.
/// The problems carry no warm starts (every solver starts cold). Throws
/// InputError when the scene fails to load or a step fails.
std::vector<ContactProblem> SampleProblems(const ProblemFamily& family, int states, int wrenches, unsigned seed);

}  // namespace stiction::bench
