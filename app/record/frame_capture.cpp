#include "app/record/frame_capture.h"

#include <utility>

#include "app/record/screenshot.h"
#include "app/render/gl.h"

namespace stiction::app {

FrameCapture::FrameCapture(const Renderer& renderer, UiState& ui, std::string screenshot_dir)
    : renderer_(renderer), ui_(ui), screenshot_dir_(std::move(screenshot_dir)) {}

std::vector<std::uint8_t> FrameCapture::ReadPixels(int* width, int* height) const {
  return renderer_.ReadPixels(width, height);
}

bool FrameCapture::SaveScreenshot(const std::string& path) const {
  int w = 0, h = 0;
  const std::vector<std::uint8_t> rgb = renderer_.ReadPixels(&w, &h);
  return WritePng(path, rgb, w, h);
}

void FrameCapture::SaveRequestedScreenshot() {
  if (!screenshot_requested_) return;
  screenshot_requested_ = false;
  const std::string path = TimestampedScreenshotPath(screenshot_dir_);
  if (SaveScreenshot(path)) {
    ui_.Info("screenshot saved to " + path);
  } else {
    ui_.Error("cannot write screenshot " + path);
  }
}

void FrameCapture::ReadWindow(int width, int height) {
  if (!capture_window_ || width <= 0 || height <= 0) return;
  window_pixels_.resize(static_cast<size_t>(width) * height * 3);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, window_pixels_.data());
  window_pixels_width_ = width;
  window_pixels_height_ = height;
}

}  // namespace stiction::app
