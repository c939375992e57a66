#pragma once
// A test fixture with a scratch directory of its own per test (under the
// system's temporary directory, named after the suite and test), removed
// afterwards, and a helper that writes files into it.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace stiction::test {

class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("stiction_" + std::string(info->test_suite_name()) + "_" + info->name());
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
