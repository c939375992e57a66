#pragma once
// PNG screenshots of the resolved scene image (stb_image_write).
#include <cstdint>
#include <string>
#include <vector>

namespace stiction::app {

/// Writes RGB pixels as a PNG. Rows are given bottom row first (glReadPixels
/// order, flipped on writing) unless bottom_row_first is false. Returns false
/// on failure.
bool WritePng(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height,
              bool bottom_row_first = true);

/// "stiction-YYYYMMDD-HHMMSS-mmm.png" in `dir` (current directory when empty).
std::string TimestampedScreenshotPath(const std::string& dir);

/// "stiction-YYYYMMDD-HHMMSS.mp4" in `dir` (current directory when empty).
std::string TimestampedVideoPath(const std::string& dir);

/// "stiction-YYYYMMDD-HHMMSS-mmm-commands.yaml" in `dir` (current directory
/// when empty): where a command recording is autosaved.
std::string TimestampedCommandsPath(const std::string& dir);

}  // namespace stiction::app
