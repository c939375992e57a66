#pragma once
// stiction-sim's per-step CSV trace (--csv; docs/cli.md documents every
// column).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine/simulation.h"

namespace stiction::cli {

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

}  // namespace stiction::cli
