#pragma once
// Draws a RenderScene at a Snapshot's poses: a shadow pass from the
// directional light into a depth texture, then the scene into a multisample
// FBO (Blinn-Phong, grid on half-spaces, transparency, wireframe), debug
// lines, and a blit-resolve into a single-sample FBO. That resolved image is
// what goes to the window (blit) and to screenshots (ReadPixels). MSAA lives
// in our FBO, not in the window (PLATFORM-NOTES: GLFW_SAMPLES is slow on
// llvmpipe and reads back un-antialiased pixels). FBOs follow the size asked
// for each frame, so resizing is safe.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/render/camera.h"
#include "app/render/debug_draw.h"
#include "app/render/mesh_cache.h"
#include "app/render/render_scene.h"
#include "app/render/shader_program.h"
#include "app/snapshot.h"

namespace stiction::app {

/// How the scene image is antialiased (Visualization > antialiasing).
/// kAuto picks per renderer: a software rasterizer (Mesa llvmpipe, softpipe,
/// swrast) gets the cheap post-process, a GPU gets 4x MSAA
/// (docs/viewer.md "Frame rate" has the measurements behind the choice).
enum class Antialiasing { kAuto, kOff, kFxaa, kMsaa2, kMsaa4 };
const char* AntialiasingName(Antialiasing mode);
inline constexpr Antialiasing kAntialiasingModes[] = {Antialiasing::kAuto, Antialiasing::kOff, Antialiasing::kFxaa,
                                                      Antialiasing::kMsaa2, Antialiasing::kMsaa4};

struct RenderOptions {
  bool shadows = true;
  bool grid = true;
  bool wireframe = false;
  bool transparent = false;        ///< Bodies drawn see-through.
  bool show_bodies = true;         ///< false: only the world (an "empty" frame).
  bool show_collision_only = false;  ///< Also draw geometry marked visual: false.
  Antialiasing antialiasing = Antialiasing::kAuto;
};

class Renderer {
 public:
  /// Builds the shader programs from `shader_dir`; throws ShaderError.
  explicit Renderer(const std::string& shader_dir);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  /// Uploads the scene's meshes (clears the previous scene's).
  void LoadScene(const RenderScene& scene);
  /// Renders into the resolved FBO at width x height pixels.
  void Render(const RenderScene& scene, const Snapshot& snapshot, const Camera& camera,
              const RenderOptions& options, const DebugDraw& debug, int selected_body,
              int width, int height);
  /// Copies the resolved image to the window's back buffer, into the
  /// rectangle (x, y, width, height) in framebuffer pixels, origin at the
  /// bottom left (OpenGL's); scaled with linear filtering when the sizes differ.
  void BlitToWindow(int x, int y, int width, int height) const;
  /// The mode kAuto stands for on this renderer (other modes: themselves).
  Antialiasing ResolveAntialiasing(Antialiasing mode) const;
  /// True on a software rasterizer (GL_RENDERER names llvmpipe, softpipe or swrast).
  bool software_renderer() const { return software_renderer_; }
  /// RGB rows of the resolved image, bottom row first (OpenGL order).
  std::vector<std::uint8_t> ReadPixels(int* width, int* height) const;

  static constexpr float kClearColor[3] = {0.80f, 0.85f, 0.91f};

 private:
  void EnsureTargets(int width, int height, int samples);
  void DeleteTargets();

  // mesh.vert/frag variants: [shadows][ground] (see mesh.frag).
  std::unique_ptr<ShaderProgram> mesh_programs_[2][2];
  std::unique_ptr<ShaderProgram> shadow_program_, line_program_;
  MeshCache meshes_;
  GLuint ms_fbo_ = 0, ms_color_ = 0, ms_depth_ = 0;
  GLuint resolve_fbo_ = 0, resolve_color_ = 0;
  GLuint shadow_fbo_ = 0, shadow_tex_ = 0;
  GLuint line_vao_ = 0, line_vbo_ = 0;
  int width_ = 0, height_ = 0, samples_ = -1;
  int max_samples_ = 0;
  bool software_renderer_ = false;
  static constexpr int kShadowMapSize = 1024;
};

}  // namespace stiction::app
