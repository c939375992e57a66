// Demonstrations as HDF5 datasets (issue 39, item 4): a run sampled into a
// Demo, written in robomimic's layout, read back bit for bit; replaying its
// actions reproduces its states exactly; a tampered action is caught at the
// step it drives; corrupt, truncated and foreign files give clear errors
// and an append never loses the demos already there.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <fstream>

#include "engine/common/error.h"
#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo_file.h"
#include "engine/dataset/demo_replay.h"
#include "engine/dataset/demo_sampler.h"
#include "tests/scenarios/scenario_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

// Runs `scene` with its own script for `duration` [s], sampled.
Demo RecordDemo(const std::string& scene, double duration, bool success = true) {
  const std::string path = test::ScenePath(scene);
  Simulation sim = Simulation::FromFile(path);
  SceneGripper gripper = SceneGripper::ForScene(sim);
  DemoSampler sampler;
  sampler.Begin(sim, gripper, path, {}, sim.CalcSceneParameters());
  const auto steps = static_cast<std::int64_t>(std::llround(duration / sim.time_step()));
  for (std::int64_t k = 0; k < steps; ++k) {
    gripper.PrepareStep(&sim);
    sampler.Sample(sim, gripper);
    EXPECT_EQ(sim.Step().status, StepStatus::kSuccess);
    sampler.AfterStep(sim);
  }
  sim.Reset();  // A reset after the take does not change it.
  return sampler.Finish(success);
}

void ExpectSameTable(const DemoTable& a, const DemoTable& b, const std::string& what) {
  EXPECT_EQ(a.cols, b.cols) << what;
  ASSERT_EQ(a.data.size(), b.data.size()) << what;
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    ASSERT_EQ(a.data[i], b.data[i]) << what << " entry " << i;
  }
}

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

class DemoDatasetTest : public test::ScratchDirTest {};

TEST_F(DemoDatasetTest, ASampledRunHasTheStatesActionsAndObservationsOfEveryStep) {
  const Demo d = RecordDemo("grasp_box.yaml", 2.0);
  ASSERT_EQ(d.num_samples(), 200);
  EXPECT_EQ(d.states.cols, 1 + d.nq + d.nv);
  EXPECT_EQ(d.actions.cols, 7);
  EXPECT_EQ(d.action_rates.cols, 5);
  // Row k is the state before step k: t = k δt.
  EXPECT_EQ(d.states.row(0)[0], 0.0);
  EXPECT_NEAR(d.states.row(150)[0], 1.5, 1e-12);
  EXPECT_NEAR(d.final_state[0], 2.0, 1e-12);
  // The script closes the grip at 1.4 s (commands/grasp_box.yaml): grip
  // column −1 before, +1 after.
  EXPECT_EQ(d.actions.row(100)[5], -1.0);
  EXPECT_EQ(d.actions.row(199)[5], 1.0);
  // It ramps the palm up from 2.0 s on: no rate before.
  EXPECT_EQ(d.action_rates.row(10)[2], 0.0);
  // The box is the object; its quaternion is a unit x, y, z, w.
  ASSERT_EQ(d.objects, std::vector<std::string>{"box"});
  const DemoObservation& object = d.obs.back();
  EXPECT_EQ(object.key, "object");
  const double* pose = object.table.row(0);
  EXPECT_NEAR(pose[3] * pose[3] + pose[4] * pose[4] + pose[5] * pose[5] + pose[6] * pose[6], 1.0, 1e-12);
  EXPECT_EQ(d.dones.data.back(), 1.0);
  EXPECT_EQ(d.rewards.data.back(), 1.0);
  EXPECT_EQ(d.rewards.data.front(), 0.0);
  EXPECT_TRUE(d.not_reproducible.empty());
}

TEST_F(DemoDatasetTest, ASampleWhoseStepWasNotTakenIsDropped) {
  Simulation sim = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  SceneGripper gripper = SceneGripper::ForScene(sim);
  DemoSampler sampler;
  sampler.Begin(sim, gripper, test::ScenePath("grasp_box.yaml"), {}, sim.CalcSceneParameters());
  for (int k = 0; k < 3; ++k) {
    gripper.PrepareStep(&sim);
    sampler.Sample(sim, gripper);
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
    sampler.AfterStep(sim);
  }
  const std::vector<double> after_three = DemoStateRow(sim);
  gripper.PrepareStep(&sim);
  sampler.Sample(sim, gripper);  // Its step fails, say, or the take stops here.
  EXPECT_EQ(sampler.num_samples(), 4);
  const Demo d = sampler.Finish(false);
  EXPECT_EQ(d.num_samples(), 3);
  EXPECT_EQ(d.actions.rows(), 3);
  EXPECT_EQ(d.obs.front().table.rows(), 3);
  EXPECT_EQ(d.final_state, after_three);
  EXPECT_EQ(d.dones.data, (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(d.rewards.data, (std::vector<double>{0, 0, 0}));
}

TEST_F(DemoDatasetTest, DemosAppendedToOneFileReadBackBitForBit) {
  const Demo a = RecordDemo("grasp_box.yaml", 1.0, true);
  const Demo b = RecordDemo("iiwa_pick_place.yaml", 0.5, false);
  const std::string file = (dir_ / "sub" / "demos.hdf5").string();  // Its directory is made.
  EXPECT_EQ(AppendDemo(file, a), 0);
  EXPECT_EQ(AppendDemo(file, b), 1);
  const std::vector<DemoFileEntry> list = ListDemos(file);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "demo_0");
  EXPECT_EQ(list[0].num_samples, 100);
  EXPECT_TRUE(list[0].success);
  EXPECT_FALSE(list[1].success);
  EXPECT_TRUE(list[1].reproducible);
  EXPECT_FALSE(list[1].has_images);
  const Demo r = ReadDemo(file, 1);
  EXPECT_EQ(r.scene_text, b.scene_text);
  EXPECT_EQ(r.scene_path, b.scene_path);
  EXPECT_EQ(r.grippers, b.grippers);
  EXPECT_EQ(r.objects, b.objects);
  EXPECT_EQ(r.final_state, b.final_state);
  ExpectSameTable(r.states, b.states, "states");
  ExpectSameTable(r.actions, b.actions, "actions");
  ExpectSameTable(r.action_rates, b.action_rates, "action_rates");
  ASSERT_EQ(r.obs.size(), b.obs.size());
  for (const DemoObservation& o : b.obs) {
    const auto it = std::find_if(r.obs.begin(), r.obs.end(), [&](const auto& x) { return x.key == o.key; });
    ASSERT_NE(it, r.obs.end()) << o.key;
    ExpectSameTable(it->table, o.table, o.key);
  }
  EXPECT_NE(ErrorOf([&] { ReadDemo(file, 5); }).find("no demo_5 (the file has demo_0, demo_1)"), std::string::npos);
}

TEST_F(DemoDatasetTest, ImagesAreWrittenPerSampleAndReadBack) {
  Demo d = RecordDemo("grasp_box.yaml", 0.1);
  d.images.width = 4;
  d.images.height = 3;
  for (std::int64_t k = 0; k < d.num_samples() * 4 * 3 * 3; ++k) d.images.pixels.push_back(static_cast<std::uint8_t>(k % 251));
  const std::string file = (dir_ / "images.hdf5").string();
  AppendDemo(file, d);
  EXPECT_TRUE(ListDemos(file)[0].has_images);
  const Demo r = ReadDemo(file, 0);
  EXPECT_EQ(r.images.width, 4);
  EXPECT_EQ(r.images.height, 3);
  EXPECT_EQ(r.images.pixels, d.images.pixels);
  // An image count that is not the sample count is refused before writing.
  d.images.pixels.resize(d.images.pixels.size() - 36);
  EXPECT_NE(ErrorOf([&] { AppendDemo(file, d); }).find("images for 10 samples"), std::string::npos);
  EXPECT_EQ(ListDemos(file).size(), 1u);
}

TEST_F(DemoDatasetTest, ReplayingTheActionsReproducesEveryStateBitForBit) {
  // Two arms, a script with ramps (non-zero action rates) and waits.
  const Demo d = RecordDemo("two_arm_stack.yaml", 4.0);
  double max_rate = 0;
  for (double r : d.action_rates.data) max_rate = std::max(max_rate, std::abs(r));
  EXPECT_GT(max_rate, 0.01);  // The ramps are in the actions.
  const std::string file = (dir_ / "two_arm.hdf5").string();
  AppendDemo(file, d);
  const DemoReplayResult r = ReplayDemo(ReadDemo(file, 0));
  EXPECT_EQ(r.steps, 400);
  EXPECT_TRUE(r.exact()) << "first mismatch at sample " << r.first_mismatch << ", max " << r.max_abs_difference;
  EXPECT_TRUE(r.notes.empty());
}

TEST_F(DemoDatasetTest, ATamperedActionIsCaughtAtTheStepItDrives) {
  Demo d = RecordDemo("grasp_box.yaml", 1.0);
  d.actions.data[d.actions.cols * 50 + 0] += 1e-6;  // Target x before step 50.
  const DemoReplayResult r = ReplayDemo(d);
  EXPECT_EQ(r.first_mismatch, 51);  // The state after step 50.
  EXPECT_GT(r.max_abs_difference, 0);
  EXPECT_LT(r.max_abs_difference, 1e-3);
}

TEST_F(DemoDatasetTest, ADemoOfAnotherSceneIsRefusedWithBothLayouts) {
  const Demo d = RecordDemo("grasp_box.yaml", 0.1);
  EXPECT_NE(ErrorOf([&] { ReplayDemo(d, test::ScenePath("iiwa_pick_place.yaml")); }).find("the demo's has nq = "),
            std::string::npos);
}

TEST_F(DemoDatasetTest, TruncatedCorruptAndForeignFilesGiveClearErrors) {
  const std::string file = (dir_ / "d.hdf5").string();
  AppendDemo(file, RecordDemo("grasp_box.yaml", 0.5));
  // Truncated: the second half is gone.
  const std::string cut = (dir_ / "cut.hdf5").string();
  fs::copy_file(file, cut);
  fs::resize_file(cut, fs::file_size(cut) / 2);
  EXPECT_EQ(ErrorOf([&] { ListDemos(cut); }), cut + ": cannot open it: the HDF5 file is truncated or corrupt");
  // Not HDF5 at all.
  const std::string text = Write("notes.hdf5", "not a dataset\n");
  EXPECT_EQ(ErrorOf([&] { ListDemos(text); }), text + ": not an HDF5 file (or it is truncated or corrupt)");
  EXPECT_EQ(ErrorOf([&] { ListDemos((dir_ / "none.hdf5").string()); }), (dir_ / "none.hdf5").string() + ": no such file");
  // HDF5, but someone else's: refused for reading and for appending.
  const std::string other = (dir_ / "other.hdf5").string();
  H5Fclose(H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  const std::string foreign = ErrorOf([&] { AppendDemo(other, RecordDemo("grasp_box.yaml", 0.1)); });
  EXPECT_NE(foreign.find("not a Stiction demonstration dataset"), std::string::npos) << foreign;
  // A dataset whose shape contradicts the attributes.
  {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    ASSERT_GE(H5Ldelete(f, "/data/demo_0/actions", H5P_DEFAULT), 0);
    const hsize_t dims[2] = {40, 7};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t dset = H5Dcreate2(f, "/data/demo_0/actions", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(dset);
    H5Sclose(space);
    H5Fclose(f);
  }
  EXPECT_EQ(ErrorOf([&] { ReadDemo(file, 0); }),
            file + ":/data/demo_0/actions: expected shape (50, 7) (from the demo's attributes), got (40, 7)");
}

}  // namespace
}  // namespace stiction
