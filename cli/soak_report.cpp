#include "cli/soak_report.h"

#include <cmath>
#include <iomanip>

#include "cli/soak_memory.h"
#include "engine/common/text.h"

namespace stiction::cli {
namespace {

// Non-finite numbers become null (JSON has none).
nlohmann::json Num(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); }

nlohmann::json EventsJson(const std::vector<LoggedEvent>& events) {
  nlohmann::json out = nlohmann::json::array();
  for (const LoggedEvent& e : events) out.push_back({{"step", e.step}, {"time_s", e.time_s}, {"event", e.text}});
  return out;
}

// What ran: the scene, the seed, what the switches could pick; how long and
// how many steps and events.
nlohmann::json RunJson(const SoakOptions& options, const SoakResults& results) {
  const SoakFigures& fig = results.figures;
  const SoakEventCounts& c = results.events;
  nlohmann::json report;
  report["scene"] = options.scene_path;
  report["seed"] = options.seed;
  auto names = nlohmann::json::array();
  for (SolverType t : options.events.solvers) names.push_back(std::string(SolverTypeName(t)));
  report["solvers_allowed"] = names;  // Empty: all.
  names = nlohmann::json::array();
  for (ContactModel m : options.events.contact_models) names.push_back(std::string(ContactModelName(m)));
  report["contact_models_allowed"] = names;
  report["wall_time_s"] = Num(fig.wall_time_s);
  report["sim_time_s"] = Num(fig.soak_time_s);
  report["steps"] = fig.steps;
  report["failed_steps"] = fig.failed_steps;
  report["max_failed_steps_in_row"] = fig.max_failed_in_row;
  report["sleeping_steps"] = fig.sleeping_steps;
  report["perturbations"] = c.perturbations;
  report["parameter_edits"] = c.edits;
  report["rejected_edits"] = c.rejected_edits;
  report["solver_switches"] = c.solver_switches;
  report["contact_model_switches"] = c.model_switches;
  report["resets"] = c.resets;
  report["replay_restarts"] = fig.replay_restarts;
  return report;
}

// What the invariants measured: energy, work, penetration, resident memory.
void AddMeasuresJson(const SoakResults& results, nlohmann::json* report) {
  const SoakFigures& fig = results.figures;
  const ResidentMemoryMonitor& memory = results.memory;
  (*report)["max_energy_ratio"] = Num(fig.max_energy_ratio);
  (*report)["max_energy_excess_J"] = Num(fig.max_energy_excess_J);
  (*report)["work_J"] = {{"perturbation", Num(fig.work_perturbation_J)},
                         {"actuators", Num(fig.work_actuators_J)},
                         {"cartesian", Num(fig.work_cartesian_J)}};
  (*report)["max_penetration_m"] = Num(fig.max_penetration_m);
  (*report)["penetrations_above_limit"] = fig.deep_penetrations;
  (*report)["rss_start_mb"] = memory.start_bytes() / kMiB;
  (*report)["rss_end_mb"] = memory.end_bytes() / kMiB;
  (*report)["rss_max_growth_mb"] = memory.max_growth_bytes() / kMiB;
  (*report)["rss_slope_mb_per_hour"] = memory.slope_bytes_per_s() * 3600 / kMiB;
}

nlohmann::json LimitsJson(const SoakOptions& options, const SoakResults& results) {
  return {{"max_penetration_m", results.max_penetration_m},
          {"penetration_recovery_s", options.penetration_recovery_s},
          {"energy_ratio", results.energy_limit.ratio_max},
          {"energy_floor_J", results.energy_limit.floor_J},
          {"rss_growth_mb", options.rss_growth_limit_mb},
          {"max_failed_steps_in_row", options.max_failed_in_row}};
}

nlohmann::json ViolationsJson(const std::vector<Violation>& violations) {
  nlohmann::json v = nlohmann::json::array();
  for (const Violation& x : violations) {
    v.push_back({{"step", x.step},
                 {"time_s", x.time_s},
                 {"sim_time_s", x.sim_time_s},
                 {"invariant", x.invariant},
                 {"detail", x.detail},
                 {"recent_events", EventsJson(x.recent)}});
  }
  return v;
}

}  // namespace

nlohmann::json MakeSoakReportJson(const SoakOptions& options, const SoakResults& results) {
  nlohmann::json report = RunJson(options, results);
  AddMeasuresJson(results, &report);
  report["limits"] = LimitsJson(options, results);
  report["violations"] = ViolationsJson(results.violations);
  report["invariants_enforced"] =
      options.invariants.empty() ? nlohmann::json(SoakInvariantNames()) : nlohmann::json(options.invariants);
  report["unenforced_breaches"] = results.unenforced;
  return report;
}

void PrintSoakSummary(const SoakOptions& options, const SoakResults& results, std::ostream& out) {
  const SoakFigures& fig = results.figures;
  const SoakEventCounts& c = results.events;
  const ResidentMemoryMonitor& memory = results.memory;
  const EnergyLimit& energy_limit = results.energy_limit;
  const auto row = [&out](const char* label) -> std::ostream& {
    return out << "  " << std::left << std::setw(22) << label << std::right;
  };
  out << "stiction-soak summary\n";
  row("scene") << options.scene_path << '\n';
  row("seed") << options.seed << '\n';
  row("wall time") << FormatNumber(fig.wall_time_s, 4) << " s\n";
  row("simulated time") << FormatNumber(fig.soak_time_s, 6) << " s\n";
  row("steps") << fig.steps << '\n';
  row("failed steps") << fig.failed_steps << " (at most " << fig.max_failed_in_row << " in a row)\n";
  if (fig.sleeping_steps > 0) row("sleeping") << fig.sleeping_steps << " steps with bodies asleep (solver.sleep)\n";
  row("perturbations") << c.perturbations << '\n';
  row("parameter edits") << c.edits << " (" << c.rejected_edits << " refused)\n";
  row("solver switches") << c.solver_switches << '\n';
  row("model switches") << c.model_switches << '\n';
  row("resets") << c.resets << " (+" << fig.replay_restarts << " replay restarts)\n";
  row("max KE / E_in") << FormatNumber(fig.max_energy_ratio, 4) << " (limit " << FormatNumber(energy_limit.ratio_max, 6)
                       << ", E_floor " << FormatNumber(energy_limit.floor_J, 4) << " J)\n";
  row("max KE - E_in") << FormatNumber(fig.max_energy_excess_J, 4) << " J\n";
  row("max penetration") << FormatNumber(fig.max_penetration_m * 1e3, 4) << " mm (limit "
                         << FormatNumber(results.max_penetration_m * 1e3, 4) << " mm, above it "
                         << fig.deep_penetrations << " times; allowed for "
                         << FormatNumber(options.penetration_recovery_s, 6) << " s)\n";
  row("RSS start / end") << FormatNumber(memory.start_bytes() / kMiB, 5) << " / "
                         << FormatNumber(memory.end_bytes() / kMiB, 5) << " MiB (max growth "
                         << FormatNumber(memory.max_growth_bytes() / kMiB, 4) << ", limit "
                         << FormatNumber(options.rss_growth_limit_mb, 6) << ")\n";
  row("RSS slope") << FormatNumber(memory.slope_bytes_per_s() * 3600 / kMiB, 4) << " MiB/hour\n";
  row("violations") << results.violations.size() << '\n';
  for (const auto& [name, count] : results.unenforced) row(("unenforced " + name).c_str()) << count << '\n';
}

}  // namespace stiction::cli
