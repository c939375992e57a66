#include "cli/cli_runner.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/progress_bar.h"
#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/parameters/parameter_reference.h"
#include "engine/control/command_player.h"
#include "engine/simulation.h"

namespace stiction::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kProgramName = "stiction-sim";
constexpr int kMaxSummaryBodies = 10;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Parses a whole string as a double (strtod: accepts "1e-3", "inf", "nan").
std::optional<double> ParseDouble(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE) return std::nullopt;
  return value;
}

std::string Format(double value, int precision = 6) {
  std::ostringstream text;
  text << std::setprecision(precision) << value;
  return text.str();
}

std::string FormatVector(const Eigen::Ref<const Eigen::VectorXd>& v) {
  std::string text = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (i > 0) text += ", ";
    text += Format(v[i], 4);
  }
  return text + "]";
}

void PrintError(std::ostream& err, const std::string& message) {
  err << kProgramName << ": " << OneLine(message) << '\n' << std::flush;
}

std::ofstream OpenOutput(const std::string& path) {
  std::ofstream file(path, std::ios::out | std::ios::trunc);
  if (!file) throw OutputError(path + ": cannot open for writing: " + std::strerror(errno));
  return file;
}

void FinishOutput(std::ofstream& file, const std::string& path) {
  file.flush();
  if (!file) throw OutputError(path + ": write failed: " + std::strerror(errno));
  file.close();
  if (!file) throw OutputError(path + ": write failed: " + std::strerror(errno));
}

std::vector<std::string> BodyNames(const std::vector<BodyState>& bodies) {
  std::vector<std::string> names;
  names.reserve(bodies.size());
  for (const BodyState& b : bodies) names.push_back(b.name);
  return names;
}

}  // namespace

std::string OneLine(const std::string& message) {
  std::string line;
  line.reserve(message.size());
  for (std::size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    if (c == '\r' || c == '\n') {
      // Drop trailing newlines; join inner lines with "; ".
      std::size_t j = i;
      while (j < message.size() && (message[j] == '\r' || message[j] == '\n')) ++j;
      if (j < message.size() && !line.empty()) line += "; ";
      i = j - 1;
    } else {
      line += c;
    }
  }
  return line;
}

std::int64_t StepsForDuration(double duration_s, double dt) {
  if (!(std::isfinite(duration_s) && duration_s > 0)) {
    throw InputError("duration: must be a positive finite number of seconds, got " +
                     Format(duration_s));
  }
  if (!(std::isfinite(dt) && dt > 0)) {
    throw InputError("time_step: must be a positive finite number of seconds, got " +
                     Format(dt));
  }
  const double ratio = duration_s / dt;
  // 2^53: beyond it step counts are no longer exact doubles (and such a run
  // would never finish anyway).
  if (ratio > 9007199254740992.0) {
    throw InputError("duration: " + Format(duration_s) + " s at time_step " + Format(dt) +
                     " s needs too many steps");
  }
  const double nearest = std::round(ratio);
  if (std::abs(ratio - nearest) <= 1e-9 * std::max(1.0, ratio)) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(nearest));
  }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(ratio)));
}

void AddSceneOverrideOption(CLI::App& app, std::vector<std::string>* overrides) {
  app.add_option("--set", *overrides, "Override a scene value, e.g. --set materials.steel.friction=0.3 (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

ParseResult ParseCommandLine(const std::vector<std::string>& args, std::ostream& out,
                             std::ostream& err) {
  CLI::App app{
      "Runs a Stiction scene headless for a fixed simulated time and writes a JSON report "
      "and a per-step CSV trace.",
      kProgramName};
  app.get_formatter()->column_width(34);

  CliOptions options;
  std::string duration_text, dt_text, stepping_name, integrator_name, solver_name;
  std::vector<std::string> sets;
  app.add_option("scene", options.scene_path, "Scene file (YAML)")->required();
  app.add_option("--duration", duration_text,
                 "Simulated time to run [s] (default: the scene's duration)");
  app.add_option("--dt", dt_text, "Time step [s]; same as --set time_step=S");
  app.add_option("--stepping", stepping_name,
                 "Time-stepping scheme: " + ChoiceNames(SteppingSchemes(), " | ") +
                     "; same as --set stepping=NAME");
  app.add_option("--integrator", integrator_name,
                 ChoiceNames(IntegratorPresets(), " | ") + "; same as --set integrator=NAME");
  app.add_option("--solver", solver_name,
                 "Contact solver: " + ChoiceNames(SolverTypes(), " | ") + "; same as --set solver.type=NAME");
  AddSceneOverrideOption(app, &sets);
  app.add_option("--report", options.report_path, "Write the JSON report to this file");
  app.add_option("--csv", options.csv_path, "Write the per-step CSV trace to this file");
  app.add_option("--csv-every", options.csv_every, "Write a CSV row every N steps (default 1)");
  app.add_option("--replay", options.replay_path,
                 "Replay this gripper command file (default: the scene's own 'commands:' file)");
  app.add_flag("-q,--quiet", options.quiet, "No summary and no progress bar");
  bool listed = false;  // --list printed the reference: no help after it.
  app.add_flag_callback(
         "--list",
         [&out, &listed] {
           out << ParameterReferenceMarkdown();
           listed = true;
           throw CLI::Success();
         },
         "Print every solver, contact model, integrator preset, line search and stepping scheme, with "
         "each parameter's key, default, unit and range (Markdown), and exit")
      ->trigger_on_parse();

  // CLI11 parses a reversed argument vector.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      if (!listed) out << app.help();
      return {std::nullopt, kExitOk};
    }
    PrintError(err, std::string(e.what()) + " (run with --help for usage)");
    return {std::nullopt, kExitInputError};
  }

  if (!duration_text.empty()) {
    const std::optional<double> duration = ParseDouble(duration_text);
    if (!duration || !std::isfinite(*duration) || *duration <= 0) {
      PrintError(err, "--duration: must be a positive finite number of seconds, got '" +
                          duration_text + "'");
      return {std::nullopt, kExitInputError};
    }
    options.duration_s = *duration;
  }
  if (options.csv_every < 1) {
    PrintError(err, "--csv-every: must be at least 1, got " + std::to_string(options.csv_every));
    return {std::nullopt, kExitInputError};
  }
  options.overrides = sets;
  // The sugar options go last so that they win over a --set of the same key,
  // and are validated by the loader with the file's own messages.
  if (!dt_text.empty()) options.overrides.push_back("time_step=" + dt_text);
  if (!stepping_name.empty()) options.overrides.push_back("stepping=" + stepping_name);
  if (!integrator_name.empty()) options.overrides.push_back("integrator=" + integrator_name);
  if (!solver_name.empty()) options.overrides.push_back("solver.type=" + solver_name);
  return {std::move(options), kExitOk};
}

int RunSimulation(const CliOptions& options, const RunnerIo& io) {
  try {
    // Load. Every load problem is an InputError with a one-line message.
    const Clock::time_point load_start = Clock::now();
    Simulation sim = Simulation::FromFile(options.scene_path, options.overrides);
    const double load_wall_time_s = SecondsSince(load_start);

    const double dt = sim.time_step();
    const double duration_s = options.duration_s.value_or(sim.scene().duration);
    const std::int64_t num_steps = StepsForDuration(duration_s, dt);
    const double total_sim_time_s = static_cast<double>(num_steps) * dt;

    // Open outputs before the (possibly long) run so that a bad path fails fast.
    std::ofstream report_file, csv_file;
    if (!options.report_path.empty()) report_file = OpenOutput(options.report_path);
    if (!options.csv_path.empty()) csv_file = OpenOutput(options.csv_path);

    // The gripper, driven by the replayed or the scene's own commands.
    std::optional<GripperController> gripper;
    std::optional<CommandPlayer> player;
    std::string commands_file = options.replay_path;
    if (sim.scene().gripper.present) {
      gripper.emplace(sim);
      if (commands_file.empty()) commands_file = sim.scene().commands_file;
      if (!commands_file.empty()) player.emplace(LoadCommandFile(commands_file), dt);
    } else if (!commands_file.empty()) {
      throw InputError("--replay " + commands_file + ": the scene has no gripper (scene key 'gripper')");
    }

    RunSummary run;
    run.scene_path = options.scene_path;
    run.commands_file = commands_file;
    run.description = sim.scene().description;
    run.scheme = sim.stepping_scheme();
    run.integrator = sim.integrator();
    run.solver = sim.solver_type();
    run.contact_model = sim.contact_model_parameters().model;
    run.overrides = options.overrides;
    run.dt = dt;
    run.requested_duration_s = duration_s;
    run.load_wall_time_s = load_wall_time_s;
    run.energy.initial_kinetic_J = sim.CalcKineticEnergy();
    run.energy.initial_potential_J = sim.CalcPotentialEnergy();

    std::vector<BodyState> bodies = sim.CalcBodyStates();
    std::optional<CsvWriter> csv;
    if (csv_file.is_open()) {
      csv.emplace(csv_file, BodyNames(bodies));
      csv->WriteRow(sim.time(), StepStats{}, run.energy.initial_kinetic_J,
                    run.energy.initial_potential_J, bodies);
    }

    RunStatistics stats;
    std::set<std::string> models_used;
    ProgressBar progress(io.err, io.progress_allowed && !options.quiet, io.progress_fd);
    const Clock::time_point run_start = Clock::now();
    for (std::int64_t step = 1; step <= num_steps; ++step) {
      const Clock::time_point step_start = Clock::now();
      if (gripper) PrepareGripperStep(&sim, &*gripper, player ? &*player : nullptr);
      StepResult result = sim.Step();
      const double measured_s = SecondsSince(step_start);
      if (result.status != StepStatus::kSuccess) {
        run.status = result.status;
        run.error = OneLine(result.message.empty() ? StepStatusName(result.status)
                                                   : result.message);
        break;
      }
      // The engine times Step() itself; fall back to our measurement of the
      // same call if it did not.
      if (!(result.stats.wall_time_s > 0)) result.stats.wall_time_s = measured_s;
      stats.Add(result.stats);
      for (const ContactReport& c : sim.contacts()) models_used.insert(std::string(ContactModelName(c.model)));
      ++run.steps;
      if (csv && step % options.csv_every == 0) {
        sim.CalcBodyStates().swap(bodies);
        csv->WriteRow(sim.time(), result.stats, sim.CalcKineticEnergy(),
                      sim.CalcPotentialEnergy(), bodies);
      }
      progress.Update(sim.time(), total_sim_time_s, run.steps);
    }
    run.wall_time_s = SecondsSince(run_start);
    progress.Clear();

    run.sim_time_s = sim.time();
    run.contact_models_used.assign(models_used.begin(), models_used.end());
    run.energy.final_kinetic_J = sim.CalcKineticEnergy();
    run.energy.final_potential_J = sim.CalcPotentialEnergy();
    run.bodies = sim.CalcBodyStates();

    const bool failed = run.status != StepStatus::kSuccess;
    if (failed) {
      PrintError(io.err, "step " + std::to_string(run.steps + 1) + " at t=" +
                             Format(run.sim_time_s, 9) + ": " + run.error);
    }
    if (report_file.is_open()) {
      report_file << MakeReportJson(run, stats).dump(2) << '\n';
      FinishOutput(report_file, options.report_path);
    }
    if (csv_file.is_open()) FinishOutput(csv_file, options.csv_path);
    if (!options.quiet) PrintSummary(run, stats, io.out);
    return failed ? kExitStepFailed : kExitOk;
  } catch (const InputError& e) {
    PrintError(io.err, e.what());
    return kExitInputError;
  } catch (const OutputError& e) {
    PrintError(io.err, e.what());
    return kExitInputError;
  }
}

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const ParseResult parsed = ParseCommandLine(args, out, err);
  if (!parsed.options) return parsed.exit_code;
  const char* term = std::getenv("TERM");
  const bool tty = isatty(STDERR_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
  const RunnerIo io{out, err, tty, STDERR_FILENO};
  return RunSimulation(*parsed.options, io);
}

void PrintSummary(const RunSummary& run, const RunStatistics& stats, std::ostream& out) {
  const auto row = [&out](const char* label) -> std::ostream& {
    return out << "  " << std::left << std::setw(14) << label << std::right;
  };
  out << "stiction-sim summary\n";
  row("scene") << run.scene_path << '\n';
  const SteppingSchemeInfo& scheme = GetSteppingSchemeInfo(run.scheme);
  row("stepping") << scheme.name << (scheme.uses_contact_solver ? "" : " (integrator and solver unused)") << '\n';
  row("integrator") << run.integrator.name << " (theta = " << Format(run.integrator.theta)
                    << ", theta_vq = " << Format(run.integrator.theta_vq) << ")\n";
  row("solver") << SolverTypeName(run.solver) << " (contact model " << ContactModelName(run.contact_model);
  if (!run.contact_models_used.empty()) {
    out << "; contacts used";
    for (const std::string& m : run.contact_models_used) out << ' ' << m;
  }
  out << ")\n";
  row("dt") << Format(run.dt) << " s\n";
  if (!run.commands_file.empty()) row("commands") << run.commands_file << '\n';
  row("steps") << run.steps << '\n';
  row("sim time") << Format(run.sim_time_s) << " s\n";
  row("wall time") << Format(run.wall_time_s, 4) << " s (load " << Format(run.load_wall_time_s, 3)
                   << " s)\n";
  row("real-time") << Format(run.realtime_factor(), 4) << "x\n";
  row("iterations") << "mean " << Format(stats.mean_iterations(), 4) << ", max "
                    << stats.max_iterations() << '\n';
  if (!scheme.uses_contact_solver) {
    row("NMDP") << "mean " << Format(stats.mean_qp_iterations(), 4) << " QP iterations (max "
                << stats.max_qp_iterations() << "), " << stats.subdivided_steps() << " steps subdivided (at most "
                << stats.max_subdivisions() << " times), smallest substep " << Format(stats.smallest_dt_s())
                << " s\n";
  }
  if (scheme.uses_contact_solver && GetSolverTypeInfo(run.solver).augmented_lagrangian) {
    row("AL") << "mean " << Format(stats.mean_outer_iterations(), 4)
              << " outer iterations, max residual " << Format(stats.max_constraint_residual(), 3) << '\n';
  }
  if (stats.unconverged_steps() > 0 || stats.budget_hit_steps() > 0) {
    row("stopped early") << stats.unconverged_steps() << " steps short of the tolerance (at the iteration cap or "
                         << "budget), " << stats.budget_hit_steps() << " of them at the time budget\n";
  }
  row("contacts") << "mean " << Format(stats.mean_contacts(), 4) << ", max "
                  << stats.max_contacts() << '\n';
  if (stats.num_contact_steps() > 0) {
    row("NCP residual") << "mean " << Format(stats.mean_ncp_residual(), 3) << ", max "
                        << Format(stats.max_ncp_residual(), 3) << " (every solver against the exact NCP)\n";
  }
  if (stats.num_steps() > 0) {
    const StepStats::TimeSplit& t = stats.total_time_split();
    const double ms = 1e3 / static_cast<double>(stats.num_steps());
    row("ms per step") << Format(stats.mean_step_wall_time_s() * 1e3, 4) << " (free motion "
                       << Format(t.free_motion * ms, 3) << ", collision "
                       << Format(t.collision * ms, 3)
                       << (t.contact_surfaces > 0 ? " of which contact surfaces " + Format(t.contact_surfaces * ms, 3) : "")
                       << ", assembly "
                       << Format(t.assembly * ms, 3) << ", factorization "
                       << Format(t.factorization * ms, 3) << ", line search "
                       << Format(t.line_search * ms, 3) << ")\n";
  }
  const bool finite =
      MakeReportJson(run, stats).at("finite").get<bool>();  // Same rule as the report.
  row("finite") << (finite ? "yes" : "no") << '\n';
  row("status") << StepStatusName(run.status);
  if (!run.error.empty()) out << ": " << run.error;
  out << '\n';
  if (run.bodies.empty()) return;
  out << "  final pose (world frame; position [m], quaternion w,x,y,z):\n";
  std::size_t name_width = 4;
  const std::size_t shown = std::min<std::size_t>(run.bodies.size(), kMaxSummaryBodies);
  for (std::size_t i = 0; i < shown; ++i) {
    name_width = std::max(name_width, run.bodies[i].name.size());
  }
  for (std::size_t i = 0; i < shown; ++i) {
    const BodyState& b = run.bodies[i];
    out << "    " << std::left << std::setw(static_cast<int>(name_width)) << b.name << std::right
        << "  p = " << FormatVector(b.position) << "  q = " << FormatVector(Vector4(b.orientation.w(), b.orientation.x(),
                                          b.orientation.y(), b.orientation.z()))
        << '\n';
  }
  if (run.bodies.size() > shown) {
    out << "    ... and " << run.bodies.size() - shown << " more (see --report)\n";
  }
}

}  // namespace stiction::cli
