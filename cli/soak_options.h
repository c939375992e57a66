#pragma once
// stiction-soak's command line (docs/soak.md): the options of a soak, their
// limits, and the exit codes.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/soak_events.h"

namespace stiction::cli {

/// The name stiction-soak prints before its errors.
inline constexpr const char* kSoakProgramName = "stiction-soak";

/// stiction-soak's exit codes (docs/soak.md).
enum SoakExitCode : int {
  kSoakOk = 0,
  kSoakInternalError = 1,  ///< A bug: an unexpected exception.
  kSoakInputError = 2,     ///< Bad command line, bad scene, unwritable report.
  kSoakViolation = 3,      ///< An invariant was violated.
};

/// The invariants a soak checks, as --invariants and the report name them.
const std::vector<std::string>& SoakInvariantNames();

struct SoakOptions {
  std::string scene_path;
  /// Run for this wall time [s] (default 60 when neither is given)...
  std::optional<double> wall_time_s;
  /// ...or for this much simulated time [s] (summed over resets):
  /// reproducible, since the events depend only on the steps taken.
  std::optional<double> duration_s;
  std::uint64_t seed = 1;
  std::string report_path;  ///< "" = no report.
  bool quiet = false;       ///< No progress bar, no summary.
  bool keep_going = false;  ///< Record violations and continue.
  bool log_events = false;  ///< Print every event and failed step on `out`.
  std::vector<std::string> overrides;  ///< --set, as stiction-sim's.
  SoakEventOptions events;
  /// Penetration limit [m]; unset: the smallest free body's radius of
  /// gyration (SmallestRadiusOfGyration), 5 cm without free bodies.
  std::optional<double> max_penetration_m;
  /// How long [s of simulated time] the penetration may stay above the
  /// limit: an impact at v overshoots by up to v δt for a step or two and
  /// recovers; a body that stays in is sinking or passing through.
  double penetration_recovery_s = 0.1;
  double energy_ratio_max = 1.05;        ///< KE ≤ ratio E_in + E_floor.
  double energy_floor_height_m = 0.005;  ///< E_floor = Σm |g| this [J].
  double rss_growth_limit_mb = 16;       ///< RSS growth allowed after warm-up [MiB].
  double warm_up_fraction = 0.1;         ///< Of the run, not judged for memory.
  int max_failed_in_row = 100;           ///< More failed steps in a row: "no recovery".
  int recent_events = 20;                ///< Events kept for a violation's record.
  /// The invariants whose breach is a violation (SoakInvariantNames; empty:
  /// all). The others are still measured and reported, and each breach is
  /// counted under `unenforced_breaches` in the report.
  std::vector<std::string> invariants;
};

using SoakParseResult = ParseOutcome<SoakOptions>;

/// Parses `args` (without the program name). --help prints usage to `out`
/// (exit 0); errors print one line "stiction-soak: ..." to `err` (exit 2).
SoakParseResult ParseSoakCommandLine(const std::vector<std::string>& args, std::ostream& out,
                                     std::ostream& err);

}  // namespace stiction::cli
