#include "engine/control/command_autosave.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace stiction {
namespace {

constexpr const char kCommandsKey[] = "commands:\n";

// The lines FormatCommandLog writes for entries [begin, end) of `log`: the
// one formatter of the command file, so the autosave reads back the same.
std::string FormatEntries(const CommandLog& log, std::size_t begin, std::size_t end) {
  CommandLog part;
  part.entries.assign(log.entries.begin() + static_cast<std::ptrdiff_t>(begin),
                      log.entries.begin() + static_cast<std::ptrdiff_t>(end));
  const std::string text = FormatCommandLog(part);
  return text.substr(text.find(kCommandsKey) + sizeof kCommandsKey - 1);
}

bool SameEntry(const CommandEntry& a, const CommandEntry& b) {
  return a.step == b.step && a.time_s == b.time_s && a.target == b.target && a.ramp_s == b.ramp_s &&
         a.grip == b.grip && a.grip_force == b.grip_force;
}

}  // namespace

CommandAutosave::~CommandAutosave() { CloseFile(); }

bool CommandAutosave::Open(const std::string& path, const CommandLog& log, double now_s) {
  CloseFile();
  path_ = path;
  error_.clear();
  size_ = 0;
  written_ = 0;
  last_written_.reset();
  last_write_s_ = now_s;
  fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    error_ = path + ": cannot write the command autosave: " + std::strerror(errno);
    return false;
  }
  CommandLog header;  // No entries, no camera: the text ends with "commands:".
  header.scene = log.scene;
  header.time_step = log.time_step;
  return Write(FormatCommandLog(header)) && WriteNew(log);
}

bool CommandAutosave::Update(const CommandLog& log, double now_s) {
  if (!is_open()) return error_.empty();
  if (now_s - last_write_s_ < kFlushPeriod) return true;
  last_write_s_ = now_s;
  return WriteNew(log);
}

bool CommandAutosave::Close(const CommandLog& log) {
  if (!is_open()) return error_.empty();
  const bool ok = WriteNew(log);
  CloseFile();
  return ok;
}

bool CommandAutosave::WriteNew(const CommandLog& log) {
  if (log.entries.size() < written_) {  // Not the log that was opened: nothing sensible to append.
    error_ = path_ + ": the command recording was restarted; autosave closed";
    CloseFile();
    return false;
  }
  std::string text;
  // The last entry written may have merged a later target since.
  if (written_ > 0 && last_written_ && !SameEntry(*last_written_, log.entries[written_ - 1])) {
    text += FormatEntries(log, written_ - 1, written_);
  }
  text += FormatEntries(log, written_, log.entries.size());
  if (text.empty()) return true;
  if (!Write(text)) return false;
  written_ = log.entries.size();
  if (written_ > 0) last_written_ = log.entries.back();
  return true;
}

bool CommandAutosave::Write(const std::string& text) {
  if (fd_ < 0) return false;
  // One write() for all the lines: the file ends at a line boundary unless
  // the write itself fails part way (then truncated back below).
  const char* data = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = write(fd_, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      const bool truncated = ftruncate(fd_, size_) == 0;
      error_ = path_ + ": command autosave stopped: " + std::strerror(err) +
               (truncated ? "; the file keeps the commands written before"
                          : "; the last line may be cut off");
      CloseFile();
      return false;
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  size_ += static_cast<long long>(text.size());
  return true;
}

void CommandAutosave::CloseFile() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

}  // namespace stiction
