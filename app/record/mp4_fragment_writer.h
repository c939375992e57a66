#pragma once
// Copies a fragmented MP4 stream (ffmpeg's stdout) into the video file, one
// whole fragment at a time, on a thread of its own.
//
// Why the viewer writes the file and not ffmpeg: ffmpeg 5.1 ignores a write
// error on its output (a full disk leaves a cut file and exit status 0), and
// an unwritable path would only show once ffmpeg failed. Here the file is
// opened before ffmpeg starts (a clear error naming the path) and every
// write is checked.
//
// The stream is a sequence of top-level MP4 boxes: ftyp, moov (empty), then
// moof + mdat pairs (one fragment per keyframe, i.e. at least one per second
// of video), then mfra (the seek index) at the end. Bytes are held until a
// box other than moof completes and written with one write() call, so the
// file on disk always ends at a fragment boundary: a crash or a kill leaves
// a file that plays up to its last fragment. After each fragment the data
// is handed to the disk (fdatasync), so that a power loss costs at most the
// fragments in flight. A failed write (full disk, I/O error) truncates the
// file back to the last complete fragment, stops copying and closes the
// stream (ffmpeg then exits on a broken pipe); failed() and error() say so.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace stiction::app {

class Mp4FragmentWriter {
 public:
  Mp4FragmentWriter() = default;
  ~Mp4FragmentWriter();  ///< Finish() if still running.
  Mp4FragmentWriter(const Mp4FragmentWriter&) = delete;
  Mp4FragmentWriter& operator=(const Mp4FragmentWriter&) = delete;

  /// Creates (truncates) `path`. False, with error() naming the path and the
  /// reason (e.g. "Read-only file system"), if it cannot be written.
  bool Open(const std::string& path);
  /// Starts copying from `read_fd` (the read end of ffmpeg's stdout; owned
  /// from now on) on a thread; signals stay with the caller's threads.
  void Start(int read_fd);
  /// Waits for the end of the stream (ffmpeg closed its stdout), writes
  /// what is left, syncs and closes the file. False if a write failed (or
  /// nothing was ever opened). Removes the file (a regular one) when no byte
  /// reached it.
  bool Finish();
  /// Closes the file without a thread ever started (ffmpeg could not start);
  /// removes it.
  void Abandon();

  /// True once a write failed; the thread has stopped reading.
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  /// The failure in one line; empty if none.
  std::string error() const;
  /// Bytes in the file that end at a fragment boundary.
  std::int64_t bytes_written() const { return committed_.load(std::memory_order_acquire); }
  /// Complete fragments (moof + mdat) in the file.
  std::int64_t fragments_written() const { return fragments_.load(std::memory_order_acquire); }
  const std::string& path() const { return path_; }

 private:
  void Copy();
  /// Writes `size` bytes at the end of the file (the caller then advances
  /// committed_); on failure truncates to the last boundary, records the
  /// error and returns false.
  bool Append(const std::uint8_t* data, size_t size);

  std::string path_;
  int file_fd_ = -1;
  bool regular_file_ = false;  // Only a regular file is ever removed.
  int read_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> failed_{false};
  std::atomic<std::int64_t> committed_{0}, fragments_{0};
  mutable std::mutex mutex_;
  std::string error_;  // Guarded by mutex_.
};

}  // namespace stiction::app
