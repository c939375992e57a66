#pragma once
// The viewer's reads of rendered pixels: the resolved scene image (what
// screenshots and video frames are made of; no panels), Ctrl+P screenshots
// written after the frame that shows them, and, when asked, a copy of the
// whole window with its panels, read before the buffers swap (the docs'
// screenshots, --screenshot-window).
#include <cstdint>
#include <string>
#include <vector>

#include "app/render/renderer.h"
#include "app/ui/ui_state.h"

namespace stiction::app {

class FrameCapture {
 public:
  /// `renderer` (its resolved image) and `ui` (the status line) outlive the
  /// capture; Ctrl+P screenshots go to `screenshot_dir`.
  FrameCapture(const Renderer& renderer, UiState& ui, std::string screenshot_dir);
  FrameCapture(const FrameCapture&) = delete;
  FrameCapture& operator=(const FrameCapture&) = delete;

  /// The resolved scene image of the last frame (RGB, bottom row first).
  std::vector<std::uint8_t> ReadPixels(int* width, int* height) const;
  /// Writes that image as a PNG; false if it cannot.
  bool SaveScreenshot(const std::string& path) const;
  /// Ctrl+P: a screenshot of the next frame's scene image.
  void RequestScreenshot() { screenshot_requested_ = true; }
  /// After the scene image is shown: writes the requested screenshot, if
  /// any, and says where (or that it could not).
  void SaveRequestedScreenshot();

  /// Keep a copy of the whole window (panels included) from the next frame
  /// on; WindowPixels returns the last one.
  void set_capture_window(bool on) { capture_window_ = on; }
  /// After the UI is drawn, before the swap: copies the back buffer
  /// (width x height framebuffer pixels) when capturing the window.
  void ReadWindow(int width, int height);
  const std::vector<std::uint8_t>& WindowPixels(int* width, int* height) const {
    *width = window_pixels_width_;
    *height = window_pixels_height_;
    return window_pixels_;
  }

 private:
  const Renderer& renderer_;
  UiState& ui_;
  std::string screenshot_dir_;
  bool screenshot_requested_ = false;
  bool capture_window_ = false;
  std::vector<std::uint8_t> window_pixels_;
  int window_pixels_width_ = 0, window_pixels_height_ = 0;
};

}  // namespace stiction::app
