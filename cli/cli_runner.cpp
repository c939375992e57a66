#include "cli/cli_runner.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <set>

#include "cli/cli_options.h"
#include "cli/csv_writer.h"
#include "cli/dataset_replay.h"
#include "cli/progress_bar.h"
#include "cli/report_writer.h"
#include "cli/run_statistics.h"
#include "cli/summary_printer.h"
#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo_file.h"
#include "engine/dataset/demo_sampler.h"
#include "engine/simulation.h"

namespace stiction::cli {
namespace {

// The output files, opened before the (possibly long) run so that a bad path
// fails fast.
struct OutputFiles {
  std::ofstream report, csv;
};

OutputFiles OpenOutputs(const CliOptions& options) {
  OutputFiles files;
  if (!options.report_path.empty()) files.report = OpenOutput(options.report_path);
  if (!options.csv_path.empty()) files.csv = OpenOutput(options.csv_path);
  return files;
}

// The gripper, driven by the replayed or the scene's own commands.
SceneGripper SetUpGripper(const Simulation& sim, const std::string& replay_path) {
  if (sim.scene().grippers.empty() && !replay_path.empty()) {
    throw InputError("--replay " + replay_path + ": the scene has no gripper (scene key 'gripper')");
  }
  return SceneGripper::ForScene(sim, replay_path);
}

// What the report says of the run before its first step.
RunSummary StartSummary(const CliOptions& options, const Simulation& sim, const std::string& commands_file,
                        double duration_s, double load_wall_time_s) {
  RunSummary run;
  run.scene_path = options.scene_path;
  run.commands_file = commands_file;
  run.description = sim.scene().description;
  run.scheme = sim.stepping_scheme();
  run.integrator = sim.integrator();
  run.solver = sim.solver_type();
  run.contact_model = sim.contact_model_parameters().model;
  run.overrides = options.overrides;
  run.dt = sim.time_step();
  run.requested_duration_s = duration_s;
  run.load_wall_time_s = load_wall_time_s;
  run.load_notes = sim.load_notes();
  run.energy.initial_kinetic_J = sim.CalcKineticEnergy();
  run.energy.initial_potential_J = sim.CalcPotentialEnergy();
  return run;
}

std::vector<std::string> BodyNames(const std::vector<BodyState>& bodies) {
  std::vector<std::string> names;
  names.reserve(bodies.size());
  for (const BodyState& b : bodies) names.push_back(b.name);
  return names;
}

// The CSV trace: its writer, and the body states it refills row after row.
class CsvTrace {
 public:
  /// Writes the header and the row of the initial state.
  CsvTrace(std::ostream& file, const Simulation& sim, const EnergySummary& energy, int every)
      : bodies_(sim.CalcBodyStates()), writer_(file, BodyNames(bodies_)), every_(every) {
    writer_.WriteRow(sim.time(), StepStats{}, energy.initial_kinetic_J, energy.initial_potential_J, bodies_);
  }
  /// The row of step `step` (1 = the first), if it is one of every N.
  void AfterStep(std::int64_t step, const Simulation& sim, const StepStats& stats) {
    if (step % every_ != 0) return;
    sim.CalcBodyStates().swap(bodies_);
    writer_.WriteRow(sim.time(), stats, sim.CalcKineticEnergy(), sim.CalcPotentialEnergy(), bodies_);
  }

 private:
  std::vector<BodyState> bodies_;
  CsvWriter writer_;
  int every_;
};

// Steps `num_steps` times, or up to the first failed step, which *run
// records; the statistics of every successful step go to *stats.
void StepThrough(std::int64_t num_steps, const CliOptions& options, const RunnerIo& io, Simulation* sim,
                 SceneGripper* gripper, CsvTrace* csv, DemoSampler* demo, RunSummary* run, RunStatistics* stats) {
  const double total_sim_time_s = static_cast<double>(num_steps) * sim->time_step();
  std::set<std::string> models_used;
  ProgressBar progress(io.err, io.progress_allowed && !options.quiet, io.progress_fd);
  const Clock::time_point run_start = Clock::now();
  for (std::int64_t step = 1; step <= num_steps; ++step) {
    const Clock::time_point step_start = Clock::now();
    try {
      gripper->PrepareStep(sim);
    } catch (const InputError& e) {
      // The script stops there (the grippers keep their targets); the run
      // goes on and its exit code says the task failed.
      if (run->script.error.empty()) run->script.error = OneLine(e.what());
    }
    if (demo != nullptr) demo->Sample(*sim, *gripper);
    StepResult result = sim->Step();
    const double measured_s = SecondsSince(step_start);
    if (result.status != StepStatus::kSuccess) {
      run->status = result.status;
      run->error = StepFailureReason(result);
      break;
    }
    // The engine times Step() itself; fall back to our measurement of the
    // same call if it did not.
    if (!(result.stats.wall_time_s > 0)) result.stats.wall_time_s = measured_s;
    stats->Add(result.stats);
    for (const ContactReport& c : sim->contacts()) models_used.insert(std::string(ContactModelName(c.model)));
    ++run->steps;
    if (demo != nullptr) demo->AfterStep(*sim);
    if (csv != nullptr) csv->AfterStep(step, *sim, result.stats);
    progress.Update(sim->time(), total_sim_time_s, run->steps);
  }
  run->wall_time_s = SecondsSince(run_start);
  progress.Clear();
  run->contact_models_used.assign(models_used.begin(), models_used.end());
}

// How the task script went.
void SummarizeScript(const Simulation& sim, const SceneGripper& gripper, ScriptSummary* script) {
  const CommandPlayer* player = gripper.player();
  if (player == nullptr) return;
  script->present = true;
  script->entries = player->num_entries();
  for (const ScriptEvent& e : player->events()) {
    script->events.push_back({static_cast<double>(e.step) * sim.time_step(), e.step, e.entry, e.what});
  }
  script->finished = player->finished() && script->error.empty();
  if (script->finished) script->finished_t_s = static_cast<double>(player->finished_step()) * sim.time_step();
  script->waiting_for = player->waiting_for();
}

// What the report says of the run after its last step.
void FinishSummary(const Simulation& sim, RunSummary* run) {
  run->sim_time_s = sim.time();
  run->energy.final_kinetic_J = sim.CalcKineticEnergy();
  run->energy.final_potential_J = sim.CalcPotentialEnergy();
  run->bodies = sim.CalcBodyStates();
}

// The failed step's line, the report, the CSV's end and the summary; the
// exit code.
int WriteResults(const CliOptions& options, const RunnerIo& io, const RunSummary& run,
                 const RunStatistics& stats, OutputFiles* files) {
  const bool failed = run.status != StepStatus::kSuccess;
  if (failed) {
    PrintError(io.err, kSimProgramName, FailedStepLine(run.steps + 1, run.sim_time_s, run.error));
  }
  if (files->report.is_open()) {
    files->report << MakeReportJson(run, stats).dump(2) << '\n';
    FinishOutput(files->report, options.report_path);
  }
  if (files->csv.is_open()) FinishOutput(files->csv, options.csv_path);
  if (!options.quiet) PrintSummary(run, stats, io.out);
  if (failed) return kExitStepFailed;
  if (!run.script.error.empty()) {
    PrintError(io.err, kSimProgramName, "the script failed: " + run.script.error);
    return kExitScriptFailed;
  }
  return kExitOk;
}

// --dataset: the run as a demo appended to the file; false (the error
// printed) when it cannot be written.
bool SaveDemo(const CliOptions& options, const RunnerIo& io, const RunSummary& run, DemoSampler* sampler) {
  const bool finished = run.status == StepStatus::kSuccess && (!run.script.present || run.script.finished);
  const bool success = options.outcome.empty() ? finished : options.outcome == "success";
  const Demo demo = sampler->Finish(success);
  int index = 0;
  try {
    index = AppendDemo(options.dataset_path, demo);
  } catch (const InputError& e) {
    PrintError(io.err, kSimProgramName, e.what());
    return false;
  }
  if (!options.quiet) {
    io.err << kSimProgramName << ": demo_" << index << " (" << demo.num_samples() << " samples, "
           << (success ? "success" : "failure") << ", " << FormatNumber(static_cast<double>(DemoBytes(demo)) / 1e6, 3)
           << " MB) appended to " << options.dataset_path << '\n';
  }
  return true;
}

}  // namespace

std::int64_t StepsForDuration(double duration_s, double dt) {
  if (!(std::isfinite(duration_s) && duration_s > 0)) {
    throw InputError("duration: must be a positive finite number of seconds, got " + FormatNumber(duration_s, 6));
  }
  if (!(std::isfinite(dt) && dt > 0)) {
    throw InputError("time_step: must be a positive finite number of seconds, got " + FormatNumber(dt, 6));
  }
  const double ratio = duration_s / dt;
  // 2^53: beyond it step counts are no longer exact doubles (and such a run
  // would never finish anyway).
  if (ratio > 9007199254740992.0) {
    throw InputError("duration: " + FormatNumber(duration_s, 6) + " s at time_step " + FormatNumber(dt, 6) +
                     " s needs too many steps");
  }
  const double nearest = std::round(ratio);
  if (std::abs(ratio - nearest) <= 1e-9 * std::max(1.0, ratio)) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(nearest));
  }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(ratio)));
}

int RunSimulation(const CliOptions& options, const RunnerIo& io) {
  try {
    // Load. Every load problem is an InputError with a one-line message.
    const Clock::time_point load_start = Clock::now();
    Simulation sim = Simulation::FromFile(options.scene_path, options.overrides);
    const double load_wall_time_s = SecondsSince(load_start);
    const double duration_s = options.duration_s.value_or(sim.scene().duration);
    const std::int64_t num_steps = StepsForDuration(duration_s, sim.time_step());
    OutputFiles files = OpenOutputs(options);
    SceneGripper gripper = SetUpGripper(sim, options.replay_path);
    RunSummary run = StartSummary(options, sim, gripper.commands_file(), duration_s, load_wall_time_s);
    if (!options.quiet) {
      for (const std::string& note : run.load_notes) io.err << kSimProgramName << ": note: " << note << '\n';
    }
    std::optional<CsvTrace> csv;
    if (files.csv.is_open()) csv.emplace(files.csv, sim, run.energy, options.csv_every);
    std::optional<DemoSampler> demo;
    if (!options.dataset_path.empty()) {
      demo.emplace();
      demo->Begin(sim, gripper, options.scene_path, options.overrides, sim.CalcSceneParameters());
    }
    RunStatistics stats;
    StepThrough(num_steps, options, io, &sim, &gripper, csv ? &*csv : nullptr, demo ? &*demo : nullptr, &run,
                &stats);
    FinishSummary(sim, &run);
    SummarizeScript(sim, gripper, &run.script);
    const bool saved = !demo || SaveDemo(options, io, run, &*demo);
    const int exit_code = WriteResults(options, io, run, stats, &files);
    return saved ? exit_code : kExitInputError;
  } catch (const InputError& e) {
    PrintError(io.err, kSimProgramName, e.what());
    return kExitInputError;
  } catch (const OutputError& e) {
    PrintError(io.err, kSimProgramName, e.what());
    return kExitInputError;
  }
}

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const ParseResult parsed = ParseCommandLine(args, out, err);
  if (!parsed.options) return parsed.exit_code;
  const RunnerIo io{out, err, StderrCanShowProgress(), STDERR_FILENO};
  if (!parsed.options->replay_dataset_path.empty()) return ReplayDataset(*parsed.options, io);
  return RunSimulation(*parsed.options, io);
}

}  // namespace stiction::cli
