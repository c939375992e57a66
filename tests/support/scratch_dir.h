#pragma once
// Where tests write their scratch files: every path below the system's
// temporary directory ($TMPDIR, else /tmp) comes from TempDir, so that no
// test calls std::filesystem::temp_directory_path() itself.
//  * TempPath(name): a fixed name, for a test that owns it;
//  * FreshTempPath(prefix, name): PREFIX-PID-NAME, unique to this process
//    and removed first if an earlier run left it behind (the tests that
//    drive the real executables and recorders);
//  * ScratchDirTest: a fixture with a directory of its own per test (named
//    after the suite and the test), removed afterwards, and Write().
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace stiction::test {

/// The system's temporary directory.
inline std::filesystem::path TempDir() { return std::filesystem::temp_directory_path(); }

/// `name` below the system's temporary directory.
inline std::filesystem::path TempPath(const std::string& name) { return TempDir() / name; }

/// TempPath("PREFIX-PID-NAME"), removed first if an earlier run left it.
inline std::filesystem::path FreshTempPath(const std::string& prefix, const std::string& name) {
  const std::filesystem::path p = TempPath(prefix + "-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove_all(p);
  return p;
}

class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = TempPath("stiction_" + std::string(info->test_suite_name()) + "_" + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  /// Writes `text` to `name` (relative to the directory; parents created)
  /// and returns the file's path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

}  // namespace stiction::test
