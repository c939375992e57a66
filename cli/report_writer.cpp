#include "cli/report_writer.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>

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

// RFC 4180 quoting for header names that hold a comma, quote or newline.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

void AppendNumber(std::string* line, double value) {
  if (std::isnan(value)) {
    *line += "nan";
    return;
  }
  if (std::isinf(value)) {
    *line += value > 0 ? "inf" : "-inf";
    return;
  }
  std::array<char, 32> buffer;
  const std::to_chars_result r = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  line->append(buffer.data(), r.ptr);
}

void AppendInt(std::string* line, std::int64_t value) {
  std::array<char, 24> buffer;
  const std::to_chars_result r = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  line->append(buffer.data(), r.ptr);
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
  max_subdivisions_ = std::max(max_subdivisions_, s.subdivisions);
  // Over the steps that report a substep (NMDP; 0 under the θ-method).
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
  report["wall_time_s"] = num(run.wall_time_s);
  report["realtime_factor"] = num(run.realtime_factor());
  report["status"] = StepStatusName(run.status);
  report["error"] = run.error;

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
  s["smallest_dt_s"] = num(stats.smallest_dt_s());
  s["max_complementarity_error"] = num(stats.max_complementarity_error());
  s["max_ncp_residual"] = num(stats.max_ncp_residual());
  s["mean_ncp_residual"] = num(stats.mean_ncp_residual());
  s["max_penetration_m"] = num(stats.max_penetration_m());
  s["mean_penetration_m"] = num(stats.mean_penetration_m());
  s["mean_step_wall_time_s"] = num(stats.mean_step_wall_time_s());
  // Where the stepping time went, summed over the run [s]; "other" is the
  // rest of Step() (kinematics, position update, bookkeeping).
  const StepStats::TimeSplit& t = stats.total_time_split();
  const double accounted = t.free_motion + t.collision + t.assembly + t.factorization + t.line_search;
  s["time_split_s"] = {{"free_motion", num(t.free_motion)},
                       {"collision", num(t.collision)},
                       {"contact_surfaces", num(t.contact_surfaces)},  // Part of collision.
                       {"assembly", num(t.assembly)},
                       {"factorization", num(t.factorization)},
                       {"line_search", num(t.line_search)},
                       {"other", num(stats.total_step_wall_time_s() - accounted)}};
  report["stats"] = std::move(s);

  report["energy"] = {{"initial_kinetic_J", num(run.energy.initial_kinetic_J)},
                      {"initial_potential_J", num(run.energy.initial_potential_J)},
                      {"final_kinetic_J", num(run.energy.final_kinetic_J)},
                      {"final_potential_J", num(run.energy.final_potential_J)}};

  nlohmann::json bodies = nlohmann::json::array();
  for (const BodyState& b : run.bodies) {
    bodies.push_back({{"name", b.name},
                      {"position", num.Vector(b.position)},
                      {"quaternion", num.Wxyz(b.orientation)},
                      {"linear_velocity", num.Vector(b.linear_velocity)},
                      {"angular_velocity", num.Vector(b.angular_velocity)}});
  }
  report["bodies"] = std::move(bodies);

  report["finite"] =
      num.finite() && stats.finite() && run.status != StepStatus::kNonFinite;
  return report;
}

void WriteJsonFile(const std::string& path, const nlohmann::json& report) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) {
    throw OutputError(path + ": cannot open for writing: " + std::strerror(errno));
  }
  out << report.dump(2) << '\n';
  out.flush();
  if (!out) throw OutputError(path + ": write failed: " + std::strerror(errno));
}

std::string FormatNumber(double value) {
  std::string text;
  AppendNumber(&text, value);
  return text;
}

std::vector<std::string> CsvWriter::HeaderColumns(const std::vector<std::string>& body_names) {
  std::vector<std::string> columns = {
      "t",        "iterations",        "line_search_iterations", "contacts",
      "momentum_error", "complementarity_error", "ncp_residual", "budget_hit", "max_penetration_m",
      "step_wall_time_s", "kinetic_energy_J", "potential_energy_J", "qp_iterations", "subdivisions",
      "smallest_dt_s"};
  for (const std::string& name : body_names) {
    for (const char* suffix : {".x", ".y", ".z", ".qw", ".qx", ".qy", ".qz"}) {
      columns.push_back(name + suffix);
    }
  }
  return columns;
}

CsvWriter::CsvWriter(std::ostream& out, const std::vector<std::string>& body_names)
    : out_(out), num_bodies_(body_names.size()) {
  const std::vector<std::string> columns = HeaderColumns(body_names);
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out_ << ',';
    out_ << CsvField(columns[i]);
  }
  out_ << '\n';
}

void CsvWriter::WriteRow(double t, const StepStats& stats, double kinetic_energy_J,
                         double potential_energy_J, const std::vector<BodyState>& bodies) {
  if (bodies.size() != num_bodies_) {
    throw std::logic_error("CsvWriter::WriteRow: got " + std::to_string(bodies.size()) +
                           " bodies, the header has " + std::to_string(num_bodies_));
  }
  line_.clear();
  AppendNumber(&line_, t);
  for (int value : {stats.iterations, stats.line_search_iterations, stats.num_contacts}) {
    line_ += ',';
    AppendInt(&line_, value);
  }
  for (double value : {stats.momentum_error, stats.complementarity_error, stats.ncp_residual}) {
    line_ += ',';
    AppendNumber(&line_, value);
  }
  line_ += ',';
  AppendInt(&line_, stats.budget_hit ? 1 : 0);
  for (double value : {stats.max_penetration_m, stats.wall_time_s, kinetic_energy_J, potential_energy_J}) {
    line_ += ',';
    AppendNumber(&line_, value);
  }
  for (int value : {stats.qp_iterations, stats.subdivisions}) {
    line_ += ',';
    AppendInt(&line_, value);
  }
  line_ += ',';
  AppendNumber(&line_, stats.smallest_dt_s);
  for (const BodyState& b : bodies) {
    const Quaternion& q = b.orientation;
    for (double value : {b.position.x(), b.position.y(), b.position.z(), q.w(), q.x(), q.y(),
                         q.z()}) {
      line_ += ',';
      AppendNumber(&line_, value);
    }
  }
  line_ += '\n';
  out_ << line_;
  ++rows_written_;
}

}  // namespace stiction::cli
