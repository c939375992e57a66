#pragma once
// stiction-sim's JSON report (--report): what the run was (RunSummary) and
// its statistics (RunStatistics) as one JSON document. docs/cli.md documents
// every key; the per-step CSV trace is csv_writer.h.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_io.h"
#include "cli/run_statistics.h"
#include "engine/scene/scene_description.h"
#include "engine/simulation.h"

namespace stiction::cli {

/// "ok", "solver_failed" or "non_finite".
std::string StepStatusName(StepStatus status);

/// Why a step failed, on one line: its message, else its status's name.
std::string StepFailureReason(const StepResult& result);
/// "step N at t=T: reason", the line stiction-sim (and the Python module's
/// StepError) gives a failed step; N is 1-based, T the step's start [s].
std::string FailedStepLine(std::int64_t step, double t_s, const std::string& reason);

/// Kinetic and potential energy at the start and end of a run [J].
struct EnergySummary {
  double initial_kinetic_J = 0;
  double initial_potential_J = 0;
  double final_kinetic_J = 0;
  double final_potential_J = 0;
};

/// How the command file (task script) went: the waits it passed and where
/// it ended.
struct ScriptSummary {
  bool present = false;       ///< A command file played.
  int entries = 0;            ///< Commands and waits in the file.
  struct Event {
    double t_s = 0;           ///< When the script resumed (the step's start) [s].
    std::int64_t step = 0;    ///< The step index it resumed at.
    int entry = 0;            ///< The wait's index in the file's commands.
    std::string what;         ///< The condition that held.
  };
  std::vector<Event> events;  ///< The waits passed, in order.
  bool finished = false;      ///< Every entry took effect.
  double finished_t_s = 0;    ///< When the last one did [s].
  std::string waiting_for;    ///< At the end: the wait it was at ("" if none).
  std::string error;          ///< A wait that timed out or a refused command ("" if none).
};

/// Everything a report says about one run besides RunStatistics.
struct RunSummary {
  std::string scene_path;
  std::string description;
  /// Gripper command file played (--replay or the scene's `commands:`); "" = none.
  std::string commands_file;
  SteppingScheme scheme = SteppingScheme::kThetaMethod;
  IntegratorSettings integrator;  ///< Used by the θ-method only.
  SolverType solver = SolverType::kSap;  ///< Used by the θ-method only.
  ContactModel contact_model = ContactModel::kSap;  ///< The scene's default model.
  /// The models that contacts actually used during the run (materials may
  /// name their own), sorted; empty when nothing touched.
  std::vector<std::string> contact_models_used;
  std::vector<std::string> overrides;  ///< The --set list, sugar included.
  /// Simulation::load_notes: what the load skipped or changed.
  std::vector<std::string> load_notes;
  double dt = 0;                  ///< Time step δt [s].
  double requested_duration_s = 0;  ///< What the run was asked to simulate [s].
  std::int64_t steps = 0;         ///< Successful steps.
  double sim_time_s = 0;          ///< Simulated time reached [s].
  double load_wall_time_s = 0;    ///< Loading and model building [s].
  double wall_time_s = 0;         ///< The stepping loop, output included [s].
  StepStatus status = StepStatus::kSuccess;
  std::string error;              ///< Empty when status is kSuccess.
  EnergySummary energy;
  ScriptSummary script;
  std::vector<BodyState> bodies;  ///< Final state of every body.

  /// sim_time_s / wall_time_s; 0 when no wall time was measured.
  double realtime_factor() const {
    return wall_time_s > 0 ? sim_time_s / wall_time_s : 0.0;
  }
};

/// Builds the JSON report. Every non-finite number is written as null and
/// makes "finite" false; "finite" is also false when the run stopped with
/// kNonFinite.
nlohmann::json MakeReportJson(const RunSummary& run, const RunStatistics& stats);

/// Writes `report` (indented, trailing newline) to `path`. Throws OutputError.
void WriteJsonFile(const std::string& path, const nlohmann::json& report);

}  // namespace stiction::cli
