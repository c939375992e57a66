#include "app/record/mp4_fragment_writer.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace stiction::app {
namespace {

std::uint64_t ReadBigEndian(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

Mp4FragmentWriter::~Mp4FragmentWriter() {
  if (thread_.joinable() || file_fd_ >= 0) Finish();
}

bool Mp4FragmentWriter::Open(const std::string& path) {
  path_ = path;
  error_.clear();
  failed_ = false;
  committed_ = 0;
  fragments_ = 0;
  file_fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (file_fd_ < 0) {
    error_ = "video: cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  regular_file_ = fstat(file_fd_, &st) == 0 && S_ISREG(st.st_mode);  // Not a device such as /dev/full.
  return true;
}

void Mp4FragmentWriter::Start(int read_fd) {
  read_fd_ = read_fd;
  // The thread inherits a mask that blocks every signal: SIGINT and SIGTERM
  // go to the frame loop's thread, whose handler only sets a flag.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  thread_ = std::thread([this] { Copy(); });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

std::string Mp4FragmentWriter::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

bool Mp4FragmentWriter::Append(const std::uint8_t* data, size_t size) {
  const std::int64_t start = committed_.load();
  while (size > 0) {
    const ssize_t n = write(file_fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      // Back to the last fragment boundary: no half fragment in the file.
      const bool truncated = ftruncate(file_fd_, start) == 0 && lseek(file_fd_, start, SEEK_SET) == start;
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = "video: writing '" + path_ + "' failed: " + std::strerror(err) + "; kept " +
               std::to_string(fragments_.load()) + " complete fragments (" + std::to_string(start) + " bytes)" +
               (truncated ? "" : ", but the cut-off fragment could not be removed");
      failed_.store(true, std::memory_order_release);
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void Mp4FragmentWriter::Copy() {
  std::vector<std::uint8_t> pending;  // Read, not yet written.
  size_t parsed = 0;                  // Offset in pending of the next box header.
  bool unparsable = false;            // Not a box stream: copy bytes as they come.
  std::uint8_t buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(read_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // End of the stream (or a read error: ffmpeg is gone).
    pending.insert(pending.end(), buffer, buffer + n);
    size_t ready = 0;  // Bytes of pending that end at a boundary.
    std::int64_t fragments_ready = 0;
    if (unparsable) ready = pending.size();
    while (!unparsable && pending.size() - parsed >= 8) {
      std::uint64_t size = ReadBigEndian(&pending[parsed], 4);
      const bool is_moof = std::memcmp(&pending[parsed + 4], "moof", 4) == 0;
      const bool is_mdat = std::memcmp(&pending[parsed + 4], "mdat", 4) == 0;
      if (size == 1) {  // 64-bit size after the type.
        if (pending.size() - parsed < 16) break;
        size = ReadBigEndian(&pending[parsed + 8], 8);
      }
      if (size < 8) {  // 0 (to the end of the file) or malformed: stop judging.
        unparsable = true;
        ready = pending.size();
        break;
      }
      if (size > pending.size() - parsed) break;  // Not complete yet.
      parsed += static_cast<size_t>(size);
      if (!is_moof) ready = parsed;  // A moof waits for its mdat.
      if (is_mdat) ++fragments_ready;
    }
    if (ready == 0) continue;
    const std::int64_t before = committed_.load();
    if (!Append(pending.data(), ready)) break;
    committed_.store(before + static_cast<std::int64_t>(ready), std::memory_order_release);
    fragments_.fetch_add(fragments_ready, std::memory_order_acq_rel);
    // Hand the fragment to the disk: a power loss then costs at most the
    // fragments not yet synced. On a background thread: the frame loop
    // never waits for the disk.
    fdatasync(file_fd_);
    pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(ready));
    parsed -= ready;
  }
  // A clean end: whatever ffmpeg wrote last (normally nothing after mfra).
  if (!failed() && !pending.empty()) {
    const std::int64_t before = committed_.load();
    if (Append(pending.data(), pending.size())) {
      committed_.store(before + static_cast<std::int64_t>(pending.size()), std::memory_order_release);
    }
  }
  // Closing the stream tells ffmpeg (broken pipe) after a failure.
  close(read_fd_);
  read_fd_ = -1;
}

bool Mp4FragmentWriter::Finish() {
  if (thread_.joinable()) thread_.join();
  if (read_fd_ >= 0) {
    close(read_fd_);
    read_fd_ = -1;
  }
  if (file_fd_ < 0) return false;
  bool ok = !failed();
  if (fdatasync(file_fd_) != 0 && errno != EINVAL && errno != EROFS) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_.empty()) error_ = "video: syncing '" + path_ + "' failed: " + std::strerror(errno);
    ok = false;
  }
  if (close(file_fd_) != 0 && ok) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = "video: closing '" + path_ + "' failed: " + std::strerror(errno);
    ok = false;
  }
  file_fd_ = -1;
  // Nothing playable: no empty file left behind.
  if (committed_.load() == 0 && regular_file_) unlink(path_.c_str());
  return ok;
}

void Mp4FragmentWriter::Abandon() {
  if (file_fd_ >= 0) {
    close(file_fd_);
    file_fd_ = -1;
    if (regular_file_) unlink(path_.c_str());
  }
}

}  // namespace stiction::app
