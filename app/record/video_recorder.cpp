#include "app/record/video_recorder.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "app/record/screenshot.h"
#include "engine/common/text.h"

extern char** environ;

namespace stiction::app {
namespace {

namespace fs = std::filesystem;

bool IsExecutableFile(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

std::string FormatFps(double fps) { return FormatNumber(fps, 6); }

// An unlinked temporary file for ffmpeg's stderr: still open, ffmpeg writes
// and we read; gone when both close it. -1 (with *error) if it cannot be made.
int MakeFfmpegLog(std::string* error) {
  const std::string log_template = (fs::temp_directory_path() / "stiction-ffmpeg-XXXXXX").string();
  std::vector<char> log_name(log_template.begin(), log_template.end());
  log_name.push_back('\0');
  const int log_fd = mkostemp(log_name.data(), O_CLOEXEC);
  if (log_fd < 0) {
    *error = std::string("video: cannot create a log file for ffmpeg: ") + std::strerror(errno);
    return -1;
  }
  unlink(log_name.data());
  return log_fd;
}

// The pipe to ffmpeg's stdin (in) and the one from its stdout (out); false
// (with *error, nothing left open) if they cannot be made.
bool MakeFfmpegPipes(int in[2], int out[2], std::string* error) {
  if (pipe2(in, O_CLOEXEC) != 0) {
    *error = std::string("video: cannot create a pipe to ffmpeg: ") + std::strerror(errno);
    return false;
  }
  if (pipe2(out, O_CLOEXEC) != 0) {
    *error = std::string("video: cannot create a pipe from ffmpeg: ") + std::strerror(errno);
    close(in[0]);
    close(in[1]);
    return false;
  }
  return true;
}

// ffmpeg's command line: raw RGB frames of width x height at `fps` from
// stdin, fragmented H.264 MP4 to stdout.
// A keyframe at least every second of video (-g), and a fragment at each
// keyframe: a cut-off file loses at most its last second. empty_moov: the
// header comes first and holds no sample table, so the stream needs no
// seeking back; default_base_moof: the fragments' offsets are relative to
// their own moof (what browsers and players expect of fragmented MP4).
// -tune zerolatency: no lookahead or B-frames, so the encoder holds about
// one frame instead of ~40 (x264's default lookahead): a viewer killed
// mid-recording loses at most about a second, not three (measured on the
// clutter scene: 31 vs 67 frames behind at 30 fps, for 28 % larger files
// at the same -crf; docs/recording-faults.md).
std::vector<std::string> FfmpegArgs(const std::string& program, int width, int height, double fps,
                                    const std::vector<std::string>& extra_output_args) {
  const int keyframe_interval = std::max(1, static_cast<int>(std::floor(fps)));
  std::vector<std::string> args = {program, "-y", "-hide_banner", "-loglevel", "error", "-nostdin",
                                   "-f", "rawvideo", "-pix_fmt", "rgb24",
                                   "-s", std::to_string(width) + "x" + std::to_string(height),
                                   "-r", FormatFps(fps), "-i", "pipe:0",
                                   "-an", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18",
                                   "-tune", "zerolatency", "-g", std::to_string(keyframe_interval),
                                   "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"};
  args.insert(args.end(), extra_output_args.begin(), extra_output_args.end());
  args.push_back("pipe:1");
  return args;
}

// Starts args[0] with `args`, stdin, stdout and stderr on the given
// descriptors; returns posix_spawn's result (0: started, *pid set).
// A process group of its own: a terminal's Ctrl+C (sent to the foreground
// group) reaches the viewer only, which then ends the video itself. Signals
// unblocked and at their defaults, whatever the caller's thread had.
int SpawnFfmpeg(std::vector<std::string> args, int stdin_fd, int stdout_fd, int stderr_fd, pid_t* pid) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdin_fd, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, stderr_fd, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  const int rc = posix_spawn(pid, args[0].c_str(), &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return rc;
}

// SIGPIPE blocked on this thread while writing to ffmpeg, so that a dead
// encoder turns into EPIPE (reported) instead of killing the viewer; a
// SIGPIPE raised meanwhile is consumed before the mask is restored.
class ScopedSigpipeBlock {
 public:
  ScopedSigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~ScopedSigpipeBlock() {
    const timespec zero{};
    while (sigtimedwait(&pipe_, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  ScopedSigpipeBlock(const ScopedSigpipeBlock&) = delete;
  ScopedSigpipeBlock& operator=(const ScopedSigpipeBlock&) = delete;

 private:
  sigset_t pipe_{}, old_{};
};

}  // namespace

VideoRecorder::~VideoRecorder() {
  if (is_open()) Close();
}

std::string VideoRecorder::FindProgram(const std::string& program) {
  if (program.empty()) return {};
  if (program.find('/') != std::string::npos) return IsExecutableFile(program) ? program : std::string();
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  const std::string dirs(path);
  size_t begin = 0;
  while (begin <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', begin), dirs.size());
    const std::string dir = end > begin ? dirs.substr(begin, end - begin) : std::string(".");
    const std::string candidate = dir + "/" + program;
    if (IsExecutableFile(candidate)) return candidate;
    begin = end + 1;
  }
  return {};
}

std::string VideoRecorder::PngDirectoryFor(const std::string& path) {
  fs::path p(path);
  if (p.has_extension()) p.replace_extension();
  return p.string() + "-frames";
}

bool VideoRecorder::Open(const VideoOptions& options) {
  if (is_open()) Close();
  error_.clear();
  notice_.clear();
  frames_written_ = frames_failed_ = 0;
  pipe_broken_ = false;
  width_ = options.width & ~1;  // Even: H.264 4:2:0 subsamples chroma 2x2.
  height_ = options.height & ~1;
  fps_ = options.fps;
  if (options.path.empty()) {
    error_ = "video: no output file given";
    return false;
  }
  if (width_ < 2 || height_ < 2) {
    error_ = "video: frame size " + std::to_string(options.width) + "x" + std::to_string(options.height) +
             " is too small";
    return false;
  }
  if (!(std::isfinite(fps_) && fps_ > 0)) {
    error_ = "video: the frame rate must be positive, got " + FormatFps(fps_);
    return false;
  }
  frame_.assign(static_cast<size_t>(width_) * height_ * 3, 0);
  const std::string program = FindProgram(options.ffmpeg);
  if (program.empty()) return OpenPngSequence(options);
  return OpenFfmpeg(program, options);
}

bool VideoRecorder::OpenPngSequence(const VideoOptions& options) {
  output_path_ = PngDirectoryFor(options.path);
  std::error_code ec;
  fs::create_directories(output_path_, ec);
  if (ec) {
    error_ = "video: '" + options.ffmpeg + "' is not on PATH and the PNG directory '" + output_path_ +
             "' cannot be created: " + ec.message();
    return false;
  }
  notice_ = "video: '" + options.ffmpeg + "' not found on PATH: writing a PNG sequence " + output_path_ +
            "/frame_%06d.png at " + FormatFps(fps_) + " fps instead of " + options.path;
  sink_ = VideoSink::kPngSequence;
  return true;
}

bool VideoRecorder::OpenFfmpeg(const std::string& program, const VideoOptions& options) {
  // The file first: an unwritable path is said at once, with the reason.
  if (!file_.Open(options.path)) {
    error_ = file_.error();
    return false;
  }
  const int log_fd = MakeFfmpegLog(&error_);
  if (log_fd < 0) {
    file_.Abandon();
    return false;
  }
  int in[2], out[2];  // Frames to ffmpeg's stdin; the MP4 stream from its stdout.
  if (!MakeFfmpegPipes(in, out, &error_)) {
    close(log_fd);
    file_.Abandon();
    return false;
  }
  // A larger pipe lets ffmpeg read whole frames while we render the next.
  fcntl(in[1], F_SETPIPE_SZ, 1 << 20);
  pid_t pid = -1;
  const int rc = SpawnFfmpeg(FfmpegArgs(program, width_, height_, fps_, options.extra_output_args), in[0], out[1],
                             log_fd, &pid);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    close(log_fd);
    file_.Abandon();
    error_ = "video: cannot start '" + program + "': " + std::strerror(rc);
    return false;
  }
  // -nostdin only stops ffmpeg's interactive keys; "pipe:0" still reads frames.
  pid_ = pid;
  pipe_fd_ = in[1];
  stderr_log_fd_ = log_fd;
  file_.Start(out[0]);
  output_path_ = options.path;
  sink_ = VideoSink::kFfmpeg;
  return true;
}

void VideoRecorder::ConvertFrame(const std::uint8_t* rgb, int width, int height) {
  const size_t row_bytes = static_cast<size_t>(width_) * 3;
  const size_t copy_bytes = static_cast<size_t>(std::min(width, width_)) * 3;
  for (int r = 0; r < height_; ++r) {  // r: output row, top first.
    std::uint8_t* out = frame_.data() + static_cast<size_t>(r) * row_bytes;
    if (r < height) {
      const std::uint8_t* in = rgb + static_cast<size_t>(height - 1 - r) * width * 3;
      std::memcpy(out, in, copy_bytes);
      std::memset(out + copy_bytes, 0, row_bytes - copy_bytes);
    } else {
      std::memset(out, 0, row_bytes);
    }
  }
}

void VideoRecorder::Fail(std::string message) {
  ++frames_failed_;
  error_ = std::move(message);
}

bool VideoRecorder::AddFrame(const std::uint8_t* rgb, int width, int height) {
  const std::string frame_name = "video frame " + std::to_string(frames_written_ + frames_failed_);
  if (!is_open()) {
    Fail(frame_name + " not written: the video is not open");
    return false;
  }
  if (rgb == nullptr || width <= 0 || height <= 0) {
    Fail(frame_name + " not written: no pixels (" + std::to_string(width) + "x" + std::to_string(height) + ")");
    return false;
  }
  ConvertFrame(rgb, width, height);
  if (sink_ == VideoSink::kPngSequence) {
    char name[32];
    std::snprintf(name, sizeof name, "/frame_%06lld.png", static_cast<long long>(frames_written_));
    const std::string file = output_path_ + name;
    if (!WritePng(file, frame_, width_, height_, /*bottom_row_first=*/false)) {
      Fail(frame_name + " not written: cannot write " + file);
      return false;
    }
    ++frames_written_;
    return true;
  }
  if (pipe_broken_) {
    Fail(frame_name + " not written: ffmpeg is no longer running (" + error_ + ")");
    return false;
  }
  if (file_.failed()) {  // Full disk, I/O error: the file keeps its complete fragments.
    pipe_broken_ = true;
    close(pipe_fd_);
    pipe_fd_ = -1;
    Fail(frame_name + " not written: " + file_.error());
    return false;
  }
  if (!WriteToPipe(frame_.data(), frame_.size())) return false;
  ++frames_written_;
  return true;
}

bool VideoRecorder::WriteToPipe(const std::uint8_t* data, size_t size) {
  const std::string frame_name = "video frame " + std::to_string(frames_written_ + frames_failed_);
  ScopedSigpipeBlock block;
  while (size > 0) {
    const ssize_t n = write(pipe_fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      pipe_broken_ = true;
      close(pipe_fd_);
      pipe_fd_ = -1;
      if (err == EPIPE) {
        const int status = WaitForFfmpeg();
        const std::string last = FfmpegLastLine();
        if (file_.failed()) {  // ffmpeg stopped because the file could not be written.
          Fail(frame_name + " not written: " + file_.error());
          return false;
        }
        Fail(frame_name + " not written: ffmpeg closed its input (exit status " + std::to_string(status) +
             (last.empty() ? ")" : ": " + last + ")"));
      } else {
        Fail(frame_name + " not written: writing to ffmpeg failed: " + std::strerror(err));
      }
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

int VideoRecorder::WaitForFfmpeg() {
  if (pid_ <= 0) return -1;
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &status, 0);
  } while (r < 0 && errno == EINTR);
  pid_ = -1;
  if (r < 0) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

std::string VideoRecorder::FfmpegLastLine() const {
  std::string text;
  char buffer[4096];
  off_t offset = 0;
  ssize_t n = 0;
  while (stderr_log_fd_ >= 0 && (n = pread(stderr_log_fd_, buffer, sizeof buffer, offset)) > 0) {
    text.append(buffer, static_cast<size_t>(n));
    offset += n;
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const size_t start = text.find_last_of('\n');
  return start == std::string::npos ? text : text.substr(start + 1);
}

bool VideoRecorder::Close() {
  if (!is_open()) return error_.empty();
  bool ok = frames_failed_ == 0;
  if (sink_ == VideoSink::kFfmpeg) {
    if (pipe_fd_ >= 0) {
      close(pipe_fd_);
      pipe_fd_ = -1;
    }
    const bool already_reaped = pid_ <= 0;
    const int status = WaitForFfmpeg();
    const bool written = file_.Finish();  // ffmpeg is gone: the stream has ended.
    if (!written) {
      // Unless the lost frame's message already says it.
      if (frames_failed_ == 0 || error_.find(file_.error()) == std::string::npos) error_ = file_.error();
      ok = false;
    } else if (!already_reaped && status != 0) {
      const std::string last = FfmpegLastLine();
      error_ = "video: ffmpeg failed to write " + output_path_ + " (exit status " + std::to_string(status) +
               (last.empty() ? ")" : "): " + last);
      ok = false;
    }
    if (stderr_log_fd_ >= 0) close(stderr_log_fd_);
    stderr_log_fd_ = -1;
  }
  if (ok && frames_written_ == 0) {
    error_ = "video: no frame was written to " + output_path_;
    ok = false;
  }
  sink_ = VideoSink::kNone;
  return ok;
}

}  // namespace stiction::app
