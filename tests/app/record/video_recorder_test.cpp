// VideoRecorder against the real ffmpeg/ffprobe (no display needed): an MP4
// with the frames, size, rate and orientation given; odd sizes rounded down
// to even; the PNG fallback when the encoder program is missing; lost frames
// and a failing ffmpeg reported, never silent. The faults of
// docs/recording-faults.md at this level: a file cut at any byte still
// decodes up to its last fragment, a recording killed with SIGKILL loses at
// most about a second, a full disk (/dev/full) stops it with the reason.
#include "app/record/video_recorder.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <signal.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "tests/app/record/ffprobe.h"
#include "tests/app/record/mp4_boxes.h"
#include "tests/support/scratch_dir.h"

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

// 16 x 16 pixel blocks of pseudo-random colours, each block changing every
// 15 frames (staggered): a picture that compresses like a busy scene, not
// like a flat one, so that fragments have realistic sizes.
std::vector<std::uint8_t> BlockFrame(int width, int height, int index) {
  std::vector<std::uint8_t> rgb(static_cast<size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const unsigned bx = static_cast<unsigned>(x / 16), by = static_cast<unsigned>(y / 16);
      unsigned h = bx * 73856093u ^ by * 19349663u ^ static_cast<unsigned>((index + static_cast<int>(bx + by)) / 15) * 83492791u;
      h ^= h >> 13;
      h *= 0x5bd1e995u;
      h ^= h >> 15;
      std::uint8_t* p = &rgb[(static_cast<size_t>(y) * width + x) * 3];
      p[0] = static_cast<std::uint8_t>(h);
      p[1] = static_cast<std::uint8_t>(h >> 8);
      p[2] = static_cast<std::uint8_t>(h >> 16);
    }
  }
  return rgb;
}

// Writes `frames` BlockFrames at 30 fps, 320 x 240, and closes; false on failure.
bool RecordBlocks(const std::string& path, int frames, std::string* error) {
  VideoRecorder recorder;
  VideoOptions options;
  options.path = path;
  options.width = 320;
  options.height = 240;
  options.fps = 30;
  if (!recorder.Open(options)) {
    *error = recorder.error();
    return false;
  }
  for (int i = 0; i < frames; ++i) {
    const auto rgb = BlockFrame(320, 240, i);
    recorder.AddFrame(rgb.data(), 320, 240);
  }
  const bool ok = recorder.Close();
  *error = recorder.error();
  return ok;
}

// `ffmpeg -v error -i file -f null -`: decodes every frame; returns the
// exit status and puts what it printed (errors only) in *output.
int DecodeAll(const std::string& path, std::string* output) {
  return test::RunCommand("ffmpeg -v error -nostdin -i '" + path + "' -f null -", output);
}

fs::path TempPath(const std::string& name) { return test::FreshTempPath("stiction-video-recorder-test", name); }

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

TEST(VideoRecorderTest, AnUnwritablePathFailsAtOpenWithThePathAndTheReason) {
  // The file is created before ffmpeg starts: the failure is immediate.
  const std::string file = "/nonexistent-stiction-dir/out.mp4";
  VideoRecorder recorder;
  VideoOptions options;
  options.path = file;
  options.width = 64;
  options.height = 48;
  EXPECT_FALSE(recorder.Open(options));
  EXPECT_FALSE(recorder.is_open());
  EXPECT_EQ(recorder.ffmpeg_pid(), -1);  // Nothing started.
  EXPECT_NE(recorder.error().find("'" + file + "'"), std::string::npos) << recorder.error();
  EXPECT_NE(recorder.error().find("No such file or directory"), std::string::npos) << recorder.error();
  EXPECT_EQ(recorder.error().find('\n'), std::string::npos);
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


// ---------------------------------------------------------------- faults

TEST(VideoRecorderTest, ACleanFileIsAnOrdinaryMp4WithAFragmentPerSecondThatSeeks) {
  const fs::path file = TempPath("clean.mp4");
  std::string error;
  ASSERT_TRUE(RecordBlocks(file.string(), 120, &error)) << error;
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.frames, 120);
  std::string duration;
  ASSERT_EQ(test::RunCommand("ffprobe -v error -show_entries format=duration -of csv=p=0 '" + file.string() + "'",
                             &duration),
            0);
  EXPECT_EQ(duration, "4.000000\n");  // 120 frames at 30 fps, exactly.
  std::string decode_errors;
  EXPECT_EQ(DecodeAll(file.string(), &decode_errors), 0);
  EXPECT_EQ(decode_errors, "");

  // ftyp, the (empty) moov, the fragments, the seek index (mfra) last.
  const test::Mp4Layout layout = test::ReadMp4Layout(file.string());
  ASSERT_GE(layout.boxes.size(), 4u);
  EXPECT_EQ(layout.boxes.front().type, "ftyp");
  EXPECT_EQ(layout.boxes[1].type, "moov");
  EXPECT_EQ(layout.boxes.back().type, "mfra");
  EXPECT_EQ(layout.boxes.back().offset + layout.boxes.back().size, layout.file_size);
  EXPECT_EQ(layout.fragment_frames, 120);
  EXPECT_GE(layout.fragments, 4);  // At least one keyframe (fragment) per second of video ...
  for (const std::int64_t frames : layout.frames_per_fragment) EXPECT_LE(frames, 30);  // ... so none is longer.

  // Players seek: asked for 2.5 s, ffprobe's first packet is the keyframe
  // before it, within the last second (keyframes are at most 1 s apart).
  std::string packets;
  ASSERT_EQ(test::RunCommand("ffprobe -v error -read_intervals 2.5% -select_streams v:0 -show_entries "
                             "packet=pts_time -of csv=p=0 '" + file.string() + "'",
                             &packets),
            0)
      << packets;
  const double first = std::stod(packets);
  EXPECT_GT(first, 1.5) << packets.substr(0, 200);
  EXPECT_LE(first, 2.5) << packets.substr(0, 200);
  fs::remove(file);
}

TEST(VideoRecorderTest, AFileCutAtAnyByteDecodesUpToItsLastFragment) {
  // A crash or a power loss cuts the file anywhere: at random bytes (fixed
  // seed, printed), the cut file decodes without a decoder failure and keeps
  // every frame whose fragment is complete: at most one fragment (<= 1 s,
  // 30 frames) of the frames wholly before the cut is lost.
  const fs::path file = TempPath("whole.mp4");
  std::string error;
  ASSERT_TRUE(RecordBlocks(file.string(), 150, &error)) << error;
  std::string listing;
  ASSERT_EQ(test::RunCommand("ffprobe -v error -select_streams v:0 -show_entries packet=pos,size -of "
                             "default=noprint_wrappers=1 '" + file.string() + "'",
                             &listing),
            0);
  std::vector<std::pair<long long, long long>> packets;  // (pos, size) [bytes]
  {
    std::istringstream lines(listing);
    std::string line;
    long long size = -1;
    while (std::getline(lines, line)) {
      if (line.rfind("size=", 0) == 0) size = std::stoll(line.substr(5));
      if (line.rfind("pos=", 0) == 0) packets.emplace_back(std::stoll(line.substr(4)), size);
    }
  }
  ASSERT_EQ(packets.size(), 150u) << listing.substr(0, 300);
  const test::Mp4Layout layout = test::ReadMp4Layout(file.string());
  ASSERT_EQ(layout.boxes.size(), 2 + 2 * layout.frames_per_fragment.size() + 1);  // ftyp moov (moof mdat)... mfra
  const long long header_end = layout.boxes[1].offset + layout.boxes[1].size;  // After the moov.
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  const unsigned seed = 20261124;
  std::mt19937 random(seed);
  std::uniform_int_distribution<long long> cut_at(header_end, static_cast<long long>(bytes.size()) - 1);
  const fs::path cut = TempPath("cut.mp4");
  for (int trial = 0; trial < 8; ++trial) {
    const long long at = cut_at(random);
    {
      std::ofstream out(cut, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), at);
    }
    long long before_cut = 0;  // Frames whose data lies wholly before the cut.
    for (const auto& [pos, size] : packets) before_cut += pos + size <= at ? 1 : 0;
    long long in_complete_fragments = 0;  // Frames of the fragments wholly before the cut.
    long long end = 0;
    for (size_t f = 0; f < layout.frames_per_fragment.size(); ++f) {
      // ftyp, moov, then moof and mdat per fragment: fragment f's mdat is box 3 + 2f.
      end = layout.boxes[3 + 2 * f].offset + layout.boxes[3 + 2 * f].size;
      if (end <= at) in_complete_fragments += layout.frames_per_fragment[f];
    }
    const test::VideoProbe probe = test::ProbeVideo(cut.string());
    std::printf("cut at byte %lld of %zu: %lld frames decoded, %lld in complete fragments, %lld wholly before the "
                "cut\n",
                at, bytes.size(), probe.ok ? probe.frames : 0, in_complete_fragments, before_cut);
    // A fragment is at most 1 s (30 frames): the complete ones hold all but
    // the last second before the cut.
    EXPECT_GE(in_complete_fragments, before_cut - 30) << "seed " << seed << ", cut at " << at;
    if (in_complete_fragments == 0) {  // Cut inside the first second: no video yet.
      EXPECT_TRUE(!probe.ok || probe.frames == 0) << probe.output.substr(0, 300);
      continue;
    }
    std::string decode_errors;
    EXPECT_EQ(DecodeAll(cut.string(), &decode_errors), 0) << "seed " << seed << ", cut at " << at;
    ASSERT_TRUE(probe.ok) << "seed " << seed << ", cut at " << at << ": " << probe.output.substr(0, 300);
    EXPECT_GE(probe.frames, in_complete_fragments) << "seed " << seed << ", cut at " << at;
  }
  fs::remove(cut);
  fs::remove(file);
}

TEST(VideoRecorderTest, ARecordingKilledWithSigkillLosesAboutASecond) {
  // A child process records until killed with SIGKILL (no chance to close
  // anything); it reports each frame AddFrame accepted. The file then
  // decodes without an error and holds all but the frames still in flight.
  const fs::path file = TempPath("killed.mp4");
  int report[2];
  ASSERT_EQ(pipe(report), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // Only the recording and write(): no gtest in here.
    close(report[0]);
    VideoRecorder recorder;
    VideoOptions options;
    options.path = file.string();
    options.width = 320;
    options.height = 240;
    options.fps = 30;
    if (!recorder.Open(options)) _exit(3);
    for (int i = 0;; ++i) {
      const auto rgb = BlockFrame(320, 240, i);
      if (!recorder.AddFrame(rgb.data(), 320, 240)) _exit(4);
      const long long accepted = recorder.frames_written();
      if (write(report[1], &accepted, sizeof accepted) != sizeof accepted) _exit(5);
    }
  }
  close(report[1]);
  long long accepted = 0, value = 0;
  // Until 6 s of video went in and the file holds at least 3 fragments.
  for (int polls = 0; polls < 100000; ++polls) {
    if (read(report[0], &value, sizeof value) != sizeof value) break;
    accepted = value;
    if (accepted >= 180 && accepted % 10 == 0 && test::ReadMp4Layout(file.string()).fragments >= 3) break;
  }
  ASSERT_GE(accepted, 180) << "the child stopped early";
  ASSERT_EQ(kill(child, SIGKILL), 0);
  while (read(report[0], &value, sizeof value) == sizeof value) accepted = value;  // Reported before dying.
  close(report[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

  std::string decode_errors;
  EXPECT_EQ(DecodeAll(file.string(), &decode_errors), 0);
  EXPECT_EQ(decode_errors, "");  // Whole fragments only: nothing cut off.
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  const test::Mp4Layout layout = test::ReadMp4Layout(file.string());
  EXPECT_EQ(layout.end_of_last_fragment, layout.file_size);
  EXPECT_EQ(probe.frames, layout.fragment_frames);
  // In flight when killed: the fragment being gathered (< 1 s = 30 frames,
  // a keyframe per second), the frames in the 1 MiB pipe to ffmpeg
  // (ceil(1 MiB / 230400 B) = 5) and the one frame x264 holds with
  // -tune zerolatency.
  const long long in_flight = 30 + 5 + 1;
  std::printf("SIGKILL: %lld frames accepted, %lld in the file (%lld lost; bound %lld)\n", accepted, probe.frames,
              accepted - probe.frames, in_flight);
  EXPECT_GE(probe.frames, accepted - in_flight);
  EXPECT_LE(probe.frames, accepted);
  fs::remove(file);
}

TEST(VideoRecorderTest, AFullDiskStopsTheRecordingWithTheReason) {
  // /dev/full: every write fails with ENOSPC, as on a full file system (the
  // tmpfs version with the viewer is in recording_faults_test).
  ASSERT_TRUE(fs::is_character_file("/dev/full")) << "this test needs /dev/full";
  VideoRecorder recorder;
  VideoOptions options;
  options.path = "/dev/full";
  options.width = 320;
  options.height = 240;
  ASSERT_TRUE(recorder.Open(options)) << recorder.error();
  int refused = 0;
  for (int i = 0; i < 150; ++i) {
    const auto rgb = BlockFrame(320, 240, i);
    if (!recorder.AddFrame(rgb.data(), 320, 240)) ++refused;
  }
  // The first fragment (~1 s) cannot be written: every later frame is refused.
  EXPECT_GT(refused, 60);
  EXPECT_NE(recorder.error().find("'/dev/full'"), std::string::npos) << recorder.error();
  EXPECT_NE(recorder.error().find("No space left on device"), std::string::npos) << recorder.error();
  EXPECT_EQ(recorder.error().find('\n'), std::string::npos);
  const pid_t ffmpeg = recorder.ffmpeg_pid();
  EXPECT_FALSE(recorder.Close());
  EXPECT_NE(recorder.error().find("No space left on device"), std::string::npos) << recorder.error();
  if (ffmpeg > 0) {
    EXPECT_NE(kill(ffmpeg, 0), 0);  // Waited for: gone.
  }
  EXPECT_EQ(recorder.ffmpeg_pid(), -1);
  EXPECT_TRUE(fs::is_character_file("/dev/full"));  // Never removed.
}

}  // namespace
}  // namespace stiction::app
