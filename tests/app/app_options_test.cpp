#include "app/app_options.h"

#include <gtest/gtest.h>

namespace stiction::app {
namespace {

TEST(AppOptionsTest, ParsesEveryOption) {
  const ParsedOptions p = ParseAppOptions({"scene.yaml", "--size", "640x360", "--headless-frames", "3",
                                           "--screenshot", "out.png", "--paused", "--rtf", "0.5",
                                           "--shaders", "/tmp/s", "--steps-per-frame", "2",
                                           "--replay", "take.yaml"});
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
}

TEST(AppOptionsTest, RefusesBadInputWithOneLine) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--size", "12"},
                                                                {"--rtf", "1000"},
                                                                {"--bogus"},
                                                                {"a.yaml", "b.yaml"},
                                                                {"--screenshot", "x.png"},
                                                                {"--headless-frames", "0"},
                                                                {"--replay"}}) {
    const ParsedOptions p = ParseAppOptions(args);
    EXPECT_FALSE(p.error.empty()) << args[0];
    EXPECT_EQ(p.error.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace stiction::app
