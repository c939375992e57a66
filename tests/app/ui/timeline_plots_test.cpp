// Issue 38: the Gripper panel's plots from the timeline (the previous
// branch's values beside the new ones), and choosing the states of a video
// of a past stretch of the timeline. Real runs of grasp_box.yaml.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/record/timeline_video.h"
#include "app/ui/timeline_plots.h"
#include "engine/common/error.h"
#include "engine/control/grasp_readout.h"
#include "engine/control/scene_gripper.h"
#include "engine/control/state_history.h"
#include "engine/simulation.h"

namespace stiction::app {
namespace {

const std::string kGraspBox = STICTION_SOURCE_DIR "/assets/scenes/grasp_box.yaml";

// Steps on to step `last`, pushing each state with its grasp samples (as
// the viewer's PhysicsLoop does) and returning them.
std::vector<std::vector<float>> RunTo(std::int64_t last, Simulation* sim, SceneGripper* grippers,
                                      StateHistory* history) {
  std::vector<std::vector<float>> samples;
  while (sim->step_index() < last) {
    grippers->PrepareStep(sim);
    const StepResult r = sim->Step();
    EXPECT_EQ(r.status, StepStatus::kSuccess) << r.message;
    samples.push_back(GraspPlotSamples(CalcGraspReadout(*sim, *grippers->controller(0), sim->time_step())));
    StateNotes notes;
    notes.samples = samples.back();
    history->Push(*sim, *grippers, std::move(notes));
  }
  return samples;
}

TEST(TimelinePlotsTest, ABranchIsPlottedBesideThePreviousOneAtTheSameSteps) {
  Simulation sim = Simulation::FromFile(kGraspBox);
  SceneGripper grippers = SceneGripper::ForScene(sim);
  StateHistory history;
  history.Push(sim, grippers);  // The state before the first step: no readout.
  const std::vector<std::vector<float>> old_run = RunTo(300, &sim, &grippers, &history);
  ASSERT_EQ(history.size(), 301);
  const int fingers = grippers.controller(0)->num_fingers();
  ASSERT_EQ(old_run.back().size(), static_cast<std::size_t>(kSamplesPerFinger * fingers));

  // Back to step 150 (the grasp closed at 1.4 s), slippery box, run on.
  history.Restore(150, &sim, &grippers);
  ContactMaterial m = sim.GetMaterial("box_surface");
  m.friction = 0.1;
  sim.SetMaterial("box_surface", m);
  const std::vector<std::vector<float>> new_run = RunTo(300, &sim, &grippers, &history);

  // One point per state: this branch's line is the new run's samples (the
  // states before the branch are the old run's), the previous one is the
  // old run's after the branch start and absent before it.
  const std::vector<BranchPlot> plots = TimelineGraspPlots(history, /*window_s=*/100, /*points=*/1000);
  ASSERT_EQ(plots.size(), old_run.back().size());
  bool differ = false;
  for (std::size_t k = 0; k < plots.size(); ++k) {
    ASSERT_EQ(plots[k].current.size(), 301u);
    EXPECT_TRUE(std::isnan(plots[k].current[0]));
    for (std::size_t i = 1; i <= 300; ++i) {
      const float now = i <= 150 ? old_run[i - 1][k] : new_run[i - 151][k];
      EXPECT_EQ(plots[k].current[i], now) << k << " " << i;
      if (i <= 150) {
        EXPECT_TRUE(std::isnan(plots[k].previous[i])) << i;
      } else {
        EXPECT_EQ(plots[k].previous[i], old_run[i - 1][k]) << k << " " << i;
        differ = differ || plots[k].previous[i] != plots[k].current[i];
      }
    }
    EXPECT_TRUE(plots[k].has_previous());
  }
  EXPECT_TRUE(differ);  // μ = 0.1 against μ = 1: the two branches' readouts part.
  const BranchPlot& slip = plots[2];
  std::printf("slip of finger 0 at 3 s: %.1f um/s with mu = 0.1, %.1f um/s before (mu = 1)\n", slip.current.back(),
              slip.previous.back());

  // Fewer points than states: each is the largest of the steps it stands for.
  const std::vector<BranchPlot> coarse = TimelineGraspPlots(history, 100, 30);
  ASSERT_EQ(coarse[2].current.size(), 30u);
  for (int b = 0; b < 30; ++b) {
    float largest = -1;
    for (int i = 1; i <= 300; ++i) {
      if (i * 30 / 301 == b) largest = std::max(largest, plots[2].current[static_cast<std::size_t>(i)]);
    }
    EXPECT_EQ(coarse[2].current[static_cast<std::size_t>(b)], largest) << b;
  }

  // The window ends at the cursor and reaches back window_s: the plots
  // follow Left/Right and the scrubber.
  history.Restore(200, &sim, &grippers);
  const std::vector<BranchPlot> back = TimelineGraspPlots(history, 0.5, 1000);
  ASSERT_FALSE(back.empty());
  const std::size_t n = back[2].current.size();
  EXPECT_GE(n, 50u);
  EXPECT_LE(n, 51u);
  EXPECT_EQ(back[2].current.back(), plots[2].current[200]);
  EXPECT_EQ(back[2].previous.back(), plots[2].previous[200]);
}

TEST(TimelinePlotsTest, NoPlotsWithoutSamplesOrStates) {
  Simulation sim = Simulation::FromFile(kGraspBox);
  SceneGripper grippers = SceneGripper::ForScene(sim);
  StateHistory history;
  EXPECT_TRUE(TimelineGraspPlots(history, 10, 300).empty());
  history.Push(sim, grippers);
  grippers.PrepareStep(&sim);
  ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  history.Push(sim, grippers);  // No samples pushed (no gripper plotted).
  EXPECT_TRUE(TimelineGraspPlots(history, 10, 300).empty());
}

// The states a video of t = 1 to 2 s shows: one per frame time at 30 fps
// (δt = 10 ms < 1/30 s, so each frame has a state of its own), the first
// state at or after each frame time.
TEST(TimelineVideoTest, ShowsTheFirstStateAtOrAfterEachFrameTime) {
  Simulation sim = Simulation::FromFile(kGraspBox);
  ASSERT_EQ(sim.time_step(), 0.01);
  SceneGripper grippers = SceneGripper::ForScene(sim);
  StateHistory history;
  TimelineVideo video;
  EXPECT_THROW(video.Begin(history, 0, 1), InputError);  // Nothing kept yet.
  history.Push(sim, grippers);
  RunTo(300, &sim, &grippers, &history);
  history.Restore(250, &sim, &grippers);

  try {
    video.Begin(history, 2, 1);
    ADD_FAILURE() << "a reversed range was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a range"), std::string::npos) << e.what();
  }
  try {
    video.Begin(history, 1, 9);
    ADD_FAILURE() << "a range past the kept states was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the timeline holds t = 0 to 3 s"), std::string::npos) << e.what();
  }
  EXPECT_THROW(video.Begin(history, std::nan(""), 1), InputError);
  EXPECT_FALSE(video.active());

  video.Begin(history, 1, 2);
  EXPECT_EQ(video.first_index(), 100);
  EXPECT_EQ(video.return_index(), 250);
  VideoFrameClock clock(30);
  clock.Start(video.start_time());
  std::vector<int> shown;
  for (int index = video.Next(history, clock); index >= 0; index = video.Next(history, clock)) {
    shown.push_back(index);
    clock.Emitted(clock.Due(history.time_at(index)));
  }
  EXPECT_FALSE(video.active());
  EXPECT_EQ(clock.frames(), 31);  // t = 1 + k / 30 s for k = 0 … 30.
  ASSERT_EQ(shown.size(), 31u);
  for (int k = 0; k <= 30; ++k) {
    // The first state whose time reaches 1 + k/30 s: step 100 + ceil(k * 10 / 3).
    EXPECT_EQ(shown[static_cast<std::size_t>(k)], 100 + (k * 10 + 2) / 3) << k;
  }
}

}  // namespace
}  // namespace stiction::app
