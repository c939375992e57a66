// VideoFrameClock: frames at fixed simulated times, whatever the step size.
#include "app/record/video_frame_clock.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stiction::app {
namespace {

// Steps simulated time like the engine does (t += dt, accumulated round-off
// included) and emits the frames due after each step. Returns the frames
// emitted once t has passed t_end.
struct EmitRun {
  std::int64_t frames = 0;
  double worst_lateness = 0;  // max over frames of (state time - frame time) [s].
  double worst_earliness = 0;  // max over frames of (frame time - state time) [s].
};
EmitRun StepAndEmit(VideoFrameClock* clock, double dt, double t_end) {
  EmitRun run;
  double t = 0;
  clock->Start(0);
  auto emit = [&] {
    const std::int64_t due = clock->Due(t);
    for (std::int64_t i = 0; i < due; ++i) {
      const double frame_time = clock->NextFrameTime();
      run.worst_lateness = std::max(run.worst_lateness, t - frame_time);
      run.worst_earliness = std::max(run.worst_earliness, frame_time - t);
      clock->Emitted(1);
    }
    run.frames += due;
  };
  emit();
  while (t < t_end - 0.5 * dt) {
    t += dt;
    emit();
  }
  return run;
}

TEST(VideoFrameClockTest, OneFramePerPeriodOfSimulatedTime) {
  // 30 fps, δt = 1 ms, 10 s: frames at 0, 1/30, ..., 10 → 301 frames, each
  // taken at the first state at or after its time (late by less than δt),
  // never early beyond round-off.
  VideoFrameClock clock(30);
  const EmitRun run = StepAndEmit(&clock, 1e-3, 10.0);
  EXPECT_EQ(run.frames, 301);
  EXPECT_LT(run.worst_lateness, 1e-3);
  EXPECT_LT(run.worst_earliness, 1e-9);
  EXPECT_EQ(clock.frames(), 301);
  EXPECT_NEAR(clock.video_seconds(), 301.0 / 30.0, 1e-12);
}

TEST(VideoFrameClockTest, StateOnAFrameTimeCountsDespiteRoundOff) {
  // 10 fps with δt = 0.01: t = 10 × 0.01 accumulated is 0.09999999999999999,
  // which must still be the state of frame 1 (not the step after it).
  VideoFrameClock clock(10);
  clock.Start(0);
  double t = 0;
  EXPECT_EQ(clock.Due(t), 1);
  clock.Emitted(1);
  for (int i = 0; i < 9; ++i) {
    t += 0.01;
    EXPECT_EQ(clock.Due(t), 0) << i;
  }
  t += 0.01;
  ASSERT_LT(t, 0.1);  // The round-off this test is about.
  EXPECT_EQ(clock.Due(t), 1);
}

TEST(VideoFrameClockTest, StepsLongerThanAFrameRepeatTheState) {
  // δt = 0.1 s at 30 fps: each step crosses 3 frame times, all of them due
  // (the video repeats the state) so no frame time is skipped: 1 s → 31 frames.
  VideoFrameClock clock(30);
  const EmitRun run = StepAndEmit(&clock, 0.1, 1.0);
  EXPECT_EQ(run.frames, 31);
}

TEST(VideoFrameClockTest, RestartContinuesFromTheNewTime) {
  VideoFrameClock clock(30);
  clock.Start(2.0);  // Recording started at t = 2 s.
  EXPECT_EQ(clock.Due(1.9), 0);
  EXPECT_EQ(clock.Due(2.0), 1);
  clock.Emitted(1);
  EXPECT_EQ(clock.Due(2.5), 15);  // Frames at 2 + k/30 for k = 1 .. 15.
  clock.Emitted(15);
  clock.Restart(0.0);  // A reset: the state at t = 0 is due at once.
  EXPECT_EQ(clock.Due(0.0), 1);
  clock.Emitted(1);
  EXPECT_NEAR(clock.NextFrameTime(), 1.0 / 30.0, 1e-15);
  EXPECT_EQ(clock.frames(), 17);  // Frames count across restarts.
}

}  // namespace
}  // namespace stiction::app
