#include "cli/csv_writer.h"

#include <array>
#include <charconv>
#include <stdexcept>

#include "engine/common/text.h"

namespace stiction::cli {
namespace {

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

void AppendInt(std::string* line, std::int64_t value) {
  std::array<char, 24> buffer;
  const std::to_chars_result r = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  line->append(buffer.data(), r.ptr);
}

}  // namespace

std::vector<std::string> CsvWriter::HeaderColumns(const std::vector<std::string>& body_names) {
  std::vector<std::string> columns = {
      "t",        "iterations",        "line_search_iterations", "contacts",
      "momentum_error", "complementarity_error", "ncp_residual", "budget_hit", "max_penetration_m",
      "step_wall_time_s", "kinetic_energy_J", "potential_energy_J", "qp_iterations", "subdivisions",
      "smallest_dt_s", "sleeping_bodies"};
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
  AppendRoundTrip(&line_, t);
  for (int value : {stats.iterations, stats.line_search_iterations, stats.num_contacts}) {
    line_ += ',';
    AppendInt(&line_, value);
  }
  for (double value : {stats.momentum_error, stats.complementarity_error, stats.ncp_residual}) {
    line_ += ',';
    AppendRoundTrip(&line_, value);
  }
  line_ += ',';
  AppendInt(&line_, stats.budget_hit ? 1 : 0);
  for (double value : {stats.max_penetration_m, stats.wall_time_s, kinetic_energy_J, potential_energy_J}) {
    line_ += ',';
    AppendRoundTrip(&line_, value);
  }
  for (int value : {stats.qp_iterations, stats.subdivisions}) {
    line_ += ',';
    AppendInt(&line_, value);
  }
  line_ += ',';
  AppendRoundTrip(&line_, stats.smallest_dt_s);
  line_ += ',';
  AppendInt(&line_, stats.sleeping_bodies);
  for (const BodyState& b : bodies) {
    const Quaternion& q = b.orientation;
    for (double value : {b.position.x(), b.position.y(), b.position.z(), q.w(), q.x(), q.y(),
                         q.z()}) {
      line_ += ',';
      AppendRoundTrip(&line_, value);
    }
  }
  line_ += '\n';
  out_ << line_;
  ++rows_written_;
}

}  // namespace stiction::cli
