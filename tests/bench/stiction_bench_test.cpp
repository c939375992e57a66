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

#include <gtest/gtest.h>

#include "bench/side_by_side/bench_metrics.h"
#include "bench/side_by_side/bench_scenes.h"
#include "engine/common/error.h"

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

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(StictionBenchExecutable, ShortModePrintsEveryEngineOnEveryScene) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "stiction_bench_test";
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
                               "MuJoCo 2.2.2 elliptic Newton + noslip |", "Bullet 3.24 SI |"}) {
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
  EXPECT_NE(text.find("time per step ∝ objects^"), std::string::npos);
  EXPECT_NE(text.find("Targets (issue 8):"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace stiction::bench
