#include "app/record/screenshot.h"

#include <stb_image_write.h>

#include <chrono>
#include <ctime>
#include <cstdio>

namespace stiction::app {
namespace {

// "stiction-YYYYMMDD-HHMMSS" of the local time now, plus the milliseconds.
std::string TimestampedName(bool with_milliseconds, const char* extension) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  localtime_r(&t, &tm);
  char name[64];
  std::snprintf(name, sizeof name, "stiction-%04d%02d%02d-%02d%02d%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  std::string out = name;
  if (with_milliseconds) {
    std::snprintf(name, sizeof name, "-%03d", static_cast<int>(ms));
    out += name;
  }
  return out + extension;
}

std::string InDirectory(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

}  // namespace

bool WritePng(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height,
              bool bottom_row_first) {
  if (width <= 0 || height <= 0 || rgb.size() < static_cast<size_t>(width) * height * 3) return false;
  stbi_flip_vertically_on_write(bottom_row_first ? 1 : 0);
  const int ok = stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3);
  stbi_flip_vertically_on_write(0);
  return ok != 0;
}

std::string TimestampedScreenshotPath(const std::string& dir) {
  return InDirectory(dir, TimestampedName(/*with_milliseconds=*/true, ".png"));
}

std::string TimestampedVideoPath(const std::string& dir) {
  return InDirectory(dir, TimestampedName(/*with_milliseconds=*/false, ".mp4"));
}

std::string TimestampedCommandsPath(const std::string& dir) {
  return InDirectory(dir, TimestampedName(/*with_milliseconds=*/true, "-commands.yaml"));
}

}  // namespace stiction::app
