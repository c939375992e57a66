// The side-by-side benchmark (issue 8): its metrics on an engine whose motion
// is known in closed form, its scenes, and the real executable's short mode
// (the run CI makes to prove the benchmark still builds and runs).
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/side_by_side/bench_metrics.h"
#include "bench/side_by_side/bench_scenes.h"
#include "engine/common/error.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction::bench {
namespace {

// A body moving with constant acceleration a along a fixed direction d:
// p(t) = p0 + ½ a t² d, v(t) = a t d, exactly. Stands in for an engine only
// to check the metric arithmetic; every real engine is run below.
class KinematicEngine final : public PeerEngine {
 public:
  KinematicEngine(double dt, double a, Vector3 d, Vector3 p0) : dt_(dt), a_(a), d_(d), p0_(p0) {}
  std::string label() const override { return "kinematic"; }
  bool Step(std::string*) override {
    ++n_;
    return true;
  }
  Vector3 BodyPosition(int) const override { return p0_ + 0.5 * a_ * t() * t() * d_; }
  Vector3 BodyVelocity(int) const override { return a_ * t() * d_; }
  double LastIterations() const override { return n_ % 2 ? 3 : 1; }
  double LastMaxPenetration() const override { return 1e-3; }

 private:
  double t() const { return n_ * dt_; }
  double dt_, a_;
  Vector3 d_, p0_;
  int n_ = 0;
};

TEST(BenchMetrics, SlideAccelerationAndIterationsOfAKnownMotion) {
  BenchScene scene = MakeIncline(0.60, 0.01, 1.0);
  ASSERT_EQ(scene.metric, Metric::kAcceleration);
  KinematicEngine engine(0.01, 0.7, scene.slope_direction, Vector3(0, 0, 1));
  const RunResult r = RunScene(scene, engine);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.steps, 100);
  // v is exact in t, so the velocity difference over the second half gives a
  // to round-off.
  EXPECT_NEAR(r.metric, 0.7, 1e-12);
  EXPECT_DOUBLE_EQ(r.mean_iterations, 2.0);     // Alternating 3, 1.
  EXPECT_DOUBLE_EQ(r.steady_penetration_m, 1e-3);
}

TEST(BenchMetrics, CreepIsTheSpeedDownTheSlopeOverTheSecondHalf) {
  BenchScene scene = MakeIncline(0.40, 0.01, 2.0);
  ASSERT_EQ(scene.metric, Metric::kCreep);
  KinematicEngine engine(0.01, 1e-4, scene.slope_direction, Vector3::Zero());
  const RunResult r = RunScene(scene, engine);
  // Mean speed from t = 1 to 2 s of p = ½ a t²: a (2² − 1²) / 2 / 1 = 1.5 a.
  EXPECT_NEAR(r.metric, 1.5e-4, 1e-15);
  // The bound of [SAP] Eq. (31) for this scene: μσgδt = 0.5·1e-3·9.81·0.01.
  EXPECT_NEAR(scene.creep_bound, 0.5 * 1e-3 * 9.81 * 0.01, 1e-18);
}

TEST(BenchMetrics, GraspDropAndStackFallAreReportedAsFailures) {
  BenchScene grasp = MakeGraspHold(0.01, 1.0);
  KinematicEngine falling(0.01, 9.81, Vector3(0, 0, -1), Vector3(0, 0, 0.5));
  const RunResult g = RunScene(grasp, falling);
  EXPECT_FALSE(g.metric_pass);
  EXPECT_NE(g.metric_text.find("dropped"), std::string::npos) << g.metric_text;

  BenchScene stack = MakeStack10(0.01, 1.0);
  KinematicEngine toppling(0.01, 1.0, Vector3(1, 0, 0), Vector3(0, 0, 0.95));
  const RunResult s = RunScene(stack, toppling);
  EXPECT_FALSE(s.metric_pass);
  EXPECT_NE(s.metric_text.find("fell"), std::string::npos) << s.metric_text;
}

TEST(BenchScenes, ScaledClutterTilesTheFortyObjectLayout) {
  const BenchScene base = MakeClutter(/*walls=*/false, 0.01, 1.0);
  const BenchScene big = MakeScaledClutter(160, 0.01, 1.0);
  EXPECT_EQ(base.objects, 40);
  EXPECT_EQ(big.objects, 160);
  EXPECT_EQ(big.scene.bodies.size(), 4 * base.scene.bodies.size());
  EXPECT_THROW(MakeScaledClutter(50, 0.01, 1.0), InputError);
  // τd = δt ([SAP] Sec. VI-C) at the benchmark's time step.
  const BenchScene fine = MakeClutter(/*walls=*/true, 0.002, 1.0);
  int checked = 0;
  for (const MaterialDescription& m : fine.scene.materials) {
    if (m.name == "clutter") {
      EXPECT_DOUBLE_EQ(m.material.dissipation, 0.002);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 1);
}

TEST(BenchScenes, ArmHoldBoxStartsOnTheToolCentrePointBetweenThePads) {
  const BenchScene b = MakeArmHold(0.01, 1.0);
  EXPECT_EQ(b.name, "arm_hold");
  EXPECT_EQ(b.metric, Metric::kGraspDrift);
  EXPECT_EQ(b.dofs, 7 + 2 + 6);  // Arm, fingers, the box's free joint.
  ASSERT_GE(b.reference_body, 0);
  EXPECT_EQ(b.scene.bodies[b.reference_body].name, "gripper/gripper_base");
  Simulation sim(b.scene);
  // The tool centre point (0.111 m along the gripper's z) at the start; the
  // YAML writes its forward kinematics with 17 digits: round-off of the
  // chain of seven rotations, far below a pad's 40 mm.
  RigidTransform X_BE;
  X_BE.p = Vector3(0, 0, 0.111);
  const RigidTransform X_WE = sim.CalcFramePose("gripper/gripper_base", X_BE);
  const Vector3 p_box = sim.CalcFramePose("box").p;
  EXPECT_LT((X_WE.p - p_box).norm(), 1e-9) << X_WE.p.transpose() << " vs " << p_box.transpose();
  // Pointing straight down (q2 − q4 + q6 = π): the gripper's z is −z, so
  // the cube's faces are parallel to the pads.
  EXPECT_LT((X_WE.R.col(2) - Vector3(0, 0, -1)).norm(), 1e-12);
  EXPECT_LT((X_WE.R.col(1) - Vector3(0, 1, 0)).norm(), 1e-12);
  // Each pad face is 2 mm + q from the gripper's centre plane; q = 0.0279 m
  // puts it 0.1 mm into the box's face 30 mm out (so that MuJoCo, which
  // detects contact only at negative distance, holds from the first step).
  int fingers = 0;
  for (const char* finger : {"gripper/gripper_left_joint", "gripper/gripper_right_joint"}) {
    for (const JointDescription& j : b.scene.joints) {
      if (j.name == finger) {
        ASSERT_EQ(j.initial_q.size(), 1u);
        EXPECT_NEAR(0.002 + j.initial_q[0], 0.03 - 1e-4, 1e-12);  // Round-off of the sum.
        ++fingers;
      }
    }
  }
  EXPECT_EQ(fingers, 2);
}

TEST(BenchScenes, EightQuadrupedsHave144DofsAndEightTrunks) {
  const BenchScene b = MakeQuadrupeds8(0.01, 1.0);
  EXPECT_EQ(b.name, "quadrupeds8");
  EXPECT_EQ(b.dofs, 144);
  EXPECT_EQ(b.objects, 8);  // Free bodies: the trunks.
  ASSERT_EQ(b.standing_bodies.size(), 8u);
  for (const int t : b.standing_bodies) {
    EXPECT_NE(b.scene.bodies.at(t).name.find("/trunk"), std::string::npos);
  }
}

TEST(BenchMetrics, StandingCountsTrunksThatDropMoreThanFiveCentimetres) {
  BenchScene scene = MakeQuadrupeds8(0.01, 1.0);
  // Every trunk falls with g: after 1 s it is 4.9 m down, so none stands.
  KinematicEngine falling(0.01, 9.81, Vector3(0, 0, -1), Vector3(0, 0, 0.3));
  const RunResult down = RunScene(scene, falling);
  EXPECT_FALSE(down.metric_pass);
  EXPECT_NE(down.metric_text.find("0/8 stand"), std::string::npos) << down.metric_text;
  EXPECT_NEAR(down.metric, 0.5 * 9.81, 1e-9);  // ½ g t², t = 1 s.
  // Sinking 1 cm/s² for 1 s: 5 mm lower, all eight up.
  KinematicEngine sinking(0.01, 0.01, Vector3(0, 0, -1), Vector3(0, 0, 0.3));
  const RunResult up = RunScene(scene, sinking);
  EXPECT_TRUE(up.metric_pass);
  EXPECT_NE(up.metric_text.find("8/8 stand"), std::string::npos) << up.metric_text;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(StictionBenchExecutable, ShortModePrintsEveryEngineOnEveryScene) {
  const std::filesystem::path dir = test::FreshTempPath("stiction-bench-test", "dir");
  std::filesystem::create_directories(dir);
  const std::string out = (dir / "stdout.md").string(), md = (dir / "table.md").string();
  const std::string command =
      std::string(STICTION_BENCH_EXE) + " --short --markdown " + md + " > " + out + " 2>/dev/null";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const std::string text = Slurp(out);
  EXPECT_EQ(text, Slurp(md));
  for (const char* scene : {"clutter40_walls", "clutter40_grid", "clutter80_grid", "incline_stick", "incline_slide",
                            "grasp_hold", "stack10"}) {
    for (const char* engine : {"Stiction SAP |", "Stiction CANAL |", "Stiction SubADMM 2 threads |",
                               "Stiction SAP, Lagged H&C k ≤ 1e7, sympl. Euler |", "MuJoCo 2.2.2 pyramidal Newton |",
                               "MuJoCo 2.2.2 elliptic Newton + noslip |", "Bullet 3.24 SI |",
                               "Stiction PGS, exact NCP |", "Stiction PGS, regularized dual |"}) {
      const std::string row = std::string("| ") + scene + " | 10 | ";
      bool found = false;
      std::istringstream lines(text);
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind(row, 0) == 0 && line.find(engine) != std::string::npos) {
          found = true;
          EXPECT_EQ(line.find("n/a"), std::string::npos) << line;
          EXPECT_EQ(line.find("failed"), std::string::npos) << line;
        }
      }
      EXPECT_TRUE(found) << "no row for " << scene << " / " << engine << " in\n" << text;
    }
  }
  // The articulated rows (issue 15): Stiction and MuJoCo run them on the
  // same scene (the box stays in the grasp, the dogs stand through the
  // short run); Bullet refuses them, saying why.
  for (const char* scene : {"arm_hold", "quadrupeds8"}) {
    const std::string row = std::string("| ") + scene + " | 10 | ";
    std::istringstream lines(text);
    int found = 0;
    bool sap = false, mujoco = false;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(row, 0) != 0) continue;
      ++found;
      sap = sap || line.find("| Stiction SAP |") != std::string::npos;
      mujoco = mujoco || line.find("| MuJoCo 2.2.2 pyramidal Newton |") != std::string::npos;
      if (line.find("Bullet") != std::string::npos || line.find("| bullet |") != std::string::npos) {
        EXPECT_NE(line.find("n/a: joint"), std::string::npos) << line;
        EXPECT_NE(line.find("articulated bodies"), std::string::npos) << line;
        continue;
      }
      EXPECT_EQ(line.find("n/a"), std::string::npos) << line;
      EXPECT_EQ(line.find("failed"), std::string::npos) << line;
      EXPECT_EQ(line.find("dropped"), std::string::npos) << line;
      EXPECT_EQ(line.find(" 0/8 stand"), std::string::npos) << line;
    }
    // 9 Stiction rows (SAP, the three H&C models, CANAL, SubADMM on 1 and 2
    // threads, PGS exact and regularized; SAP with the paper's estimate runs
    // only where loads matter), 3 MuJoCo configurations, Bullet.
    EXPECT_EQ(found, 9 + 3 + 1) << scene << " in\n" << text;
    EXPECT_TRUE(sap) << scene << " in\n" << text;
    EXPECT_TRUE(mujoco) << scene << " in\n" << text;
  }
  EXPECT_NE(text.find("arm hold (issue 15): SAP slip"), std::string::npos) << text;
  EXPECT_NE(text.find("quadrupeds8 (issue 15) with SAP:"), std::string::npos) << text;
  EXPECT_NE(text.find("time per step ∝ objects^"), std::string::npos);
  EXPECT_NE(text.find("Targets (issue 8):"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace stiction::bench
