// Runs the real `stiction` executable with no display (DISPLAY unset, not
// under xvfb): it must exit 1 with one line that says why and how to fix it.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

int RunCapturingStderr(const std::string& command, std::string* err) {
  FILE* pipe = popen((command + " 2>&1 >/dev/null").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 512> buf{};
  while (fgets(buf.data(), buf.size(), pipe) != nullptr) *err += buf.data();
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(AppNoDisplayTest, ExitsWithOneLineAndAHint) {
  std::string err;
  const int code = RunCapturingStderr(
      std::string("env -u DISPLAY -u WAYLAND_DISPLAY ") + STICTION_APP_EXE + " " STICTION_SOURCE_DIR
      "/assets/scenes/demo.yaml --headless-frames 1",
      &err);
  EXPECT_EQ(code, 1);
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err.find('\n'), err.size() - 1) << "expected exactly one line: " << err;
  EXPECT_EQ(err.rfind("stiction: cannot open a window: ", 0), 0u) << err;
  EXPECT_NE(err.find("DISPLAY"), std::string::npos) << err;
  EXPECT_NE(err.find("xvfb-run"), std::string::npos) << err;
}

TEST(AppNoDisplayTest, UsageErrorsExitTwo) {
  std::string err;
  std::string command = STICTION_APP_EXE;  // Appended: see GCC PR 105651 (-Warray-bounds).
  command.append(" --size 3");
  EXPECT_EQ(RunCapturingStderr(command, &err), 2);
  EXPECT_EQ(err.rfind("stiction: --size", 0), 0u) << err;
}

}  // namespace
