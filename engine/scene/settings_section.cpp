// The scene's settings (docs/scene-format.md, "Top-level keys"):
// description, gravity, time_step, duration, stepping, integrator,
// contact_model, solver and nmdp. Solver, material and integrator keys are
// read through their parameter tables (engine/parameters/).
#include <array>
#include <string_view>
#include <vector>

#include "engine/common/text.h"
#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

/// A preset name, or a custom {theta, theta_vq}.
IntegratorSettings ParseIntegrator(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node) {
  const std::string presets = ChoiceNames(IntegratorPresets());
  if (node.IsMap()) {
    const MapView map(reader, ctx, node);
    map.AllowOnly(std::array<std::string_view, 2>{"theta", "theta_vq"});
    map.Require("theta", "(a custom integrator needs both 'theta' and 'theta_vq')");
    map.Require("theta_vq", "(a custom integrator needs both 'theta' and 'theta_vq')");
    IntegratorSettings out;
    out.name = std::string(kCustomIntegrator);
    reader.ReadParameters(map, BindParameters(out), [] {});
    return out;
  }
  if (!node.IsScalar()) {
    Fail(ctx, node,
         "expected a preset name (" + presets + ") or a map {theta, theta_vq}, got " + Describe(node));
  }
  if (FindChoice(IntegratorPresets(), node.Scalar()) == nullptr) {
    Fail(ctx, node,
         "unknown integrator " + Quote(node.Scalar()) + " (expected one of: " + presets +
             ", or a map {theta, theta_vq})");
  }
  return IntegratorPreset(node.Scalar());
}

/// `solver:`. Keys at its top level: the type, SAP's line search and
/// parameters, the contact regularization β, σ, the time budget of every
/// solver, and one map per solver that has its own.
void ParseSolver(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node, SolverSettings* solver,
                 ContactModelParameters* contact) {
  const MapView map(reader, ctx, node);
  const ParameterTable sap_table = BindParameters(solver->sap);
  const ParameterTable contact_table = BindParameters(*contact);
  const ParameterTable budget_table = BindStepParameters(*solver);
  std::vector<std::string_view> keys = {"type", "line_search"};
  for (const ParameterBinding& p : sap_table) keys.push_back(p.key);
  for (const ParameterBinding& p : contact_table) keys.push_back(p.key);
  for (const ParameterBinding& p : budget_table) keys.push_back(p.key);
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (info.own_map) keys.push_back(info.name);
  }
  map.AllowOnly(keys);
  if (map.Has("type")) {
    solver->type = reader.ReadRegistryChoice(map.CtxOf("type"), map.Get("type"), SolverTypes(), "solver").type;
  }
  if (map.Has("line_search")) {
    solver->sap.line_search =
        reader.ReadRegistryChoice(map.CtxOf("line_search"), map.Get("line_search"), LineSearches(), "line search")
            .kind;
  }
  reader.ReadParameters(map, sap_table, [&] { ValidateSapParameters(solver->sap); });
  reader.ReadParameters(map, contact_table, [&] { ValidateContactModelParameters(*contact); });
  reader.ReadParameters(map, budget_table, [&] {
    CheckParameterRanges("solver", solver->budget);
    CheckParameterRanges("solver", solver->sleep);
  });
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (info.own_map) reader.ReadSubMap(map, info.name, info.bind(*solver), [&] { info.validate(*solver); });
  }
}

}  // namespace

void SceneParser::ParseSettings() {
  if (Has("description")) scene_.description = reader_.ReadString(KeyCtx("description"), Get("description"));
  if (Has("gravity")) scene_.gravity = reader_.ReadVector3(KeyCtx("gravity"), Get("gravity"));
  if (Has("time_step")) {
    const Ctx ctx = KeyCtx("time_step");
    scene_.time_step = reader_.ReadNumber(ctx, Get("time_step"));
    if (!(scene_.time_step > 0) || scene_.time_step > 1) {
      Fail(ctx, Get("time_step"), "must be in (0, 1] seconds, got " + OneLine(Get("time_step").Scalar()));
    }
  }
  if (Has("duration")) scene_.duration = reader_.ReadPositive(KeyCtx("duration"), Get("duration"));
  if (Has("stepping")) {
    scene_.scheme =
        reader_.ReadRegistryChoice(KeyCtx("stepping"), Get("stepping"), SteppingSchemes(), "stepping scheme").scheme;
  }
  if (Has("integrator")) scene_.integrator = ParseIntegrator(reader_, KeyCtx("integrator"), Get("integrator"));
  if (Has("contact_model")) {
    scene_.contact.model =
        reader_.ReadRegistryChoice(KeyCtx("contact_model"), Get("contact_model"), ContactModels(), "contact model")
            .model;
  }
  if (Has("solver")) ParseSolver(reader_, KeyCtx("solver"), Get("solver"), &scene_.solver, &scene_.contact);
  if (Has("nmdp")) {
    reader_.ReadParameterMap(KeyCtx("nmdp"), Get("nmdp"), BindParameters(scene_.nmdp),
                             [&] { ValidateNmdpParameters(scene_.nmdp); });
  }
}

}  // namespace stiction
