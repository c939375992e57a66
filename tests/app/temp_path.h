#pragma once
// A scratch path for the tests that drive the real executables and
// recorders: under the system's temporary directory, unique to this process
// (`PREFIX-PID-NAME`), and removed first if an earlier run left it behind.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace stiction::test {

inline std::filesystem::path FreshTempPath(const std::string& prefix, const std::string& name) {
  const std::filesystem::path p =
      std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove_all(p);
  return p;
}

}  // namespace stiction::test
