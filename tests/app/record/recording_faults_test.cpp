// Recordings that survive faults (docs/recording-faults.md), each fault done
// for real on the real viewer (under Xvfb: ctest runs this executable with
// xvfb-run), the real ffmpeg and ffprobe: SIGKILL mid-recording, SIGINT and
// SIGTERM, a tiny tmpfs that fills up and a read-only mount (both in a user
// and mount namespace: `unshare -rm`, no real root needed), and SIGKILL and
// SIGINT during a teleop command recording.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/command_player.h"
#include "engine/control/gripper_controller.h"
#include "engine/simulation.h"
#include "tests/app/record/ffprobe.h"
#include "tests/app/record/mp4_boxes.h"
#include "tests/app/run_command.h"
#include "tests/support/scratch_dir.h"

extern char** environ;

namespace stiction::app {
namespace {

namespace fs = std::filesystem;
using test::RunCommand;

const std::string kScenes = STICTION_SOURCE_DIR "/assets/scenes";
const std::string kExe = STICTION_APP_EXE;
const std::string kChild = STICTION_COMMAND_CHILD_EXE;

fs::path TempPath(const std::string& name) { return test::FreshTempPath("stiction-faults-test", name); }

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Starts `args` with stderr (and stdout unless stdout_fd >= 0) appended to
// `log`; the viewer's settings go to a scratch directory, not the user's.
pid_t Spawn(const std::vector<std::string>& args, const fs::path& log, int stdout_fd = -1) {
  static const fs::path config = TempPath("config");
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "XDG_CONFIG_HOME=", 16) != 0) env.emplace_back(*e);
  }
  env.push_back("XDG_CONFIG_HOME=" + config.string());
  std::vector<char*> envp, argv;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> a = args;
  for (std::string& s : a) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  }
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

// The exit status, or 128 + the signal that ended it.
int WaitExit(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

// The factor scripts/sanitize.sh sets in STICTION_TEST_TIMEOUT_SCALE (the
// instrumented viewer runs many times slower; ctest's timeouts get the same
// factor, tests/CMakeLists.txt); 1 otherwise.
double TimeoutScale() {
  const char* scale = std::getenv("STICTION_TEST_TIMEOUT_SCALE");
  const double value = scale != nullptr ? std::atof(scale) : 1.0;
  return value >= 1 ? value : 1.0;
}

// Polls `done` every 50 ms for up to `seconds` (times TimeoutScale()).
bool WaitFor(const std::function<bool()>& done, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds * TimeoutScale());
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

// The children of `pid` (its ffmpeg), from /proc.
std::vector<pid_t> Children(pid_t pid) {
  std::vector<pid_t> kids;
  std::error_code ec;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::istringstream list(ReadText(task.path() / "children"));
    pid_t kid = 0;
    while (list >> kid) kids.push_back(kid);
  }
  return kids;
}

// True once `pid` no longer runs (gone or a zombie waiting for its reaper).
bool Gone(pid_t pid) {
  const std::string stat = ReadText("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return true;
  const size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

// "... video saved to FILE (N frames, ..." -> N; -1 if absent.
long long SavedFrames(const std::string& log) {
  const size_t at = log.find("video saved to ");
  if (at == std::string::npos) return -1;
  const size_t open = log.find(" (", at);
  return open == std::string::npos ? -1 : std::atoll(log.c_str() + open + 2);
}

// The number after `key` in `text` (e.g. "at t = "); NaN if absent.
double NumberAfter(const std::string& text, const std::string& key) {
  const size_t at = text.find(key);
  return at == std::string::npos ? std::nan("") : std::atof(text.c_str() + at + key.size());
}

// The file decodes from start to end without a single decoder message.
void ExpectDecodesCleanly(const fs::path& file) {
  std::string errors;
  EXPECT_EQ(RunCommand("ffmpeg -v error -nostdin -i '" + file.string() + "' -f null -", &errors), 0) << errors;
  EXPECT_EQ(errors, "") << file;
}

// unshare -rm (a user and mount namespace) must work: the full-disk and
// read-only tests need it, and a missing one is a failure, not a skip.
void AssertUnshareWorks() {
  std::string out;
  ASSERT_EQ(RunCommand("unshare -rm true", &out), 0)
      << "`unshare -rm` does not work here (" << out
      << "): the tmpfs and read-only mount tests need user namespaces (util-linux unshare, "
         "kernel.unprivileged_userns_clone=1)";
}

std::vector<std::string> Headless(const std::string& scene, const fs::path& file, const std::string& duration,
                                  const std::string& size) {
  return {kExe, "--headless", kScenes + "/" + scene, "--record", file.string(), "--duration", duration, "--size",
          size};
}

// ---------------------------------------------------------------- video

TEST(RecordingFaultsTest, AViewerKilledWithSigkillLeavesAFileThatPlaysToItsLastFragment) {
  const fs::path file = TempPath("killed.mp4"), log = TempPath("killed.log");
  const pid_t pid = Spawn(Headless("clutter.yaml", file, "600", "320x240"), log);
  ASSERT_GT(pid, 0);
  // Until three fragments (>= 3 s of video) are on disk.
  const bool grown = WaitFor([&] { return test::ReadMp4Layout(file.string()).fragments >= 3; }, 25);
  const std::int64_t seen = test::ReadMp4Layout(file.string()).fragment_frames;
  const std::vector<pid_t> kids = Children(pid);
  kill(pid, SIGKILL);
  EXPECT_EQ(WaitExit(pid), 128 + SIGKILL);
  ASSERT_TRUE(grown) << ReadText(log);
  ASSERT_EQ(kids.size(), 1u) << "expected the viewer's ffmpeg";
  // Its ffmpeg, orphaned, sees its pipes close and exits: nothing left running.
  EXPECT_TRUE(WaitFor([&] { return Gone(kids[0]); }, 10)) << "ffmpeg " << kids[0] << " still runs";

  ExpectDecodesCleanly(file);
  const test::Mp4Layout layout = test::ReadMp4Layout(file.string());
  EXPECT_EQ(layout.end_of_last_fragment, layout.file_size);  // Whole fragments only.
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.frames, layout.fragment_frames);
  EXPECT_GE(probe.frames, seen);  // Nothing that was on disk before the kill is lost.
  std::printf("SIGKILL after %lld frames were on disk: the file plays %lld frames\n", static_cast<long long>(seen),
              probe.frames);
  fs::remove(file);
  fs::remove(log);
}

TEST(RecordingFaultsTest, SigintAndSigtermFinishTheHeadlessVideo) {
  for (const auto& [signal, code] : {std::pair{SIGINT, 130}, std::pair{SIGTERM, 143}}) {
    SCOPED_TRACE(signal == SIGINT ? "SIGINT" : "SIGTERM");
    const fs::path file = TempPath("signal.mp4"), log = TempPath("signal.log");
    const pid_t pid = Spawn(Headless("clutter.yaml", file, "600", "320x240"), log);
    ASSERT_GT(pid, 0);
    const bool started = WaitFor([&] { return test::ReadMp4Layout(file.string()).fragments >= 1; }, 25);
    const std::vector<pid_t> kids = Children(pid);
    kill(pid, signal);
    EXPECT_EQ(WaitExit(pid), code);
    ASSERT_TRUE(started) << ReadText(log);
    const std::string out = ReadText(log);
    EXPECT_NE(out.find(std::string("stiction: stopped by ") + (signal == SIGINT ? "SIGINT" : "SIGTERM") + " at t = "),
              std::string::npos)
        << out;
    const long long frames = SavedFrames(out);
    ASSERT_GT(frames, 0) << out;
    // Every frame the viewer wrote is in the file, and it was closed
    // properly (the seek index last).
    const test::VideoProbe probe = test::ProbeVideo(file.string());
    ASSERT_TRUE(probe.ok) << probe.output;
    EXPECT_EQ(probe.frames, frames);
    ExpectDecodesCleanly(file);
    EXPECT_EQ(test::ReadMp4Layout(file.string()).boxes.back().type, "mfra");
    for (const pid_t kid : kids) EXPECT_TRUE(Gone(kid)) << "ffmpeg " << kid << " left running";
    fs::remove(file);
    fs::remove(log);
  }
}

TEST(RecordingFaultsTest, SigtermFinishesAnInteractiveRecording) {
  const fs::path file = TempPath("interactive.mp4"), log = TempPath("interactive.log");
  const pid_t pid = Spawn({kExe, kScenes + "/falling_box.yaml", "--record", file.string()}, log);
  ASSERT_GT(pid, 0);
  const bool started = WaitFor([&] { return test::ReadMp4Layout(file.string()).fragments >= 1; }, 25);
  const std::vector<pid_t> kids = Children(pid);
  kill(pid, SIGTERM);
  EXPECT_EQ(WaitExit(pid), 143);
  ASSERT_TRUE(started) << ReadText(log);
  const std::string out = ReadText(log);
  EXPECT_NE(out.find("stiction: stopped by SIGTERM at t = "), std::string::npos) << out;
  const long long frames = SavedFrames(out);
  ASSERT_GT(frames, 0) << out;
  const test::VideoProbe probe = test::ProbeVideo(file.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.frames, frames);
  for (const pid_t kid : kids) EXPECT_TRUE(Gone(kid)) << "ffmpeg " << kid << " left running";
  fs::remove(file);
  fs::remove(log);
}

TEST(RecordingFaultsTest, AFullTmpfsEndsTheHeadlessVideoAndTheSimulationRunsOn) {
  AssertUnshareWorks();
  const fs::path dir = TempPath("full-disk"), kept = TempPath("full-kept.mp4");
  fs::create_directories(dir);
  // 300 KiB fills after about three fragments (seconds) of 480x360 clutter;
  // what is left is copied out before the namespace (and its tmpfs) goes away.
  std::string out;
  const int code = RunCommand(
      "unshare -rm sh -c 'mount -t tmpfs -o size=300k tmpfs " + dir.string() + " && \"" + kExe + "\" --headless " +
          kScenes + "/clutter.yaml --record " + dir.string() + "/full.mp4 --duration 12 --size 480x360; rc=$?; cp " +
          dir.string() + "/full.mp4 " + kept.string() + "; exit $rc'",
      &out);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("No space left on device"), std::string::npos) << out;
  EXPECT_NE(out.find("recording stopped after"), std::string::npos) << out;
  EXPECT_NE(out.find("video incomplete"), std::string::npos) << out;
  // The simulation ran to the last frame time, 359/30 s (printed with 6 digits).
  EXPECT_NEAR(NumberAfter(out, "the simulation ran on to t = "), 359.0 / 30.0, 0.01) << out;
  ASSERT_TRUE(fs::exists(kept)) << out;
  ExpectDecodesCleanly(kept);
  const test::Mp4Layout layout = test::ReadMp4Layout(kept.string());
  EXPECT_EQ(layout.end_of_last_fragment, layout.file_size);  // The cut-off fragment was removed.
  EXPECT_GE(layout.fragments, 1);
  const test::VideoProbe probe = test::ProbeVideo(kept.string());
  ASSERT_TRUE(probe.ok) << probe.output;
  EXPECT_EQ(probe.frames, layout.fragment_frames);
  std::printf("full 300 KiB tmpfs: %lld frames kept in %lld bytes\n", probe.frames,
              static_cast<long long>(layout.file_size));
  fs::remove_all(dir);
  fs::remove(kept);
}

TEST(RecordingFaultsTest, AFullTmpfsStopsAnInteractiveRecordingAndTheViewerRunsOn) {
  AssertUnshareWorks();
  const fs::path dir = TempPath("full-interactive"), log = TempPath("full-interactive.log");
  fs::create_directories(dir);
  // exec: the namespace's shell becomes the viewer, so the signal reaches it.
  const pid_t pid = Spawn({"unshare", "-rm", "sh", "-c",
                           "mount -t tmpfs -o size=300k tmpfs " + dir.string() + " && exec \"" + kExe + "\" " +
                               kScenes + "/clutter.yaml --record " + dir.string() + "/x.mp4"},
                          log);
  ASSERT_GT(pid, 0);
  const bool full = WaitFor([&] { return ReadText(log).find("No space left on device") != std::string::npos; }, 30);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // The viewer goes on simulating meanwhile.
  kill(pid, SIGTERM);
  EXPECT_EQ(WaitExit(pid), 143);
  const std::string out = ReadText(log);
  ASSERT_TRUE(full) << out;
  EXPECT_NE(out.find("recording stopped after"), std::string::npos) << out;
  // Simulated time went on after the recording stopped.
  // "(recording stopped after N frames, S s of simulated time)"
  const size_t stop_line = out.find("recording stopped after");
  const double stopped_at = NumberAfter(out.substr(stop_line == std::string::npos ? 0 : stop_line), "frames, ");
  const double ended_at = NumberAfter(out, "stopped by SIGTERM at t = ");
  EXPECT_GT(ended_at, stopped_at) << out;
  fs::remove_all(dir);
  fs::remove(log);
}

TEST(RecordingFaultsTest, AReadOnlyDirectoryIsNamedAtStartAndTheSimulationRuns) {
  AssertUnshareWorks();
  const fs::path dir = TempPath("read-only"), log = TempPath("read-only.log");
  fs::create_directories(dir);
  const std::string mount =
      "mount -t tmpfs tmpfs " + dir.string() + " && mount -o remount,ro " + dir.string() + " && ";
  const std::string file = dir.string() + "/x.mp4";
  // Headless: one line naming the path and the reason, exit 1.
  std::string out;
  const int code = RunCommand("unshare -rm sh -c '" + mount + "exec \"" + kExe + "\" --headless " + kScenes +
                                  "/falling_box.yaml --record " + file + " --duration 1 --size 320x240'",
                              &out);
  EXPECT_EQ(code, 1) << out;
  EXPECT_EQ(out, "stiction: video: cannot write '" + file + "': Read-only file system\n");
  // Interactive: the same message, and the simulation runs on.
  const pid_t pid = Spawn({"unshare", "-rm", "sh", "-c",
                           mount + "exec \"" + kExe + "\" " + kScenes + "/falling_box.yaml --record " + file},
                          log);
  ASSERT_GT(pid, 0);
  const bool said = WaitFor([&] { return ReadText(log).find("Read-only file system") != std::string::npos; }, 30);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(pid, SIGTERM);
  EXPECT_EQ(WaitExit(pid), 143);
  const std::string log_text = ReadText(log);
  ASSERT_TRUE(said) << log_text;
  EXPECT_NE(log_text.find("cannot write '" + file + "': Read-only file system"), std::string::npos) << log_text;
  // falling_box runs at real time: 1.5 s of wall time is well over 0.2 s simulated.
  EXPECT_GT(NumberAfter(log_text, "stopped by SIGTERM at t = "), 0.2) << log_text;
  fs::remove_all(dir);
  fs::remove(log);
}

// ---------------------------------------------------------------- commands

struct ReportedCommand {
  long long step = 0;
  double force = 0, wall = 0;  // [N], steady clock [s]
};

// Reads the child's "autosave PATH" and "command STEP FORCE WALL" lines.
void ReadChildLine(const std::string& line, std::string* autosave, std::vector<ReportedCommand>* commands,
                   bool* running) {
  std::istringstream in(line);
  std::string word;
  in >> word;
  if (word == "autosave") {
    in >> *autosave;
  } else if (word == "command") {
    ReportedCommand c;
    in >> c.step >> c.force >> c.wall;
    commands->push_back(c);
  } else if (word == "running") {
    *running = true;
  }
}

// The command-recording child (command_recording_child.cpp) and what it has
// reported on its stdout pipe so far.
struct CommandChild {
  pid_t pid = -1;
  FILE* lines = nullptr;
  std::string autosave;
  std::vector<ReportedCommand> commands;
  bool running = false;

  // Reads one reported line; false at the end of the child's output.
  bool ReadLine() {
    char buffer[256];
    if (std::fgets(buffer, sizeof buffer, lines) == nullptr) return false;
    ReadChildLine(buffer, &autosave, &commands, &running);
    return true;
  }
};

// Starts the child in `mode` ("kill" or "signal") autosaving into `dir`;
// pid stays -1 if it could not be started.
CommandChild StartCommandChild(const fs::path& dir, const std::string& mode, const fs::path& log) {
  CommandChild child;
  fs::create_directories(dir);
  int out[2];
  if (pipe(out) != 0) return child;
  child.pid = Spawn({kChild, dir.string(), mode}, log, out[1]);
  close(out[1]);
  child.lines = fdopen(out[0], "r");
  return child;
}

TEST(RecordingFaultsTest, ACommandRecordingKilledWithSigkillKeepsAllButTheLastSecond) {
  const fs::path dir = TempPath("commands-kill"), log = TempPath("commands-kill.log");
  CommandChild child = StartCommandChild(dir, "kill", log);
  ASSERT_GT(child.pid, 0);
  const pid_t pid = child.pid;
  // 3 s of wall time of commands (one per viewer frame).
  while (child.ReadLine()) {
    if (child.commands.size() > 1 && child.commands.back().wall - child.commands.front().wall > 3.0) break;
  }
  kill(pid, SIGKILL);
  const double killed_at = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  while (child.ReadLine()) {
  }
  std::fclose(child.lines);
  const std::string& autosave = child.autosave;
  const std::vector<ReportedCommand>& commands = child.commands;
  EXPECT_EQ(WaitExit(pid), 128 + SIGKILL);
  ASSERT_FALSE(autosave.empty()) << ReadText(log);
  ASSERT_GT(commands.size(), 10u) << ReadText(log);

  const CommandLog saved = LoadCommandFile(autosave);  // Throws (fails the test) if it does not load.
  std::map<std::pair<long long, double>, int> on_disk;
  for (const CommandEntry& e : saved.entries) {
    if (e.step && e.grip_force) ++on_disk[{*e.step, *e.grip_force}];
  }
  int older = 0, kept = 0;
  for (const ReportedCommand& c : commands) {
    if (c.wall < killed_at - 1.0) {  // Recorded more than a second before the kill: must be there.
      ++older;
      EXPECT_EQ(on_disk.count({c.step, c.force}), 1u) << "step " << c.step << ", " << c.force << " N";
    }
    kept += on_disk.count({c.step, c.force}) > 0 ? 1 : 0;
  }
  EXPECT_GT(older, 0);
  std::printf("SIGKILL: %zu commands recorded, %d more than 1 s before the kill, %d in the autosave\n",
              commands.size(), older, kept);
  // It replays: every command applies at its step of grasp_box.
  Simulation sim = Simulation::FromFile(kScenes + "/grasp_box.yaml");
  GripperController gripper(sim);
  CommandPlayer player(saved, sim.time_step());
  while (!player.finished()) {
    PrepareGripperStep(&sim, &gripper, &player);
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  }
  EXPECT_EQ(gripper.grip_force(), *saved.entries.back().grip_force);
  fs::remove_all(dir);
  fs::remove(log);
}

TEST(RecordingFaultsTest, SigintSavesTheCommandRecordingAndExits130) {
  const fs::path dir = TempPath("commands-int"), log = TempPath("commands-int.log");
  CommandChild child = StartCommandChild(dir, "signal", log);
  ASSERT_GT(child.pid, 0);
  const pid_t pid = child.pid;
  while (!child.running && child.ReadLine()) {
  }
  std::fclose(child.lines);
  const bool running = child.running;
  const std::string& autosave = child.autosave;
  const std::vector<ReportedCommand>& commands = child.commands;
  ASSERT_TRUE(running) << ReadText(log);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // Inside App::Run.
  kill(pid, SIGINT);
  EXPECT_EQ(WaitExit(pid), 130);
  const std::string text = ReadText(log);
  // The state command at t = 0 and the 50 grip forces.
  EXPECT_NE(text.find("stopped by SIGINT at t = "), std::string::npos) << text;
  EXPECT_NE(text.find("51 gripper commands autosaved to " + autosave), std::string::npos) << text;
  const CommandLog saved = LoadCommandFile(autosave);
  ASSERT_EQ(saved.entries.size(), 51u);
  ASSERT_EQ(commands.size(), 50u);
  for (size_t i = 0; i < commands.size(); ++i) {
    EXPECT_EQ(*saved.entries[i + 1].step, commands[i].step);
    EXPECT_EQ(*saved.entries[i + 1].grip_force, commands[i].force);
  }
  fs::remove_all(dir);
  fs::remove(log);
}

}  // namespace
}  // namespace stiction::app
