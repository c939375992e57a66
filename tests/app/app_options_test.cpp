#include "app/app_options.h"

#include <gtest/gtest.h>

namespace stiction::app {
namespace {

TEST(AppOptionsTest, ParsesEveryOption) {
  const ParsedOptions p = ParseAppOptions({"scene.yaml", "--size", "640x360", "--headless-frames", "3",
                                           "--screenshot", "out.png", "--paused", "--rtf", "0.5",
                                           "--shaders", "/tmp/s", "--steps-per-frame", "2",
                                           "--replay", "take.yaml", "--set", "time_step=0.002", "--set",
                                           "materials.steel.friction=0.3"});
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.options.scene_path, "scene.yaml");
  EXPECT_EQ(p.options.width, 640);
  EXPECT_EQ(p.options.height, 360);
  EXPECT_EQ(p.options.headless_frames, 3);
  EXPECT_EQ(p.options.screenshot_path, "out.png");
  EXPECT_TRUE(p.options.paused);
  EXPECT_FALSE(p.options.visible);  // Headless frames: hidden window.
  EXPECT_EQ(p.options.real_time_factor, 0.5);
  EXPECT_EQ(p.options.shader_dir, "/tmp/s");
  EXPECT_EQ(p.options.steps_per_frame, 2);
  EXPECT_EQ(p.options.replay_path, "take.yaml");
  EXPECT_EQ(p.options.overrides, (std::vector<std::string>{"time_step=0.002", "materials.steel.friction=0.3"}));
}

TEST(AppOptionsTest, RefusesBadInputWithOneLine) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--size", "12"},
                                                                {"--rtf", "1000"},
                                                                {"--bogus"},
                                                                {"a.yaml", "b.yaml"},
                                                                {"--screenshot", "x.png"},
                                                                {"--headless-frames", "0"},
                                                                {"--replay"},
                                                                {"--set"},
                                                                {"--set", "friction"}}) {
    const ParsedOptions p = ParseAppOptions(args);
    EXPECT_FALSE(p.error.empty()) << args[0];
    EXPECT_EQ(p.error.find('\n'), std::string::npos);
  }
}

TEST(AppOptionsTest, ParsesRecordingOptions) {
  const ParsedOptions p = ParseAppOptions({"--headless", "scene.yaml", "--record", "out.mp4", "--duration", "2.5",
                                           "--fps", "24", "--size", "320x240"});
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_TRUE(p.options.headless);
  EXPECT_EQ(p.options.scene_path, "scene.yaml");
  EXPECT_EQ(p.options.record_path, "out.mp4");
  EXPECT_EQ(p.options.duration, 2.5);
  EXPECT_EQ(p.options.record_fps, 24);
  EXPECT_FALSE(p.options.visible);  // Headless: hidden window.
  // Interactive --record: a visible window that starts recording.
  const ParsedOptions q = ParseAppOptions({"--record", "out.mp4"});
  ASSERT_TRUE(q.error.empty()) << q.error;
  EXPECT_FALSE(q.options.headless);
  EXPECT_TRUE(q.options.visible);
  EXPECT_EQ(q.options.record_fps, 30);  // The default.
}

TEST(AppOptionsTest, DatasetImagesDefaultTo84x84InAHiddenWindow) {
  const ParsedOptions p = ParseAppOptions({"--dataset-images", "demos.hdf5"});
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.options.dataset_images_path, "demos.hdf5");
  EXPECT_EQ(p.options.width, 84);
  EXPECT_EQ(p.options.height, 84);
  EXPECT_EQ(p.options.dataset_demo, -1);
  EXPECT_FALSE(p.options.visible);
  const ParsedOptions q = ParseAppOptions({"--dataset-images", "demos.hdf5", "--demo", "2", "--size", "128x96"});
  ASSERT_TRUE(q.error.empty()) << q.error;
  EXPECT_EQ(q.options.dataset_demo, 2);
  EXPECT_EQ(q.options.width, 128);
  EXPECT_EQ(ParseAppOptions({"--demo", "2"}).error, "--demo needs --dataset-images FILE");
  EXPECT_EQ(ParseAppOptions({"--dataset-images", "d.hdf5", "--demo", "-1"}).error, "--demo: expected a demo index >= 0");
  EXPECT_EQ(ParseAppOptions({"--dataset-images", "d.hdf5", "--headless", "--record", "a.mp4"}).error,
            "--dataset-images cannot be combined with --headless, --headless-frames, --benchmark or --record");
}

TEST(AppOptionsTest, RefusesBadRecordingOptions) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--headless"},                                            // No --record.
           {"--headless", "--record", "a.mp4", "--size", "321x240"},  // Odd width.
           {"--headless", "--record", "a.mp4", "--headless-frames", "2"},
           {"--record", "a.mp4", "--benchmark"},
           {"--duration", "2"},  // Without --headless.
           {"--headless", "--record", "a.mp4", "--duration", "0"},
           {"--fps", "0"},
           {"--fps", "500"},
           {"--record"}}) {
    const ParsedOptions p = ParseAppOptions(args);
    EXPECT_FALSE(p.error.empty()) << args.back();
    EXPECT_EQ(p.error.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace stiction::app
