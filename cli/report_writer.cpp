#include "cli/report_writer.h"

#include <cmath>
#include <fstream>

#include "engine/common/text.h"

namespace stiction::cli {
namespace {

// Turns doubles into JSON, replacing NaN/Inf by null and recording that it did.
class JsonNumbers {
 public:
  nlohmann::json operator()(double value) {
    if (!std::isfinite(value)) {
      finite_ = false;
      return nullptr;
    }
    return value;
  }
  nlohmann::json Vector(const Vector3& v) {
    return nlohmann::json::array({(*this)(v.x()), (*this)(v.y()), (*this)(v.z())});
  }
  // w, x, y, z, the order the engine stores quaternions in.
  nlohmann::json Wxyz(const Quaternion& q) {
    return nlohmann::json::array({(*this)(q.w()), (*this)(q.x()), (*this)(q.y()), (*this)(q.z())});
  }
  bool finite() const { return finite_; }

 private:
  bool finite_ = true;
};

// What the run was: the scene, its settings and how far it got.
nlohmann::json RunJson(const RunSummary& run, JsonNumbers& num) {
  nlohmann::json report;
  report["scene"] = run.scene_path;
  report["description"] = run.description;
  report["commands"] = run.commands_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(run.commands_file);
  report["stepping"] = SteppingSchemeName(run.scheme);
  report["integrator"] = {{"name", run.integrator.name},
                          {"theta", num(run.integrator.theta)},
                          {"theta_vq", num(run.integrator.theta_vq)}};
  report["solver"] = SolverTypeName(run.solver);
  report["contact_model"] = ContactModelName(run.contact_model);
  report["contact_models_used"] = run.contact_models_used;
  report["overrides"] = run.overrides;
  report["dt"] = num(run.dt);
  report["duration_s"] = num(run.requested_duration_s);
  report["steps"] = run.steps;
  report["sim_time_s"] = num(run.sim_time_s);
  report["load_wall_time_s"] = num(run.load_wall_time_s);
  report["load_notes"] = run.load_notes;
  report["wall_time_s"] = num(run.wall_time_s);
  report["realtime_factor"] = num(run.realtime_factor());
  report["status"] = StepStatusName(run.status);
  report["error"] = run.error;
  if (run.script.present) {
    const ScriptSummary& sc = run.script;
    nlohmann::json events = nlohmann::json::array();
    for (const ScriptSummary::Event& e : sc.events) {
      events.push_back({{"t_s", num(e.t_s)}, {"step", e.step}, {"entry", e.entry}, {"condition", e.what}});
    }
    report["script"] = {{"entries", sc.entries},
                        {"waits_passed", events},
                        {"finished", sc.finished},
                        {"finished_t_s", sc.finished ? num(sc.finished_t_s) : nlohmann::json(nullptr)},
                        {"waiting_for", sc.waiting_for},
                        {"error", sc.error}};
  } else {
    report["script"] = nullptr;
  }
  return report;
}

// Where the stepping time went, summed over the run [s]; "other" is the rest
// of Step() (kinematics, position update, bookkeeping).
nlohmann::json TimeSplitJson(const RunStatistics& stats, JsonNumbers& num) {
  const StepStats::TimeSplit& t = stats.total_time_split();
  const double accounted = t.free_motion + t.collision + t.assembly + t.factorization + t.line_search;
  return {{"free_motion", num(t.free_motion)},
          {"collision", num(t.collision)},
          {"contact_surfaces", num(t.contact_surfaces)},  // Part of collision.
          {"assembly", num(t.assembly)},
          {"factorization", num(t.factorization)},
          {"line_search", num(t.line_search)},
          {"other", num(stats.total_step_wall_time_s() - accounted)}};
}

// "stats": the means and maxima over the run.
nlohmann::json StatsJson(const RunStatistics& stats, JsonNumbers& num) {
  nlohmann::json s;
  s["steps"] = stats.num_steps();
  s["contact_steps"] = stats.num_contact_steps();
  s["mean_iterations"] = num(stats.mean_iterations());
  s["max_iterations"] = stats.max_iterations();
  s["mean_line_search_iterations"] = num(stats.mean_line_search_iterations());
  s["max_line_search_iterations"] = stats.max_line_search_iterations();
  s["mean_contacts"] = num(stats.mean_contacts());
  s["max_contacts"] = stats.max_contacts();
  s["max_momentum_error"] = num(stats.max_momentum_error());
  s["mean_outer_iterations"] = num(stats.mean_outer_iterations());
  s["max_constraint_residual"] = num(stats.max_constraint_residual());
  s["unconverged_steps"] = stats.unconverged_steps();
  s["budget_hit_steps"] = stats.budget_hit_steps();
  s["mean_qp_iterations"] = num(stats.mean_qp_iterations());
  s["max_qp_iterations"] = stats.max_qp_iterations();
  s["subdivided_steps"] = stats.subdivided_steps();
  s["max_subdivisions"] = stats.max_subdivisions();
  s["load_resolve_steps"] = stats.load_resolve_steps();
  s["solver_fallback_steps"] = stats.solver_fallback_steps();
  s["load_resolves"] = stats.load_resolves();
  s["position_corrected_steps"] = stats.position_corrected_steps();
  s["max_position_correction_m"] = num(stats.max_position_correction_m());
  s["mean_sleeping_bodies"] = stats.mean_sleeping_bodies();
  s["max_sleeping_bodies"] = stats.max_sleeping_bodies();
  s["smallest_dt_s"] = num(stats.smallest_dt_s());
  s["max_complementarity_error"] = num(stats.max_complementarity_error());
  s["max_ncp_residual"] = num(stats.max_ncp_residual());
  s["mean_ncp_residual"] = num(stats.mean_ncp_residual());
  s["max_penetration_m"] = num(stats.max_penetration_m());
  s["mean_penetration_m"] = num(stats.mean_penetration_m());
  s["mean_step_wall_time_s"] = num(stats.mean_step_wall_time_s());
  s["time_split_s"] = TimeSplitJson(stats, num);
  return s;
}

nlohmann::json EnergyJson(const EnergySummary& energy, JsonNumbers& num) {
  return {{"initial_kinetic_J", num(energy.initial_kinetic_J)},
          {"initial_potential_J", num(energy.initial_potential_J)},
          {"final_kinetic_J", num(energy.final_kinetic_J)},
          {"final_potential_J", num(energy.final_potential_J)}};
}

// The final state of every body.
nlohmann::json BodiesJson(const std::vector<BodyState>& bodies, JsonNumbers& num) {
  nlohmann::json out = nlohmann::json::array();
  for (const BodyState& b : bodies) {
    out.push_back({{"name", b.name},
                   {"position", num.Vector(b.position)},
                   {"quaternion", num.Wxyz(b.orientation)},
                   {"linear_velocity", num.Vector(b.linear_velocity)},
                   {"angular_velocity", num.Vector(b.angular_velocity)}});
  }
  return out;
}

}  // namespace

std::string StepFailureReason(const StepResult& result) {
  return OneLine(result.message.empty() ? StepStatusName(result.status) : result.message);
}

std::string FailedStepLine(std::int64_t step, double t_s, const std::string& reason) {
  return "step " + std::to_string(step) + " at t=" + FormatNumber(t_s, 9) + ": " + reason;
}

std::string StepStatusName(StepStatus status) {
  switch (status) {
    case StepStatus::kSuccess: return "ok";
    case StepStatus::kSolverFailed: return "solver_failed";
    case StepStatus::kNonFinite: return "non_finite";
  }
  return "unknown";
}

nlohmann::json MakeReportJson(const RunSummary& run, const RunStatistics& stats) {
  JsonNumbers num;
  nlohmann::json report = RunJson(run, num);
  report["stats"] = StatsJson(stats, num);
  report["energy"] = EnergyJson(run.energy, num);
  report["bodies"] = BodiesJson(run.bodies, num);
  report["finite"] = num.finite() && stats.finite() && run.status != StepStatus::kNonFinite;
  return report;
}

void WriteJsonFile(const std::string& path, const nlohmann::json& report) {
  std::ofstream out = OpenOutput(path);
  out << report.dump(2) << '\n';
  FinishOutput(out, path);
}

}  // namespace stiction::cli
