#pragma once
// PNG screenshots of the resolved scene image (stb_image_write).
#include <cstdint>
#include <string>
#include <vector>

namespace stiction::app {

/// Writes RGB pixels given bottom row first (glReadPixels order) as a PNG,
/// flipped to top row first. Returns false on failure.
bool WritePng(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height);

/// "stiction-YYYYMMDD-HHMMSS-mmm.png" in `dir` (current directory when empty).
std::string TimestampedScreenshotPath(const std::string& dir);

}  // namespace stiction::app
