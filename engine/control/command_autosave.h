#pragma once
// Saves a command recording while it is being made, so that a crash or a
// kill loses at most the last flush period of commands: the header of the
// command file (format, scene, time_step, `commands:`) when the recording
// starts, then the new entries appended, in the command file format
// (FormatCommandLog's lines), at most every kFlushPeriod of wall time and
// on Close. After every write the file is a complete command file that
// LoadCommandFile reads and CommandPlayer replays.
//
// CommandRecorder merges a target-only command into the previous entry of
// the same step; an entry already written that changes afterwards is written
// again (same step, later line): replaying both gives the same result, as
// the later target replaces the earlier one before the step.
//
// A failed write (full disk, I/O error) truncates the file to its last
// complete line, closes it and reports: the recording goes on in memory.
// No exceptions: every call returns its status; error() says why.
#include <cstddef>
#include <optional>
#include <string>

#include "engine/control/command_log.h"

namespace stiction {

class CommandAutosave {
 public:
  /// Longest wall time between a recorded command and its write [s].
  static constexpr double kFlushPeriod = 0.5;

  CommandAutosave() = default;
  ~CommandAutosave();
  CommandAutosave(const CommandAutosave&) = delete;
  CommandAutosave& operator=(const CommandAutosave&) = delete;

  /// Creates `path` (truncating it) and writes the header of `log` (scene,
  /// time step) and whatever entries it already holds. `now_s`: wall time
  /// [s], any monotonic origin. False, with error(), if it cannot.
  bool Open(const std::string& path, const CommandLog& log, double now_s);
  /// Appends the entries added to (or changed in) `log` since the last
  /// write when kFlushPeriod has passed since then. False (with error(),
  /// the file closed) if a write failed; true otherwise.
  bool Update(const CommandLog& log, double now_s);
  /// Writes what is left and closes. False if a write failed.
  bool Close(const CommandLog& log);

  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  /// The last failure in one line ("PATH: reason"); empty if none.
  const std::string& error() const { return error_; }
  /// Entries written so far (re-written changed entries not counted twice).
  std::size_t entries_written() const { return written_; }

 private:
  bool Write(const std::string& text);
  bool WriteNew(const CommandLog& log);
  void CloseFile();

  std::string path_, error_;
  int fd_ = -1;
  long long size_ = 0;       // Bytes in the file: complete lines only.
  std::size_t written_ = 0;  // Entries of the log written.
  std::optional<CommandEntry> last_written_;  // As it was written.
  double last_write_s_ = 0;
};

}  // namespace stiction
