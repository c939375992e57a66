// The stiction-sim command line: option parsing, progress formatting and step
// counting in-process; then the real executable on every shipped scene and on
// bad input (exit codes, one-line errors, report contents).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/report_shape.h"
#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"
#include "cli/progress_bar.h"
#include "engine/common/error.h"
#include "engine/parameters/parameter_reference.h"
#include "engine/scene/scene_loader.h"
#include "tests/support/scratch_dir.h"

namespace stiction::cli {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = STICTION_SOURCE_DIR;
const fs::path kScenesDir = kSourceDir / "assets" / "scenes";

std::size_t CountLines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// ---------------------------------------------------------------------------
// In-process: parsing.

ParseResult Parse(const std::vector<std::string>& args, std::string* out_text = nullptr,
                  std::string* err_text = nullptr) {
  std::ostringstream out, err;
  ParseResult result = ParseCommandLine(args, out, err);
  if (out_text) *out_text = out.str();
  if (err_text) *err_text = err.str();
  return result;
}

TEST(ParseCommandLineTest, DefaultsAndSugarOrder) {
  const ParseResult r = Parse({"--set", "gravity=[0,0,-1]", "--solver", "sap", "--dt", "0.002",
                               "--integrator", "implicit_euler", "--set", "duration=3", "--stepping",
                               "nmdp_pgm", "scene.yaml"});
  ASSERT_TRUE(r.options.has_value());
  EXPECT_EQ(r.options->scene_path, "scene.yaml");
  EXPECT_FALSE(r.options->duration_s.has_value());
  EXPECT_EQ(r.options->csv_every, 1);
  EXPECT_FALSE(r.options->quiet);
  // --set entries in order, then the sugar in a fixed order so it wins.
  const std::vector<std::string> expected = {"gravity=[0,0,-1]", "duration=3",        "time_step=0.002",
                                             "stepping=nmdp_pgm", "integrator=implicit_euler", "solver.type=sap"};
  EXPECT_EQ(r.options->overrides, expected);
}

TEST(ParseCommandLineTest, ListPrintsTheParameterReferenceAndExitsWithoutAScene) {
  std::string out, err;
  const ParseResult r = Parse({"--list"}, &out, &err);
  EXPECT_FALSE(r.options.has_value());
  EXPECT_EQ(r.exit_code, kExitOk);
  EXPECT_EQ(out, ParameterReferenceMarkdown());  // Nothing else: the output is the docs' section.
  EXPECT_TRUE(err.empty()) << err;
}

TEST(ParseCommandLineTest, SetTakesOneValueSoTheSceneMayFollow) {
  const ParseResult r = Parse({"--set", "a=1", "scene.yaml", "--quiet"});
  ASSERT_TRUE(r.options.has_value());
  EXPECT_EQ(r.options->scene_path, "scene.yaml");
  EXPECT_EQ(r.options->overrides, std::vector<std::string>{"a=1"});
}

TEST(ParseCommandLineTest, AllOptions) {
  const ParseResult r = Parse({"scene.yaml", "--duration", "2.5", "--report", "r.json", "--csv",
                               "t.csv", "--csv-every", "10", "--quiet"});
  ASSERT_TRUE(r.options.has_value());
  EXPECT_EQ(*r.options->duration_s, 2.5);
  EXPECT_EQ(r.options->report_path, "r.json");
  EXPECT_EQ(r.options->csv_path, "t.csv");
  EXPECT_EQ(r.options->csv_every, 10);
  EXPECT_TRUE(r.options->quiet);
  EXPECT_TRUE(r.options->overrides.empty());
}

TEST(ParseCommandLineTest, SugarValuesReachTheLoaderVerbatim) {
  // The loader, not the CLI, judges these, so its messages are the ones shown.
  const ParseResult r = Parse({"scene.yaml", "--dt=-1", "--integrator", "bogus"});
  ASSERT_TRUE(r.options.has_value());
  const std::vector<std::string> expected = {"time_step=-1", "integrator=bogus"};
  EXPECT_EQ(r.options->overrides, expected);
}

TEST(ParseCommandLineTest, BadDurationIsOneLineExitTwo) {
  for (const char* bad : {"0", "-1", "nan", "inf", "abc", "1s"}) {
    std::string err;
    const ParseResult r = Parse({"scene.yaml", std::string("--duration=") + bad}, nullptr, &err);
    EXPECT_FALSE(r.options.has_value()) << bad;
    EXPECT_EQ(r.exit_code, kExitInputError) << bad;
    EXPECT_EQ(CountLines(err), 1u) << err;
    EXPECT_EQ(err.rfind("stiction-sim: --duration", 0), 0u) << err;
  }
}

TEST(ParseCommandLineTest, UsageErrorsAreOneLineExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {},                                     // No scene.
      {"scene.yaml", "--csv-every", "0"},     // N < 1.
      {"scene.yaml", "--csv-every", "x"},     // Not a number.
      {"scene.yaml", "--no-such-option"},     // Unknown option.
      {"scene.yaml", "--report"},             // Missing value.
  };
  for (const std::vector<std::string>& args : cases) {
    std::string err;
    const ParseResult r = Parse(args, nullptr, &err);
    EXPECT_FALSE(r.options.has_value());
    EXPECT_EQ(r.exit_code, kExitInputError);
    EXPECT_EQ(CountLines(err), 1u) << err;
    EXPECT_EQ(err.rfind("stiction-sim: ", 0), 0u) << err;
  }
}

TEST(ParseCommandLineTest, HelpListsEveryOptionAndExitsZero) {
  std::string out, err;
  const ParseResult r = Parse({"--help"}, &out, &err);
  EXPECT_FALSE(r.options.has_value());
  EXPECT_EQ(r.exit_code, kExitOk);
  EXPECT_TRUE(err.empty());
  for (const char* option : {"--duration", "--dt", "--stepping", "--integrator", "--solver", "--set",
                             "--report", "--csv", "--csv-every", "--replay", "--quiet"}) {
    EXPECT_NE(out.find(option), std::string::npos) << option;
  }
  // --stepping lists the registry, as --solver and --integrator do.
  for (const SteppingSchemeInfo& info : SteppingSchemes()) {
    EXPECT_NE(out.find(std::string(info.name)), std::string::npos) << info.name;
  }
}

TEST(StepsForDurationTest, CoversTheDurationWithoutRoundingUpExactMultiples) {
  EXPECT_EQ(StepsForDuration(0.05, 0.01), 5);   // 0.05 / 0.01 = 5.000000000000001.
  EXPECT_EQ(StepsForDuration(0.05, 0.005), 10);
  EXPECT_EQ(StepsForDuration(1.0, 0.001), 1000);
  EXPECT_EQ(StepsForDuration(0.055, 0.01), 6);  // Last step overshoots.
  EXPECT_EQ(StepsForDuration(1e-6, 0.01), 1);   // At least one step.
  EXPECT_THROW(StepsForDuration(0.0, 0.01), stiction::InputError);
  EXPECT_THROW(StepsForDuration(1.0, 0.0), stiction::InputError);
  EXPECT_THROW(StepsForDuration(1e300, 1e-3), stiction::InputError);
}

TEST(OneLineTest, JoinsLines) {
  EXPECT_EQ(OneLine("a\nb\r\nc\n"), "a; b; c");
  EXPECT_EQ(OneLine("plain"), "plain");
}

// ---------------------------------------------------------------------------
// In-process: progress bar.

TEST(ProgressBarTest, LineFitsTheWidthAndShowsTheFields) {
  const ProgressSample sample{2.1, 5.0, 2100, 4.0};
  const std::string wide = FormatProgressLine(sample, 120);
  EXPECT_LT(wide.size(), 120u);
  EXPECT_EQ(wide.front(), '[');
  EXPECT_NE(wide.find("42.0%"), std::string::npos) << wide;
  EXPECT_NE(wide.find("t 2.100/5.000 s"), std::string::npos) << wide;
  EXPECT_NE(wide.find("525 steps/s"), std::string::npos) << wide;
  EXPECT_NE(wide.find("0.53x real time"), std::string::npos) << wide;
  EXPECT_NE(wide.find("ETA 0:06"), std::string::npos) << wide;  // 2.9 s left at 0.525x.
  for (int width : {10, 20, 40, 60, 80}) {
    EXPECT_LT(FormatProgressLine(sample, width).size(), static_cast<std::size_t>(width))
        << width;
  }
  EXPECT_EQ(FormatEta(3725), "1:02:05");
  EXPECT_EQ(FormatEta(-1), "--:--");
}

TEST(ProgressBarTest, DisabledNeverWrites) {
  std::ostringstream out;
  {
    ProgressBar bar(out, /*enabled=*/false, -1, /*min_expected_wall_s=*/0.0,
                    /*redraw_interval_s=*/0.0);
    for (int i = 1; i <= 100; ++i) bar.Update(0.01 * i, 1.0, i);
    EXPECT_FALSE(bar.drawn());
  }
  EXPECT_TRUE(out.str().empty());
}

TEST(ProgressBarTest, ShortRunsAreNotDrawn) {
  std::ostringstream out;
  {
    // Expected to take far less than the (huge) threshold.
    ProgressBar bar(out, true, -1, /*min_expected_wall_s=*/1e6, /*redraw_interval_s=*/0.0);
    for (int i = 1; i <= 100; ++i) bar.Update(0.01 * i, 1.0, i);
    EXPECT_FALSE(bar.active());
  }
  EXPECT_TRUE(out.str().empty());
}

TEST(ProgressBarTest, DrawsAndClears) {
  std::ostringstream out;
  ProgressBar bar(out, true, -1, /*min_expected_wall_s=*/0.0, /*redraw_interval_s=*/0.0);
  bar.Update(0.5, 1.0, 50);
  EXPECT_TRUE(bar.drawn());
  EXPECT_NE(out.str().find("50.0%"), std::string::npos) << out.str();
  bar.Clear();
  EXPECT_FALSE(bar.drawn());
  const std::string text = out.str();
  EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K");
}

// ---------------------------------------------------------------------------
// The real executable.

std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> ShippedScenes() {
  std::vector<fs::path> scenes;
  if (!fs::is_directory(kScenesDir)) return scenes;
  for (const fs::directory_entry& entry : fs::directory_iterator(kScenesDir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
      scenes.push_back(entry.path());
    }
  }
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

// Fields of one CSV line; commas inside double quotes do not split.
std::size_t CountCsvFields(const std::string& line) {
  std::size_t fields = 1;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) ++fields;
  }
  return fields;
}

struct SimRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class CliExecutableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = stiction::test::TempPath("stiction_cli_test_" + std::to_string(::getpid()) + "_" +
                                    info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // Runs stiction-sim with `args` (each quoted) and captures everything.
  SimRun RunSim(const std::vector<std::string>& args) const {
    std::string command = Quote(STICTION_SIM_EXE);
    // Appended piecewise: GCC 12 at -O3 warns (-Wrestrict, a false positive,
    // GCC PR 105651) on "literal" + std::string temporaries.
    for (const std::string& arg : args) {
      command += ' ';
      command += Quote(arg);
    }
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    command += " >";
    command += Quote(out.string());
    command += " 2>";
    command += Quote(err.string());
    command += " </dev/null";
    const int status = std::system(command.c_str());
    SimRun run;
    run.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    run.out = ReadFile(out);
    run.err = ReadFile(err);
    return run;
  }

  // A shipped scene to run the option tests on: demo.yaml when present.
  static fs::path SomeScene() {
    const fs::path demo = kScenesDir / "demo.yaml";
    if (fs::exists(demo)) return demo;
    const std::vector<fs::path> scenes = ShippedScenes();
    return scenes.empty() ? fs::path() : scenes.front();
  }

  fs::path dir_;
};


TEST_F(CliExecutableTest, EveryShippedSceneRunsAndReports) {
  const std::vector<fs::path> scenes = ShippedScenes();
  ASSERT_FALSE(scenes.empty()) << "no scenes shipped in " << kScenesDir;
  for (const fs::path& scene : scenes) {
    SCOPED_TRACE(scene.string());
    const fs::path report = dir_ / (scene.stem().string() + ".json");
    const fs::path csv = dir_ / (scene.stem().string() + ".csv");
    const SimRun run = RunSim({scene.string(), "--duration", "0.05", "--quiet", "--report",
                            report.string(), "--csv", csv.string()});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(run.out.empty()) << "--quiet printed: " << run.out;
    EXPECT_TRUE(run.err.empty()) << run.err;
    ASSERT_TRUE(fs::exists(report));
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(ReadFile(report)));
    test::ExpectReportShape(j);
    if (HasFatalFailure()) return;
    EXPECT_EQ(j["status"], "ok");
    EXPECT_EQ(j["error"], "");
    EXPECT_EQ(j["finite"], true);
    EXPECT_EQ(j["scene"], scene.string());

    const SceneDescription description = LoadSceneFile(scene.string());
    EXPECT_EQ(j["stepping"], SteppingSchemeName(description.scheme));
    EXPECT_EQ(j["bodies"].size(), description.bodies.size());
    for (std::size_t i = 0; i < j["bodies"].size(); ++i) {
      const std::string name = j["bodies"][i]["name"];
      const bool known = std::any_of(description.bodies.begin(), description.bodies.end(),
                                     [&](const BodyDescription& b) { return b.name == name; });
      EXPECT_TRUE(known) << name;
    }
    const double dt = j["dt"];
    EXPECT_EQ(dt, description.time_step);
    const std::int64_t steps = j["steps"];
    EXPECT_EQ(steps, StepsForDuration(0.05, dt));
    EXPECT_NEAR(j["sim_time_s"].get<double>(), static_cast<double>(steps) * dt, 1e-9);

    // CSV: header + the t = 0 row + one row per step.
    const std::string text = ReadFile(csv);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(CountLines(text), static_cast<std::size_t>(steps) + 2);
    const std::string header = text.substr(0, text.find('\n'));
    EXPECT_EQ(header.rfind("t,iterations,line_search_iterations,contacts,", 0), 0u) << header;
    EXPECT_EQ(CountCsvFields(header), 16 + 7 * description.bodies.size()) << header.substr(0, 300);
    const std::string first_row = text.substr(header.size() + 1, 8);
    EXPECT_EQ(first_row, "0,0,0,0,") << "the first row is t = 0 with zero stats";
  }
}

TEST_F(CliExecutableTest, SummaryOnStdoutUnlessQuiet) {
  const fs::path scene = SomeScene();
  ASSERT_FALSE(scene.empty()) << "no scenes shipped in " << kScenesDir;
  const SimRun run = RunSim({scene.string(), "--duration", "0.02"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.err.empty()) << "not a tty: no progress bar expected, got " << run.err;
  for (const char* word : {"scene", "stepping", "integrator", "solver", "dt", "steps", "sim time",
                           "wall time", "real-time", "iterations", "finite"}) {
    EXPECT_NE(run.out.find(word), std::string::npos) << word << " missing in\n" << run.out;
  }
}

TEST_F(CliExecutableTest, SolverOptionRunsCanalAndSubAdmmAndReportsTheirStatistics) {
  const std::string scene = (kScenesDir / "box_resting.yaml").string();
  for (const char* solver : {"canal", "subadmm"}) {
    SCOPED_TRACE(solver);
    const fs::path report = dir_ / (std::string(solver) + ".json");
    const SimRun run = RunSim({scene, "--duration", "0.05", "--solver", solver, "--report", report.string()});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("AL"), std::string::npos) << run.out;
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(ReadFile(report)));
    EXPECT_EQ(j["solver"], solver);
    // The box rests on the ground from the first step: every step has
    // contact and runs at least one AL iteration.
    EXPECT_GE(j["stats"]["mean_outer_iterations"].get<double>(), 1.0);
    EXPECT_EQ(j["stats"]["unconverged_steps"], 0);
  }
  const SimRun bad = RunSim({scene, "--solver", "lemke"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown solver 'lemke'"), std::string::npos) << bad.err;
}

TEST_F(CliExecutableTest, SplitRecoveryIsSummarizedAndReported) {
  // box_resting.yaml's box started 5 mm into the ground under CANAL with
  // recovery in positions: every step corrects it, the largest correction
  // is the first, r d = 0.2 × 5 mm = 1 mm (SplitRecoveryTest checks the
  // physics), and the summary's row is readable.
  const std::string scene = (kScenesDir / "box_resting.yaml").string();
  const fs::path report = dir_ / "split.json";
  const SimRun run = RunSim({scene, "--duration", "0.05", "--solver", "canal", "--set",
                             "bodies.box.pose.position=[0,0,0.045]", "--set", "solver.canal.split_recovery=true",
                             "--report", report.string()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("  recovery      5 steps with positions corrected (impact arrival, split_recovery), at most 1 mm"),
            std::string::npos)
      << run.out;
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(ReadFile(report)));
  EXPECT_EQ(j["stats"]["position_corrected_steps"], 5);
  EXPECT_NEAR(j["stats"]["max_position_correction_m"].get<double>(), 1e-3, 1e-8);
}

TEST_F(CliExecutableTest, SolverOptionRunsPgsInBothFormulations) {
  // A box at rest: PGS reports its sweeps as iterations and no AL line; the
  // exact formulation meets the NCP far better than the regularized one,
  // which is SAP's model. (The four corner contacts of one box are
  // statically indeterminate: PGS may end a few steps at its sweep cap
  // while the NCP residual is already small.)
  const std::string scene = (kScenesDir / "box_resting.yaml").string();
  double residual[2] = {0, 0};
  for (const bool regularized : {false, true}) {
    SCOPED_TRACE(regularized ? "regularized" : "exact");
    const fs::path report = dir_ / (regularized ? "pgs_reg.json" : "pgs.json");
    const SimRun run = RunSim({scene, "--duration", "0.05", "--solver", "pgs", "--set",
                               std::string("solver.pgs.regularized=") + (regularized ? "true" : "false"),
                               "--report", report.string()});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out.find("AL "), std::string::npos) << run.out;
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(ReadFile(report)));
    EXPECT_EQ(j["solver"], "pgs");
    EXPECT_GE(j["stats"]["mean_iterations"].get<double>(), 1.0);
    residual[regularized] = j["stats"]["max_ncp_residual"].get<double>();
  }
  EXPECT_LT(residual[0], 1e-6);
  EXPECT_LT(residual[0], 1e-3 * residual[1]);
}

TEST_F(CliExecutableTest, ATimeBudgetIsReportedPerStepAndInTheSummary) {
  // One nanosecond per step: PGS meets it after its first sweep of the
  // first contact step, whose impulses start from zero, so that step stops
  // short and says so; the run goes on (exit 0).
  const std::string scene = (kScenesDir / "box_resting.yaml").string();
  const fs::path report = dir_ / "budget.json", csv = dir_ / "budget.csv";
  const SimRun run = RunSim({scene, "--duration", "0.05", "--solver", "pgs", "--set", "solver.budget_ms=1e-6",
                             "--report", report.string(), "--csv", csv.string()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("at the time budget"), std::string::npos) << run.out;
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(ReadFile(report)));
  const std::int64_t hits = j["stats"]["budget_hit_steps"].get<std::int64_t>();
  EXPECT_GE(hits, 1);
  EXPECT_LE(hits, j["stats"]["unconverged_steps"].get<std::int64_t>());
  // The CSV's budget_hit column: 1 on exactly the steps the report counts.
  std::istringstream text(ReadFile(csv));
  std::string line;
  ASSERT_TRUE(std::getline(text, line));
  const auto fields = [](const std::string& l) {
    std::vector<std::string> out;
    std::istringstream in(l);
    for (std::string f; std::getline(in, f, ',');) out.push_back(f);
    return out;
  };
  const std::vector<std::string> header = fields(line);
  const auto column = std::find(header.begin(), header.end(), "budget_hit") - header.begin();
  ASSERT_LT(column, static_cast<std::ptrdiff_t>(header.size())) << line;
  std::int64_t flagged = 0;
  while (std::getline(text, line)) {
    const std::string value = fields(line).at(column);
    EXPECT_TRUE(value == "0" || value == "1") << value;
    flagged += value == "1";
  }
  EXPECT_EQ(flagged, hits);
}

TEST_F(CliExecutableTest, MissingSceneIsOneLineExitTwo) {
  const std::string path = (dir_ / "no_such_scene.yaml").string();
  const SimRun run = RunSim({path, "--quiet"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(CountLines(run.err), 1u) << run.err;
  EXPECT_EQ(run.err.rfind("stiction-sim: ", 0), 0u) << run.err;
  EXPECT_NE(run.err.find("no_such_scene.yaml"), std::string::npos) << run.err;
  EXPECT_TRUE(run.out.empty());
}

TEST_F(CliExecutableTest, MalformedSceneIsOneLineExitTwo) {
  const fs::path path = dir_ / "malformed.yaml";
  std::ofstream(path) << "time_step: 0.01\nbodies: [\n  - {name: box, mass: 1\n";
  const fs::path report = dir_ / "report.json";
  const SimRun run = RunSim({path.string(), "--quiet", "--report", report.string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(CountLines(run.err), 1u) << run.err;
  EXPECT_EQ(run.err.rfind("stiction-sim: ", 0), 0u) << run.err;
  EXPECT_NE(run.err.find("malformed.yaml"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(report)) << "no report for a scene that did not load";
}

TEST_F(CliExecutableTest, NegativeTimeStepOverrideIsRejected) {
  const fs::path scene = SomeScene();
  ASSERT_FALSE(scene.empty()) << "no scenes shipped in " << kScenesDir;
  for (const std::vector<std::string>& flag : std::vector<std::vector<std::string>>{
           {"--set", "time_step=-1"}, {"--dt=-1"}}) {
    std::vector<std::string> args = {scene.string(), "--quiet"};
    args.insert(args.end(), flag.begin(), flag.end());
    const SimRun run = RunSim(args);
    EXPECT_EQ(run.exit_code, 2) << flag.front();
    EXPECT_EQ(CountLines(run.err), 1u) << run.err;
    EXPECT_NE(run.err.find("time_step"), std::string::npos) << run.err;
  }
}

TEST_F(CliExecutableTest, DtAndIntegratorReachTheReport) {
  const fs::path scene = SomeScene();
  ASSERT_FALSE(scene.empty()) << "no scenes shipped in " << kScenesDir;
  const fs::path report = dir_ / "report.json";
  const SimRun run = RunSim({scene.string(), "--duration", "0.05", "--quiet", "--dt", "0.005",
                          "--integrator", "implicit_euler", "--report", report.string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(report));
  EXPECT_EQ(j["dt"], 0.005);
  EXPECT_EQ(j["steps"], 10);
  EXPECT_EQ(j["integrator"]["name"], "implicit_euler");
  EXPECT_EQ(j["integrator"]["theta"], 1.0);     // [SAP] Sec. II-C: θ = θ_vq = 1.
  EXPECT_EQ(j["integrator"]["theta_vq"], 1.0);
}

TEST_F(CliExecutableTest, ReportSaysWhichContactModelRan) {
  // The conveyor belt's box rests on the belt from the first step: the
  // scene's model (lagged) runs unless overridden scene-wide or per material.
  const fs::path scene = fs::path(kScenesDir) / "conveyor_belt.yaml";
  const fs::path report = dir_ / "report.json";
  for (const auto& [overrides, expected] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, "lagged"},
           {{"--set", "contact_model=similar"}, "similar"},
           {{"--set", "materials.steel.contact_model=sap"}, "sap"}}) {
    std::vector<std::string> args = {scene.string(), "--duration", "0.05", "--quiet", "--report", report.string()};
    args.insert(args.end(), overrides.begin(), overrides.end());
    const SimRun run = RunSim(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const nlohmann::json j = nlohmann::json::parse(ReadFile(report));
    ASSERT_EQ(j["contact_models_used"].size(), 1u) << expected;
    EXPECT_EQ(j["contact_models_used"][0], expected);
  }
}

// What the load changed is said on stderr (unless --quiet) and listed in the
// report: here a collision mesh used through its hull because it is open.
TEST_F(CliExecutableTest, LoadNotesGoToStderrAndTheReport) {
  const fs::path scene = dir_ / "open_mesh.yaml";
  std::ofstream(scene) << "world_geometry:\n  - {name: ground, shape: {type: half_space}}\n"
                          "bodies:\n  - name: cup\n    mass: 1.0\n"
                          "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
                          "    geometry:\n      - shape: {type: mesh, file: "
                       << (kSourceDir / "tests" / "geometry" / "data" / "open_box.obj").string()
                       << "}\n    pose: {position: [0, 0, 0.05]}\n";
  const fs::path report = dir_ / "report.json";
  const SimRun run = RunSim({scene.string(), "--duration", "0.01", "--report", report.string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string note = "open_mesh.yaml:8: mesh '";
  EXPECT_NE(run.err.find("stiction-sim: note: " + dir_.string() + "/" + note), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("is not a closed surface: 4 of 17 edges"), std::string::npos) << run.err;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(report));
  ASSERT_EQ(j["load_notes"].size(), 1u) << j.dump();
  EXPECT_NE(j["load_notes"][0].get<std::string>().find(note), std::string::npos) << j.dump();
  // --quiet: the report only.
  const SimRun quiet = RunSim({scene.string(), "--duration", "0.01", "--quiet", "--report", report.string()});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(nlohmann::json::parse(ReadFile(report))["load_notes"].size(), 1u);
}

TEST_F(CliExecutableTest, CsvEveryWritesEveryNthStep) {
  const fs::path scene = SomeScene();
  ASSERT_FALSE(scene.empty()) << "no scenes shipped in " << kScenesDir;
  const fs::path csv = dir_ / "trace.csv";
  const SimRun run = RunSim({scene.string(), "--quiet", "--dt", "0.01", "--duration", "0.1",
                          "--csv", csv.string(), "--csv-every", "3"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // Header, t = 0, then steps 3, 6, 9 of 10.
  EXPECT_EQ(CountLines(ReadFile(csv)), 5u);
}

TEST_F(CliExecutableTest, UnwritableOutputIsOneLineExitTwo) {
  const fs::path scene = SomeScene();
  ASSERT_FALSE(scene.empty()) << "no scenes shipped in " << kScenesDir;
  for (const char* option : {"--report", "--csv"}) {
    const std::string bad = (dir_ / "missing_dir" / "out.txt").string();
    const SimRun run = RunSim({scene.string(), "--quiet", "--duration", "0.01", option, bad});
    EXPECT_EQ(run.exit_code, 2) << option;
    EXPECT_EQ(CountLines(run.err), 1u) << run.err;
    EXPECT_NE(run.err.find(bad), std::string::npos) << run.err;
  }
}

TEST_F(CliExecutableTest, UnknownIntegratorIsOneLineExitTwo) {
  const fs::path scene = SomeScene();
  ASSERT_FALSE(scene.empty()) << "no scenes shipped in " << kScenesDir;
  const SimRun run = RunSim({scene.string(), "--quiet", "--integrator", "runge_kutta"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(CountLines(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("integrator"), std::string::npos) << run.err;
}

// --stepping reaches the loader as `stepping=NAME` (so a bad name gets the
// scene's message with the valid names), and the report and CSV carry the
// scheme and the NMDP statistics (all zero under the theta-method; no NMDP
// scheme is stepped here).
TEST_F(CliExecutableTest, SteppingOptionAndTheNmdpStatisticsColumns) {
  const std::string scene = (kScenesDir / "box_resting.yaml").string();
  const fs::path report = dir_ / "theta.json", csv = dir_ / "theta.csv";
  const SimRun run = RunSim({scene, "--duration", "0.03", "--stepping", "theta_method", "--report", report.string(),
                             "--csv", csv.string()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("theta_method"), std::string::npos) << run.out;
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(ReadFile(report)));
  EXPECT_EQ(j["stepping"], "theta_method");
  EXPECT_EQ(j["overrides"], nlohmann::json::array({"stepping=theta_method"}));
  EXPECT_EQ(j["stats"]["max_qp_iterations"], 0);
  EXPECT_EQ(j["stats"]["subdivided_steps"], 0);
  EXPECT_EQ(j["stats"]["smallest_dt_s"], 0.0);
  // The NMDP columns follow the existing per-step columns, before the bodies'.
  const std::string text = ReadFile(csv);
  const std::string header = text.substr(0, text.find('\n'));
  EXPECT_NE(header.find(",kinetic_energy_J,potential_energy_J,qp_iterations,subdivisions,smallest_dt_s,sleeping_bodies,"
                        "box.x,"),
            std::string::npos)
      << header;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  int rows = 0;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
    ASSERT_GE(fields.size(), 16u) << line;
    EXPECT_EQ(fields[12], "0") << line;  // qp_iterations
    EXPECT_EQ(fields[13], "0") << line;  // subdivisions
    EXPECT_EQ(fields[14], "0") << line;  // smallest_dt_s
    EXPECT_EQ(fields[15], "0") << line;  // sleeping_bodies
    ++rows;
  }
  EXPECT_EQ(rows, 4);  // t = 0 and three steps.

  const SimRun bad = RunSim({scene, "--quiet", "--stepping", "nmdp"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(CountLines(bad.err), 1u) << bad.err;
  EXPECT_NE(bad.err.find("--set stepping=nmdp: stepping: unknown stepping scheme 'nmdp' (expected one of: "
                         "theta_method, nmdp_pgm, nmdp_zopgm, ne_mdp)"),
            std::string::npos)
      << bad.err;
}

TEST_F(CliExecutableTest, HelpExitsZero) {
  const SimRun run = RunSim({"--help"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("--csv-every"), std::string::npos) << run.out;
}


// Drops CSV column `skip` (0-based) from every line (a column without quotes).
// `text` without the column whose header is `name` (which must exist).
std::string WithoutCsvColumn(const std::string& text, const std::string& name) {
  const std::string header = text.substr(0, text.find('\n'));
  std::size_t skip = 0;
  for (std::size_t start = 0;; ++skip) {
    const std::size_t end = std::min(header.find(',', start), header.size());
    if (header.substr(start, end - start) == name) break;
    if (end == header.size()) {
      ADD_FAILURE() << "no CSV column " << name << " in " << header;
      return text;
    }
    start = end + 1;
  }
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    std::size_t field = 0, start = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      if (i == line.size() || line[i] == ',') {
        if (field != skip) out += line.substr(start, i - start) + ",";
        ++field;
        start = i + 1;
      }
    }
    out += '\n';
  }
  return out;
}

TEST_F(CliExecutableTest, ReplayTwiceGivesIdenticalTrajectories) {
  // Issue 5: the same scene + the same command file + the same settings give
  // bit-identical trajectories headless. Everything but wall times must match.
  const fs::path scene = kScenesDir / "grasp_box.yaml";
  const fs::path commands = kScenesDir / "commands" / "grasp_box.yaml";
  std::string csv_text[2];
  nlohmann::json report[2];
  for (int i = 0; i < 2; ++i) {
    const fs::path csv = dir_ / ("run" + std::to_string(i) + ".csv");
    const fs::path json = dir_ / ("run" + std::to_string(i) + ".json");
    const SimRun run = RunSim({scene.string(), "--replay", commands.string(), "--duration", "3",
                               "--quiet", "--csv", csv.string(), "--report", json.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    csv_text[i] = WithoutCsvColumn(ReadFile(csv), "step_wall_time_s");
    report[i] = nlohmann::json::parse(ReadFile(json));
  }
  EXPECT_EQ(report[0]["commands"], commands.string());
  EXPECT_EQ(csv_text[0], csv_text[1]);
  EXPECT_EQ(report[0]["bodies"], report[1]["bodies"]);
  EXPECT_EQ(report[0]["energy"], report[1]["energy"]);
  // The replay ran: the box was lifted (script: lift 20 cm between 2 and 3 s).
  for (const auto& body : report[0]["bodies"]) {
    if (body["name"] == "box") {
      EXPECT_GT(body["position"][2].get<double>(), 0.2) << body;
    }
  }
}

TEST_F(CliExecutableTest, ATaskScriptForTwoArmsIsDeterministicAcrossProcessesAndReported) {
  // Issue 37, item 2: the scene's own script drives two arms and waits on
  // contact forces; two processes give the same trajectory and the same
  // waits, and the report says where the script resumed.
  const fs::path scene = kScenesDir / "two_arm_stack.yaml";
  std::string csv_text[2];
  nlohmann::json report[2];
  for (int i = 0; i < 2; ++i) {
    const fs::path csv = dir_ / ("task" + std::to_string(i) + ".csv");
    const fs::path json = dir_ / ("task" + std::to_string(i) + ".json");
    const SimRun run = RunSim({scene.string(), "--quiet", "--csv", csv.string(), "--report", json.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    csv_text[i] = WithoutCsvColumn(ReadFile(csv), "step_wall_time_s");
    report[i] = nlohmann::json::parse(ReadFile(json));
  }
  EXPECT_EQ(csv_text[0], csv_text[1]);
  EXPECT_EQ(report[0]["bodies"], report[1]["bodies"]);
  const nlohmann::json& script = report[0]["script"];
  EXPECT_EQ(script, report[1]["script"]);
  EXPECT_EQ(script["finished"], true) << script;
  EXPECT_EQ(script["error"], "");
  ASSERT_EQ(script["waits_passed"].size(), 6u) << script;
  EXPECT_EQ(script["waits_passed"][0]["condition"], "the contact force between left and red_cube above 20 N");
}

TEST_F(CliExecutableTest, AScriptThatTimesOutExitsFourAfterTheRun) {
  const fs::path bad = dir_ / "never.yaml";
  std::ofstream(bad) << "commands:\n  - {wait: {touch: [red_cube, blue_cube]}, timeout: 0.1}\n";
  const fs::path json = dir_ / "never.json";
  const SimRun run = RunSim({(kScenesDir / "two_arm_stack.yaml").string(), "--replay", bad.string(), "--duration",
                             "0.3", "--quiet", "--report", json.string()});
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_EQ(run.err, "stiction-sim: the script failed: " + bad.string() +
                         ":2: commands[0].wait: timed out after 0.1 s at t = 0.1 s waiting for red_cube touching "
                         "blue_cube\n");
  const nlohmann::json report = nlohmann::json::parse(ReadFile(json));
  EXPECT_EQ(report["steps"], 30);  // The run went on to its end.
  EXPECT_EQ(report["script"]["finished"], false);
}

TEST_F(CliExecutableTest, ReplayErrorsAreOneLineExitTwo) {
  const fs::path bad = dir_ / "bad.yaml";
  std::ofstream(bad) << "commands:\n  - {time: 0, grip: shut}\n";
  const SimRun run = RunSim({(kScenesDir / "grasp_box.yaml").string(), "--replay", bad.string(),
                             "--quiet"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "stiction-sim: " + bad.string() +
                         ":2: commands[0].grip: expected open or close, got 'shut'\n");
  const SimRun no_gripper = RunSim({(kScenesDir / "pendulum.yaml").string(), "--replay",
                                    bad.string(), "--quiet"});
  EXPECT_EQ(no_gripper.exit_code, 2);
  EXPECT_NE(no_gripper.err.find("the scene has no gripper"), std::string::npos) << no_gripper.err;
}

TEST_F(CliExecutableTest, ADatasetRunReplaysExactlyAndAWhatIfReplayExitsFive) {
  const fs::path data = dir_ / "demos.hdf5";
  const std::string scene = (kScenesDir / "grasp_box.yaml").string();
  const SimRun record = RunSim({scene, "--duration", "2", "--dataset", data.string()});
  ASSERT_EQ(record.exit_code, 0) << record.err;
  EXPECT_NE(record.err.find("stiction-sim: demo_0 (200 samples, failure, "), std::string::npos) << record.err;
  const SimRun again = RunSim({scene, "--duration", "1", "--quiet", "--outcome", "success", "--dataset", data.string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;

  const SimRun replay = RunSim({"--replay-dataset", data.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("demo_0: 200 steps (2 s) replayed in "), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("all 201 states match bit for bit"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("demo_1: 100 steps"), std::string::npos) << replay.out;

  // The same actions on a box with less friction: the states part where the
  // grip closes (1.4 s) and the box starts to slide.
  const SimRun what_if = RunSim({"--replay-dataset", data.string(), "--demo", "0", "--set",
                                 "materials.box_surface.friction=0.05"});
  EXPECT_EQ(what_if.exit_code, 5) << what_if.err;
  EXPECT_NE(what_if.out.find("demo_0: 200 steps (2 s) replayed in "), std::string::npos) << what_if.out;
  EXPECT_NE(what_if.out.find("states differ from sample "), std::string::npos) << what_if.out;
  EXPECT_EQ(what_if.out.find("demo_1"), std::string::npos) << what_if.out;

  const SimRun missing = RunSim({"--replay-dataset", data.string(), "--demo", "7"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "stiction-sim: " + data.string() + ": no demo_7 (--demo)\n");
  const SimRun outcome = RunSim({scene, "--dataset", data.string(), "--outcome", "maybe"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "stiction-sim: --outcome: expected success or failure, got 'maybe'\n");
  const SimRun no_gripper = RunSim({(kScenesDir / "pendulum.yaml").string(), "--dataset", data.string()});
  EXPECT_EQ(no_gripper.exit_code, 2);
  EXPECT_NE(no_gripper.err.find("the scene has no gripper"), std::string::npos) << no_gripper.err;
}

// A full disk (a 300 KiB tmpfs in a user and mount namespace: `unshare -rm`,
// no real root needed; a missing one is a failure, not a skip): the append
// is refused before anything is written, and the demos already in the file
// stay readable and replayable.
TEST_F(CliExecutableTest, AnAppendToAFullDiskIsRefusedAndLosesNoDemo) {
  const fs::path data = dir_ / "demos.hdf5";
  const std::string scene = (kScenesDir / "grasp_box.yaml").string();
  ASSERT_EQ(RunSim({scene, "--duration", "0.5", "--quiet", "--dataset", data.string()}).exit_code, 0);
  const fs::path mount = dir_ / "full";
  fs::create_directories(mount);
  const fs::path out = dir_ / "full.txt";
  const std::string sim = STICTION_SIM_EXE;
  const std::string inner = "mount -t tmpfs -o size=300k tmpfs " + mount.string() + " && cp " + data.string() + " " +
                            mount.string() + "/d.hdf5 && \"" + sim + "\" " + scene + " --duration 2 --quiet --dataset " +
                            mount.string() + "/d.hdf5; echo append=$?; \"" + sim + "\" --replay-dataset " +
                            mount.string() + "/d.hdf5; echo replay=$?";
  const std::string command = "unshare -rm sh -c '" + inner + "' >" + out.string() + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << ReadFile(out);
  const std::string text = ReadFile(out);
  EXPECT_NE(text.find("stiction-sim: " + mount.string() + "/d.hdf5: not enough disk space: the demo needs about "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("append=2"), std::string::npos) << text;
  EXPECT_NE(text.find("demo_0: 50 steps (0.5 s) replayed in "), std::string::npos) << text;
  EXPECT_NE(text.find("all 51 states match bit for bit"), std::string::npos) << text;
  EXPECT_EQ(text.find("demo_1"), std::string::npos) << text;
  EXPECT_NE(text.find("replay=0"), std::string::npos) << text;
}

}  // namespace
}  // namespace stiction::cli
