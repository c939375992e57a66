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

TEST(StictionCrossvalExecutable, UnnamedJointsAndBodiesMapByStictionsNames) {
  // Stiction names an unnamed MuJoCo joint "joint<id>" and body "body<id>";
  // the mapping finds them by those ids. The last body, welded, is lumped.
  const std::string file = Write("unnamed.xml", R"(<mujoco>
  <worldbody>
    <body pos="0 0 1">
      <joint type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04" mass="1"/>
      <body pos="0.3 0 0">
        <joint type="slide" axis="1 0 0"/>
        <joint type="hinge" axis="1 0 0" pos="0.02 0 0"/>
        <geom type="sphere" size="0.05" mass="0.3" pos="0.05 0 0"/>
        <body pos="0.1 0 0">
          <geom type="box" size="0.02 0.03 0.04" mass="0.2" pos="0.01 0.02 0" euler="0.3 0.1 0"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
  const CommandRun run = Crossval(file);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find(" nv=3 "), std::string::npos) << run.out;
}

/// A URDF as published ones are: a mesh in a folder of its own (MuJoCo's
/// URDF compiler looks for it beside the file), with `drake_world` a joint
/// to a `world` link it does not declare (Drake's convention) and, with
/// `unbalanced`, a link whose principal moments break A + B ≥ C.
std::string PublishedLikeUrdf(bool unbalanced, bool drake_world = true) {
  const std::filesystem::path dir =
      test::FreshTempPath("stiction-crossval-test", unbalanced ? "unbalanced" : "published");
  std::filesystem::create_directories(dir / "meshes");
  std::filesystem::copy_file(SourceFile("tests/scene/data/meshes/tetra.obj"), dir / "meshes" / "tetra.obj");
  const std::string inertia = unbalanced ? R"(ixx="1e-3" iyy="1e-3" izz="3e-3")" : R"(ixx="2e-3" iyy="3e-3" izz="4e-3")";
  const std::string path = (dir / "robot.urdf").string();
  std::ofstream(path) << R"(<robot name="r">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="1e-2" iyy="1e-2" izz="1e-2" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="meshes/tetra.obj"/></geometry></visual>
  </link>
  )" << (drake_world ? R"(<joint name="mount" type="fixed"><parent link="world"/><child link="base"/></joint>)" : "")
                   << R"(
  <link name="arm">
    <inertial><origin xyz="0.1 0 0.02" rpy="0.1 0.2 0.3"/><mass value="1"/>
      <inertia )" << inertia << R"( ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><mesh filename="meshes/tetra.obj"/></geometry></collision>
  </link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.3" rpy="0 0.4 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="10" velocity="1"/>
  </joint>
  <link name="forearm">
    <inertial><mass value="0.5"/><inertia ixx="1e-3" iyy="2e-3" izz="2e-3" ixy="1e-4" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="elbow" type="continuous"><parent link="arm"/><child link="forearm"/>
    <origin xyz="0.25 0 0"/><axis xyz="1 0 1"/>
  </joint>
</robot>
)";
  return path;
}

TEST(StictionCrossvalExecutable, AUrdfMuJoCoCannotCompileComparesWithoutItsGeometry) {
  const std::string file = PublishedLikeUrdf(false);
  const CommandRun as_is = Crossval(file);
  EXPECT_EQ(as_is.status, 2) << as_is.out;
  EXPECT_EQ(as_is.out.rfind(file + ": refused by MuJoCo: ", 0), 0u) << as_is.out;
  const CommandRun stripped = Crossval(file + " --strip-urdf-geometry");
  EXPECT_EQ(stripped.status, 0) << stripped.out;
  EXPECT_NE(stripped.out.find(" nv=2 "), std::string::npos) << stripped.out;
}

TEST(StictionCrossvalExecutable, BalancedInertiaAgreesInMButShowsInTheImport) {
  const std::string file = PublishedLikeUrdf(true, false);
  const CommandRun unbalanced = Crossval(file + " --strip-urdf-geometry");
  EXPECT_EQ(unbalanced.status, 2) << unbalanced.out;
  EXPECT_NE(unbalanced.out.find("A + B >= C"), std::string::npos) << unbalanced.out;
  // MuJoCo's copy keeps the geometry unless stripped, and looks for its
  // meshes where MuJoCo looks for the file's own: beside the file.
  const CommandRun with_meshes = Crossval(file + " --balance-inertia");
  EXPECT_EQ(with_meshes.status, 2) << with_meshes.out;
  const std::string beside = (std::filesystem::path(file).parent_path() / "tetra.obj").string();
  EXPECT_NE(with_meshes.out.find("'" + beside + "'"), std::string::npos) << with_meshes.out;
  const CommandRun balanced = Crossval(file + " --strip-urdf-geometry --balance-inertia");
  EXPECT_EQ(balanced.status, 1) << balanced.out;
  EXPECT_LT(Figure(balanced.out, "max_rel_dM"), 1e-9) << balanced.out;
  EXPECT_LT(Figure(balanced.out, "max_rel_dbias"), 1e-9) << balanced.out;
  // Moments 1, 1, 3 (e-3) become their mean 5/3 on every axis: the change
  // is of the order of the tensor itself (0.74 of MuJoCo's largest entry).
  EXPECT_GT(Figure(balanced.out, "dI_rel"), 0.1) << balanced.out;
}

TEST(StictionCrossvalExecutable, AMultiLineRefusalIsPrintedOnOneLine) {
  // Stiction lists every missing mesh on a line of its own; MuJoCo, given
  // the copy without geometry, compiles the file.
  const std::string file = PublishedLikeUrdf(false);
  std::filesystem::remove_all(std::filesystem::path(file).parent_path() / "meshes");
  const CommandRun run = Crossval(file + " --strip-urdf-geometry");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_EQ(run.out.rfind(file + ": refused by Stiction: ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("2 mesh files cannot be found: "), std::string::npos) << run.out;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1) << run.out;
}

TEST(StictionCrossvalExecutable, BadCommandLineIsBadInput) {
  EXPECT_EQ(Crossval("").status, 2);
  EXPECT_EQ(Crossval(SourceFile("tests/scene/data/multijoint.xml") + " --samples 0").status, 2);
  EXPECT_EQ(Crossval(SourceFile("tests/scene/data/multijoint.xml") + " --seed x").status, 2);
}

}  // namespace
}  // namespace stiction
