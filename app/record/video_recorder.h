#pragma once
// Writes a video from RGB frames: H.264 in a fragmented MP4 by piping raw
// frames to the `ffmpeg` program (libx264, yuv420p, fixed frame rate), or,
// when ffmpeg is not on PATH, a PNG sequence (frame_000000.png, ...) in a
// directory next to the requested file. Nothing here knows about OpenGL or
// the simulation: the caller decides when a frame is due (VideoFrameClock)
// and passes pixels.
//
// Surviving faults (docs/recording-faults.md): ffmpeg writes a fragmented
// MP4 (a keyframe, hence a fragment, at least every second of video) to its
// stdout, and Mp4FragmentWriter copies it into the file one whole fragment
// at a time, so a file cut off by a crash, a kill or a power loss plays up
// to its last fragment. ffmpeg runs in a process group of its own: a
// terminal's Ctrl+C reaches only the viewer, which then finishes the file.
// The output file is opened before ffmpeg starts: an unwritable path fails
// Open with the path and the reason.
//
// Failures are never silent: a frame that cannot be written (a full disk,
// ffmpeg closed its input, a write error, a PNG that cannot be saved) makes
// AddFrame return false, counts as failed, and error() says why in one line;
// after that every further frame fails too, and the file keeps its complete
// fragments. Close() reports ffmpeg's exit status and the last line it
// printed.
//
// H.264 with 4:2:0 chroma needs even width and height: the video size is the
// size given to Open rounded down to even, and every frame is cropped (or
// padded with black) to it, anchored at the top-left corner.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/record/mp4_fragment_writer.h"

namespace stiction::app {

struct VideoOptions {
  std::string path;            ///< Output file, e.g. "out.mp4".
  int width = 0, height = 0;   ///< Frame size [pixels]; rounded down to even.
  double fps = 30.0;           ///< Frames per second of the video (> 0).
  /// The encoder program: looked up on PATH unless it contains a '/'.
  /// Missing: the PNG-sequence fallback.
  std::string ffmpeg = "ffmpeg";
  /// Output options added before the output (after -c:v libx264 -pix_fmt
  /// yuv420p -crf 18 -tune zerolatency, the keyframe interval and the
  /// fragmented-MP4 flags),
  /// e.g. {"-preset", "veryfast"}.
  std::vector<std::string> extra_output_args;
};

enum class VideoSink { kNone, kFfmpeg, kPngSequence };

class VideoRecorder {
 public:
  VideoRecorder() = default;
  ~VideoRecorder();  ///< Closes (finalizes the file) if still open.
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  /// Creates the file and starts ffmpeg (or creates the PNG directory).
  /// False, with error(), when the size is too small, the options are bad,
  /// the file cannot be written (the path and the reason) or nothing can be
  /// started.
  bool Open(const VideoOptions& options);
  /// Appends one frame: RGB, 3 bytes per pixel, rows bottom first (the order
  /// of glReadPixels), `width` x `height` pixels (cropped or padded to the
  /// video size). False when the frame was not written (see error()).
  bool AddFrame(const std::uint8_t* rgb, int width, int height);
  /// Ends the video: closes ffmpeg's input, waits for it to finish the
  /// stream and for the file to be written and synced. False, with error(),
  /// when ffmpeg or a write failed or frames were lost.
  bool Close();

  bool is_open() const { return sink_ != VideoSink::kNone; }
  VideoSink sink() const { return sink_; }
  /// The MP4 file, or the directory of the PNG sequence.
  const std::string& output_path() const { return output_path_; }
  /// A line for the user on Open (e.g. that ffmpeg is missing and PNGs are
  /// written instead); empty if there is nothing to say.
  const std::string& notice() const { return notice_; }
  /// The last failure, one line; empty if none.
  const std::string& error() const { return error_; }
  std::int64_t frames_written() const { return frames_written_; }
  std::int64_t frames_failed() const { return frames_failed_; }
  /// MP4: complete fragments in the file so far (about one per second).
  std::int64_t fragments_written() const { return file_.fragments_written(); }
  /// ffmpeg's process id while it runs, else -1 (tests check it is gone).
  pid_t ffmpeg_pid() const { return pid_; }
  int width() const { return width_; }
  int height() const { return height_; }
  double fps() const { return fps_; }

  /// Full path of `program` if it is an executable found on PATH (or the
  /// program itself if it contains a '/' and is executable); empty if not.
  static std::string FindProgram(const std::string& program);
  /// "out.mp4" -> "out-frames": where the PNG fallback writes.
  static std::string PngDirectoryFor(const std::string& path);

 private:
  bool OpenFfmpeg(const std::string& program, const VideoOptions& options);
  bool OpenPngSequence(const VideoOptions& options);
  /// Copies a bottom-first frame into frame_ (top row first, video size).
  void ConvertFrame(const std::uint8_t* rgb, int width, int height);
  bool WriteToPipe(const std::uint8_t* data, size_t size);
  /// Waits for ffmpeg; returns its exit status (or -1) and sets ffmpeg_status_.
  int WaitForFfmpeg();
  std::string FfmpegLastLine() const;
  void Fail(std::string message);

  VideoSink sink_ = VideoSink::kNone;
  std::string output_path_, notice_, error_;
  int width_ = 0, height_ = 0;
  double fps_ = 30.0;
  std::int64_t frames_written_ = 0, frames_failed_ = 0;
  std::vector<std::uint8_t> frame_;  // Top row first, width_ x height_ x 3.
  // ffmpeg.
  pid_t pid_ = -1;
  int pipe_fd_ = -1;
  bool pipe_broken_ = false;
  // ffmpeg's stderr: an unlinked temporary file (nothing is left behind even
  // if the viewer is killed), read for error messages.
  int stderr_log_fd_ = -1;
  // The MP4 file, written from ffmpeg's stdout.
  Mp4FragmentWriter file_;
};

}  // namespace stiction::app
