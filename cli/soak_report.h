#pragma once
// What a soak found (SoakResults: its figures, the events, the memory
// samples, the violations) and how it is written: the JSON report
// (--report; docs/soak.md documents every key) and the text summary.
#include <cstdint>
#include <limits>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/soak_events.h"
#include "cli/soak_invariants.h"
#include "cli/soak_memory.h"
#include "cli/soak_options.h"

namespace stiction::cli {

/// One event or failed step, as a violation's record lists them.
struct LoggedEvent {
  std::int64_t step = 0;  ///< Soak step (attempts, across resets).
  double time_s = 0;      ///< Soak clock [s].
  std::string text;
};

struct Violation {
  std::int64_t step = 0;
  double time_s = 0;      ///< Soak clock [s].
  double sim_time_s = 0;  ///< The simulation's own time (since its last reset) [s].
  std::string invariant;  ///< One of SoakInvariantNames().
  std::string detail;
  std::vector<LoggedEvent> recent;
};

/// The run's figures, for the report and the summary.
struct SoakFigures {
  std::int64_t steps = 0;            ///< Step() calls.
  std::int64_t failed_steps = 0;     ///< Of which returned a failure status.
  int max_failed_in_row = 0;
  std::int64_t sleeping_steps = 0;   ///< Successful steps with a body asleep (solver.sleep).
  std::int64_t replay_restarts = 0;  ///< Resets at the end of a gripper script.
  double soak_time_s = 0;            ///< Simulated time summed over resets [s].
  double wall_time_s = 0;
  double max_energy_ratio = 0;       ///< max KE / E_in over steps with E_in ≥ E_floor.
  double max_energy_excess_J = -std::numeric_limits<double>::infinity();  ///< max KE − E_in [J].
  double energy_floor_J = 0;
  double work_perturbation_J = 0, work_actuators_J = 0, work_cartesian_J = 0;  ///< Summed over the run.
  double max_penetration_m = 0;
  std::int64_t deep_penetrations = 0;  ///< Times the penetration went above the limit (and recovered in time).
};

/// Everything the report and the summary say besides the options.
struct SoakResults {
  SoakFigures figures;
  SoakEventCounts events;
  ResidentMemoryMonitor memory{0};
  double max_penetration_m = 0;  ///< The penetration limit judged against [m].
  EnergyLimit energy_limit;
  std::vector<Violation> violations;
  std::map<std::string, std::int64_t> unenforced;  ///< Breaches of invariants not enforced, by invariant.
};

/// The JSON report. Non-finite figures are written as null.
nlohmann::json MakeSoakReportJson(const SoakOptions& options, const SoakResults& results);

/// The summary printed at the end of a run (unless --quiet).
void PrintSoakSummary(const SoakOptions& options, const SoakResults& results, std::ostream& out);

}  // namespace stiction::cli
