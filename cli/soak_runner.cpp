#include "cli/soak_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/cli_runner.h"
#include "cli/progress_bar.h"
#include "cli/report_writer.h"
#include "cli/soak_invariants.h"
#include "cli/soak_memory.h"
#include "engine/common/error.h"
#include "engine/control/command_player.h"
#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"

namespace stiction::cli {
namespace {

const std::vector<std::string> kInvariantNames = {"finite_state", "recovery", "energy", "penetration",
                                                  "resident_memory"};

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

using Clock = std::chrono::steady_clock;
constexpr const char* kProgramName = "stiction-soak";
constexpr double kMiB = 1024.0 * 1024.0;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string Format(double value, int precision = 6) {
  std::ostringstream text;
  text << std::setprecision(precision) << value;
  return text.str();
}

void PrintError(std::ostream& err, const std::string& message) {
  err << kProgramName << ": " << OneLine(message) << '\n' << std::flush;
}

// One event or failed step, as a violation's record lists them.
struct LoggedEvent {
  std::int64_t step = 0;   // Soak step (attempts, across resets).
  double time_s = 0;       // Soak clock [s].
  std::string text;
};

struct Violation {
  std::int64_t step = 0;
  double time_s = 0;       // Soak clock [s].
  double sim_time_s = 0;   // The simulation's own time (since its last reset) [s].
  std::string invariant;   // "finite_state", "energy", "penetration", "resident_memory", "recovery".
  std::string detail;
  std::vector<LoggedEvent> recent;
};

// The run's figures, for the report and the summary.
struct SoakFigures {
  std::int64_t steps = 0;         // Step() calls.
  std::int64_t failed_steps = 0;  // Of which returned a failure status.
  int max_failed_in_row = 0;
  std::int64_t replay_restarts = 0;  // Resets at the end of a gripper script.
  double soak_time_s = 0;         // Simulated time summed over resets [s].
  double wall_time_s = 0;
  double max_energy_ratio = 0;    // max KE / E_in over steps with E_in ≥ E_floor.
  double max_energy_excess_J = -std::numeric_limits<double>::infinity();  // max KE − E_in [J].
  double energy_floor_J = 0;
  double work_perturbation_J = 0, work_actuators_J = 0, work_cartesian_J = 0;  // Summed over the run.
  double max_penetration_m = 0;
  std::int64_t deep_penetrations = 0;  // Times the penetration went above the limit (and recovered in time).
};

nlohmann::json EventsJson(const std::vector<LoggedEvent>& events) {
  nlohmann::json out = nlohmann::json::array();
  for (const LoggedEvent& e : events) out.push_back({{"step", e.step}, {"time_s", e.time_s}, {"event", e.text}});
  return out;
}

// Non-finite numbers become null (JSON has none).
nlohmann::json Num(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); }

}  // namespace

SoakParseResult ParseSoakCommandLine(const std::vector<std::string>& args, std::ostream& out,
                                     std::ostream& err) {
  CLI::App app{
      "Soaks a Stiction scene: steps it for a long time under random perturbation wrenches, parameter "
      "edits, solver and contact-model switches and resets, and checks invariants after every step "
      "(docs/soak.md).",
      kProgramName};
  app.get_formatter()->column_width(40);
  SoakOptions o;
  std::optional<double> wall, duration;
  double rss_limit = o.rss_growth_limit_mb;
  SoakRates& rates = o.events.rates;
  app.add_option("scene", o.scene_path, "Scene file (YAML)")->required();
  auto* wall_opt = app.add_option("--wall-time", wall, "Run for this wall time [s] (default 60)");
  app.add_option("--duration", duration, "Run for this simulated time [s], summed over resets (reproducible)")
      ->excludes(wall_opt);
  app.add_option("--seed", o.seed, "Seed of the event generator (std::mt19937_64; default 1)");
  app.add_option("--report", o.report_path, "Write the JSON report to this file");
  app.add_flag("-q,--quiet", o.quiet, "No progress bar and no summary");
  app.add_flag("--keep-going", o.keep_going, "Record violations and carry on (exit 3 at the end)");
  app.add_flag("--log-events", o.log_events, "Print every event and failed step as it happens");
  AddSceneOverrideOption(app, &o.overrides);
  app.add_option("--perturbation-rate", rates.perturbation, "Perturbations per simulated second [1/s] (default 2)");
  app.add_option("--edit-rate", rates.edit, "Parameter edits per simulated second [1/s] (default 1)");
  app.add_option("--solver-switch-rate", rates.solver_switch, "Solver switches per simulated second [1/s] (default 0.2)");
  app.add_option("--model-switch-rate", rates.model_switch,
                 "Contact-model switches per simulated second [1/s] (default 0.2)");
  app.add_option("--reset-rate", rates.reset, "Resets per simulated second [1/s] (default 0.05)");
  app.add_option("--max-force", o.events.max_force_weights,
                 "Largest perturbation force in body weights m|g| (default 5)");
  app.add_option("--max-penetration", o.max_penetration_m,
                 "Penetration limit [m] (default: the smallest free body's radius of gyration)");
  app.add_option("--penetration-recovery", o.penetration_recovery_s,
                 "Simulated time the penetration may stay above the limit [s] (default 0.1)");
  app.add_option("--energy-ratio", o.energy_ratio_max, "KE <= ratio * E_in + E_floor: the ratio (default 1.05)");
  app.add_option("--energy-floor-height", o.energy_floor_height_m,
                 "E_floor = total mass * |g| * this height [m] (default 0.005)");
  app.add_option("--rss-growth-limit", rss_limit, "Resident memory growth allowed after the warm-up [MiB] (default 16)");
  std::string solvers_text, models_text, invariants_text;
  app.add_option("--invariants", invariants_text,
                 "Comma-separated invariants whose breach is a violation (default: all of finite_state, recovery, "
                 "energy, penetration, resident_memory); the others are measured and reported");
  app.add_option("--solvers", solvers_text,
                 "Comma-separated solvers the switches may pick, e.g. sap,canal (default: all)");
  app.add_option("--contact-models", models_text,
                 "Comma-separated contact models the switches may pick, e.g. sap,regularized_lagged (default: all)");
  app.add_option("--max-failed-in-row", o.max_failed_in_row,
                 "Failed steps in a row that count as no recovery (default 100)");

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      out << app.help();
      return {std::nullopt, kSoakOk};
    }
    PrintError(err, std::string(e.what()) + " (run with --help for usage)");
    return {std::nullopt, kSoakInputError};
  }
  auto bad = [&err](const std::string& message) {
    PrintError(err, message);
    return SoakParseResult{std::nullopt, kSoakInputError};
  };
  auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  if (wall && !positive(*wall)) return bad("--wall-time: must be a positive finite number of seconds");
  if (duration && !positive(*duration)) return bad("--duration: must be a positive finite number of seconds");
  for (const auto& [name, rate] : {std::pair{"--perturbation-rate", rates.perturbation},
                                   {"--edit-rate", rates.edit},
                                   {"--solver-switch-rate", rates.solver_switch},
                                   {"--model-switch-rate", rates.model_switch},
                                   {"--reset-rate", rates.reset}}) {
    if (!(std::isfinite(rate) && rate >= 0)) return bad(std::string(name) + ": must be >= 0 and finite [1/s]");
  }
  if (!(std::isfinite(o.events.max_force_weights) && o.events.max_force_weights >= 0)) {
    return bad("--max-force: must be >= 0 and finite [body weights]");
  }
  if (o.max_penetration_m && !positive(*o.max_penetration_m)) {
    return bad("--max-penetration: must be > 0 and finite [m]");
  }
  if (!(std::isfinite(o.penetration_recovery_s) && o.penetration_recovery_s >= 0)) {
    return bad("--penetration-recovery: must be >= 0 and finite [s]");
  }
  if (!(std::isfinite(o.energy_ratio_max) && o.energy_ratio_max >= 1)) return bad("--energy-ratio: must be >= 1 and finite");
  if (!(std::isfinite(o.energy_floor_height_m) && o.energy_floor_height_m >= 0)) {
    return bad("--energy-floor-height: must be >= 0 and finite [m]");
  }
  if (!positive(rss_limit)) return bad("--rss-growth-limit: must be > 0 and finite [MiB]");
  if (o.max_failed_in_row < 1) return bad("--max-failed-in-row: must be at least 1");
  for (const std::string& name : SplitList(invariants_text)) {
    if (std::find(kInvariantNames.begin(), kInvariantNames.end(), name) == kInvariantNames.end()) {
      return bad("--invariants: unknown invariant '" + name +
                 "' (finite_state, recovery, energy, penetration, resident_memory)");
    }
    o.invariants.push_back(name);
  }
  for (const std::string& name : SplitList(solvers_text)) {
    const std::optional<SolverType> type = ParseSolverType(name);
    if (!type) return bad("--solvers: unknown solver '" + name + "'");
    o.events.solvers.push_back(*type);
  }
  for (const std::string& name : SplitList(models_text)) {
    const std::optional<ContactModel> model = ParseContactModel(name);
    if (!model) return bad("--contact-models: unknown contact model '" + name + "'");
    o.events.contact_models.push_back(*model);
  }
  o.rss_growth_limit_mb = rss_limit;
  o.duration_s = duration;
  o.wall_time_s = wall;
  if (!duration && !wall) o.wall_time_s = 60;
  return {std::move(o), kSoakOk};
}

int RunSoak(const SoakOptions& options, std::ostream& out, std::ostream& err, bool progress_allowed,
            int progress_fd) {
  try {
    Simulation sim = Simulation::FromFile(options.scene_path, options.overrides);
    std::ofstream report_file;
    if (!options.report_path.empty()) {
      report_file.open(options.report_path, std::ios::out | std::ios::trunc);
      if (!report_file) {
        throw OutputError(options.report_path + ": cannot open for writing: " + std::strerror(errno));
      }
    }
    // The gripper replays the scene's own script, from the start after every
    // reset; one second after the script's last command the soak resets
    // (a "replay restart") so that the script runs again and again.
    std::optional<GripperController> gripper;
    std::optional<CommandPlayer> player;
    if (sim.scene().gripper.present) {
      gripper.emplace(sim);
      if (!sim.scene().commands_file.empty()) {
        player.emplace(LoadCommandFile(sim.scene().commands_file), sim.time_step());
      }
    }
    const std::int64_t replay_end_step =
        player ? player->last_step() + static_cast<std::int64_t>(std::llround(1.0 / sim.time_step())) : 0;

    SoakEventSource events(sim, options.events, options.seed);
    const SoakRates& rates = options.events.rates;
    WorkMeter meter;
    EnergyBudget budget;
    const EnergyLimit energy_limit{options.energy_ratio_max, EnergyFloor(sim.model(), options.energy_floor_height_m)};
    const double max_penetration_m = options.max_penetration_m.value_or(SmallestRadiusOfGyration(sim.model(), 0.05));
    ResidentMemoryMonitor memory(options.rss_growth_limit_mb * kMiB);
    SoakFigures fig;
    fig.energy_floor_J = energy_limit.floor_J;
    std::deque<LoggedEvent> recent;
    std::vector<Violation> violations;
    int failed_in_row = 0;
    double deep_since_s = -1;  // Soak time the penetration went above the limit; -1: it is not.

    auto log = [&](const std::string& text) {
      if (text.empty()) return;
      recent.push_back({fig.steps, fig.soak_time_s, text});
      if (options.log_events) out << "step " << fig.steps << " t " << Format(fig.soak_time_s, 9) << " s: " << text << '\n';
      while (static_cast<int>(recent.size()) > options.recent_events) recent.pop_front();
    };
    auto restart_budget = [&] { budget.Restart(sim.CalcKineticEnergy(), sim.CalcPotentialEnergy()); };
    auto reset = [&] {
      sim.Reset();
      events.ClearPerturbations();
      if (gripper) gripper.emplace(sim);
      if (player) player->Rewind();
      failed_in_row = 0;
      deep_since_s = -1;
      restart_budget();
    };
    std::map<std::string, std::int64_t> unenforced;  // Breaches of invariants not enforced.
    auto violate = [&](const std::string& invariant, const std::string& detail) {
      if (!options.invariants.empty() &&
          std::find(options.invariants.begin(), options.invariants.end(), invariant) == options.invariants.end()) {
        ++unenforced[invariant];
        log("unenforced " + invariant + ": " + detail);
        return false;
      }
      Violation v{fig.steps, fig.soak_time_s, sim.time(), invariant, detail, {recent.begin(), recent.end()}};
      PrintError(err, "violation at step " + std::to_string(v.step) + " (soak time " + Format(v.time_s, 9) +
                          " s, simulation time " + Format(v.sim_time_s, 9) + " s): " + invariant + ": " + detail);
      for (const LoggedEvent& e : v.recent) {
        err << "  step " << e.step << " t " << Format(e.time_s, 9) << " s: " << e.text << '\n';
      }
      violations.push_back(std::move(v));
      return true;
    };
    restart_budget();

    const Clock::time_point start = Clock::now();
    double next_rss_sample_s = 0;
    ProgressBar progress(err, progress_allowed && !options.quiet, progress_fd);
    while (true) {
      const double wall = SecondsSince(start);
      const bool by_wall = options.wall_time_s.has_value();
      if (by_wall ? wall >= *options.wall_time_s : fig.soak_time_s >= *options.duration_s) break;
      const double fraction = by_wall ? wall / *options.wall_time_s : fig.soak_time_s / *options.duration_s;
      if (wall >= next_rss_sample_s) {
        if (const std::optional<std::int64_t> rss = ResidentMemoryBytes()) {
          const bool exceeded_before = memory.exceeded();
          memory.AddSample(wall, *rss, fraction < options.warm_up_fraction);
          // Only an enforced breach ends the run; an unenforced one is
          // counted and the soak goes on to its duration.
          if (memory.exceeded() && !exceeded_before &&
              violate("resident_memory", "RSS grew by " + Format(memory.max_growth_bytes() / kMiB, 4) +
                                             " MiB since the warm-up (limit " + Format(options.rss_growth_limit_mb) +
                                             " MiB)") &&
              !options.keep_going) {
            break;
          }
        }
        next_rss_sample_s += 1.0;
      }

      // Events, drawn in a fixed order (each draw consumes the RNG whether
      // or not the event happens).
      const double dt = sim.time_step();
      if (events.Occurs(rates.reset, dt)) {
        reset();
        ++events.counts().resets;
        log("reset");
      }
      if (player && player->finished() && sim.step_index() >= replay_end_step) {
        reset();
        ++fig.replay_restarts;
        log("reset (replay restart)");
      }
      if (events.Occurs(rates.solver_switch, dt)) {
        log(events.SwitchSolver(&sim));
        restart_budget();
      }
      if (events.Occurs(rates.model_switch, dt)) {
        log(events.SwitchContactModel(&sim));
        restart_budget();
      }
      if (events.Occurs(rates.edit, dt)) log(events.EditParameter(&sim));
      if (events.Occurs(rates.perturbation, dt)) {
        const std::string text = events.StartPerturbation(sim, fig.soak_time_s);
        if (!text.empty()) ++events.counts().perturbations;
        log(text);
      }
      const std::vector<ExternalWrench> wrenches = events.ActiveWrenches(sim, fig.soak_time_s);
      sim.SetExternalWrenches(wrenches);
      if (gripper) PrepareGripperStep(&sim, &*gripper, player ? &*player : nullptr);

      const double step_dt = sim.time_step();
      meter.BeginStep(sim, wrenches);
      const StepResult result = sim.Step();
      ++fig.steps;
      bool violated = false;
      if (result.status != StepStatus::kSuccess) {
        // Not a violation by itself: the state is unchanged and the next
        // steps (or the next event) must recover.
        ++fig.failed_steps;
        ++failed_in_row;
        fig.max_failed_in_row = std::max(fig.max_failed_in_row, failed_in_row);
        // The first of a run of failures only, so that the events before it
        // stay in the violation's record.
        if (failed_in_row == 1) log("step failed (" + StepStatusName(result.status) + "): " + OneLine(result.message));
        if (failed_in_row == options.max_failed_in_row) {
          if (violate("recovery", std::to_string(failed_in_row) + " failed steps in a row")) violated = true;
        }
      } else {
        failed_in_row = 0;
        fig.soak_time_s += step_dt;
        const StepWork work = meter.EndStep(sim);
        budget.AddWork(work.total());
        fig.work_perturbation_J += work.perturbation;
        fig.work_actuators_J += work.actuators;
        fig.work_cartesian_J += work.cartesian;
      }
      if (!StateIsFinite(sim)) {
        if (violate("finite_state", "q or v holds NaN or Inf")) violated = true;
      } else if (result.status == StepStatus::kSuccess) {
        const double kinetic = sim.CalcKineticEnergy();
        const double input = budget.Input(sim.CalcPotentialEnergy());
        fig.max_energy_excess_J = std::max(fig.max_energy_excess_J, kinetic - input);
        if (input >= energy_limit.floor_J && input > 0) {
          fig.max_energy_ratio = std::max(fig.max_energy_ratio, kinetic / input);
        }
        if (!energy_limit.Holds(kinetic, input)) {
          if (violate("energy", "KE " + Format(kinetic) + " J > " + Format(energy_limit.ratio_max) + " * E_in " +
                                Format(input) + " J + E_floor " + Format(energy_limit.floor_J) + " J")) violated = true;
          restart_budget();  // With --keep-going: judge what follows afresh.
        }
        const double depth = DeepestPenetration(sim.contacts());
        if (std::isnan(depth) || depth > fig.max_penetration_m) fig.max_penetration_m = depth;
        if (depth <= max_penetration_m) {
          deep_since_s = -1;
        } else if (deep_since_s < 0 && !std::isnan(depth)) {
          deep_since_s = fig.soak_time_s;
          ++fig.deep_penetrations;
        }
        if (std::isnan(depth) || (deep_since_s >= 0 && fig.soak_time_s - deep_since_s > options.penetration_recovery_s)) {
          deep_since_s = -1;
          if (violate("penetration", "deepest contact " + Format(depth) + " m > " + Format(max_penetration_m) +
                                     " m (" + DeepestContactBodies(sim) + ", max body speed " +
                                     Format(MaxBodySpeed(sim), 4) + " m/s)")) violated = true;
        }
      }
      if (!violated && (!StateIsFinite(sim) || failed_in_row >= options.max_failed_in_row)) {
        // An unenforced breach the run cannot go on from: start afresh.
        reset();
        log("reset (after an unenforced breach)");
      }
      if (violated) {
        if (!options.keep_going) break;
        if (!StateIsFinite(sim) || failed_in_row >= options.max_failed_in_row) {
          reset();
          log("reset (after a violation)");
        }
      }
      if (by_wall) {
        const double elapsed = SecondsSince(start);
        if (elapsed > 0) {
          progress.Update(fig.soak_time_s, fig.soak_time_s * *options.wall_time_s / elapsed, fig.steps);
        }
      } else {
        progress.Update(fig.soak_time_s, *options.duration_s, fig.steps);
      }
    }
    fig.wall_time_s = SecondsSince(start);
    progress.Clear();
    if (const std::optional<std::int64_t> rss = ResidentMemoryBytes()) {
      memory.AddSample(fig.wall_time_s, *rss, false);
      if (memory.exceeded() && (violations.empty() || violations.back().invariant != "resident_memory")) {
        violate("resident_memory", "RSS grew by " + Format(memory.max_growth_bytes() / kMiB, 4) +
                                       " MiB since the warm-up (limit " + Format(options.rss_growth_limit_mb) +
                                       " MiB)");
      }
    }
    if (fig.max_energy_excess_J == -std::numeric_limits<double>::infinity()) fig.max_energy_excess_J = 0;

    const SoakEventCounts& c = events.counts();
    nlohmann::json report;
    report["scene"] = options.scene_path;
    report["seed"] = options.seed;
    {
      auto names = nlohmann::json::array();
      for (SolverType t : options.events.solvers) names.push_back(std::string(SolverTypeName(t)));
      report["solvers_allowed"] = names;  // Empty: all.
      names = nlohmann::json::array();
      for (ContactModel m : options.events.contact_models) names.push_back(std::string(ContactModelName(m)));
      report["contact_models_allowed"] = names;
    }
    report["wall_time_s"] = Num(fig.wall_time_s);
    report["sim_time_s"] = Num(fig.soak_time_s);
    report["steps"] = fig.steps;
    report["failed_steps"] = fig.failed_steps;
    report["max_failed_steps_in_row"] = fig.max_failed_in_row;
    report["perturbations"] = c.perturbations;
    report["parameter_edits"] = c.edits;
    report["rejected_edits"] = c.rejected_edits;
    report["solver_switches"] = c.solver_switches;
    report["contact_model_switches"] = c.model_switches;
    report["resets"] = c.resets;
    report["replay_restarts"] = fig.replay_restarts;
    report["max_energy_ratio"] = Num(fig.max_energy_ratio);
    report["max_energy_excess_J"] = Num(fig.max_energy_excess_J);
    report["work_J"] = {{"perturbation", Num(fig.work_perturbation_J)},
                        {"actuators", Num(fig.work_actuators_J)},
                        {"cartesian", Num(fig.work_cartesian_J)}};
    report["max_penetration_m"] = Num(fig.max_penetration_m);
    report["penetrations_above_limit"] = fig.deep_penetrations;
    report["rss_start_mb"] = memory.start_bytes() / kMiB;
    report["rss_end_mb"] = memory.end_bytes() / kMiB;
    report["rss_max_growth_mb"] = memory.max_growth_bytes() / kMiB;
    report["rss_slope_mb_per_hour"] = memory.slope_bytes_per_s() * 3600 / kMiB;
    report["limits"] = {{"max_penetration_m", max_penetration_m},
                        {"penetration_recovery_s", options.penetration_recovery_s},
                        {"energy_ratio", energy_limit.ratio_max},
                        {"energy_floor_J", energy_limit.floor_J},
                        {"rss_growth_mb", options.rss_growth_limit_mb},
                        {"max_failed_steps_in_row", options.max_failed_in_row}};
    nlohmann::json v = nlohmann::json::array();
    for (const Violation& x : violations) {
      v.push_back({{"step", x.step},
                   {"time_s", x.time_s},
                   {"sim_time_s", x.sim_time_s},
                   {"invariant", x.invariant},
                   {"detail", x.detail},
                   {"recent_events", EventsJson(x.recent)}});
    }
    report["violations"] = std::move(v);
    report["invariants_enforced"] = options.invariants.empty() ? nlohmann::json(kInvariantNames) : nlohmann::json(options.invariants);
    report["unenforced_breaches"] = unenforced;
    if (report_file.is_open()) {
      report_file << report.dump(2) << '\n';
      report_file.flush();
      if (!report_file) throw OutputError(options.report_path + ": write failed: " + std::strerror(errno));
    }
    if (!options.quiet) {
      const auto row = [&out](const char* label) -> std::ostream& {
        return out << "  " << std::left << std::setw(22) << label << std::right;
      };
      out << "stiction-soak summary\n";
      row("scene") << options.scene_path << '\n';
      row("seed") << options.seed << '\n';
      row("wall time") << Format(fig.wall_time_s, 4) << " s\n";
      row("simulated time") << Format(fig.soak_time_s, 6) << " s\n";
      row("steps") << fig.steps << '\n';
      row("failed steps") << fig.failed_steps << " (at most " << fig.max_failed_in_row << " in a row)\n";
      row("perturbations") << c.perturbations << '\n';
      row("parameter edits") << c.edits << " (" << c.rejected_edits << " refused)\n";
      row("solver switches") << c.solver_switches << '\n';
      row("model switches") << c.model_switches << '\n';
      row("resets") << c.resets << " (+" << fig.replay_restarts << " replay restarts)\n";
      row("max KE / E_in") << Format(fig.max_energy_ratio, 4) << " (limit " << Format(energy_limit.ratio_max)
                           << ", E_floor " << Format(energy_limit.floor_J, 4) << " J)\n";
      row("max KE - E_in") << Format(fig.max_energy_excess_J, 4) << " J\n";
      row("max penetration") << Format(fig.max_penetration_m * 1e3, 4) << " mm (limit "
                             << Format(max_penetration_m * 1e3, 4) << " mm, above it " << fig.deep_penetrations
                             << " times; allowed for " << Format(options.penetration_recovery_s) << " s)\n";
      row("RSS start / end") << Format(memory.start_bytes() / kMiB, 5) << " / " << Format(memory.end_bytes() / kMiB, 5)
                             << " MiB (max growth " << Format(memory.max_growth_bytes() / kMiB, 4) << ", limit "
                             << Format(options.rss_growth_limit_mb) << ")\n";
      row("RSS slope") << Format(memory.slope_bytes_per_s() * 3600 / kMiB, 4) << " MiB/hour\n";
      row("violations") << violations.size() << '\n';
      for (const auto& [name, count] : unenforced) row(("unenforced " + name).c_str()) << count << '\n';
    }
    return violations.empty() ? kSoakOk : kSoakViolation;
  } catch (const InputError& e) {
    PrintError(err, e.what());
    return kSoakInputError;
  } catch (const OutputError& e) {
    PrintError(err, e.what());
    return kSoakInputError;
  }
}

int RunSoakCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const SoakParseResult parsed = ParseSoakCommandLine(args, out, err);
  if (!parsed.options) return parsed.exit_code;
  const char* term = std::getenv("TERM");
  const bool tty = isatty(STDERR_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
  return RunSoak(*parsed.options, out, err, tty, STDERR_FILENO);
}

}  // namespace stiction::cli
