// RunStatistics, the JSON report and the CSV trace on synthetic data.
#include "cli/report_writer.h"
#include "cli/csv_writer.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/common/text.h"
#include "tests/cli/report_shape.h"
#include "tests/support/scratch_dir.h"

namespace stiction::cli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

StepStats MakeStats(int iterations, int contacts, double e_m, double e_mu, double penetration,
                    double wall) {
  StepStats s;
  s.iterations = iterations;
  s.line_search_iterations = 2 * iterations;
  s.num_contacts = contacts;
  s.momentum_error = e_m;
  s.complementarity_error = e_mu;
  s.max_penetration_m = penetration;
  s.wall_time_s = wall;
  return s;
}

BodyState MakeBody(const std::string& name, double z) {
  BodyState b;
  b.name = name;
  b.position = Vector3(1.0, -2.0, z);
  b.orientation = Quaternion(Eigen::AngleAxisd(0.3, Vector3::UnitZ()));
  b.linear_velocity = Vector3(0.1, 0.2, 0.3);
  b.angular_velocity = Vector3(-1, 0, 1);
  return b;
}

RunSummary MakeRun() {
  RunSummary run;
  run.scene_path = "assets/scenes/box.yaml";
  run.description = "A box on the ground.";
  run.integrator = {"implicit_euler", 1.0, 1.0};
  run.solver = SolverType::kSap;
  run.contact_model = ContactModel::kSap;
  run.overrides = {"time_step=0.005"};
  run.dt = 0.005;
  run.requested_duration_s = 0.01;
  run.steps = 2;
  run.sim_time_s = 0.01;
  run.wall_time_s = 0.002;
  run.energy = {0.5, 9.81, 0.25, 9.0};
  run.bodies = {MakeBody("box", 0.1), MakeBody("ball", 0.5)};
  return run;
}

TEST(RunStatisticsTest, EmptyIsAllZeroAndFinite) {
  const RunStatistics stats;
  EXPECT_EQ(stats.num_steps(), 0);
  EXPECT_EQ(stats.mean_iterations(), 0.0);
  EXPECT_EQ(stats.max_iterations(), 0);
  EXPECT_EQ(stats.mean_contacts(), 0.0);
  EXPECT_EQ(stats.mean_penetration_m(), 0.0);
  EXPECT_EQ(stats.mean_step_wall_time_s(), 0.0);
  EXPECT_TRUE(stats.finite());
}

TEST(RunStatisticsTest, MeansAndMaxima) {
  RunStatistics stats;
  stats.Add(MakeStats(2, 0, 1e-9, 0.0, 0.0, 0.001));
  stats.Add(MakeStats(6, 4, 3e-8, 2e-7, 1e-4, 0.003));
  stats.Add(MakeStats(4, 2, 2e-8, 5e-7, 3e-4, 0.002));
  EXPECT_EQ(stats.num_steps(), 3);
  EXPECT_EQ(stats.num_contact_steps(), 2);
  EXPECT_DOUBLE_EQ(stats.mean_iterations(), 4.0);
  EXPECT_EQ(stats.max_iterations(), 6);
  EXPECT_DOUBLE_EQ(stats.mean_line_search_iterations(), 8.0);
  EXPECT_EQ(stats.max_line_search_iterations(), 12);
  EXPECT_DOUBLE_EQ(stats.mean_contacts(), 2.0);
  EXPECT_EQ(stats.max_contacts(), 4);
  EXPECT_DOUBLE_EQ(stats.max_momentum_error(), 3e-8);
  EXPECT_DOUBLE_EQ(stats.max_complementarity_error(), 5e-7);
  EXPECT_DOUBLE_EQ(stats.max_penetration_m(), 3e-4);
  // Mean over the two steps that had contact, not over all three.
  EXPECT_DOUBLE_EQ(stats.mean_penetration_m(), 2e-4);
  EXPECT_DOUBLE_EQ(stats.mean_step_wall_time_s(), 0.002);
  EXPECT_DOUBLE_EQ(stats.total_step_wall_time_s(), 0.006);
  EXPECT_TRUE(stats.finite());

  stats.Clear();
  EXPECT_EQ(stats.num_steps(), 0);
  EXPECT_EQ(stats.max_iterations(), 0);
}

TEST(RunStatisticsTest, NcpResidualMaximumAndMeanOverContactSteps) {
  RunStatistics stats;
  StepStats free = MakeStats(1, 0, 0, 0, 0, 0.001);
  StepStats a = MakeStats(3, 2, 0, 0, 1e-4, 0.001);
  a.ncp_residual = 1e-6;
  StepStats b = MakeStats(3, 2, 0, 0, 1e-4, 0.001);
  b.ncp_residual = 3e-6;
  for (const StepStats& s : {free, a, b}) stats.Add(s);
  EXPECT_DOUBLE_EQ(stats.max_ncp_residual(), 3e-6);
  // Mean over the two steps with contact, as for the penetration.
  EXPECT_DOUBLE_EQ(stats.mean_ncp_residual(), 2e-6);
  StepStats bad = a;
  bad.ncp_residual = kNaN;
  stats.Add(bad);
  EXPECT_FALSE(stats.finite());
}

TEST(RunStatisticsTest, NmdpStatistics) {
  RunStatistics stats;
  // Two NMDP steps, one subdivided twice (δt/4), and a θ-method step, whose
  // smallest_dt_s of 0 means "none" and must not become the minimum.
  StepStats a = MakeStats(3, 1, 0, 0, 0, 0.001);
  a.qp_iterations = 10;
  a.smallest_dt_s = 0.01;
  StepStats b = a;
  b.qp_iterations = 30;
  b.subdivisions = 2;
  b.smallest_dt_s = 0.0025;
  const StepStats theta = MakeStats(3, 1, 0, 0, 0, 0.001);
  for (const StepStats& s : {a, theta, b}) stats.Add(s);
  EXPECT_DOUBLE_EQ(stats.mean_qp_iterations(), 40.0 / 3.0);
  EXPECT_EQ(stats.max_qp_iterations(), 30);
  EXPECT_EQ(stats.subdivided_steps(), 1);
  EXPECT_EQ(stats.max_subdivisions(), 2);
  EXPECT_EQ(stats.smallest_dt_s(), 0.0025);
  EXPECT_TRUE(stats.finite());
  const nlohmann::json j = MakeReportJson(MakeRun(), stats);
  EXPECT_EQ(j["stats"]["max_qp_iterations"], 30);
  EXPECT_EQ(j["stats"]["subdivided_steps"], 1);
  EXPECT_EQ(j["stats"]["max_subdivisions"], 2);
  EXPECT_EQ(j["stats"]["smallest_dt_s"], 0.0025);
  // Only θ-method steps: no substep was reported.
  RunStatistics none;
  none.Add(theta);
  EXPECT_EQ(none.smallest_dt_s(), 0.0);
  // A NaN substep wins and makes the run not finite, whichever order.
  StepStats bad = a;
  bad.smallest_dt_s = kNaN;
  RunStatistics nan_first, nan_last;
  nan_first.Add(bad);
  nan_first.Add(a);
  nan_last.Add(a);
  nan_last.Add(bad);
  EXPECT_TRUE(std::isnan(nan_first.smallest_dt_s()));
  EXPECT_TRUE(std::isnan(nan_last.smallest_dt_s()));
  EXPECT_FALSE(nan_last.finite());
}

TEST(RunStatisticsTest, NaNPropagatesWhicheverOrder) {
  RunStatistics nan_first, nan_last;
  nan_first.Add(MakeStats(1, 1, kNaN, 0, 0, 0));
  nan_first.Add(MakeStats(1, 1, 1.0, 0, 0, 0));
  nan_last.Add(MakeStats(1, 1, 1.0, 0, 0, 0));
  nan_last.Add(MakeStats(1, 1, kNaN, 0, 0, 0));
  EXPECT_TRUE(std::isnan(nan_first.max_momentum_error()));
  EXPECT_TRUE(std::isnan(nan_last.max_momentum_error()));
  EXPECT_FALSE(nan_first.finite());
  EXPECT_FALSE(nan_last.finite());
}

TEST(ReportJsonTest, HasEveryKeyWithTheRightType) {
  RunStatistics stats;
  stats.Add(MakeStats(3, 1, 1e-9, 1e-8, 1e-5, 0.001));
  stats.Add(MakeStats(5, 3, 2e-9, 3e-8, 2e-5, 0.001));
  const nlohmann::json j = MakeReportJson(MakeRun(), stats);

  test::ExpectReportShape(j);
  EXPECT_EQ(j["stepping"], "theta_method");
  EXPECT_EQ(j["integrator"]["name"], "implicit_euler");
  EXPECT_EQ(j["integrator"]["theta"], 1.0);
  EXPECT_EQ(j["integrator"]["theta_vq"], 1.0);

  EXPECT_EQ(j["scene"], "assets/scenes/box.yaml");
  EXPECT_EQ(j["dt"], 0.005);
  EXPECT_EQ(j["steps"], 2);
  EXPECT_DOUBLE_EQ(j["realtime_factor"].get<double>(), 5.0);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["finite"], true);
  EXPECT_EQ(j["stats"]["max_iterations"], 5);
  EXPECT_DOUBLE_EQ(j["stats"]["mean_iterations"].get<double>(), 4.0);
  EXPECT_EQ(j["energy"]["final_potential_J"], 9.0);

  ASSERT_TRUE(j["bodies"].is_array());
  ASSERT_EQ(j["bodies"].size(), 2u);
  const nlohmann::json& box = j["bodies"][0];
  EXPECT_EQ(box["name"], "box");
  ASSERT_EQ(box["position"].size(), 3u);
  EXPECT_EQ(box["position"][2], 0.1);
  ASSERT_EQ(box["quaternion"].size(), 4u);
  // w first: a rotation of 0.3 rad about z.
  EXPECT_NEAR(box["quaternion"][0].get<double>(), std::cos(0.15), 1e-15);
  EXPECT_NEAR(box["quaternion"][3].get<double>(), std::sin(0.15), 1e-15);
  EXPECT_EQ(box["linear_velocity"].size(), 3u);
  EXPECT_EQ(box["angular_velocity"][0], -1.0);

  // Round trip through text: what the file holds is valid JSON.
  EXPECT_EQ(nlohmann::json::parse(j.dump(2)), j);
}

TEST(ReportJsonTest, SteppingNamesTheScheme) {
  RunSummary run = MakeRun();
  run.scheme = SteppingScheme::kNmdpZopgm;
  EXPECT_EQ(MakeReportJson(run, RunStatistics())["stepping"], "nmdp_zopgm");
}

TEST(ReportJsonTest, NonFiniteBecomesNullAndFiniteFalse) {
  RunSummary run = MakeRun();
  run.bodies[1].position.z() = kNaN;
  run.energy.final_kinetic_J = kInf;
  RunStatistics stats;
  stats.Add(MakeStats(3, 1, 1e-9, 1e-8, 1e-5, 0.001));
  const nlohmann::json j = MakeReportJson(run, stats);
  EXPECT_EQ(j["finite"], false);
  EXPECT_TRUE(j["bodies"][1]["position"][2].is_null());
  EXPECT_TRUE(j["bodies"][1]["position"][1].is_number());
  EXPECT_TRUE(j["energy"]["final_kinetic_J"].is_null());
  const std::string text = j.dump();
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find("nan"), std::string::npos);
  EXPECT_EQ(text.find("inf"), std::string::npos);
  nlohmann::json parsed;
  EXPECT_NO_THROW(parsed = nlohmann::json::parse(text));
  EXPECT_EQ(parsed, j);
}

TEST(ReportJsonTest, NaNInStatisticsBecomesNull) {
  RunStatistics stats;
  stats.Add(MakeStats(3, 1, kNaN, 1e-8, 1e-5, 0.001));
  const nlohmann::json j = MakeReportJson(MakeRun(), stats);
  EXPECT_EQ(j["finite"], false);
  EXPECT_TRUE(j["stats"]["max_momentum_error"].is_null());
  EXPECT_TRUE(j["stats"]["max_complementarity_error"].is_number());
  EXPECT_TRUE(j["stats"]["max_ncp_residual"].is_number());
  EXPECT_TRUE(j["stats"]["mean_ncp_residual"].is_number());
}

TEST(ReportJsonTest, FailedRunsSayWhy) {
  RunSummary run = MakeRun();
  run.status = StepStatus::kNonFinite;
  run.error = "v is not finite";
  nlohmann::json j = MakeReportJson(run, RunStatistics());
  EXPECT_EQ(j["status"], "non_finite");
  EXPECT_EQ(j["error"], "v is not finite");
  EXPECT_EQ(j["finite"], false);  // Even though every number written is finite.

  run.status = StepStatus::kSolverFailed;
  run.error = "SAP did not converge in 100 iterations";
  j = MakeReportJson(run, RunStatistics());
  EXPECT_EQ(j["status"], "solver_failed");
  EXPECT_EQ(j["error"], "SAP did not converge in 100 iterations");
  EXPECT_EQ(j["finite"], true);
}

TEST(ReportJsonTest, ZeroWallTimeGivesZeroRealtimeFactor) {
  RunSummary run = MakeRun();
  run.wall_time_s = 0;
  const nlohmann::json j = MakeReportJson(run, RunStatistics());
  EXPECT_EQ(j["realtime_factor"], 0.0);
  EXPECT_EQ(j["finite"], true);
}

TEST(ReportJsonTest, WriteJsonFileRoundTripsAndNamesUnwritablePaths) {
  const std::filesystem::path path =
      stiction::test::TempPath("stiction_report_writer_test_" +
                               std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".json");
  const nlohmann::json j = MakeReportJson(MakeRun(), RunStatistics());
  WriteJsonFile(path.string(), j);
  std::ifstream in(path);
  EXPECT_EQ(nlohmann::json::parse(in), j);
  std::filesystem::remove(path);

  const std::string bad = "/nonexistent-dir-stiction/report.json";
  try {
    WriteJsonFile(bad, j);
    FAIL() << "expected OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CsvWriterTest, HeaderAndRows) {
  std::ostringstream out;
  CsvWriter csv(out, {"box", "ball"});
  const std::vector<BodyState> bodies = {MakeBody("box", 0.1), MakeBody("ball", 0.5)};
  csv.WriteRow(0.0, StepStats{}, 0.5, 9.81, bodies);
  csv.WriteRow(0.01, MakeStats(3, 2, 1e-9, 2e-8, 1e-5, 0.001), 0.25, 9.0, bodies);
  csv.WriteRow(0.02, MakeStats(4, 2, 1e-9, 2e-8, 1e-5, 0.001), 0.25, 9.0, bodies);
  EXPECT_EQ(csv.rows_written(), 3);

  const std::vector<std::string> lines = SplitLines(out.str());
  ASSERT_EQ(lines.size(), 4u);  // Header + 3 rows.
  EXPECT_EQ(lines[0],
            "t,iterations,line_search_iterations,contacts,momentum_error,complementarity_error,"
            "ncp_residual,budget_hit,max_penetration_m,step_wall_time_s,kinetic_energy_J,potential_energy_J,"
            "qp_iterations,subdivisions,smallest_dt_s,sleeping_bodies,"
            "box.x,box.y,box.z,box.qw,box.qx,box.qy,box.qz,"
            "ball.x,ball.y,ball.z,ball.qw,ball.qx,ball.qy,ball.qz");
  const std::size_t num_columns = 16 + 2 * 7;
  for (const std::string& line : lines) {
    EXPECT_EQ(static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1,
              num_columns)
        << line;
  }
  EXPECT_EQ(lines[1].substr(0, 24), "0,0,0,0,0,0,0,0,0,0,0.5,");
  EXPECT_EQ(lines[2].substr(0, 17), "0.01,3,6,2,1e-09,");
  // Numbers round-trip exactly.
  const std::string qw = FormatRoundTrip(bodies[0].orientation.w());
  EXPECT_EQ(std::stod(qw), bodies[0].orientation.w());
}

TEST(CsvWriterTest, NmdpStatisticsFollowThePerStepColumns) {
  std::ostringstream out;
  CsvWriter csv(out, {"box"});
  StepStats s = MakeStats(7, 1, 0, 0, 0, 0.001);
  s.scheme = SteppingScheme::kNmdpPgm;
  s.qp_iterations = 42;
  s.subdivisions = 2;
  s.smallest_dt_s = 0.0025;
  csv.WriteRow(0.01, s, 0.25, 9.0, {MakeBody("box", 0.1)});
  const std::vector<std::string> lines = SplitLines(out.str());
  ASSERT_EQ(lines.size(), 2u);
  // ..., kinetic_energy_J, potential_energy_J, qp_iterations, subdivisions,
  // smallest_dt_s, sleeping_bodies, then the body.
  EXPECT_NE(lines[1].find(",0.25,9,42,2,0.0025,0,1,-2,0.1,"), std::string::npos) << lines[1];
}

TEST(CsvWriterTest, NonFiniteAndQuotedNames) {
  std::ostringstream out;
  CsvWriter csv(out, {"a,b"});
  BodyState b = MakeBody("a,b", kNaN);
  csv.WriteRow(0.0, MakeStats(1, 0, kInf, -kInf, 0, 0), 0, 0, {b});
  const std::vector<std::string> lines = SplitLines(out.str());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("\"a,b.x\""), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(",inf,-inf,"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find(",nan,"), std::string::npos) << lines[1];
}

TEST(CsvWriterTest, RejectsRowsThatDoNotMatchTheHeader) {
  std::ostringstream out;
  CsvWriter csv(out, {"box"});
  EXPECT_THROW(csv.WriteRow(0.0, StepStats{}, 0, 0, {}), std::logic_error);
}

}  // namespace
}  // namespace stiction::cli
