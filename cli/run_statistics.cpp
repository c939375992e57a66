#include "cli/run_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stiction::cli {
namespace {

// max() that lets NaN win, so one bad sample is never silently dropped.
double NanMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a > b ? a : b;
}

// min() that lets NaN win, as NanMax.
double NanMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a < b ? a : b;
}

}  // namespace

void RunStatistics::Add(const StepStats& s) {
  const bool sample_finite = std::isfinite(s.momentum_error) &&
                             std::isfinite(s.complementarity_error) && std::isfinite(s.ncp_residual) &&
                             std::isfinite(s.max_penetration_m) && std::isfinite(s.wall_time_s) &&
                             std::isfinite(s.smallest_dt_s);
  finite_ = finite_ && sample_finite;
  ++num_steps_;
  sum_iterations_ += s.iterations;
  sum_line_search_iterations_ += s.line_search_iterations;
  sum_contacts_ += s.num_contacts;
  sum_outer_iterations_ += s.outer_iterations;
  max_constraint_residual_ = NanMax(max_constraint_residual_, s.constraint_residual);
  if (!s.solver_converged) ++unconverged_steps_;
  if (s.budget_hit) ++budget_hit_steps_;
  sum_qp_iterations_ += s.qp_iterations;
  max_qp_iterations_ = std::max(max_qp_iterations_, s.qp_iterations);
  if (s.subdivisions > 0) ++subdivided_steps_;
  if (s.load_resolves > 0) ++load_resolve_steps_;
  if (s.position_correction_m > 0) ++position_corrected_steps_;
  max_position_correction_m_ = NanMax(max_position_correction_m_, s.position_correction_m);
  if (s.solver_fallback) ++solver_fallback_steps_;
  load_resolves_ += s.load_resolves;
  sum_sleeping_bodies_ += s.sleeping_bodies;
  max_sleeping_bodies_ = std::max(max_sleeping_bodies_, s.sleeping_bodies);
  max_subdivisions_ = std::max(max_subdivisions_, s.subdivisions);
  // Over the steps that report a substep (NMDP; the θ-method only when it halved a step).
  if (s.smallest_dt_s != 0) {
    smallest_dt_s_ = smallest_dt_s_ == 0 ? s.smallest_dt_s : NanMin(smallest_dt_s_, s.smallest_dt_s);
  }
  sum_wall_time_s_ += s.wall_time_s;
  time_split_.free_motion += s.time.free_motion;
  time_split_.collision += s.time.collision;
  time_split_.contact_surfaces += s.time.contact_surfaces;
  time_split_.assembly += s.time.assembly;
  time_split_.factorization += s.time.factorization;
  time_split_.line_search += s.time.line_search;
  max_iterations_ = std::max(max_iterations_, s.iterations);
  max_line_search_iterations_ = std::max(max_line_search_iterations_, s.line_search_iterations);
  max_contacts_ = std::max(max_contacts_, s.num_contacts);
  max_momentum_error_ = NanMax(max_momentum_error_, s.momentum_error);
  max_complementarity_error_ = NanMax(max_complementarity_error_, s.complementarity_error);
  max_ncp_residual_ = NanMax(max_ncp_residual_, s.ncp_residual);
  max_penetration_m_ = NanMax(max_penetration_m_, s.max_penetration_m);
  if (s.num_contacts > 0) {
    ++num_contact_steps_;
    sum_contact_penetration_m_ += s.max_penetration_m;
    sum_contact_ncp_residual_ += s.ncp_residual;
  }
}

double RunStatistics::mean_penetration_m() const {
  return num_contact_steps_ > 0
             ? sum_contact_penetration_m_ / static_cast<double>(num_contact_steps_)
             : 0.0;
}

double RunStatistics::mean_ncp_residual() const {
  return num_contact_steps_ > 0 ? sum_contact_ncp_residual_ / static_cast<double>(num_contact_steps_) : 0.0;
}

}  // namespace stiction::cli
