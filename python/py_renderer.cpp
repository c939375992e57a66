#include "python/py_renderer.h"

#include <atomic>
#include <cmath>

#include "app/app.h"
#include "app/app_options.h"
#include "app/render/camera.h"
#include "app/render/window.h"
#include "engine/common/error.h"
#include "python/scene_source.h"

namespace stiction::python {
namespace {

// One window per process (glfwInit belongs to it).
std::atomic<bool> renderer_open{false};

void CheckSize(const char* what, int width, int height) {
  if (width < 16 || height < 16 || width > 16384 || height > 16384) {
    throw InputError(std::string(what) + ": expected 16 <= width, height <= 16384 pixels, got " +
                     std::to_string(width) + "x" + std::to_string(height));
  }
}

app::AppOptions OptionsFor(const RendererOptions& r) {
  app::AppOptions o = app::HiddenWindowOptions(app::AppOptions{});
  if (LooksLikeScenePath(r.scene)) {
    o.scene_path = r.scene;
  } else {
    o.scene_text = r.scene;
    o.scene_base_dir = r.base_dir.empty() ? "." : r.base_dir;
  }
  o.overrides = r.overrides;
  o.width = r.width;  // The window's size sets the scene camera's aspect.
  o.height = r.height;
  o.size_given = true;
  o.no_settings = true;  // Nothing remembered, nothing written, no key map.
  o.paused = true;       // The App never steps: it shows the states it is given.
  o.timeline = false;
  return o;
}

// The frame's rows top first (OpenGL reads them bottom first).
std::vector<std::uint8_t> TopRowFirst(const std::vector<std::uint8_t>& rgb, int width, int height) {
  const std::size_t row = 3 * static_cast<std::size_t>(width);
  std::vector<std::uint8_t> out(rgb.size());
  for (int y = 0; y < height; ++y) {
    std::copy_n(rgb.begin() + static_cast<std::ptrdiff_t>((height - 1 - y) * row), row,
                out.begin() + static_cast<std::ptrdiff_t>(y * row));
  }
  return out;
}

}  // namespace

PyRenderer::PyRenderer(const RendererOptions& options) : width_(options.width), height_(options.height) {
  CheckSize("Renderer size", width_, height_);
  if (renderer_open.exchange(true)) {
    throw RenderError(
        "another stiction.Renderer or VideoWriter is open in this process (one OpenGL window at a time): close it "
        "first (close(), or a with block)");
  }
  try {
    app_ = std::make_unique<app::App>(OptionsFor(options));
  } catch (const app::WindowError& e) {
    renderer_open = false;
    throw RenderError(e.what());
  } catch (...) {
    renderer_open = false;
    throw;
  }
  app_->ui().viz.contact_points = options.contact_points;
}

PyRenderer::~PyRenderer() {
  if (app_ && app_->video().recording()) app_->StopRecording();  // Keeps what was written.
  app_.reset();
  renderer_open = false;
}

std::vector<std::uint8_t> PyRenderer::Render(const VectorX& q, const VectorX& v, double t) {
  app_->ShowState(q, v, t);
  const std::vector<std::uint8_t> rgb = app_->RenderImage(width_, height_);
  return TopRowFirst(rgb, width_, height_);
}

app::Camera& PyRenderer::camera() { return app_->director().camera(); }

void PyRenderer::TakeOverCamera() { app_->director().TakeOver(); }

void PyRenderer::Track(const std::string& name) {
  if (!name.empty() && app_->simulation().model().FindBody(name) <= 0) {
    std::string names;
    for (const BodyState& b : app_->simulation().CalcBodyStates()) names += (names.empty() ? "" : ", ") + b.name;
    throw InputError("track: no body '" + name + "' (bodies: " + names + ")");
  }
  app_->ui().track_body = name;
}

std::string PyRenderer::tracked() const { return app_->ui().track_body; }

void PyRenderer::StartVideo(const VideoRequest& request, const VectorX& q, const VectorX& v, double t) {
  if (app_->video().recording()) throw RenderError("a video is being recorded already: stop it first");
  if (!std::isfinite(request.fps) || request.fps <= 0 || request.fps > 240) {
    throw InputError("fps: expected a number in (0, 240], got " + std::to_string(request.fps));
  }
  const int width = request.width > 0 ? request.width : width_;
  const int height = request.height > 0 ? request.height : height_;
  CheckSize("video size", width, height);
  app::UiState& ui = app_->ui();
  app::VideoOverlayOptions overlay;
  overlay.caption = request.caption;
  std::string why;
  if (!app::ParseOverlayList(request.overlay, &overlay, &why)) throw InputError("overlay: " + why);
  ui.overlay = overlay;
  ui.video_fps = request.fps;
  app_->ShowState(q, v, t);  // The frame clock starts at the App's time: the state's.
  if (!app_->StartRecording(request.path, width, height)) throw RenderError(ui.message);
  last_video_time_ = t;
}

std::int64_t PyRenderer::CaptureVideo(const VectorX& q, const VectorX& v, double t, std::int64_t max_frames) {
  if (!app_->video().recording()) throw RenderError("no video is being recorded (it was stopped or failed)");
  app_->ShowState(q, v, t);
  if (t < last_video_time_) app_->RestartVideo();
  last_video_time_ = t;
  if (max_frames <= 0 || !app_->video().FrameDue(t)) return 0;
  const std::int64_t before = app_->video().recorder().frames_written();
  if (!app_->CaptureVideoFrames(max_frames)) throw RenderError(app_->ui().message);
  return app_->video().recorder().frames_written() - before;
}

std::string PyRenderer::StopVideo() {
  if (!app_->video().recording()) return "";
  if (!app_->StopRecording()) throw RenderError(app_->ui().message);
  return app_->ui().message;
}

bool PyRenderer::recording() const { return app_->video().recording(); }

std::int64_t PyRenderer::frames_written() const { return app_->video().recorder().frames_written(); }

std::string PyRenderer::video_path() const { return app_->video().recorder().output_path(); }

}  // namespace stiction::python
