// Bit-for-bit regression of the real stiction-sim on every shipped scene.
//
// Each run is the real executable on a scene (with optional overrides); what
// it printed is compared with a golden recorded by an earlier build:
//   * a 64-bit FNV-1a digest of the whole per-step CSV (every column but the
//     wall time), so that one changed bit anywhere in any step fails;
//   * the per-step iteration, line-search iteration and contact counts
//     (run-length encoded), so that a failure says at which step the solver
//     first did something else;
//   * the JSON report's final body states (positions, quaternions,
//     velocities; shortest round-trip decimals, i.e. exact bits), energies,
//     status, error message and statistics, without wall times.
//
// Why bit-identical and not a tolerance: these goldens guard refactors that
// must not change behaviour (moving code between files and libraries,
// renaming, restructuring the step). A change that is meant to change
// results re-records the goldens with scripts/record-goldens.sh and says so
// in its commit. The goldens were recorded on x86-64 (AMD EPYC, with FMA)
// with Debian 12's g++ 12 and glibc; a CPU without FMA may take other libm
// code paths and differ in the last bits.
//
// Recording: STICTION_RECORD_GOLDENS=1 writes the goldens instead of
// comparing (scripts/record-goldens.sh does this for every run).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/app/run_command.h"
#include "tests/support/scratch_dir.h"

namespace stiction::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSourceDir = STICTION_SOURCE_DIR;
const fs::path kScenesDir = kSourceDir / "assets" / "scenes";
const fs::path kGoldenDir = kSourceDir / "tests" / "regression" / "golden";

struct GoldenRun {
  std::string id;                 // File name of the golden (without .json).
  std::string scene;              // File in assets/scenes.
  std::vector<std::string> args;  // Extra stiction-sim arguments.
};

// Every shipped scene for its full duration with its own settings; then the
// same scenes for 1 s with each other solver and contact model, and a few
// scenes with the other integrators and line search, so that every solver,
// constraint family, integrator preset and line search is covered.
// For gtest's messages: the run's id, not its bytes.
void PrintTo(const GoldenRun& run, std::ostream* os) { *os << run.id; }

// Whether a scene steps with an NMDP scheme (`stepping: nmdp_…` or
// `ne_mdp`), which uses no contact solver or contact model: the solver and
// contact-model variants would repeat its own run.
std::string ReadFile(const fs::path& path);

bool SteppedByNmdp(const std::string& scene) {
  const std::string text = ReadFile(kScenesDir / (scene + ".yaml"));
  return text.find("\nstepping: nmdp") != std::string::npos || text.find("\nstepping: ne_mdp") != std::string::npos;
}

std::vector<GoldenRun> AllRuns() {
  std::vector<std::string> scenes;
  for (const fs::directory_entry& e : fs::directory_iterator(kScenesDir)) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") scenes.push_back(e.path().stem().string());
  }
  std::sort(scenes.begin(), scenes.end());
  std::vector<GoldenRun> runs;
  for (const std::string& s : scenes) runs.push_back({s, s, {}});
  const std::vector<std::pair<std::string, std::vector<std::string>>> variants = {
      {"canal", {"--solver", "canal"}},
      {"subadmm", {"--solver", "subadmm"}},
      {"lagged", {"--set", "contact_model=lagged"}},
      {"similar", {"--set", "contact_model=similar"}},
      {"regularized_lagged", {"--set", "contact_model=regularized_lagged"}},
  };
  for (const auto& [name, args] : variants) {
    for (const std::string& s : scenes) {
      if (SteppedByNmdp(s)) continue;
      std::vector<std::string> a = {"--duration", "1"};
      a.insert(a.end(), args.begin(), args.end());
      runs.push_back({s + "__" + name, s, a});
    }
  }
  for (const char* integrator : {"explicit_euler", "symplectic_euler", "implicit_euler"}) {
    for (const char* s : {"pendulum", "double_pendulum", "tumbling_body", "spring_cylinder",
                          "three_link_arm", "box_resting"}) {
      runs.push_back({std::string(s) + "__" + integrator, s, {"--duration", "1", "--integrator", integrator}});
    }
  }
  runs.push_back({"custom_theta__tumbling_body", "tumbling_body",
                  {"--duration", "1", "--set", "integrator={theta: 0.7, theta_vq: 0.6}"}});
  for (const char* s : {"clutter", "incline", "grasp_hold", "stack10"}) {
    runs.push_back({std::string(s) + "__backtracking", s, {"--duration", "1", "--set", "solver.line_search=backtracking"}});
  }
  for (const char* s : {"clutter", "quadrupeds8", "grasp_hold"}) {
    runs.push_back({std::string(s) + "__subadmm_2_threads", s,
                    {"--duration", "1", "--solver", "subadmm", "--set", "solver.subadmm.num_threads=2"}});
  }
  // The NMDP scenes with the other schemes (NMDP-ZOPGM is left to the unit
  // tests: seconds per simulated second here).
  for (const char* s : {"quadruped_jump", "quadruped_walk"}) {
    for (const char* scheme : {"ne_mdp", "theta_method"}) {
      runs.push_back({std::string(s) + "__" + scheme, s, {"--duration", "1", "--stepping", scheme}});
    }
  }
  runs.push_back({"grasp_hold__canal_cold", "grasp_hold",
                  {"--duration", "1", "--solver", "canal", "--set", "solver.canal.warm_start=false"}});
  runs.push_back({"stack10__near_rigid_0_1", "stack10",
                  {"--duration", "2", "--set", "solver.near_rigid_threshold=0.1"}});
  return runs;
}

// Single-quoted for the shell (no quotes occur in the paths and arguments used).
std::string Quote(const std::string& s) {
  std::string out(1, '\'');
  out.append(s);
  out.push_back('\'');
  return out;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> SplitCsvLine(const std::string& line) {
  // The trace's fields never hold commas or quotes except in body names,
  // which the shipped scenes do not use; a plain split is enough here.
  std::vector<std::string> out;
  std::string field;
  std::stringstream in(line);
  while (std::getline(in, field, ',')) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

// [[value, count], ...] for a column of integers.
json RunLengths(const std::vector<std::string>& column) {
  json out = json::array();
  for (const std::string& v : column) {
    const long value = std::stol(v);
    if (!out.empty() && out.back()[0].get<long>() == value) {
      out.back()[1] = out.back()[1].get<long>() + 1;
    } else {
      out.push_back(json::array({value, 1}));
    }
  }
  return out;
}

std::vector<long> Expand(const json& runs) {
  std::vector<long> out;
  for (const json& r : runs) out.insert(out.end(), r[1].get<long>(), r[0].get<long>());
  return out;
}

// What a run printed, reduced to what must not change (see the file comment).
json Record(const GoldenRun& run, const fs::path& work) {
  const fs::path report = work / (run.id + ".json");
  const fs::path csv = work / (run.id + ".csv");
  std::vector<std::string> words = {STICTION_SIM_EXE, (kScenesDir / (run.scene + ".yaml")).string(), "--quiet",
                                    "--report", report.string(), "--csv", csv.string()};
  words.insert(words.end(), run.args.begin(), run.args.end());
  std::string command;
  for (const std::string& w : words) {
    command.append(Quote(w));
    command.push_back(' ');
  }
  std::string output;
  const int exit_code = RunCommand(command, &output);
  json out;
  out["args"] = run.args;
  out["exit_code"] = exit_code;

  std::stringstream lines(ReadFile(csv));
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> header = SplitCsvLine(line);
  int wall = -1, iterations = -1, line_search = -1, contacts = -1;
  for (int i = 0; i < static_cast<int>(header.size()); ++i) {
    if (header[i] == "step_wall_time_s") wall = i;
    if (header[i] == "iterations") iterations = i;
    if (header[i] == "line_search_iterations") line_search = i;
    if (header[i] == "contacts") contacts = i;
  }
  EXPECT_TRUE(wall >= 0 && iterations >= 0 && line_search >= 0 && contacts >= 0)
      << "unexpected CSV header: " << line << "\n" << output;
  std::uint64_t digest = 14695981039346656037ull;  // FNV-1a 64.
  auto hash = [&](const std::string& text) {
    for (const char c : text) {
      digest ^= static_cast<unsigned char>(c);
      digest *= 1099511628211ull;
    }
  };
  auto hash_row = [&](const std::vector<std::string>& fields) {
    for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
      if (i != wall) hash(fields[i] + ",");
    }
    hash("\n");
  };
  hash_row(header);
  std::vector<std::string> it_col, ls_col, contact_col;
  int rows = 0;
  while (std::getline(lines, line)) {
    const std::vector<std::string> f = SplitCsvLine(line);
    hash_row(f);
    ++rows;
    if (static_cast<int>(f.size()) == static_cast<int>(header.size())) {
      it_col.push_back(f[iterations]);
      ls_col.push_back(f[line_search]);
      contact_col.push_back(f[contacts]);
    }
  }
  std::ostringstream hex;
  hex << std::hex << std::setw(16) << std::setfill('0') << digest;
  out["csv_digest"] = hex.str();
  out["csv_rows"] = rows;
  out["iterations"] = RunLengths(it_col);
  out["line_search_iterations"] = RunLengths(ls_col);
  out["contacts"] = RunLengths(contact_col);

  json r = json::parse(ReadFile(report), nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(r.is_discarded()) << "no JSON report for " << run.id << ":\n" << output;
  if (!r.is_discarded()) {
    json kept;
    for (const char* key : {"bodies", "status", "error", "steps", "sim_time_s", "energy", "finite", "solver",
                            "contact_model", "contact_models_used", "integrator", "dt"}) {
      if (r.contains(key)) kept[key] = r[key];
    }
    json stats = r.value("stats", json::object());
    stats.erase("mean_step_wall_time_s");
    stats.erase("time_split_s");
    kept["stats"] = stats;
    out["report"] = kept;
  }
  return out;
}

class SceneGoldenTest : public ::testing::TestWithParam<GoldenRun> {};

TEST_P(SceneGoldenTest, MatchesTheRecordedRunBitForBit) {
  const GoldenRun& run = GetParam();
  const fs::path work = test::TempPath("stiction_golden_" + std::to_string(::getpid()));
  fs::create_directories(work);
  const json now = Record(run, work);
  fs::remove_all(work);
  const fs::path golden_path = kGoldenDir / (run.id + ".json");

  const char* record = std::getenv("STICTION_RECORD_GOLDENS");
  if (record != nullptr && std::string(record) == "1") {
    fs::create_directories(kGoldenDir);
    // One top-level key per line, each value on one line: small files whose
    // diffs show which part of a run changed.
    std::ofstream file(golden_path);
    file << "{\n";
    for (auto it = now.begin(); it != now.end(); ++it) {
      file << " " << json(it.key()).dump() << ": " << it.value().dump() << (std::next(it) == now.end() ? "\n" : ",\n");
    }
    file << "}\n";
    std::cout << "recorded " << golden_path << "\n";
    return;
  }
  ASSERT_TRUE(fs::exists(golden_path))
      << "no golden for run '" << run.id << "' (a new scene?): record it with scripts/record-goldens.sh";
  const json golden = json::parse(ReadFile(golden_path));

  EXPECT_EQ(now["args"], golden["args"]) << "the run's arguments changed: re-record";
  EXPECT_EQ(now["exit_code"], golden["exit_code"]);
  EXPECT_EQ(now["csv_rows"], golden["csv_rows"]);
  // The first step whose counts differ, for a readable failure.
  for (const char* column : {"iterations", "line_search_iterations", "contacts"}) {
    const std::vector<long> a = Expand(now[column]), b = Expand(golden[column]);
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      if (a[i] != b[i]) {
        ADD_FAILURE() << column << " differ first at CSV row " << i + 1 << ": " << a[i] << " now, " << b[i]
                      << " recorded";
        break;
      }
    }
    EXPECT_EQ(a.size(), b.size()) << column;
  }
  for (const auto& [key, value] : golden["report"].items()) {
    EXPECT_EQ(now["report"][key], value) << "report key '" << key << "' differs";
  }
  EXPECT_EQ(now["csv_digest"], golden["csv_digest"]) << "the per-step trace differs in some bit";
}

std::string RunName(const ::testing::TestParamInfo<GoldenRun>& info) {
  std::string name = info.param.id;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(ShippedScenes, SceneGoldenTest, ::testing::ValuesIn(AllRuns()), RunName);

}  // namespace
}  // namespace stiction::test
