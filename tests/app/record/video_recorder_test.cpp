// VideoRecorder against the real ffmpeg/ffprobe (no display needed): an MP4
// with the frames, size, rate and orientation given; odd sizes rounded down
// to even; the PNG fallback when the encoder program is missing; lost frames
// and a failing ffmpeg reported, never silent.
#include "app/record/video_recorder.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "tests/app/record/ffprobe.h"

namespace stiction::app {
namespace {

namespace fs = std::filesystem;

// A frame whose top half is red and bottom half blue, with a grey level
// that changes from frame to frame; rows bottom first (glReadPixels order).
std::vector<std::uint8_t> TwoColourFrame(int width, int height, int index) {
  std::vector<std::uint8_t> rgb(static_cast<size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y) {  // y = 0: bottom row.
    const bool top = y >= height / 2;
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = &rgb[(static_cast<size_t>(y) * width + x) * 3];
      p[0] = top ? 220 : 20;
      p[1] = static_cast<std::uint8_t>(4 * index);
      p[2] = top ? 20 : 220;
    }
  }
  return rgb;
}

fs::path TempPath(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("stiction-video-recorder-test-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(p);
  return p;
}

TEST(VideoRecorderTest, WritesAnH264Mp4ThatFfprobeReads) {
  const fs::path file = TempPath("ok.mp4");
  VideoRecorder recorder;
  VideoOptions options;
  options.path = file.string();
  options.width = 96;
  options.height = 64;
  options.fps = 25;
  ASSERT_TRUE(recorder.Open(options)) << recorder.error();
  EXPECT_EQ(recorder.sink(), VideoSink::kFfmpeg);
  EXPECT_TRUE(recorder.notice().empty());
  for (int i = 0; i < 12; ++i) {
    const auto rgb = TwoColourFrame(96, 64, i);
    ASSERT_TRUE(recorder.AddFrame(rgb.data(), 96, 64)) << recorder.error();
  }
  ASSERT_TRUE(recorder.Close()) << recorder.error();
  EXPECT_EQ(recorder.frames_written(), 12);
  EXPECT_EQ(recorder.frames_failed(), 0);

  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.codec, "h264");
  EXPECT_EQ(probe.pixel_format, "yuv420p");
  EXPECT_EQ(probe.width, 96);
  EXPECT_EQ(probe.height, 64);
  EXPECT_EQ(probe.frames, 12);
  EXPECT_EQ(probe.frame_rate, "25/1");

  // Upright: the top of the decoded picture is the red half. H.264 at
  // crf 18 on flat colours is within a few levels; 60 separates red from blue.
  const std::vector<std::uint8_t> top_first = test::DecodeFrame(file.string(), 5);
  ASSERT_EQ(top_first.size(), 96u * 64u * 3u);
  const std::uint8_t* top = &top_first[(8 * 96 + 48) * 3];
  const std::uint8_t* bottom = &top_first[(56 * 96 + 48) * 3];
  EXPECT_NEAR(top[0], 220, 60);
  EXPECT_NEAR(top[2], 20, 60);
  EXPECT_NEAR(bottom[0], 20, 60);
  EXPECT_NEAR(bottom[2], 220, 60);
  fs::remove(file);
}

TEST(VideoRecorderTest, OddSizesAreRoundedDownToEven) {
  const fs::path file = TempPath("odd.mp4");
  VideoRecorder recorder;
  VideoOptions options;
  options.path = file.string();
  options.width = 65;
  options.height = 49;
  ASSERT_TRUE(recorder.Open(options)) << recorder.error();
  EXPECT_EQ(recorder.width(), 64);
  EXPECT_EQ(recorder.height(), 48);
  const auto rgb = TwoColourFrame(65, 49, 0);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(recorder.AddFrame(rgb.data(), 65, 49)) << recorder.error();
  ASSERT_TRUE(recorder.Close()) << recorder.error();
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.width, 64);
  EXPECT_EQ(probe.height, 48);
  EXPECT_EQ(probe.frames, 3);
  fs::remove(file);
}

TEST(VideoRecorderTest, WithoutFfmpegWritesAPngSequenceAndSaysSo) {
  const fs::path file = TempPath("png.mp4");
  const fs::path dir = TempPath("png-frames");
  VideoRecorder recorder;
  VideoOptions options;
  options.path = file.string();
  options.width = 40;
  options.height = 30;
  options.ffmpeg = "stiction-test-no-such-ffmpeg";
  ASSERT_TRUE(recorder.Open(options)) << recorder.error();
  EXPECT_EQ(recorder.sink(), VideoSink::kPngSequence);
  EXPECT_EQ(recorder.output_path(), dir.string());
  EXPECT_NE(recorder.notice().find("not found on PATH"), std::string::npos) << recorder.notice();
  for (int i = 0; i < 4; ++i) {
    const auto rgb = TwoColourFrame(40, 30, i);
    ASSERT_TRUE(recorder.AddFrame(rgb.data(), 40, 30)) << recorder.error();
  }
  ASSERT_TRUE(recorder.Close()) << recorder.error();
  EXPECT_FALSE(fs::exists(file));
  int count = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++count;
  }
  EXPECT_EQ(count, 4);
  // Lossless and upright: frame 3's top-left pixel is exactly the red half's.
  int w = 0, h = 0, c = 0;
  stbi_uc* png = stbi_load((dir / "frame_000003.png").string().c_str(), &w, &h, &c, 3);
  ASSERT_NE(png, nullptr);
  EXPECT_EQ(w, 40);
  EXPECT_EQ(h, 30);
  EXPECT_EQ(png[0], 220);
  EXPECT_EQ(png[1], 12);
  EXPECT_EQ(png[2], 20);
  stbi_image_free(png);
  fs::remove_all(dir);
}

TEST(VideoRecorderTest, FramesAfterFfmpegExitedAreReported) {
  // ffmpeg told to stop after one frame closes its input: the frames after
  // it cannot be written and each one says so.
  const fs::path file = TempPath("early-exit.mp4");
  VideoRecorder recorder;
  VideoOptions options;
  options.path = file.string();
  options.width = 320;
  options.height = 240;
  options.extra_output_args = {"-frames:v", "1"};
  ASSERT_TRUE(recorder.Open(options)) << recorder.error();
  const auto rgb = TwoColourFrame(320, 240, 0);
  int refused = 0;
  for (int i = 0; i < 60; ++i) {
    if (!recorder.AddFrame(rgb.data(), 320, 240)) ++refused;
  }
  EXPECT_GT(refused, 0);
  EXPECT_EQ(recorder.frames_failed(), refused);
  EXPECT_EQ(recorder.frames_written() + recorder.frames_failed(), 60);
  EXPECT_NE(recorder.error().find("ffmpeg closed its input"), std::string::npos) << recorder.error();
  EXPECT_EQ(recorder.error().find('\n'), std::string::npos);
  EXPECT_FALSE(recorder.Close());
  fs::remove(file);
}

TEST(VideoRecorderTest, AnFfmpegThatCannotWriteTheFileIsReported) {
  const std::string file = "/nonexistent-stiction-dir/out.mp4";
  VideoRecorder recorder;
  VideoOptions options;
  options.path = file;
  options.width = 64;
  options.height = 48;
  ASSERT_TRUE(recorder.Open(options)) << recorder.error();  // ffmpeg starts; the output fails later.
  const auto rgb = TwoColourFrame(64, 48, 0);
  for (int i = 0; i < 30; ++i) recorder.AddFrame(rgb.data(), 64, 48);
  EXPECT_FALSE(recorder.Close());
  EXPECT_NE(recorder.error().find("ffmpeg"), std::string::npos) << recorder.error();
  EXPECT_NE(recorder.error().find("exit status 1"), std::string::npos) << recorder.error();
}

TEST(VideoRecorderTest, RefusesBadOptions) {
  VideoRecorder recorder;
  VideoOptions options;
  options.path = TempPath("bad.mp4").string();
  options.width = 1;
  options.height = 48;
  EXPECT_FALSE(recorder.Open(options));
  EXPECT_NE(recorder.error().find("too small"), std::string::npos) << recorder.error();
  options.width = 64;
  options.fps = 0;
  EXPECT_FALSE(recorder.Open(options));
  EXPECT_NE(recorder.error().find("frame rate"), std::string::npos) << recorder.error();
  EXPECT_FALSE(recorder.is_open());
  const auto rgb = TwoColourFrame(64, 48, 0);
  EXPECT_FALSE(recorder.AddFrame(rgb.data(), 64, 48));  // Not open: refused, counted.
  EXPECT_EQ(recorder.frames_failed(), 1);
}

TEST(VideoRecorderTest, FindsProgramsOnPath) {
  EXPECT_FALSE(VideoRecorder::FindProgram("sh").empty());
  EXPECT_TRUE(VideoRecorder::FindProgram("stiction-test-no-such-program").empty());
  EXPECT_EQ(VideoRecorder::FindProgram("/bin/sh"), "/bin/sh");
  EXPECT_EQ(VideoRecorder::PngDirectoryFor("/tmp/a/run.mp4"), "/tmp/a/run-frames");
}

}  // namespace
}  // namespace stiction::app
