// Determinism as a guarantee (docs/determinism.md): for every shipped scene,
// runs of the real stiction-sim in separate processes give bit-identical
// results, with parallel islands off and on (two threads). The scenes are
// enumerated at test time, so a new scene is covered without editing this
// file.
//
// What is compared: a 64-bit FNV-1a hash of the JSON report without the
// fields that measure wall-clock time or echo the command line, and of the
// per-step CSV trace without its wall-clock column. Stripped, exactly (see
// cli/report_writer.cpp, MakeReportJson and CsvWriter):
//   report: load_wall_time_s, wall_time_s, realtime_factor (wall clock),
//           stats.mean_step_wall_time_s, stats.time_split_s (wall clock),
//           overrides (the --set list: the parallel run passes its flags);
//   CSV:    step_wall_time_s.
// Everything else (final poses and velocities to the last bit as shortest
// round-trip decimals, energies, iteration and contact counts, e_m, e_mu,
// penetration, every body's pose at every step) must be equal.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/scene/scene_loader.h"
#include "tests/app/run_command.h"
#include "tests/support/scratch_dir.h"

namespace stiction::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kScenesDir = fs::path(STICTION_SOURCE_DIR) / "assets" / "scenes";

// Simulated time per run [s]: the scene's duration, at most this. 1 s
// covers the first impacts of the dropping scenes and keeps the whole test
// (37 scenes x 3 processes, 4 x 2 SubADMM runs) near half a minute.
constexpr double kMaxDuration = 1.0;

// Every solver's island flags: two threads whenever the solver splits its
// problem into islands, whatever the size (parallel_min_velocities 0). The
// scene's own `islands` setting decides whether there are islands (SAP: on
// by default; CANAL, SubADMM: off).
const std::vector<std::string> kParallelIslands = {
    "--set", "solver.parallel_islands=true",         "--set", "solver.parallel_min_velocities=0",
    "--set", "solver.canal.parallel_islands=true",   "--set", "solver.canal.parallel_min_velocities=0",
    "--set", "solver.subadmm.parallel_islands=true", "--set", "solver.subadmm.parallel_min_velocities=0"};

std::vector<std::string> ShippedScenes() {
  std::vector<std::string> scenes;
  for (const fs::directory_entry& e : fs::directory_iterator(kScenesDir)) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") scenes.push_back(e.path().stem().string());
  }
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class Fnv1a {
 public:
  void Add(const std::string& text) {
    for (const char c : text) {
      digest_ ^= static_cast<unsigned char>(c);
      digest_ *= 1099511628211ull;
    }
  }
  std::string Hex() const {
    std::ostringstream hex;
    hex << std::hex << std::setw(16) << std::setfill('0') << digest_;
    return hex.str();
  }

 private:
  std::uint64_t digest_ = 14695981039346656037ull;
};

struct RunResult {
  int exit_code = -1;
  std::string output;  // What the process printed (for failure messages).
  std::string hash;
  json report;         // Stripped.
};

// One stiction-sim process; the hash of its stripped report and CSV.
RunResult RunSim(const std::string& scene, double duration, const std::vector<std::string>& extra,
              const std::string& tag) {
  const fs::path work = test::TempPath("stiction_determinism_" + std::to_string(::getpid()));
  fs::create_directories(work);
  const fs::path report = work / (scene + "_" + tag + ".json");
  const fs::path csv = work / (scene + "_" + tag + ".csv");
  std::vector<std::string> words = {STICTION_SIM_EXE, (kScenesDir / (scene + ".yaml")).string(), "--quiet",
                                    "--duration", std::to_string(duration), "--report", report.string(),
                                    "--csv", csv.string()};
  words.insert(words.end(), extra.begin(), extra.end());
  std::string command;
  for (const std::string& w : words) command += "'" + w + "' ";
  RunResult r;
  r.exit_code = RunCommand(command, &r.output);

  Fnv1a hash;
  json j = json::parse(ReadFile(report), nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) {
    for (const char* key : {"load_wall_time_s", "wall_time_s", "realtime_factor", "overrides"}) j.erase(key);
    if (j.contains("stats")) {
      j["stats"].erase("mean_step_wall_time_s");
      j["stats"].erase("time_split_s");
    }
    hash.Add(j.dump());
    r.report = j;
  }
  std::stringstream lines(ReadFile(csv));
  std::string line;
  int wall_column = -1;
  for (int row = 0; std::getline(lines, line); ++row) {
    std::stringstream fields(line);
    std::string field;
    for (int i = 0; std::getline(fields, field, ','); ++i) {
      if (row == 0 && field == "step_wall_time_s") wall_column = i;
      if (i != wall_column) hash.Add(field + ",");
    }
    hash.Add("\n");
  }
  r.hash = hash.Hex();
  fs::remove(report);
  fs::remove(csv);
  return r;
}

double RunDuration(const std::string& scene) {
  return std::min(kMaxDuration, LoadSceneFile((kScenesDir / (scene + ".yaml")).string()).duration);
}

class DeterminismTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DeterminismTest, SeparateProcessesAndParallelIslandsAreBitIdentical) {
  const std::string& scene = GetParam();
  const double duration = RunDuration(scene);
  const RunResult a = RunSim(scene, duration, {}, "plain_a");
  const RunResult b = RunSim(scene, duration, {}, "plain_b");
  const RunResult p = RunSim(scene, duration, kParallelIslands, "parallel");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_FALSE(a.report.is_null()) << "no report: " << a.output;
  // A run that reached its end (a truncated run could agree trivially).
  EXPECT_EQ(a.report.value("status", ""), "ok");
  EXPECT_GE(a.report.value("steps", 0), 1);
  std::cout << scene << ": " << duration << " s, " << a.report.value("steps", 0) << " steps, hash " << a.hash
            << "\n";
  EXPECT_EQ(a.hash, b.hash) << "two plain runs differ";
  EXPECT_EQ(p.exit_code, 0) << p.output;
  EXPECT_EQ(a.hash, p.hash) << "parallel islands (two threads) differ from one thread";
  if (a.hash != p.hash) {
    for (const auto& [key, value] : a.report.items()) {
      if (p.report[key] != value) ADD_FAILURE() << "report key '" << key << "' differs";
    }
  }
}

std::string SceneName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(ShippedScenes, DeterminismTest, ::testing::ValuesIn(ShippedScenes()), SceneName);

// SubADMM's per-tree updates on one and on two threads (num_threads):
// each tree's update writes only its own slice and the sums over trees are
// taken in tree order afterwards, so the thread count must not change a bit
// (docs/determinism.md). Scenes with many trees, so that two threads share
// real work.
class SubAdmmThreadsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SubAdmmThreadsTest, OneAndTwoThreadsAreBitIdentical) {
  const std::string& scene = GetParam();
  const double duration = RunDuration(scene);
  const RunResult one = RunSim(scene, duration, {"--solver", "subadmm", "--set", "solver.subadmm.num_threads=1"}, "t1");
  const RunResult two = RunSim(scene, duration, {"--solver", "subadmm", "--set", "solver.subadmm.num_threads=2"}, "t2");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  ASSERT_EQ(two.exit_code, 0) << two.output;
  std::cout << scene << " (subadmm): hash " << one.hash << " on 1 thread, " << two.hash << " on 2\n";
  EXPECT_EQ(one.hash, two.hash);
}

INSTANTIATE_TEST_SUITE_P(ManyTrees, SubAdmmThreadsTest,
                         ::testing::Values("clutter", "quadrupeds8", "grasp_hold", "stack10"), SceneName);

}  // namespace
}  // namespace stiction::test
