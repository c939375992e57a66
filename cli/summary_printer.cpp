#include "cli/summary_printer.h"

#include <algorithm>
#include <iomanip>
#include <string>

#include "engine/common/text.h"

namespace stiction::cli {
namespace {

constexpr int kMaxSummaryBodies = 10;

// A row "  LABEL         value...": the label padded to one column.
class SummaryRows {
 public:
  explicit SummaryRows(std::ostream& out) : out_(out) {}
  std::ostream& operator()(const char* label) const {
    return out_ << "  " << std::left << std::setw(14) << label << std::right;
  }

 private:
  std::ostream& out_;
};

std::string FormatVector(const Eigen::Ref<const Eigen::VectorXd>& v) {
  std::string text = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (i > 0) text += ", ";
    text += FormatNumber(v[i], 4);
  }
  return text + "]";
}

// What ran: the scene, the scheme, integrator, solver, δt and the steps.
void PrintRunRows(const RunSummary& run, const SummaryRows& row, std::ostream& out) {
  row("scene") << run.scene_path << '\n';
  const SteppingSchemeInfo& scheme = GetSteppingSchemeInfo(run.scheme);
  row("stepping") << scheme.name << (scheme.uses_contact_solver ? "" : " (integrator and solver unused)") << '\n';
  row("integrator") << run.integrator.name << " (theta = " << FormatNumber(run.integrator.theta, 6)
                    << ", theta_vq = " << FormatNumber(run.integrator.theta_vq, 6) << ")\n";
  row("solver") << SolverTypeName(run.solver) << " (contact model " << ContactModelName(run.contact_model);
  if (!run.contact_models_used.empty()) {
    out << "; contacts used";
    for (const std::string& m : run.contact_models_used) out << ' ' << m;
  }
  out << ")\n";
  row("dt") << FormatNumber(run.dt, 6) << " s\n";
  if (!run.commands_file.empty()) row("commands") << run.commands_file << '\n';
  if (run.script.present) {
    const ScriptSummary& sc = run.script;
    std::ostream& line = row("script");
    line << sc.entries << " entries, " << sc.events.size() << " waits passed; ";
    if (!sc.error.empty()) {
      line << "FAILED: " << sc.error << '\n';
    } else if (sc.finished) {
      line << "finished at t = " << FormatNumber(sc.finished_t_s, 6) << " s\n";
    } else {
      line << "not finished" << (sc.waiting_for.empty() ? "" : ", waiting for " + sc.waiting_for) << '\n';
    }
    for (const ScriptSummary::Event& e : sc.events) {
      row("") << "t = " << FormatNumber(e.t_s, 6) << " s: " << e.what << " (commands[" << e.entry << "])\n";
    }
  }
  row("steps") << run.steps << '\n';
  row("sim time") << FormatNumber(run.sim_time_s, 6) << " s\n";
  row("wall time") << FormatNumber(run.wall_time_s, 4) << " s (load " << FormatNumber(run.load_wall_time_s, 3)
                   << " s)\n";
  row("real-time") << FormatNumber(run.realtime_factor(), 4) << "x\n";
}

// How the solver (or NMDP's QP) did: iterations, early stops, contacts.
void PrintSolverRows(const RunSummary& run, const RunStatistics& stats, const SummaryRows& row) {
  const bool uses_contact_solver = GetSteppingSchemeInfo(run.scheme).uses_contact_solver;
  row("iterations") << "mean " << FormatNumber(stats.mean_iterations(), 4) << ", max " << stats.max_iterations()
                    << '\n';
  if (!uses_contact_solver) {
    row("NMDP") << "mean " << FormatNumber(stats.mean_qp_iterations(), 4) << " QP iterations (max "
                << stats.max_qp_iterations() << "), " << stats.subdivided_steps() << " steps subdivided (at most "
                << stats.max_subdivisions() << " times), smallest substep " << FormatNumber(stats.smallest_dt_s(), 6)
                << " s\n";
  }
  if (uses_contact_solver && stats.subdivided_steps() > 0) {
    row("halved steps") << stats.subdivided_steps() << " steps failed at dt and were taken in halves (at most "
                        << stats.max_subdivisions() + 1 << " substeps, smallest " << FormatNumber(stats.smallest_dt_s(), 6)
                        << " s; solver.max_step_halvings)\n";
  }
  if (stats.max_sleeping_bodies() > 0) {
    row("sleeping") << "mean " << stats.mean_sleeping_bodies() << " bodies, at most " << stats.max_sleeping_bodies()
                    << " (solver.sleep: frozen until touched)\n";
  }
  if (stats.solver_fallback_steps() > 0) {
    row("SAP fallback") << stats.solver_fallback_steps() << " steps the solver could not take were taken by SAP\n";
  }
  if (uses_contact_solver && GetSolverTypeInfo(run.solver).augmented_lagrangian) {
    row("AL") << "mean " << FormatNumber(stats.mean_outer_iterations(), 4) << " outer iterations, max residual "
              << FormatNumber(stats.max_constraint_residual(), 3) << '\n';
  }
  if (stats.load_resolve_steps() > 0) {
    row("sudden loads") << stats.load_resolve_steps() << " steps solved again with their own impulses as the load ("
                        << stats.load_resolves() << " extra solves; solver.max_load_resolves)\n";
  }
  if (stats.position_corrected_steps() > 0) {
    row("recovery") << stats.position_corrected_steps()
                    << " steps with positions corrected (impact arrival, split_recovery), at most "
                    << FormatNumber(stats.max_position_correction_m() * 1e3, 3) << " mm in one step\n";
  }
  if (stats.unconverged_steps() > 0 || stats.budget_hit_steps() > 0) {
    row("stopped early") << stats.unconverged_steps() << " steps short of the tolerance (at the iteration cap or "
                         << "budget), " << stats.budget_hit_steps() << " of them at the time budget\n";
  }
  row("contacts") << "mean " << FormatNumber(stats.mean_contacts(), 4) << ", max " << stats.max_contacts() << '\n';
  if (stats.num_contact_steps() > 0) {
    row("NCP residual") << "mean " << FormatNumber(stats.mean_ncp_residual(), 3) << ", max "
                        << FormatNumber(stats.max_ncp_residual(), 3) << " (every solver against the exact NCP)\n";
  }
}

// Where a step's wall time went, per stage [ms].
void PrintTimeSplitRow(const RunStatistics& stats, const SummaryRows& row) {
  if (stats.num_steps() == 0) return;
  const StepStats::TimeSplit& t = stats.total_time_split();
  const double ms = 1e3 / static_cast<double>(stats.num_steps());
  row("ms per step") << FormatNumber(stats.mean_step_wall_time_s() * 1e3, 4) << " (free motion "
                     << FormatNumber(t.free_motion * ms, 3) << ", collision " << FormatNumber(t.collision * ms, 3)
                     << (t.contact_surfaces > 0
                             ? " of which contact surfaces " + FormatNumber(t.contact_surfaces * ms, 3)
                             : "")
                     << ", assembly " << FormatNumber(t.assembly * ms, 3) << ", factorization "
                     << FormatNumber(t.factorization * ms, 3) << ", line search "
                     << FormatNumber(t.line_search * ms, 3) << ")\n";
}

void PrintStatusRows(const RunSummary& run, const RunStatistics& stats, const SummaryRows& row,
                     std::ostream& out) {
  const bool finite = MakeReportJson(run, stats).at("finite").get<bool>();  // Same rule as the report.
  row("finite") << (finite ? "yes" : "no") << '\n';
  row("status") << StepStatusName(run.status);
  if (!run.error.empty()) out << ": " << run.error;
  out << '\n';
}

// The first kMaxSummaryBodies bodies' final poses, names in one column.
void PrintFinalPoses(const std::vector<BodyState>& bodies, std::ostream& out) {
  if (bodies.empty()) return;
  out << "  final pose (world frame; position [m], quaternion w,x,y,z):\n";
  std::size_t name_width = 4;
  const std::size_t shown = std::min<std::size_t>(bodies.size(), kMaxSummaryBodies);
  for (std::size_t i = 0; i < shown; ++i) name_width = std::max(name_width, bodies[i].name.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const BodyState& b = bodies[i];
    const Quaternion& q = b.orientation;
    out << "    " << std::left << std::setw(static_cast<int>(name_width)) << b.name << std::right
        << "  p = " << FormatVector(b.position) << "  q = " << FormatVector(Vector4(q.w(), q.x(), q.y(), q.z()))
        << '\n';
  }
  if (bodies.size() > shown) out << "    ... and " << bodies.size() - shown << " more (see --report)\n";
}

}  // namespace

void PrintSummary(const RunSummary& run, const RunStatistics& stats, std::ostream& out) {
  const SummaryRows row(out);
  out << "stiction-sim summary\n";
  PrintRunRows(run, row, out);
  PrintSolverRows(run, stats, row);
  PrintTimeSplitRow(stats, row);
  PrintStatusRows(run, stats, row, out);
  PrintFinalPoses(run.bodies, out);
}

}  // namespace stiction::cli
