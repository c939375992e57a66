#pragma once
// What stiction.Renderer and stiction.VideoWriter wrap (docs/python.md,
// "Images and video"): the viewer itself (app::App) in a hidden window,
// showing states that a stiction.Simulation computed. The App loads the same
// scene (path or text, with the same --set overrides) and only draws: each
// frame is ShowState(q, v, t) then the viewer's renderer, so an image is
// exactly what `stiction` shows of that state and a video is what
// `stiction --headless --record` writes of the same run. No Python here:
// bind_render.cpp turns it into the module stiction._render.
//
// One OpenGL window per process (app/render/window.h owns glfwInit): a
// second PyRenderer while one is open throws RenderError.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"

namespace stiction::app {
class App;
class Camera;
}  // namespace stiction::app

namespace stiction::python {

/// No display, no OpenGL 3.3, a second renderer, or a video that could not
/// be started or finished: one line saying why.
class RenderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RendererOptions {
  std::string scene;                   ///< A scene path or YAML text, as PySimulation's.
  std::vector<std::string> overrides;  ///< `--set` assignments.
  std::string base_dir = ".";          ///< Resolves a text scene's relative paths.
  int width = 640, height = 480;       ///< Image size [pixels], 16 to 16384.
  bool contact_points = false;         ///< Draw the viewer's contact glyphs (off: the scene as a camera sees it).
};

struct VideoRequest {
  std::string path;            ///< Output .mp4 (a PNG sequence beside it without ffmpeg).
  double fps = 30;             ///< Frames per simulated second, (0, 240].
  int width = 0, height = 0;   ///< 0: the renderer's size; rounded down to even.
  std::string overlay = "time,scene";  ///< As `stiction --overlay`.
  std::string caption;         ///< As `stiction --caption`.
};

class PyRenderer {
 public:
  /// Opens the hidden window and loads the scene. Throws InputError (scene,
  /// size) or RenderError (display, GL, another renderer open).
  explicit PyRenderer(const RendererOptions& options);
  ~PyRenderer();
  PyRenderer(const PyRenderer&) = delete;
  PyRenderer& operator=(const PyRenderer&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  /// The state (q, v) at time t [s] as RGB, top row first, width x height x
  /// 3 bytes. Throws InputError for a state of another size.
  std::vector<std::uint8_t> Render(const VectorX& q, const VectorX& v, double t);

  /// The orbit camera (lookat, distance, azimuth, elevation, fovy). Changing
  /// it stops the scene's camera script.
  app::Camera& camera();
  void TakeOverCamera();
  /// Follow body `name` (its origin stays the lookat point); "" stops.
  /// Throws InputError naming the bodies when there is none of that name.
  void Track(const std::string& name);
  std::string tracked() const;

  /// Shows (q, v, t) and starts a video whose first frame is that state.
  /// Throws InputError (fps, size, overlay, state) or RenderError (the
  /// file, ffmpeg).
  void StartVideo(const VideoRequest& request, const VectorX& q, const VectorX& v, double t);
  /// Shows (q, v, t) and writes the frames due at t [s] (frame k of a video
  /// started at t0 is the first state that reaches t0 + k / fps), at most
  /// max_frames; an earlier t than the last one (a reset) restarts the
  /// frame clock there. Returns the frames written. Throws RenderError when
  /// a frame could not be written (the video then keeps its frames so far).
  std::int64_t CaptureVideo(const VectorX& q, const VectorX& v, double t, std::int64_t max_frames);
  /// Finishes the file. Returns the viewer's line about it ("video saved:
  /// ..."); throws RenderError when frames were lost or ffmpeg failed.
  std::string StopVideo();
  bool recording() const;
  std::int64_t frames_written() const;
  std::string video_path() const;

 private:
  std::unique_ptr<app::App> app_;
  int width_ = 0, height_ = 0;
  double last_video_time_ = 0;
};

}  // namespace stiction::python
