#include "cli/cli_options.h"

#include <cmath>

#include <CLI/CLI.hpp>

#include "cli/cli_io.h"
#include "cli/command_line.h"
#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/common/text.h"
#include "engine/parameters/parameter_reference.h"
#include "engine/simulation.h"

namespace stiction::cli {
namespace {

static_assert(kExitInputError == kCommandLineError);

// The options given as text: checked after the parse (--duration) or handed
// to the loader as overrides, which checks them with the scene's messages.
struct OptionTexts {
  std::string duration, dt, stepping, integrator, solver;
  std::vector<std::string> sets;
};

void AddOptions(CLI::App& app, CliOptions* options, OptionTexts* texts) {
  app.add_option("scene", options->scene_path,
                 "Scene file (YAML); with --replay-dataset optional (default: the demo's own)");
  app.add_option("--duration", texts->duration, "Simulated time to run [s] (default: the scene's duration)");
  app.add_option("--dt", texts->dt, "Time step [s]; same as --set time_step=S");
  app.add_option("--stepping", texts->stepping,
                 "Time-stepping scheme: " + ChoiceNames(SteppingSchemes(), " | ") +
                     "; same as --set stepping=NAME");
  app.add_option("--integrator", texts->integrator,
                 ChoiceNames(IntegratorPresets(), " | ") + "; same as --set integrator=NAME");
  app.add_option("--solver", texts->solver,
                 "Contact solver: " + ChoiceNames(SolverTypes(), " | ") + "; same as --set solver.type=NAME");
  AddSceneOverrideOption(app, &texts->sets);
  app.add_option("--report", options->report_path, "Write the JSON report to this file");
  app.add_option("--csv", options->csv_path, "Write the per-step CSV trace to this file");
  app.add_option("--csv-every", options->csv_every, "Write a CSV row every N steps (default 1)");
  app.add_option("--replay", options->replay_path,
                 "Replay this gripper command file (default: the scene's own 'commands:' file)");
  app.add_option("--dataset", options->dataset_path,
                 "Append the run as a demonstration (states, actions, observations) to this HDF5 file "
                 "(robomimic's layout, docs/datasets.md); needs a gripper");
  app.add_option("--outcome", options->outcome,
                 "With --dataset: mark the demo success | failure (default: success when the run and its "
                 "script, if any, finished)");
  app.add_option("--replay-dataset", options->replay_dataset_path,
                 "Replay the demos of this HDF5 dataset from their actions and check that every state "
                 "matches bit for bit (exit 5 if not)");
  app.add_option("--demo", options->demo, "With --replay-dataset: the demo N (data/demo_N) to replay (default: all)");
  app.add_flag("-q,--quiet", options->quiet, "No summary and no progress bar");
}

// --list prints the parameter reference and ends the parse (*listed: no
// usage after it).
void AddListFlag(CLI::App& app, std::ostream& out, bool* listed) {
  app.add_flag_callback(
         "--list",
         [&out, listed] {
           out << ParameterReferenceMarkdown();
           *listed = true;
           throw CLI::Success();
         },
         "Print every solver, contact model, integrator preset, line search and stepping scheme, with "
         "each parameter's key, default, unit and range (Markdown), and exit")
      ->trigger_on_parse();
}

// Checks what CLI11 could not and turns the sugar options into overrides.
// Throws InputError.
void FinishOptions(const OptionTexts& texts, CliOptions* options) {
  if (!texts.duration.empty()) {
    options->duration_s = ParseNumberOrThrow("--duration", texts.duration,
                                             "must be a positive finite number of seconds",
                                             [](double x) { return std::isfinite(x) && x > 0; });
  }
  if (options->csv_every < 1) {
    throw InputError("--csv-every: must be at least 1, got " + std::to_string(options->csv_every));
  }
  if (options->scene_path.empty() && options->replay_dataset_path.empty()) {
    throw InputError("scene: a scene file is required (run with --help for usage)");
  }
  if (!options->outcome.empty() && options->outcome != "success" && options->outcome != "failure") {
    throw InputError("--outcome: expected success or failure, got '" + options->outcome + "'");
  }
  if (!options->outcome.empty() && options->dataset_path.empty()) {
    throw InputError("--outcome: only with --dataset");
  }
  if (options->demo != -1 && options->replay_dataset_path.empty()) {
    throw InputError("--demo: only with --replay-dataset");
  }
  if (options->demo < -1) throw InputError("--demo: must be a demo index >= 0, got " + std::to_string(options->demo));
  if (!options->replay_dataset_path.empty() && !options->dataset_path.empty()) {
    throw InputError("--replay-dataset and --dataset: one at a time");
  }
  options->overrides = texts.sets;
  // The sugar options go last so that they win over a --set of the same key,
  // and are validated by the loader with the file's own messages.
  if (!texts.dt.empty()) options->overrides.push_back("time_step=" + texts.dt);
  if (!texts.stepping.empty()) options->overrides.push_back("stepping=" + texts.stepping);
  if (!texts.integrator.empty()) options->overrides.push_back("integrator=" + texts.integrator);
  if (!texts.solver.empty()) options->overrides.push_back("solver.type=" + texts.solver);
}

}  // namespace

ParseResult ParseCommandLine(const std::vector<std::string>& args, std::ostream& out,
                             std::ostream& err) {
  CLI::App app{
      "Runs a Stiction scene headless for a fixed simulated time and writes a JSON report "
      "and a per-step CSV trace.",
      kSimProgramName};
  app.get_formatter()->column_width(34);
  CliOptions options;
  OptionTexts texts;
  AddOptions(app, &options, &texts);
  bool listed = false;  // --list printed the reference: no help after it.
  AddListFlag(app, out, &listed);
  if (const std::optional<int> exit_code = ParseArguments(app, args, out, err, kSimProgramName, &listed)) {
    return {std::nullopt, *exit_code};
  }
  try {
    FinishOptions(texts, &options);
  } catch (const InputError& e) {
    PrintError(err, kSimProgramName, e.what());
    return {std::nullopt, kExitInputError};
  }
  return {std::move(options), kExitOk};
}

}  // namespace stiction::cli
