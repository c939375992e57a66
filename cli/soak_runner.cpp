#include "cli/soak_runner.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>

#include "cli/cli_io.h"
#include "cli/progress_bar.h"
#include "cli/report_writer.h"
#include "cli/soak_events.h"
#include "cli/soak_invariants.h"
#include "cli/soak_memory.h"
#include "cli/soak_options.h"
#include "cli/soak_report.h"
#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/control/scene_gripper.h"
#include "engine/simulation.h"

namespace stiction::cli {
namespace {

// One soak: the simulation under the events, the invariants judged after
// every step, and what was found.
class SoakRun {
 public:
  // Sets up the gripper and its script, the event source and the
  // invariants' limits for `sim`, which must outlive the run. Throws
  // InputError.
  SoakRun(const SoakOptions& options, Simulation* sim, std::ostream& out, std::ostream& err);
  // Steps until the wall or simulated time is up, or until an enforced
  // violation ends the run (without --keep-going).
  void Run(bool progress_allowed, int progress_fd);
  // The last memory sample, then what the report and the summary print.
  SoakResults Finish();

 private:
  bool TimeIsUp(double wall_s) const;
  // False when an enforced memory violation ends the run.
  bool SampleMemory(double wall_s);
  std::vector<ExternalWrench> DrawEvents();
  // One step and its invariants; true on an enforced violation.
  bool StepAndJudge(const std::vector<ExternalWrench>& wrenches);
  bool JudgeFailedStep(const StepResult& result);
  void AddWork(const StepStats& stats);
  bool JudgeEnergy();
  bool JudgePenetration();
  // Resets when the run cannot go on from its state; false when a violation
  // ends the run.
  bool GoOnAfterStep(bool violated);
  void ShowProgress(ProgressBar* progress, Clock::time_point start) const;

  void Log(const std::string& text);
  // Records a breach of `invariant`; true when it is enforced (a violation).
  bool Violate(const std::string& invariant, const std::string& detail);
  void Reset();
  void RestartBudget();
  bool CannotGoOn() const;
  std::string MemoryDetail() const;

  const SoakOptions& options_;
  Simulation& sim_;
  std::ostream& out_;
  std::ostream& err_;
  // The gripper replays the scene's own script, from the start after every
  // reset; one second after the script's last command the soak resets (a
  // "replay restart") so that the script runs again and again.
  SceneGripper gripper_;
  SoakEventSource events_;
  WorkMeter meter_;
  EnergyBudget budget_;
  SoakResults results_;
  SoakFigures& fig_ = results_.figures;
  std::deque<LoggedEvent> recent_;
  int failed_in_row_ = 0;
  double deep_since_s_ = -1;  // Soak time the penetration went above the limit; -1: it is not.
};

SoakRun::SoakRun(const SoakOptions& options, Simulation* sim, std::ostream& out, std::ostream& err)
    : options_(options),
      sim_(*sim),
      out_(out),
      err_(err),
      gripper_(SceneGripper::ForScene(*sim)),
      events_(*sim, options.events, options.seed) {
  results_.energy_limit = {options.energy_ratio_max, EnergyFloor(sim_.model(), options.energy_floor_height_m)};
  results_.max_penetration_m = options.max_penetration_m.value_or(SmallestRadiusOfGyration(sim_.model(), 0.05));
  results_.memory = ResidentMemoryMonitor(options.rss_growth_limit_mb * kMiB);
  fig_.energy_floor_J = results_.energy_limit.floor_J;
  RestartBudget();
}

void SoakRun::Run(bool progress_allowed, int progress_fd) {
  const Clock::time_point start = Clock::now();
  double next_rss_sample_s = 0;
  ProgressBar progress(err_, progress_allowed && !options_.quiet, progress_fd);
  while (true) {
    const double wall = SecondsSince(start);
    if (TimeIsUp(wall)) break;
    if (wall >= next_rss_sample_s) {
      if (!SampleMemory(wall)) break;
      next_rss_sample_s += 1.0;
    }
    const std::vector<ExternalWrench> wrenches = DrawEvents();
    if (!GoOnAfterStep(StepAndJudge(wrenches))) break;
    ShowProgress(&progress, start);
  }
  fig_.wall_time_s = SecondsSince(start);
  progress.Clear();
}

SoakResults SoakRun::Finish() {
  if (const std::optional<std::int64_t> rss = ResidentMemoryBytes()) {
    results_.memory.AddSample(fig_.wall_time_s, *rss, false);
    const std::vector<Violation>& violations = results_.violations;
    if (results_.memory.exceeded() && (violations.empty() || violations.back().invariant != "resident_memory")) {
      Violate("resident_memory", MemoryDetail());
    }
  }
  if (fig_.max_energy_excess_J == -std::numeric_limits<double>::infinity()) fig_.max_energy_excess_J = 0;
  results_.events = events_.counts();
  return results_;
}

bool SoakRun::TimeIsUp(double wall_s) const {
  return options_.wall_time_s ? wall_s >= *options_.wall_time_s : fig_.soak_time_s >= *options_.duration_s;
}

bool SoakRun::SampleMemory(double wall_s) {
  const std::optional<std::int64_t> rss = ResidentMemoryBytes();
  if (!rss) return true;
  const double fraction =
      options_.wall_time_s ? wall_s / *options_.wall_time_s : fig_.soak_time_s / *options_.duration_s;
  ResidentMemoryMonitor& memory = results_.memory;
  const bool exceeded_before = memory.exceeded();
  memory.AddSample(wall_s, *rss, fraction < options_.warm_up_fraction);
  // Only an enforced breach ends the run; an unenforced one is counted and
  // the soak goes on to its duration.
  return !(memory.exceeded() && !exceeded_before && Violate("resident_memory", MemoryDetail()) &&
           !options_.keep_going);
}

std::vector<ExternalWrench> SoakRun::DrawEvents() {
  // Drawn in a fixed order (each draw consumes the RNG whether or not the
  // event happens), all at the time step the step starts with.
  const double dt = sim_.time_step();
  const SoakRates& rates = options_.events.rates;
  if (events_.Occurs(rates.reset, dt)) {
    Reset();
    ++events_.counts().resets;
    Log("reset");
  }
  const CommandPlayer* player = gripper_.player();
  // The script ran to its end (waits make that step known only then): 1 s
  // later it starts over.
  if (player && player->finished() &&
      sim_.step_index() >= player->finished_step() + static_cast<std::int64_t>(std::llround(1.0 / sim_.time_step()))) {
    Reset();
    ++fig_.replay_restarts;
    Log("reset (replay restart)");
  }
  if (events_.Occurs(rates.solver_switch, dt)) {
    Log(events_.SwitchSolver(&sim_));
    RestartBudget();
  }
  if (events_.Occurs(rates.model_switch, dt)) {
    Log(events_.SwitchContactModel(&sim_));
    RestartBudget();
  }
  if (events_.Occurs(rates.edit, dt)) Log(events_.EditParameter(&sim_));
  if (events_.Occurs(rates.perturbation, dt)) {
    const std::string text = events_.StartPerturbation(sim_, fig_.soak_time_s);
    if (!text.empty()) ++events_.counts().perturbations;
    Log(text);
  }
  std::vector<ExternalWrench> wrenches = events_.ActiveWrenches(sim_, fig_.soak_time_s);
  sim_.SetExternalWrenches(wrenches);
  try {
    gripper_.PrepareStep(&sim_);
  } catch (const InputError& e) {
    // A task script's wait that times out because a perturbation knocked
    // the task over is the script failing, not the engine: logged; the
    // script plays again after the next reset.
    Log(std::string("script: ") + e.what());
  }
  return wrenches;
}

bool SoakRun::StepAndJudge(const std::vector<ExternalWrench>& wrenches) {
  const double step_dt = sim_.time_step();
  meter_.BeginStep(sim_, wrenches);
  const StepResult result = sim_.Step();
  ++fig_.steps;
  bool violated = false;
  if (result.status != StepStatus::kSuccess) {
    if (JudgeFailedStep(result)) violated = true;
  } else {
    failed_in_row_ = 0;
    fig_.soak_time_s += step_dt;
    if (result.stats.sleeping_bodies > 0) ++fig_.sleeping_steps;
    AddWork(result.stats);
  }
  if (!StateIsFinite(sim_)) {
    if (Violate("finite_state", "q or v holds NaN or Inf")) violated = true;
  } else if (result.status == StepStatus::kSuccess) {
    if (JudgeEnergy()) violated = true;
    if (JudgePenetration()) violated = true;
  }
  return violated;
}

bool SoakRun::JudgeFailedStep(const StepResult& result) {
  // Not a violation by itself: the state is unchanged and the next steps (or
  // the next event) must recover.
  ++fig_.failed_steps;
  ++failed_in_row_;
  fig_.max_failed_in_row = std::max(fig_.max_failed_in_row, failed_in_row_);
  // The first of a run of failures only, so that the events before it stay
  // in the violation's record.
  if (failed_in_row_ == 1) Log("step failed (" + StepStatusName(result.status) + "): " + OneLine(result.message));
  return failed_in_row_ == options_.max_failed_in_row &&
         Violate("recovery", std::to_string(failed_in_row_) + " failed steps in a row");
}

void SoakRun::AddWork(const StepStats& stats) {
  const StepWork work = meter_.EndStep(sim_, stats);
  budget_.AddWork(work.total());
  fig_.work_perturbation_J += work.perturbation;
  fig_.work_actuators_J += work.actuators;
  fig_.work_cartesian_J += work.cartesian;
}

bool SoakRun::JudgeEnergy() {
  const EnergyLimit& limit = results_.energy_limit;
  const double kinetic = sim_.CalcKineticEnergy();
  const double input = budget_.Input(sim_.CalcPotentialEnergy());
  fig_.max_energy_excess_J = std::max(fig_.max_energy_excess_J, kinetic - input);
  if (input >= limit.floor_J && input > 0) fig_.max_energy_ratio = std::max(fig_.max_energy_ratio, kinetic / input);
  if (limit.Holds(kinetic, input)) return false;
  const bool violated =
      Violate("energy", "KE " + FormatNumber(kinetic, 6) + " J > " + FormatNumber(limit.ratio_max, 6) + " * E_in " +
                            FormatNumber(input, 6) + " J + E_floor " + FormatNumber(limit.floor_J, 6) + " J");
  RestartBudget();  // With --keep-going: judge what follows afresh.
  return violated;
}

bool SoakRun::JudgePenetration() {
  const double limit = results_.max_penetration_m;
  const double depth = DeepestPenetration(sim_.contacts());
  if (std::isnan(depth) || depth > fig_.max_penetration_m) fig_.max_penetration_m = depth;
  if (depth <= limit) {
    deep_since_s_ = -1;
  } else if (deep_since_s_ < 0 && !std::isnan(depth)) {
    deep_since_s_ = fig_.soak_time_s;
    ++fig_.deep_penetrations;
  }
  const bool stayed_in = deep_since_s_ >= 0 && fig_.soak_time_s - deep_since_s_ > options_.penetration_recovery_s;
  if (!std::isnan(depth) && !stayed_in) return false;
  deep_since_s_ = -1;
  return Violate("penetration", "deepest contact " + FormatNumber(depth, 6) + " m > " + FormatNumber(limit, 6) +
                                    " m (" + DeepestContactBodies(sim_) + ", max body speed " +
                                    FormatNumber(MaxBodySpeed(sim_), 4) + " m/s)");
}

bool SoakRun::GoOnAfterStep(bool violated) {
  if (!violated && CannotGoOn()) {
    // An unenforced breach the run cannot go on from: start afresh.
    Reset();
    Log("reset (after an unenforced breach)");
  }
  if (violated) {
    if (!options_.keep_going) return false;
    if (CannotGoOn()) {
      Reset();
      Log("reset (after a violation)");
    }
  }
  return true;
}

void SoakRun::ShowProgress(ProgressBar* progress, Clock::time_point start) const {
  if (!options_.wall_time_s) {
    progress->Update(fig_.soak_time_s, *options_.duration_s, fig_.steps);
    return;
  }
  // By wall time: the simulated time the run will reach at this rate.
  const double elapsed = SecondsSince(start);
  if (elapsed > 0) progress->Update(fig_.soak_time_s, fig_.soak_time_s * *options_.wall_time_s / elapsed, fig_.steps);
}

void SoakRun::Log(const std::string& text) {
  if (text.empty()) return;
  recent_.push_back({fig_.steps, fig_.soak_time_s, text});
  if (options_.log_events) {
    out_ << "step " << fig_.steps << " t " << FormatNumber(fig_.soak_time_s, 9) << " s: " << text << '\n';
  }
  while (static_cast<int>(recent_.size()) > options_.recent_events) recent_.pop_front();
}

bool SoakRun::Violate(const std::string& invariant, const std::string& detail) {
  const std::vector<std::string>& enforced = options_.invariants;
  if (!enforced.empty() && std::find(enforced.begin(), enforced.end(), invariant) == enforced.end()) {
    ++results_.unenforced[invariant];
    Log("unenforced " + invariant + ": " + detail);
    return false;
  }
  Violation v{fig_.steps, fig_.soak_time_s, sim_.time(), invariant, detail, {recent_.begin(), recent_.end()}};
  PrintError(err_, kSoakProgramName,
             "violation at step " + std::to_string(v.step) + " (soak time " + FormatNumber(v.time_s, 9) +
                 " s, simulation time " + FormatNumber(v.sim_time_s, 9) + " s): " + invariant + ": " + detail);
  for (const LoggedEvent& e : v.recent) {
    err_ << "  step " << e.step << " t " << FormatNumber(e.time_s, 9) << " s: " << e.text << '\n';
  }
  results_.violations.push_back(std::move(v));
  return true;
}

void SoakRun::Reset() {
  sim_.Reset();
  events_.ClearPerturbations();
  gripper_.Restart(sim_);
  failed_in_row_ = 0;
  deep_since_s_ = -1;
  RestartBudget();
}

void SoakRun::RestartBudget() {
  budget_.Restart(sim_.CalcKineticEnergy(), sim_.CalcPotentialEnergy() + sim_.CalcContactStoredEnergy());
}

bool SoakRun::CannotGoOn() const { return !StateIsFinite(sim_) || failed_in_row_ >= options_.max_failed_in_row; }

std::string SoakRun::MemoryDetail() const {
  return "RSS grew by " + FormatNumber(results_.memory.max_growth_bytes() / kMiB, 4) + " MiB since the warm-up (limit " +
         FormatNumber(options_.rss_growth_limit_mb, 6) + " MiB)";
}

}  // namespace

int RunSoak(const SoakOptions& options, std::ostream& out, std::ostream& err, bool progress_allowed,
            int progress_fd) {
  try {
    Simulation sim = Simulation::FromFile(options.scene_path, options.overrides);
    std::ofstream report_file;
    if (!options.report_path.empty()) report_file = OpenOutput(options.report_path);
    SoakRun run(options, &sim, out, err);
    run.Run(progress_allowed, progress_fd);
    const SoakResults results = run.Finish();
    if (report_file.is_open()) {
      report_file << MakeSoakReportJson(options, results).dump(2) << '\n';
      FinishOutput(report_file, options.report_path);
    }
    if (!options.quiet) PrintSoakSummary(options, results, out);
    return results.violations.empty() ? kSoakOk : kSoakViolation;
  } catch (const InputError& e) {
    PrintError(err, kSoakProgramName, e.what());
    return kSoakInputError;
  } catch (const OutputError& e) {
    PrintError(err, kSoakProgramName, e.what());
    return kSoakInputError;
  }
}

int RunSoakCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const SoakParseResult parsed = ParseSoakCommandLine(args, out, err);
  if (!parsed.options) return parsed.exit_code;
  return RunSoak(*parsed.options, out, err, StderrCanShowProgress(), STDERR_FILENO);
}

}  // namespace stiction::cli
