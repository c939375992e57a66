// A dataset's camera images (issue 39, item 4): `stiction --dataset-images`
// renders every recorded state of each demo in a hidden window (real
// OpenGL under Xvfb) and writes them as obs/agentview_image, top row first.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "app/app.h"
#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo_file.h"
#include "engine/dataset/demo_sampler.h"
#include "tests/app/run_command.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

namespace fs = std::filesystem;

const std::string kImagesScenes = STICTION_SOURCE_DIR "/assets/scenes";

// iiwa_pick_place.yaml's script for `steps` steps, as a demo in `file`.
void WritePickPlaceDemo(const std::string& file, int steps) {
  const std::string scene = kImagesScenes + "/iiwa_pick_place.yaml";
  Simulation sim = Simulation::FromFile(scene);
  SceneGripper gripper = SceneGripper::ForScene(sim);
  DemoSampler sampler;
  sampler.Begin(sim, gripper, scene, {}, sim.CalcSceneParameters());
  for (int k = 0; k < steps; ++k) {
    gripper.PrepareStep(&sim);
    sampler.Sample(sim, gripper);
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
    sampler.AfterStep(sim);
  }
  AppendDemo(file, sampler.Finish(true));
}

double MeanAbsDifference(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
  return sum / static_cast<double>(n);
}

TEST(DatasetImagesTest, EveryRecordedStateBecomesAnImageTopRowFirst) {
  const fs::path dir = stiction::test::FreshTempPath("stiction-dataset-images", "dir");
  fs::create_directories(dir);
  const std::string file = (dir / "demos.hdf5").string();
  WritePickPlaceDemo(file, 150);
  std::string out;
  ASSERT_EQ(stiction::test::RunCommand(std::string(STICTION_APP_EXE) + " --dataset-images " + file + " --size 48x32", &out), 0)
      << out;
  EXPECT_NE(out.find("stiction: demo_0: 150 images of 48x32 written to " + file), std::string::npos) << out;
  const Demo demo = ReadDemo(file, 0);
  ASSERT_EQ(demo.images.rows(), 150);
  ASSERT_EQ(demo.images.width, 48);
  ASSERT_EQ(demo.images.height, 32);
  EXPECT_TRUE(ListDemos(file)[0].has_images);

  // Image 0 is what the viewer renders of state 0, flipped to top row first.
  AppOptions o = HiddenWindowOptions(AppOptions{});
  o.scene_path = demo.scene_path;
  o.paused = true;
  o.width = 48;
  o.height = 32;
  App app(o);
  app.ui().viz.contact_points = false;
  const double* row = demo.states.row(0);
  app.ShowState(Eigen::Map<const VectorX>(row + 1, demo.nq), Eigen::Map<const VectorX>(row + 1 + demo.nq, demo.nv),
                row[0]);
  const std::vector<std::uint8_t> gl = app.RenderImage(48, 32);
  ASSERT_EQ(gl.size(), 48u * 32u * 3u);
  std::vector<std::uint8_t> flipped;
  for (int y = 31; y >= 0; --y) flipped.insert(flipped.end(), gl.begin() + y * 144, gl.begin() + (y + 1) * 144);
  const std::uint8_t* first = demo.images.pixels.data();
  const double same = MeanAbsDifference(first, flipped.data(), flipped.size());
  const double upside_down = MeanAbsDifference(first, gl.data(), gl.size());
  std::printf("image 0 vs the viewer's render: %.3f levels; vs it upside down: %.2f\n", same, upside_down);
  EXPECT_LT(same, 0.5);
  EXPECT_GT(upside_down, 10 * std::max(same, 0.5));
  // The arm moves: the last image is not the first.
  const std::size_t bytes = 48u * 32u * 3u;
  EXPECT_GT(MeanAbsDifference(first, first + 149 * bytes, bytes), 1.0);

  // A demo the file lacks: one line naming it, exit 1; the images stay.
  ASSERT_EQ(stiction::test::RunCommand(std::string(STICTION_APP_EXE) + " --dataset-images " + file + " --demo 3", &out), 1);
  EXPECT_NE(out.find("stiction: " + file + ": no demo_3 (--demo)"), std::string::npos) << out;
  EXPECT_TRUE(ListDemos(file)[0].has_images);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace stiction::app
