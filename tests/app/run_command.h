#pragma once
// Runs a shell command for the tests that drive the real executables:
// returns its exit code (-1 if it did not exit normally) and appends its
// stdout and stderr to *output.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace stiction::test {

inline int RunCommand(const std::string& command, std::string* output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 512> buf{};
  while (fgets(buf.data(), buf.size(), pipe) != nullptr) *output += buf.data();
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace stiction::test
