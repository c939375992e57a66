// Video recording in the viewer, with a real (hidden) window and OpenGL
// context: ctest runs this executable under
//   xvfb-run -a -s "-screen 0 1280x720x24 -noreset"
// The MP4s are made by the real ffmpeg and checked with the real ffprobe.
#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "app/app.h"
#include "tests/app/record/ffprobe.h"
#include "tests/app/run_command.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

namespace fs = std::filesystem;
using test::RunCommand;

const std::string kScenes = STICTION_SOURCE_DIR "/assets/scenes";
const std::string kExe = STICTION_APP_EXE;

fs::path TempPath(const std::string& name) { return test::FreshTempPath("stiction-video-test", name); }

int CountFiles(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
  return n;
}

// Mean absolute difference of two RGB images of the same size.
double MeanDifference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
  return sum / static_cast<double>(a.size());
}

// ---------------------------------------------------------------- headless

TEST(HeadlessRecordingTest, WritesDurationTimesFpsFramesOfH264) {
  // falling_box.yaml: δt = 1 ms, the box falls 0.5 m in the first 0.32 s.
  const fs::path file = TempPath("falling.mp4");
  std::string out;
  const int code = RunCommand(kExe + " --headless " + kScenes + "/falling_box.yaml --record " + file.string() +
                                  " --duration 1 --size 320x240",
                              &out);
  ASSERT_EQ(code, 0) << out;
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.codec, "h264");
  EXPECT_EQ(probe.width, 320);
  EXPECT_EQ(probe.height, 240);
  EXPECT_EQ(probe.frames, 30);  // 1 s x 30 fps.
  EXPECT_EQ(probe.frame_rate, "30/1");
  EXPECT_NE(out.find("30 frames"), std::string::npos) << out;

  // The video shows the simulation advancing: the camera frames the box at
  // t = 0 and it falls out of view by 0.3 s, so the first and last frames
  // differ, while the last two (a still scene) differ only by compression
  // noise (measured 5e-4 levels mean; the first-vs-last difference is ≈ 8.5).
  const auto first = test::DecodeFrame(file.string(), 0);
  const auto before_last = test::DecodeFrame(file.string(), 28);
  const auto last = test::DecodeFrame(file.string(), 29);
  ASSERT_EQ(first.size(), 320u * 240u * 3u);
  ASSERT_EQ(last.size(), first.size());
  ASSERT_EQ(before_last.size(), first.size());
  EXPECT_GT(MeanDifference(first, last), 2.0);
  EXPECT_LT(MeanDifference(before_last, last), 0.1);
  fs::remove(file);
}

TEST(HeadlessRecordingTest, FrameCountFollowsFpsAndDuration) {
  const fs::path file = TempPath("fps12.mp4");
  std::string out;
  ASSERT_EQ(RunCommand(kExe + " --headless " + kScenes + "/pendulum.yaml --record " + file.string() +
                           " --duration 1.25 --fps 12 --size 128x96",
                       &out),
            0)
      << out;
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.frames, 15);  // round(1.25 s x 12 fps).
  EXPECT_EQ(probe.frame_rate, "12/1");
  EXPECT_EQ(probe.width, 128);
  EXPECT_EQ(probe.height, 96);
  fs::remove(file);
}

TEST(HeadlessRecordingTest, WithoutFfmpegOnPathWritesPngsAndSaysSo) {
  // PATH without ffmpeg (the executable is given by its full path).
  const fs::path file = TempPath("nopath.mp4");
  const fs::path dir = TempPath("nopath-frames");
  std::string out;
  const int code = RunCommand("PATH=/nonexistent-stiction-bin " + kExe + " --headless " + kScenes +
                                  "/falling_box.yaml --record " + file.string() + " --duration 0.5 --size 160x120",
                              &out);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("not found on PATH"), std::string::npos) << out;
  EXPECT_NE(out.find(dir.string()), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(file));
  ASSERT_TRUE(fs::is_directory(dir));
  EXPECT_EQ(CountFiles(dir), 15);  // 0.5 s x 30 fps.
  int w = 0, h = 0, c = 0;
  stbi_uc* png = stbi_load((dir / "frame_000014.png").string().c_str(), &w, &h, &c, 3);
  ASSERT_NE(png, nullptr);
  EXPECT_EQ(w, 160);
  EXPECT_EQ(h, 120);
  stbi_image_free(png);
  fs::remove_all(dir);
}

TEST(HeadlessRecordingTest, AnUnwritablePathExitsOneWithOneLineNamingIt) {
  std::string out;
  const int code = RunCommand(kExe + " --headless " + kScenes + "/falling_box.yaml" +
                                  " --record /nonexistent-stiction-dir/x.mp4 --duration 1 --size 320x240",
                              &out);
  EXPECT_EQ(code, 1) << out;
  EXPECT_EQ(out.find('\n'), out.size() - 1) << out;  // Exactly one line.
  // The file is created before ffmpeg starts (docs/recording-faults.md).
  EXPECT_NE(out.find("'/nonexistent-stiction-dir/x.mp4': No such file or directory"), std::string::npos) << out;
}

TEST(HeadlessRecordingTest, UsageErrorsExitTwo) {
  std::string out;
  EXPECT_EQ(RunCommand(kExe + " --headless " + kScenes + "/falling_box.yaml", &out), 2) << out;
  EXPECT_NE(out.find("--headless needs --record"), std::string::npos) << out;
  out.clear();
  EXPECT_EQ(RunCommand(kExe + " --headless " + kScenes + "/falling_box.yaml --record x.mp4 --size 321x240", &out),
            2)
      << out;
  EXPECT_NE(out.find("even"), std::string::npos) << out;
}

// ---------------------------------------------------------------- interactive

AppOptions Interactive(const std::string& scene) {
  AppOptions o;
  o.scene_path = scene;
  o.width = 320;
  o.height = 240;
  o.visible = false;
  o.vsync = false;
  o.steps_per_frame = 5;  // falling_box: δt = 1 ms, 5 ms of simulated time per frame.
  return o;
}

TEST(ViewerRecordingTest, VTogglesRecordingAndFramesFollowSimulatedTime) {
  const fs::path dir = TempPath("viewer");
  fs::create_directories(dir);
  AppOptions o = Interactive(kScenes + "/falling_box.yaml");
  o.screenshot_dir = dir.string();
  App app(o);
  app.Frame();
  ASSERT_FALSE(app.video().recording());
  app.input().HandleKey(GLFW_KEY_V, GLFW_PRESS, 0);
  ASSERT_TRUE(app.video().recording()) << app.ui().message;
  const std::string path = app.video().recorder().output_path();
  EXPECT_EQ(fs::path(path).parent_path(), dir);
  EXPECT_EQ(fs::path(path).extension(), ".mp4");
  EXPECT_EQ(fs::path(path).filename().string().rfind("stiction-", 0), 0u) << path;
  EXPECT_TRUE(app.MakeView().recording);  // The indicator's input.
  for (int i = 0; i < 60; ++i) {
    app.Frame();
    // Frame-synchronous: after every frame, the frame due at the current
    // state has been written, one per 1/30 s of simulated time since t0.
    ASSERT_EQ(app.video().clock().Due(app.simulation().time()), 0) << i;
  }
  const std::int64_t frames = app.video().recorder().frames_written();
  // 60 frames x 5 steps = 0.3 s, but each frame's physics stops at a video
  // frame time, so the simulation lags; whatever it reached, the video holds
  // one frame per 1/30 s of it (frame 0 at the start of the recording).
  const double t0 = 0.005;  // One frame of 5 steps ran before V.
  EXPECT_EQ(frames, static_cast<std::int64_t>(std::floor((app.simulation().time() - t0) * 30 + 1e-6)) + 1);
  EXPECT_GE(frames, 8);
  app.input().HandleKey(GLFW_KEY_V, GLFW_PRESS, 0);
  EXPECT_FALSE(app.video().recording());
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  EXPECT_NE(app.ui().message.find("video saved"), std::string::npos) << app.ui().message;
  const test::VideoProbe probe = test::ProbeVideo(path);
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.frames, frames);
  // V records at the Recording section's frame size (default 720p), not the
  // window's: the view shows that frame letterboxed while recording.
  EXPECT_EQ(probe.width, 1280);
  EXPECT_EQ(probe.height, 720);
  fs::remove_all(dir);
}

TEST(ViewerRecordingTest, RecordedFramesAreTheSceneImage) {
  // With the PNG fallback the frames are lossless: the last one is exactly
  // the scene image of the last frame (no panels, no recording indicator).
  const fs::path file = TempPath("scene-image.mp4");
  const fs::path dir = TempPath("scene-image-frames");
  AppOptions o = Interactive(kScenes + "/falling_box.yaml");
  o.ffmpeg_program = "stiction-test-no-such-ffmpeg";
  App app(o);
  ASSERT_TRUE(app.StartRecording(file.string()));
  EXPECT_TRUE(app.ui().message_is_error);  // ffmpeg missing is said loudly.
  EXPECT_NE(app.ui().message.find("not found on PATH"), std::string::npos) << app.ui().message;
  // Run until a frame was written in the last App::Frame.
  std::int64_t before = 0;
  for (int i = 0; i < 40; ++i) {
    before = app.video().recorder().frames_written();
    app.Frame();
  }
  while (app.video().recorder().frames_written() == before) app.Frame();
  const std::int64_t frames = app.video().recorder().frames_written();
  int w = 0, h = 0;
  const std::vector<std::uint8_t> scene = app.capture().ReadPixels(&w, &h);
  ASSERT_TRUE(app.StopRecording()) << app.ui().message;
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06lld.png", static_cast<long long>(frames - 1));
  int pw = 0, ph = 0, pc = 0;
  stbi_uc* png = stbi_load((dir / name).string().c_str(), &pw, &ph, &pc, 3);
  ASSERT_NE(png, nullptr) << (dir / name);
  ASSERT_EQ(pw, w);
  ASSERT_EQ(ph, h);
  int differing = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* a = &scene[(static_cast<size_t>(h - 1 - y) * w + x) * 3];  // Bottom row first.
      const stbi_uc* b = png + (static_cast<size_t>(y) * w + x) * 3;
      differing += (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]) ? 1 : 0;
    }
  }
  EXPECT_EQ(differing, 0);
  stbi_image_free(png);
  fs::remove_all(dir);
}

TEST(ViewerRecordingTest, ALostFrameIsShownAndStopsTheRecording) {
  AppOptions o = Interactive(kScenes + "/falling_box.yaml");
  o.ffmpeg_program = "/bin/false";  // An encoder that exits at once: the frames cannot be written.
  const fs::path file = TempPath("lost.mp4");
  App app(o);
  ASSERT_TRUE(app.StartRecording(file.string()));  // "ffmpeg" starts, then is gone.
  for (int i = 0; i < 200 && app.video().recording(); ++i) app.Frame();
  ASSERT_FALSE(app.video().recording());
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("not written"), std::string::npos) << app.ui().message;
  EXPECT_NE(app.ui().message.find("recording stopped"), std::string::npos) << app.ui().message;
  EXPECT_FALSE(fs::exists(file));  // Not a byte of video: no empty file left behind.
}

// Issue 38: a video of a past stretch of the timeline, made after the fact
// from the kept states (nothing is stepped again), at the fixed simulated
// frame rate; with the previous branch's ghost on, both branches are in it.
TEST(ViewerRecordingTest, AVideoOfThePastHasAFramePerFrameTimeAndShowsTheGhost) {
  AppOptions o = Interactive(kScenes + "/grasp_box.yaml");
  o.steps_per_frame = 10;  // δt = 10 ms: 0.1 s per frame.
  App app(o);
  app.ui().video_width = 320;
  app.ui().video_height = 240;
  for (int i = 0; i < 30; ++i) app.Frame();  // 3 s: the box grasped and lifted.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  ASSERT_EQ(app.simulation().step_index(), 300);
  app.ScrubTo(250);
  app.Frame();

  // Ranges it cannot record are refused with the range it holds.
  EXPECT_FALSE(app.RecordTimelineVideo(1, 9, TempPath("never.mp4").string()));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("the timeline holds t = 0 to 3 s"), std::string::npos) << app.ui().message;
  EXPECT_FALSE(app.video().recording());

  auto record = [&](double from, double to, const fs::path& file) {
    EXPECT_TRUE(app.RecordTimelineVideo(from, to, file.string())) << app.ui().message;
    EXPECT_TRUE(app.MakeView().timeline_video);
    int frames = 0;
    while (app.timeline_video().active() && frames < 500) {
      app.Frame();
      ++frames;
    }
    EXPECT_FALSE(app.timeline_video().active());
    EXPECT_FALSE(app.video().recording());
    EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
    return frames;
  };
  const fs::path file = TempPath("timeline-1-2.mp4");
  record(1.0, 2.0, file);
  EXPECT_NE(app.ui().message.find("timeline video of t = 1.000 to 2.000 s: video saved to"), std::string::npos)
      << app.ui().message;
  EXPECT_NE(app.ui().message.find("31 frames"), std::string::npos) << app.ui().message;
  // Back where it was, nothing stepped, nothing dropped.
  EXPECT_EQ(app.simulation().step_index(), 250);
  EXPECT_EQ(app.physics().history().size(), 301);
  EXPECT_EQ(app.physics().history().cursor(), 250);
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.frames, 31);  // t = 1 + k / 30 s, k = 0 … 30.
  EXPECT_EQ(probe.frame_rate, "30/1");
  EXPECT_EQ(probe.width, 320);
  EXPECT_EQ(probe.height, 240);
  fs::remove(file);

  // A branch: back to 1.5 s, a slippery box, run on to 3 s. The video of
  // t = 2.5 to 3 s with the ghost shows the old run's lifted box too.
  app.ScrubTo(150);
  ContactMaterial slippery = app.simulation().GetMaterial("box_surface");
  slippery.friction = 0.1;
  app.SetMaterial("box_surface", slippery);
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  while (app.simulation().step_index() < 300) app.Frame();
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  ASSERT_GT(app.physics().history().previous_branch_size(), 0);
  const fs::path with_ghost = TempPath("timeline-ghost.mp4"), without = TempPath("timeline-no-ghost.mp4");
  record(2.5, 3.0, with_ghost);
  app.ui().show_branch_ghost = false;
  record(2.5, 3.0, without);
  const auto a = test::DecodeFrame(with_ghost.string(), 15);
  const auto b = test::DecodeFrame(without.string(), 15);
  ASSERT_EQ(a.size(), 320u * 240u * 3u);
  ASSERT_EQ(b.size(), a.size());
  // Pixels that changed by more than compression noise could (x264 at the
  // recorder's quality moves flat areas by a few levels).
  int changed = 0;
  for (std::size_t i = 0; i < a.size(); i += 3) {
    int d = 0;
    for (std::size_t c = 0; c < 3; ++c) d = std::max(d, std::abs(static_cast<int>(a[i + c]) - static_cast<int>(b[i + c])));
    changed += d > 24 ? 1 : 0;
  }
  std::printf("frame at t = 3.0 s with and without the ghost: %d of %d pixels differ by more than 24 levels\n",
              changed, 320 * 240);
  EXPECT_GT(changed, 200);  // Measured: 386 (the old run's box, lifted between the pads).
  EXPECT_EQ(test::ProbeVideo(without.string()).frames, 16);  // t = 2.5 + k / 30 s, k = 0 … 15.
  fs::remove(with_ghost);
  fs::remove(without);
}

}  // namespace
}  // namespace stiction::app
