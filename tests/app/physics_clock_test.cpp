#include "app/physics_clock.h"

#include <gtest/gtest.h>

namespace stiction::app {
namespace {

// Simulates frames of a fixed wall period and counts steps.
double RunFrames(PhysicsClock* clock, int frames, double frame_s, double dt, int max_steps_per_frame = 1000) {
  double sim = 0;
  for (int f = 0; f < frames; ++f) {
    clock->BeginFrame(frame_s);
    int steps = 0;
    while (clock->WantsStep(dt) && steps < max_steps_per_frame) {
      clock->OnStep(dt);
      sim += dt;
      ++steps;
    }
    clock->EndFrame(frame_s, dt);
  }
  return sim;
}

TEST(PhysicsClockTest, FollowsTheRealTimeFactor) {
  for (double rtf : {0.01, 0.5, 1.0, 4.0}) {
    PhysicsClock clock;
    clock.set_real_time_factor(rtf);
    const double sim = RunFrames(&clock, 600, 1.0 / 60, 0.001);
    EXPECT_NEAR(sim, rtf * 10.0, 0.002 + 1e-3 * rtf * 10) << "rtf " << rtf;
    EXPECT_NEAR(clock.achieved_real_time_factor(), rtf, 0.02 * rtf + 0.0025) << "rtf " << rtf;
  }
}

TEST(PhysicsClockTest, DropsDebtWhenPhysicsCannotKeepUp) {
  PhysicsClock clock;
  // Only 2 steps of 1 ms fit in a 1/60 s frame: the clock slows down (achieved
  // RTF 0.12) and does not accumulate an ever-growing debt.
  RunFrames(&clock, 600, 1.0 / 60, 0.001, 2);
  EXPECT_NEAR(clock.achieved_real_time_factor(), 0.12, 0.01);
  clock.BeginFrame(1.0 / 60);
  int steps = 0;
  while (clock.WantsStep(0.001)) {
    clock.OnStep(0.001);
    ++steps;
  }
  EXPECT_LE(steps, 18);
}

TEST(PhysicsClockTest, ClampsTheFactorAndCapsLongFrames) {
  PhysicsClock clock;
  clock.set_real_time_factor(1e6);
  EXPECT_EQ(clock.real_time_factor(), PhysicsClock::kMaxRealTimeFactor);
  clock.set_real_time_factor(0);
  EXPECT_EQ(clock.real_time_factor(), PhysicsClock::kMinRealTimeFactor);
  clock.set_real_time_factor(1);
  // A 5 s stall (window drag) is not paid back in one burst.
  EXPECT_LE(RunFrames(&clock, 1, 5.0, 0.001), 0.1 + 1e-9);
}

}  // namespace
}  // namespace stiction::app
