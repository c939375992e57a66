#pragma once
// Draws a RenderScene at a Snapshot's poses; Render is its four passes
// (RenderShadowPass, RenderScenePass, RenderDebugPass, RenderResolvePass):
//   1. a shadow pass from the directional light into a depth texture, fitted
//      to the shadow casters and skipped when no caster moved (the map is
//      kept from the previous frame);
//   2. the scene into the frame's target (a multisample FBO for MSAA, a
//      single-sample texture for FXAA, the resolved FBO itself when off):
//      opaque items instanced (one glDrawElementsInstanced per mesh and
//      level of detail; pose, colour and material per instance), the ground
//      (grid, fog), the sky gradient behind everything, transparent items
//      back to front;
//   3. the debug lines, then on top the pressure patches and the overlay
//      glyphs;
//   4. the antialiasing resolve into a single-sample FBO: a blit for MSAA,
//      the FXAA full-screen pass, nothing when off.
// That resolved image is what goes to the window (blit) and to screenshots
// and video frames (ReadPixels), so recordings carry the same antialiasing.
// MSAA lives in our FBO, not in the window (PLATFORM-NOTES: GLFW_SAMPLES is
// slow on llvmpipe and reads back un-antialiased pixels). FBOs follow the
// size asked for each frame, so resizing is safe.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/render/camera.h"
#include "app/render/debug_draw.h"
#include "app/render/mesh_cache.h"
#include "app/render/primitive_meshes.h"
#include "app/render/render_scene.h"
#include "app/render/shader_program.h"
#include "app/snapshot.h"

namespace stiction::app {

/// How the scene image is antialiased (Visualization > antialiasing).
/// kAuto picks per renderer: a software rasterizer (Mesa llvmpipe, softpipe,
/// swrast) gets the cheap post-process (FXAA), a GPU gets 4x MSAA
/// (docs/viewer.md "Rendering" has the measurements behind the choice).
enum class Antialiasing { kAuto, kOff, kFxaa, kMsaa2, kMsaa4 };
const char* AntialiasingName(Antialiasing mode);
inline constexpr Antialiasing kAntialiasingModes[] = {Antialiasing::kAuto, Antialiasing::kOff, Antialiasing::kFxaa,
                                                      Antialiasing::kMsaa2, Antialiasing::kMsaa4};

/// True when a GL_RENDERER string names a software rasterizer (llvmpipe,
/// softpipe, swrast).
bool IsSoftwareRenderer(const std::string& gl_renderer);
/// What kAuto stands for on a software rasterizer or on a GPU.
Antialiasing AutoAntialiasing(bool software_renderer);

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
  /// Pixels the FXAA pass filtered in the last frame (only the rectangle
  /// where edges can be; 0 with other antialiasing).
  long long fxaa_pixels() const { return fxaa_pixels_; }
  /// Binds the resolved image as the framebuffer to draw into (video
  /// overlays are burned into it before it is read back).
  void BindResolvedFramebuffer() const;
  /// RGB rows of the resolved image, bottom row first (OpenGL order).
  std::vector<std::uint8_t> ReadPixels(int* width, int* height) const;

  /// How many times the shadow map has been rendered: frames whose shadow
  /// casters and light frustum equal the previous render's reuse the map.
  std::int64_t shadow_map_renders() const { return shadow_map_renders_; }
  /// Draw calls (glDrawElements*) of the last Render's shadow and scene passes.
  int last_draw_calls() const { return last_draw_calls_; }
  /// false: one draw call per item instead of one per mesh (the same shaders,
  /// instance count 1). For tests and measurements of the per-draw cost.
  void set_instancing(bool on) { instancing_ = on; }

  /// The sky gradient (display RGB): the horizon, where the ground's fog
  /// ends, and straight up.
  static constexpr float kHorizonColor[3] = {0.84f, 0.88f, 0.93f};
  static constexpr float kZenithColor[3] = {0.38f, 0.56f, 0.80f};
  /// Kept for callers of the former flat background: the horizon colour.
  static constexpr float kClearColor[3] = {kHorizonColor[0], kHorizonColor[1], kHorizonColor[2]};
  /// Shadow map side [texels]; the frustum is fitted to the casters, so a
  /// texel is a few mm on a table-top scene.
  static constexpr int kShadowMapSize = 1024;
  /// Hardware-PCF taps per shadow lookup: 1 on a software rasterizer (each
  /// further tap costs llvmpipe ~3 ms per 1280x720 frame, docs/viewer.md
  /// "Rendering"), 4 (a softer 3x3-texel tent) on a GPU.
  int shadow_taps() const { return shadow_taps_; }

 private:
  struct DrawLists;  // This frame's draw items (renderer.cpp).

  void EnsureTargets(int width, int height, Antialiasing aa);
  void DeleteTargets();
  /// The GPU meshes of drawable `i` at each level of detail.
  std::array<const GpuMesh*, kNumLods> LodsOf(const RenderScene& scene, size_t i) const;
  /// What to draw, each item at the level of detail its projected size
  /// (in a view `height` pixels high) needs, the gripper's ghosts included.
  DrawLists CollectDrawItems(const RenderScene& scene, const Snapshot& snapshot, const Camera& camera,
                             const RenderOptions& options, int selected_body, int height) const;
  // The passes, in order.
  Mat4f RenderShadowPass(const RenderScene& scene, DrawLists* items);
  void RenderScenePass(const DrawLists& items, const Camera& camera, const RenderOptions& options,
                       const Mat4f& view_proj, const Mat4f& light_view_proj, Antialiasing aa, int width, int height);
  void RenderDebugPass(const DebugDraw& debug, const Mat4f& view_proj);
  void RenderResolvePass(const DrawLists& items, const DebugDraw& debug, const Mat4f& view_proj, Antialiasing aa,
                         int width, int height);
  // Their steps.
  void DrawShadowMap(const DrawLists& items, const Mat4f& light_view_proj);
  void SetMeshUniforms(const Camera& camera, const RenderOptions& options, const Mat4f& view_proj,
                       const Mat4f& light_view_proj);
  void DrawBatch(const DrawLists& items, bool transparent, size_t begin, size_t end, int shadows,
                 ShaderProgram** current);
  void DrawSky(const Mat4f& view_proj, const Vec3f& eye);
  /// FXAA inside `rect` (x, y, width, height), the rest copied.
  void RunFxaa(const Vec4i& rect, int width, int height);

  // mesh.vert/frag variants: [shadows][ground] (see mesh.frag).
  std::unique_ptr<ShaderProgram> mesh_programs_[2][2];
  std::unique_ptr<ShaderProgram> shadow_program_, line_program_, patch_program_, sky_program_, fxaa_program_;
  MeshCache meshes_;
  /// Per drawable of the loaded scene: its GPU mesh at each level of detail
  /// (all the same mesh for shapes without levels); empty entries when absent.
  std::vector<std::array<const GpuMesh*, kNumLods>> drawable_meshes_;
  // Render targets. MSAA: ms_fbo_ (colour + depth renderbuffers), blitted
  // into resolve_fbo_. FXAA: scene_fbo_ (colour texture + depth), filtered
  // into resolve_fbo_. Off: resolve_fbo_ with its own depth renderbuffer.
  GLuint ms_fbo_ = 0, ms_color_ = 0, ms_depth_ = 0;
  GLuint scene_fbo_ = 0, scene_color_ = 0, scene_depth_ = 0;
  GLuint resolve_fbo_ = 0, resolve_color_ = 0, resolve_depth_ = 0;
  GLuint shadow_fbo_ = 0, shadow_tex_ = 0;
  GLuint line_vao_ = 0, line_vbo_ = 0;
  GLuint patch_vao_ = 0, patch_vbo_ = 0;  // Pressure patches (PatchVertex).
  GLuint empty_vao_ = 0;  // Full-screen triangles take no attributes.
  GLuint instance_vbo_ = 0, shadow_instance_vbo_ = 0;
  int width_ = 0, height_ = 0;
  Antialiasing target_aa_ = Antialiasing::kAuto;  // What the targets were made for.
  int max_samples_ = 0;
  long long fxaa_pixels_ = 0;  // Pixels the last FXAA pass filtered (its scissor rectangle).
  bool software_renderer_ = false;
  bool instancing_ = true;
  int shadow_taps_ = 4;
  int last_draw_calls_ = 0;
  // The shadow map's content: the light frustum and every caster's mesh and
  // pose it was rendered with; equal next frame = nothing to redo.
  std::vector<std::uint32_t> shadow_key_;
  bool shadow_valid_ = false;
  std::int64_t shadow_map_renders_ = 0;
};

}  // namespace stiction::app
