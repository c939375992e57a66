#pragma once
// The soak's random events (docs/soak.md): perturbation wrenches on free
// bodies, parameter edits within their valid ranges, solver and
// contact-model switches, resets. Everything is drawn from one seeded
// std::mt19937_64 in a fixed order per step, so the same scene, seed and
// number of steps replay the same events (wall time never feeds the RNG).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/solver_settings.h"
#include "engine/simulation.h"

namespace stiction::cli {

/// Mean events per simulated second [1/s]; each step draws each kind with
/// probability 1 − exp(−rate δt) (a Poisson process in simulated time).
struct SoakRates {
  double perturbation = 2.0;
  double edit = 1.0;
  double solver_switch = 0.2;
  double model_switch = 0.2;
  double reset = 0.05;
};

struct SoakEventOptions {
  SoakRates rates;
  /// A perturbation's force is uniform in [0, max_force_weights] m |g| (m the
  /// body's mass; |g| = 9.81 m/s² when the scene has none).
  double max_force_weights = 5.0;
  double min_hold_s = 0.05;  ///< A perturbation is held for U(min, max) [s] of simulated time.
  double max_hold_s = 0.5;
  /// Numeric edits: the scene's own value times a log-uniform factor in
  /// [edit_factor_min, edit_factor_max], kept inside the parameter's range.
  double edit_factor_min = 0.3;
  double edit_factor_max = 3.0;
  /// Time-step edits: the scene's δt times a log-uniform factor in this range.
  double dt_factor_min = 0.5;
  double dt_factor_max = 2.0;
  /// What switches may pick (empty: every registered one). A soak restricted
  /// to some says which in its report; docs/soak.md lists the findings that
  /// the CI soak excludes this way.
  std::vector<SolverType> solvers;
  std::vector<ContactModel> contact_models;
};

/// Counts of what happened, for the report.
struct SoakEventCounts {
  std::int64_t perturbations = 0;
  std::int64_t edits = 0;           ///< Parameter edits the engine accepted.
  std::int64_t rejected_edits = 0;  ///< Refused by a cross-parameter check (InputError).
  std::int64_t solver_switches = 0;
  std::int64_t model_switches = 0;
  std::int64_t resets = 0;
};

class SoakEventSource {
 public:
  /// Snapshots the scene's own settings (edits are drawn around them, so that
  /// repeated edits do not drift) and the free bodies that can be perturbed.
  SoakEventSource(const Simulation& sim, const SoakEventOptions& options, std::uint64_t seed);

  /// One Bernoulli draw with probability 1 − exp(−rate δt).
  bool Occurs(double rate_per_s, double dt);

  /// Starts a perturbation on a random free body at simulated time
  /// `total_time_s` (the soak's clock, which runs on across resets); returns
  /// its description, "" when the scene has no free body.
  std::string StartPerturbation(const Simulation& sim, double total_time_s);
  /// The wrenches of the perturbations still held at `total_time_s`, their
  /// points following the bodies (body-fixed points at the current pose).
  std::vector<ExternalWrench> ActiveWrenches(const Simulation& sim, double total_time_s);
  void ClearPerturbations() { active_.clear(); }

  /// A random parameter edit within range (contact model parameters, a
  /// material, the running solver's parameters, or δt); returns what it did.
  std::string EditParameter(Simulation* sim);
  /// Switches to another solver / contact model (the scene default; pairs
  /// whose materials name a model keep it), through the same facade calls
  /// as the viewer. "" (and nothing counted) when no other choice is allowed.
  std::string SwitchSolver(Simulation* sim);
  std::string SwitchContactModel(Simulation* sim);

  SoakEventCounts& counts() { return counts_; }
  const SoakEventCounts& counts() const { return counts_; }
  bool has_free_bodies() const { return !free_bodies_.empty(); }

 private:
  struct Perturbation {
    int body = 0;
    Vector3 p_BP = Vector3::Zero();  // Application point in the body frame [m].
    Vector3 f_W = Vector3::Zero();   // [N].
    double until_s = 0;              // Soak clock [s].
  };
  double Uniform(double lo, double hi);
  double LogUniform(double lo, double hi);
  // A value for a parameter whose scene value is `original`; false when none
  // can be drawn (original 0 with an unbounded range).
  bool DrawValue(double original, double lo, double hi, bool lo_open, bool hi_open, double* value);
  // EditParameter's steps: δt (group 3); binding a group's live and scene
  // settings (draws the material); drawing the parameter's new value.
  struct ParameterEdit;
  std::string EditTimeStep(Simulation* sim);
  bool BindGroup(const Simulation& sim, int group, ParameterEdit* edit);
  bool DrawEdit(const ParameterBinding& p, const ParameterBinding& p0);

  SoakEventOptions options_;
  std::mt19937_64 rng_;
  std::vector<int> free_bodies_;
  double gravity_ = 9.81;
  // The scene's own settings.
  ContactModelParameters contact0_;
  std::vector<std::string> material_names_;
  std::vector<ContactMaterial> materials0_;
  SolverSettings solver0_;
  double dt0_ = 0;
  std::vector<Perturbation> active_;
  SoakEventCounts counts_;
};

}  // namespace stiction::cli
