#pragma once
// Run reports of the headless runner: per-step statistics accumulated over a
// run (RunStatistics, reusable by the viewer), the JSON summary report and the
// per-step CSV trace. docs/cli.md documents every key and column.
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/scene_description.h"
#include "engine/simulation.h"

namespace stiction::cli {

/// An output file could not be opened or written. what() is one line naming
/// the file, e.g. "out/report.json: cannot open for writing: No such file or
/// directory".
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Means and maxima of StepStats over the successful steps of a run.
/// Non-finite samples propagate: a NaN iteration count or penetration makes
/// the corresponding mean/max NaN, and finite() false, so that a report never
/// hides a bad value behind std::max's NaN handling.
class RunStatistics {
 public:
  /// Adds the statistics of one successful step.
  void Add(const StepStats& stats);
  /// Forgets every sample (e.g. after Simulation::Reset()).
  void Clear() { *this = RunStatistics(); }

  std::int64_t num_steps() const { return num_steps_; }
  /// Steps with at least one contact.
  std::int64_t num_contact_steps() const { return num_contact_steps_; }

  double mean_iterations() const { return Mean(sum_iterations_); }
  int max_iterations() const { return max_iterations_; }
  double mean_line_search_iterations() const { return Mean(sum_line_search_iterations_); }
  int max_line_search_iterations() const { return max_line_search_iterations_; }
  double mean_contacts() const { return Mean(sum_contacts_); }
  /// AL solvers (CANAL, SubADMM): mean outer iterations per step, the
  /// largest final residual (StepStats::constraint_residual) and how many
  /// steps stopped at the iteration cap. Zero for SAP.
  double mean_outer_iterations() const { return Mean(sum_outer_iterations_); }
  double max_constraint_residual() const { return max_constraint_residual_; }
  std::int64_t unconverged_steps() const { return unconverged_steps_; }
  /// Steps whose contact solver stopped at its time budget (StepStats::budget_hit).
  std::int64_t budget_hit_steps() const { return budget_hit_steps_; }
  /// NMDP schemes (docs/nmdp.md): active-set QP iterations per step
  /// (StepStats::qp_iterations), the steps Alg. 2 subdivided and the most
  /// substeps beyond the first one step took (StepStats::subdivisions), and
  /// the smallest substep taken over the run [s] (0 when no step reported
  /// one, as under the θ-method). Zero for the θ-method.
  double mean_qp_iterations() const { return Mean(sum_qp_iterations_); }
  int max_qp_iterations() const { return max_qp_iterations_; }
  std::int64_t subdivided_steps() const { return subdivided_steps_; }
  int max_subdivisions() const { return max_subdivisions_; }
  double smallest_dt_s() const { return smallest_dt_s_; }
  int max_contacts() const { return max_contacts_; }
  /// Largest e_m over the run ([SAP] Eq. (32)).
  double max_momentum_error() const { return max_momentum_error_; }
  /// Largest e_μ over the run ([SAP] Eq. (33)).
  double max_complementarity_error() const { return max_complementarity_error_; }
  /// Largest per-step NCP residual over the run (StepStats::ncp_residual).
  double max_ncp_residual() const { return max_ncp_residual_; }
  /// Mean NCP residual over the steps that had contact; 0 when none had.
  double mean_ncp_residual() const;
  /// Largest per-step penetration over the run [m].
  double max_penetration_m() const { return max_penetration_m_; }
  /// Mean of the per-step maximum penetration over the steps that had
  /// contact [m]; 0 when no step had contact. (Averaging over contact-free
  /// steps too would make the number depend on how long a body fell.)
  double mean_penetration_m() const;
  /// Mean wall time of one Step() call [s].
  double mean_step_wall_time_s() const { return Mean(sum_wall_time_s_); }
  /// Total wall time spent inside Step() [s].
  double total_step_wall_time_s() const { return sum_wall_time_s_; }
  /// False once any sample held NaN or ±Inf.
  bool finite() const { return finite_; }
  /// Summed time split over the run [s] (see StepStats::TimeSplit).
  const StepStats::TimeSplit& total_time_split() const { return time_split_; }

 private:
  double Mean(double sum) const {
    return num_steps_ > 0 ? sum / static_cast<double>(num_steps_) : 0.0;
  }

  StepStats::TimeSplit time_split_;
  std::int64_t num_steps_ = 0;
  std::int64_t num_contact_steps_ = 0;
  double sum_iterations_ = 0;
  double sum_line_search_iterations_ = 0;
  double sum_contacts_ = 0;
  double sum_outer_iterations_ = 0;
  double max_constraint_residual_ = 0;
  std::int64_t unconverged_steps_ = 0;
  std::int64_t budget_hit_steps_ = 0;
  double sum_qp_iterations_ = 0;
  int max_qp_iterations_ = 0;
  std::int64_t subdivided_steps_ = 0;
  int max_subdivisions_ = 0;
  double smallest_dt_s_ = 0;
  double sum_contact_penetration_m_ = 0;
  double sum_contact_ncp_residual_ = 0;
  double sum_wall_time_s_ = 0;
  int max_iterations_ = 0;
  int max_line_search_iterations_ = 0;
  int max_contacts_ = 0;
  double max_momentum_error_ = 0;
  double max_complementarity_error_ = 0;
  double max_ncp_residual_ = 0;
  double max_penetration_m_ = 0;
  bool finite_ = true;
};

/// "ok", "solver_failed" or "non_finite".
std::string StepStatusName(StepStatus status);

/// Kinetic and potential energy at the start and end of a run [J].
struct EnergySummary {
  double initial_kinetic_J = 0;
  double initial_potential_J = 0;
  double final_kinetic_J = 0;
  double final_potential_J = 0;
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
  double dt = 0;                  ///< Time step δt [s].
  double requested_duration_s = 0;  ///< What the run was asked to simulate [s].
  std::int64_t steps = 0;         ///< Successful steps.
  double sim_time_s = 0;          ///< Simulated time reached [s].
  double load_wall_time_s = 0;    ///< Loading and model building [s].
  double wall_time_s = 0;         ///< The stepping loop, output included [s].
  StepStatus status = StepStatus::kSuccess;
  std::string error;              ///< Empty when status is kSuccess.
  EnergySummary energy;
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

/// The per-step CSV trace: a header row, then one row per written step.
/// Columns: t, iterations, line_search_iterations, contacts, momentum_error,
/// complementarity_error, ncp_residual, budget_hit, max_penetration_m,
/// step_wall_time_s, kinetic_energy_J, potential_energy_J, qp_iterations,
/// subdivisions, smallest_dt_s, then per body NAME.x NAME.y NAME.z
/// NAME.qw NAME.qx NAME.qy NAME.qz (world frame, SI). Numbers use the shortest
/// representation that round-trips; non-finite values are written as nan/inf.
class CsvWriter {
 public:
  /// `out` must outlive the writer. Writes the header row at once.
  CsvWriter(std::ostream& out, const std::vector<std::string>& body_names);

  /// Writes one row. `bodies` must list the bodies given to the constructor,
  /// in the same order (as Simulation::CalcBodyStates() returns them).
  void WriteRow(double t, const StepStats& stats, double kinetic_energy_J,
                double potential_energy_J, const std::vector<BodyState>& bodies);

  std::int64_t rows_written() const { return rows_written_; }

  /// The header columns for the given bodies (without the newline).
  static std::vector<std::string> HeaderColumns(const std::vector<std::string>& body_names);

 private:
  std::ostream& out_;
  std::size_t num_bodies_ = 0;
  std::int64_t rows_written_ = 0;
  std::string line_;  // Reused row buffer.
};

/// Formats a double with the shortest round-trip representation ("nan",
/// "inf", "-inf" for non-finite values).
std::string FormatNumber(double value);

}  // namespace stiction::cli
