#pragma once
// Means and maxima of the per-step statistics over a run, as stiction-sim's
// report and summary print them (docs/cli.md, "stats").
#include <cstdint>

#include "engine/simulation.h"

namespace stiction::cli {

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
  /// (StepStats::qp_iterations; zero for the θ-method). Both schemes: the
  /// steps subdivided (NMDP's Alg. 2; the θ-method's halvings of a failed
  /// step) and the most substeps beyond the first one step took
  /// (StepStats::subdivisions), and the smallest substep taken over the run
  /// [s] (0 when no step reported one, as under an undivided θ-method).
  double mean_qp_iterations() const { return Mean(sum_qp_iterations_); }
  int max_qp_iterations() const { return max_qp_iterations_; }
  std::int64_t subdivided_steps() const { return subdivided_steps_; }
  int max_subdivisions() const { return max_subdivisions_; }
  double smallest_dt_s() const { return smallest_dt_s_; }
  int max_contacts() const { return max_contacts_; }
  /// Sudden loads (StepStats::load_resolves): the steps whose contact
  /// problem was solved again with its own impulses as the load, and the
  /// repeated solves summed over the run.
  std::int64_t load_resolve_steps() const { return load_resolve_steps_; }
  /// Steps the chosen contact solver could not take that SAP took instead
  /// (StepStats::solver_fallback).
  std::int64_t solver_fallback_steps() const { return solver_fallback_steps_; }
  std::int64_t load_resolves() const { return load_resolves_; }
  /// Split recovery (StepStats::position_correction_m): the steps whose
  /// positions were corrected out of overlaps, and the largest correction
  /// of one contact in one step [m].
  std::int64_t position_corrected_steps() const { return position_corrected_steps_; }
  double max_position_correction_m() const { return max_position_correction_m_; }
  /// Sleeping islands (StepStats::sleeping_bodies): bodies asleep per step,
  /// mean and largest.
  double mean_sleeping_bodies() const { return Mean(sum_sleeping_bodies_); }
  int max_sleeping_bodies() const { return max_sleeping_bodies_; }
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
  std::int64_t load_resolve_steps_ = 0;
  std::int64_t solver_fallback_steps_ = 0;
  std::int64_t load_resolves_ = 0;
  std::int64_t position_corrected_steps_ = 0;
  double max_position_correction_m_ = 0;
  double sum_sleeping_bodies_ = 0;
  int max_sleeping_bodies_ = 0;
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

}  // namespace stiction::cli
