// stiction-crossval, the real executable (issue 34): its one line and its
// exit status (0 agrees, 1 disagrees, 2 bad input) on files whose answer is
// known.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

struct CommandRun {
  int status = -1;  ///< Exit status.
  std::string out;  ///< Standard output.
};

CommandRun Crossval(const std::string& args) {
  const std::filesystem::path out = test::FreshTempPath("stiction-crossval-test", "stdout.txt");
  const std::string command = std::string(STICTION_CROSSVAL_EXE) + " " + args + " > " + out.string() + " 2>/dev/null";
  const int status = std::system(command.c_str());
  CommandRun run;
  if (WIFEXITED(status)) run.status = WEXITSTATUS(status);
  std::ifstream in(out);
  std::stringstream s;
  s << in.rdbuf();
  run.out = s.str();
  return run;
}

std::string SourceFile(const std::string& relative) {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/").append(relative);
  return path;
}

/// The number after `key=` in `line` (NaN when absent).
double Figure(const std::string& line, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(line, m, std::regex(key + "=([^ ]+)"))) return std::nan("");
  return std::stod(m[1].str());
}

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = test::FreshTempPath("stiction-crossval-test", name).string();
  std::ofstream(path) << text;
  return path;
}

TEST(StictionCrossvalExecutable, MultijointModelAgreesWithMuJoCo) {
  const std::string file = SourceFile("tests/scene/data/multijoint.xml");
  const CommandRun run = Crossval(file + " --samples 10 --seed 3");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out.rfind(file + " nv=11 max_rel_dM=", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("(10 states)"), std::string::npos) << run.out;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1) << run.out;
  EXPECT_LT(Figure(run.out, "max_rel_dM"), 1e-9) << run.out;
  EXPECT_LT(Figure(run.out, "max_rel_dbias"), 1e-9) << run.out;
}

TEST(StictionCrossvalExecutable, MalformedFileIsBadInput) {
  const std::string file = Write("malformed.xml", "<mujoco><worldbody><body name=\"b\"></worldbody></mujoco>\n");
  const CommandRun run = Crossval(file);
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_EQ(run.out.rfind(file + ": refused by MuJoCo: ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("XML parse error"), std::string::npos) << run.out;
}

TEST(StictionCrossvalExecutable, FileOnlyStictionRefusesIsBadInput) {
  // MuJoCo compiles it; Stiction's importer refuses the body named like the
  // joint frame it would make between b's two joints.
  const std::string file = Write("frame_name_taken.xml", R"(<mujoco>
  <worldbody>
    <body name="b">
      <joint name="j1" type="hinge"/>
      <joint name="j2" type="hinge" axis="1 0 0"/>
      <geom type="sphere" size="0.1"/>
      <body name="b [j1]" pos="0 0 -0.3">
        <joint name="j3" type="hinge"/>
        <geom type="sphere" size="0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
  const CommandRun run = Crossval(file);
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_EQ(run.out.rfind(file + ": refused by Stiction: ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("is taken by another body"), std::string::npos) << run.out;
}

TEST(StictionCrossvalExecutable, OwnInertiasDisagreeByMuJoCosDiagonalization) {
  // The quadruped's tensors have products of inertia, which MuJoCo's
  // compiler diagonalizes with a loss of ~1e-7 of a body's largest entry:
  // on Stiction's own import M differs by more than 1e-9 (exit 1, measured
  // 3.9e-8), on MuJoCo's compiled inertias by round-off (exit 0).
  const std::string file = SourceFile("assets/robots/quadruped.urdf");
  const CommandRun own = Crossval(file + " --own-inertias");
  EXPECT_EQ(own.status, 1) << own.out;
  EXPECT_GT(Figure(own.out, "max_rel_dM"), 1e-9) << own.out;
  EXPECT_LT(Figure(own.out, "max_rel_dM"), 1e-6) << own.out;
  const CommandRun compiled = Crossval(file);
  EXPECT_EQ(compiled.status, 0) << compiled.out;
  EXPECT_LT(Figure(compiled.out, "max_rel_dM"), 1e-9) << compiled.out;
}

TEST(StictionCrossvalExecutable, BadCommandLineIsBadInput) {
  EXPECT_EQ(Crossval("").status, 2);
  EXPECT_EQ(Crossval(SourceFile("tests/scene/data/multijoint.xml") + " --samples 0").status, 2);
  EXPECT_EQ(Crossval(SourceFile("tests/scene/data/multijoint.xml") + " --seed x").status, 2);
}

}  // namespace
}  // namespace stiction
