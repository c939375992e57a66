#include "cli/soak_events.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "engine/common/error.h"
#include "engine/multibody/kinematics.h"
#include "engine/parameters/parameter_binding.h"

namespace stiction::cli {
namespace {

std::string Format(double value) {
  std::ostringstream text;
  text << std::setprecision(6) << value;
  return text.str();
}

std::string WithUnit(std::string_view unit) { return unit.empty() ? "" : " " + std::string(unit); }

}  // namespace

SoakEventSource::SoakEventSource(const Simulation& sim, const SoakEventOptions& options, std::uint64_t seed)
    : options_(options), rng_(seed) {
  const MultibodyModel& model = sim.model();
  for (int b = 1; b < model.num_bodies(); ++b) {
    if (model.joint(model.body(b).joint).type == JointType::kFree && model.body(b).mass > 0) {
      free_bodies_.push_back(b);
    }
  }
  if (model.gravity().norm() > 0) gravity_ = model.gravity().norm();
  contact0_ = sim.contact_model_parameters();
  material_names_ = sim.material_names();
  for (const std::string& name : material_names_) materials0_.push_back(sim.GetMaterial(name));
  solver0_ = sim.solver_settings();
  dt0_ = sim.time_step();
}

double SoakEventSource::Uniform(double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng_);
}

double SoakEventSource::LogUniform(double lo, double hi) {
  return std::exp(Uniform(std::log(lo), std::log(hi)));
}

bool SoakEventSource::Occurs(double rate_per_s, double dt) {
  const double p = -std::expm1(-rate_per_s * dt);
  return Uniform(0, 1) < p;
}

std::string SoakEventSource::StartPerturbation(const Simulation& sim, double total_time_s) {
  if (free_bodies_.empty()) return "";
  const MultibodyModel& model = sim.model();
  Perturbation p;
  p.body = free_bodies_[std::uniform_int_distribution<std::size_t>(0, free_bodies_.size() - 1)(rng_)];
  const Body& body = model.body(p.body);
  // A direction uniform on the sphere, a magnitude uniform in [0, k m g].
  Vector3 direction;
  std::normal_distribution<double> normal;
  do {
    direction = Vector3(normal(rng_), normal(rng_), normal(rng_));
  } while (direction.norm() < 1e-9);
  direction.normalize();
  const double magnitude = Uniform(0, options_.max_force_weights) * body.mass * gravity_;
  p.f_W = magnitude * direction;
  // A point uniform in the ball of the body's radius of gyration
  // sqrt(tr(I_cm) / 2m) about its centre of mass: inside or near the body
  // whatever its shape (0.77 r for a solid sphere of radius r).
  const double radius = std::sqrt(body.I_Bcm_B.trace() / (2 * body.mass));
  Vector3 offset;
  do {
    offset = Vector3(Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1));
  } while (offset.squaredNorm() > 1);
  p.p_BP = body.com_B + radius * offset;
  const double hold = Uniform(options_.min_hold_s, options_.max_hold_s);
  p.until_s = total_time_s + hold;
  active_.push_back(p);
  return "perturbation on '" + body.name + "': |f| " + Format(magnitude) + " N for " + Format(hold) + " s";
}

std::vector<ExternalWrench> SoakEventSource::ActiveWrenches(const Simulation& sim, double total_time_s) {
  std::erase_if(active_, [total_time_s](const Perturbation& p) { return p.until_s <= total_time_s; });
  std::vector<ExternalWrench> wrenches;
  if (active_.empty()) return wrenches;
  const MultibodyModel& model = sim.model();
  KinematicsCache cache(model);
  CalcKinematics(model, sim.positions(), sim.velocities(), BodyRange::All(model), &cache);
  for (const Perturbation& p : active_) {
    ExternalWrench w;
    w.body = p.body;
    w.p_WP = cache.X_WB[p.body] * p.p_BP;
    w.f_W = p.f_W;
    wrenches.push_back(w);
  }
  return wrenches;
}

bool SoakEventSource::DrawValue(double original, double lo, double hi, bool lo_open, bool hi_open,
                                double* value) {
  double x;
  if (original == 0) {
    // No scale to multiply: draw in the range when it is bounded.
    if (!std::isfinite(lo) || !std::isfinite(hi)) return false;
    x = Uniform(lo, hi);
  } else {
    x = original * LogUniform(options_.edit_factor_min, options_.edit_factor_max);
    // Beyond an end: somewhere between the scene's value and that end
    // (Uniform draws in [a, b), so an open end is never reached).
    if (x > hi || (hi_open && x >= hi)) x = original + Uniform(0, 1) * (hi - original);
    if (x < lo || (lo_open && x <= lo)) x = original - Uniform(0, 1) * (original - lo);
  }
  *value = x;
  return true;
}

std::string SoakEventSource::EditParameter(Simulation* sim) {
  // Which group: 0 contact model, 1 a material, 2 the running solver, 3 δt.
  const int group = std::uniform_int_distribution<int>(0, 3)(rng_);
  if (group == 3) {
    const double dt = dt0_ * LogUniform(options_.dt_factor_min, options_.dt_factor_max);
    const double before = sim->time_step();
    sim->SetTimeStep(dt);
    ++counts_.edits;
    return "time_step: " + Format(before) + " -> " + Format(dt) + " s";
  }
  // The live settings and the scene's own, bound to two tables in the same
  // order; `apply` hands the edited live settings to the facade.
  ContactModelParameters contact = sim->contact_model_parameters(), contact0 = contact0_;
  ContactMaterial material, material0;
  SolverSettings solver = sim->solver_settings(), solver0 = solver0_;
  ParameterTable live, scene;
  std::string prefix;
  std::size_t material_index = 0;
  if (group == 0) {
    live = BindParameters(contact);
    scene = BindParameters(contact0);
    prefix = "solver.";
  } else if (group == 1) {
    if (material_names_.empty()) return "";
    material_index = std::uniform_int_distribution<std::size_t>(0, material_names_.size() - 1)(rng_);
    material = sim->GetMaterial(material_names_[material_index]);
    material0 = materials0_[material_index];
    live = BindParameters(material);
    scene = BindParameters(material0);
    prefix = "materials." + material_names_[material_index] + ".";
  } else {
    const SolverTypeInfo& info = GetSolverTypeInfo(solver.type);
    live = info.bind(solver);
    scene = info.bind(solver0);
    prefix = info.own_map ? "solver." + std::string(info.name) + "." : "solver.";
  }
  if (live.empty()) return "";
  const std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng_);
  const ParameterBinding& p = live[i];
  const ParameterBinding& p0 = scene[i];
  const std::string before = FormatParameterValue(p);
  const ParameterRange& r = p.range;
  if (auto* b = std::get_if<bool*>(&p.value)) {
    **b = !**b;
  } else if (auto* n = std::get_if<int*>(&p.value)) {
    double x;
    if (!DrawValue(*std::get<int*>(p0.value), r.lo, r.hi, r.lo_open, r.hi_open, &x)) return "";
    const double rounded = std::round(x);
    if (!r.Contains(rounded)) return "";
    **n = static_cast<int>(rounded);
  } else {
    double* d = std::get<double*>(p.value);
    double x;
    if (!DrawValue(*std::get<double*>(p0.value), r.lo, r.hi, r.lo_open, r.hi_open, &x)) return "";
    if (!r.Contains(x)) return "";
    *d = x;
  }
  const std::string text = prefix + std::string(p.key) + ": " + before + " -> " + FormatParameterValue(p) +
                           WithUnit(p.unit);
  try {
    if (group == 0) sim->SetContactModelParameters(contact);
    if (group == 1) sim->SetMaterial(material_names_[material_index], material);
    if (group == 2) sim->SetSolver(solver);
  } catch (const InputError& e) {
    // A cross-parameter check (e.g. CANAL's max_penalty_ratio >= initial_penalty_ratio):
    // the engine refused and kept its settings, as it should.
    ++counts_.rejected_edits;
    return text + " (refused: " + e.what() + ")";
  }
  ++counts_.edits;
  return text;
}

std::string SoakEventSource::SwitchSolver(Simulation* sim) {
  SolverSettings settings = sim->solver_settings();
  const SolverType before = settings.type;
  // Any allowed solver but the running one.
  std::vector<SolverType> choices;
  for (const SolverTypeInfo& info : SolverTypes()) {
    const bool allowed = options_.solvers.empty() ||
                         std::find(options_.solvers.begin(), options_.solvers.end(), info.type) != options_.solvers.end();
    if (allowed && info.type != before) choices.push_back(info.type);
  }
  if (choices.empty()) return "";
  settings.type = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng_)];
  sim->SetSolver(settings);
  ++counts_.solver_switches;
  return "solver: " + std::string(SolverTypeName(before)) + " -> " + std::string(SolverTypeName(settings.type));
}

std::string SoakEventSource::SwitchContactModel(Simulation* sim) {
  ContactModelParameters p = sim->contact_model_parameters();
  const ContactModel before = p.model;
  std::vector<ContactModel> choices;
  for (const ContactModelInfo& info : ContactModels()) {
    const bool allowed = options_.contact_models.empty() ||
                         std::find(options_.contact_models.begin(), options_.contact_models.end(), info.model) !=
                             options_.contact_models.end();
    if (allowed && info.model != before) choices.push_back(info.model);
  }
  if (choices.empty()) return "";
  p.model = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng_)];
  sim->SetContactModelParameters(p);
  ++counts_.model_switches;
  return "contact_model: " + std::string(ContactModelName(before)) + " -> " + std::string(ContactModelName(p.model));
}

}  // namespace stiction::cli
