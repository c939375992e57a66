#include "cli/soak_options.h"

#include <algorithm>
#include <cmath>

#include <CLI/CLI.hpp>

#include "cli/cli_io.h"
#include "cli/command_line.h"
#include "engine/common/error.h"

namespace stiction::cli {
namespace {

static_assert(kSoakInputError == kCommandLineError);

// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  return out;
}

// What the parse reads into other variables than SoakOptions' own: checked
// (and the lists split) after it.
struct OptionTexts {
  std::optional<double> wall, duration;
  double rss_limit = 0;
  std::string solvers, models, invariants;
};

// The run: scene, length, seed, report, output and the --set overrides.
void AddRunOptions(CLI::App& app, SoakOptions* o, OptionTexts* texts) {
  app.add_option("scene", o->scene_path, "Scene file (YAML)")->required();
  auto* wall_opt = app.add_option("--wall-time", texts->wall, "Run for this wall time [s] (default 60)");
  app.add_option("--duration", texts->duration, "Run for this simulated time [s], summed over resets (reproducible)")
      ->excludes(wall_opt);
  app.add_option("--seed", o->seed, "Seed of the event generator (std::mt19937_64; default 1)");
  app.add_option("--report", o->report_path, "Write the JSON report to this file");
  app.add_flag("-q,--quiet", o->quiet, "No progress bar and no summary");
  app.add_flag("--keep-going", o->keep_going, "Record violations and carry on (exit 3 at the end)");
  app.add_flag("--log-events", o->log_events, "Print every event and failed step as it happens");
  AddSceneOverrideOption(app, &o->overrides);
}

// The events: their rates and the perturbations' size.
void AddEventOptions(CLI::App& app, SoakOptions* o) {
  SoakRates& rates = o->events.rates;
  app.add_option("--perturbation-rate", rates.perturbation, "Perturbations per simulated second [1/s] (default 2)");
  app.add_option("--edit-rate", rates.edit, "Parameter edits per simulated second [1/s] (default 1)");
  app.add_option("--solver-switch-rate", rates.solver_switch, "Solver switches per simulated second [1/s] (default 0.2)");
  app.add_option("--model-switch-rate", rates.model_switch,
                 "Contact-model switches per simulated second [1/s] (default 0.2)");
  app.add_option("--reset-rate", rates.reset, "Resets per simulated second [1/s] (default 0.05)");
  app.add_option("--max-force", o->events.max_force_weights,
                 "Largest perturbation force in body weights m|g| (default 5)");
}

// The invariants' limits.
void AddLimitOptions(CLI::App& app, SoakOptions* o, OptionTexts* texts) {
  app.add_option("--max-penetration", o->max_penetration_m,
                 "Penetration limit [m] (default: the smallest free body's radius of gyration)");
  app.add_option("--penetration-recovery", o->penetration_recovery_s,
                 "Simulated time the penetration may stay above the limit [s] (default 0.1)");
  app.add_option("--energy-ratio", o->energy_ratio_max, "KE <= ratio * E_in + E_floor: the ratio (default 1.05)");
  app.add_option("--energy-floor-height", o->energy_floor_height_m,
                 "E_floor = total mass * |g| * this height [m] (default 0.005)");
  app.add_option("--rss-growth-limit", texts->rss_limit,
                 "Resident memory growth allowed after the warm-up [MiB] (default 16)");
}

// Which invariants are enforced and what the switches may pick (lists
// checked after the parse), then the recovery invariant's limit: the order
// --help has always listed them in.
void AddSelectionOptions(CLI::App& app, SoakOptions* o, OptionTexts* texts) {
  app.add_option("--invariants", texts->invariants,
                 "Comma-separated invariants whose breach is a violation (default: all of finite_state, recovery, "
                 "energy, penetration, resident_memory); the others are measured and reported");
  app.add_option("--solvers", texts->solvers,
                 "Comma-separated solvers the switches may pick, e.g. sap,canal (default: all)");
  app.add_option("--contact-models", texts->models,
                 "Comma-separated contact models the switches may pick, e.g. sap,regularized_lagged (default: all)");
  app.add_option("--max-failed-in-row", o->max_failed_in_row,
                 "Failed steps in a row that count as no recovery (default 100)");
}

bool Positive(double x) { return std::isfinite(x) && x > 0; }
bool NonNegative(double x) { return std::isfinite(x) && x >= 0; }

// The ranges CLI11 does not check. Throws InputError.
void CheckRanges(const SoakOptions& o, const OptionTexts& texts) {
  if (texts.wall && !Positive(*texts.wall)) throw InputError("--wall-time: must be a positive finite number of seconds");
  if (texts.duration && !Positive(*texts.duration)) {
    throw InputError("--duration: must be a positive finite number of seconds");
  }
  const SoakRates& rates = o.events.rates;
  for (const auto& [name, rate] : {std::pair{"--perturbation-rate", rates.perturbation},
                                   {"--edit-rate", rates.edit},
                                   {"--solver-switch-rate", rates.solver_switch},
                                   {"--model-switch-rate", rates.model_switch},
                                   {"--reset-rate", rates.reset}}) {
    if (!NonNegative(rate)) throw InputError(std::string(name) + ": must be >= 0 and finite [1/s]");
  }
  if (!NonNegative(o.events.max_force_weights)) throw InputError("--max-force: must be >= 0 and finite [body weights]");
  if (o.max_penetration_m && !Positive(*o.max_penetration_m)) {
    throw InputError("--max-penetration: must be > 0 and finite [m]");
  }
  if (!NonNegative(o.penetration_recovery_s)) throw InputError("--penetration-recovery: must be >= 0 and finite [s]");
  if (!(std::isfinite(o.energy_ratio_max) && o.energy_ratio_max >= 1)) {
    throw InputError("--energy-ratio: must be >= 1 and finite");
  }
  if (!NonNegative(o.energy_floor_height_m)) throw InputError("--energy-floor-height: must be >= 0 and finite [m]");
  if (!Positive(texts.rss_limit)) throw InputError("--rss-growth-limit: must be > 0 and finite [MiB]");
  if (o.max_failed_in_row < 1) throw InputError("--max-failed-in-row: must be at least 1");
}

// The comma-separated lists, each name looked up. Throws InputError.
void ReadNameLists(const OptionTexts& texts, SoakOptions* o) {
  const std::vector<std::string>& known = SoakInvariantNames();
  for (const std::string& name : SplitList(texts.invariants)) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw InputError("--invariants: unknown invariant '" + name +
                       "' (finite_state, recovery, energy, penetration, resident_memory)");
    }
    o->invariants.push_back(name);
  }
  for (const std::string& name : SplitList(texts.solvers)) {
    const std::optional<SolverType> type = ParseSolverType(name);
    if (!type) throw InputError("--solvers: unknown solver '" + name + "'");
    o->events.solvers.push_back(*type);
  }
  for (const std::string& name : SplitList(texts.models)) {
    const std::optional<ContactModel> model = ParseContactModel(name);
    if (!model) throw InputError("--contact-models: unknown contact model '" + name + "'");
    o->events.contact_models.push_back(*model);
  }
}

}  // namespace

const std::vector<std::string>& SoakInvariantNames() {
  static const std::vector<std::string> names = {"finite_state", "recovery", "energy", "penetration",
                                                 "resident_memory"};
  return names;
}

SoakParseResult ParseSoakCommandLine(const std::vector<std::string>& args, std::ostream& out,
                                     std::ostream& err) {
  CLI::App app{
      "Soaks a Stiction scene: steps it for a long time under random perturbation wrenches, parameter "
      "edits, solver and contact-model switches and resets, and checks invariants after every step "
      "(docs/soak.md).",
      kSoakProgramName};
  app.get_formatter()->column_width(40);
  SoakOptions o;
  OptionTexts texts;
  texts.rss_limit = o.rss_growth_limit_mb;
  AddRunOptions(app, &o, &texts);
  AddEventOptions(app, &o);
  AddLimitOptions(app, &o, &texts);
  AddSelectionOptions(app, &o, &texts);
  if (const std::optional<int> exit_code = ParseArguments(app, args, out, err, kSoakProgramName)) {
    return {std::nullopt, *exit_code};
  }
  try {
    CheckRanges(o, texts);
    ReadNameLists(texts, &o);
  } catch (const InputError& e) {
    PrintError(err, kSoakProgramName, e.what());
    return {std::nullopt, kSoakInputError};
  }
  o.rss_growth_limit_mb = texts.rss_limit;
  o.duration_s = texts.duration;
  o.wall_time_s = texts.wall;
  if (!texts.duration && !texts.wall) o.wall_time_s = 60;
  return {std::move(o), kSoakOk};
}

}  // namespace stiction::cli
