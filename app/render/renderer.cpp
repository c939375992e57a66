#include "app/render/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>

#include "app/render/pressure_scale.h"

namespace stiction::app {
namespace {

// Direction the sunlight travels, world frame: from above, slightly from the
// viewer's left and front so that shadows fall visibly on the ground.
const Vec3f kLightDir_W = Vec3f(0.35f, 0.45f, -1.0f).normalized();
// Light in the squared-colour space of mesh.frag: a warm sun, a blue sky
// ambient from above and a dimmer warm bounce from the ground below.
const Vec3f kSunColor(1.65f, 1.58f, 1.48f);
const Vec3f kSkyAmbient(0.17f, 0.19f, 0.23f);
const Vec3f kGroundAmbient(0.10f, 0.09f, 0.08f);

// One instance in the instance VBO: mesh.vert/shadow.vert locations 2-7.
struct Instance {
  float model[16];    // X_WG, column-major
  float color[4];     // RGBA
  float material[4];  // emissive, specular strength, shininess, unused
};
static_assert(sizeof(Instance) == 96);

struct DrawItem {
  const Drawable* drawable;
  const GpuMesh* mesh;         // At the level of detail for the camera...
  const GpuMesh* shadow_mesh;  // ...and for the shadow map.
  Mat4f X_WG;
  Vec4f color;
  float emissive;
  float depth;  // Distance to the eye, for sorting transparent items.
  bool ghost = false;   // A target-pose ghost: casts no shadow.
  bool ground = false;  // A half-space: GROUND shader, no culling, casts no shadow.
};

// The pixel rectangle (x, y, width, height; OpenGL's origin bottom left)
// that holds every item but the ground, and the debug glyphs: the corners of
// each bounding sphere's cube projected, grown by 2 pixels for the filter's
// reach. The whole image when something straddles the eye plane.
Vec4i EdgeRectangle(const std::vector<DrawItem>& opaque, const std::vector<DrawItem>& transparent,
                    const DebugDraw& debug, const Mat4f& view_proj, int width, int height) {
  const Vec4i whole(0, 0, width, height);
  float x0 = std::numeric_limits<float>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
  auto add = [&](const Vec3f& p) {
    const Vec4f c = view_proj * Vec4f(p.x(), p.y(), p.z(), 1.0f);
    if (c.w() <= 1e-6f) return false;
    const float x = (c.x() / c.w() * 0.5f + 0.5f) * static_cast<float>(width);
    const float y = (c.y() / c.w() * 0.5f + 0.5f) * static_cast<float>(height);
    x0 = std::min(x0, x);
    x1 = std::max(x1, x);
    y0 = std::min(y0, y);
    y1 = std::max(y1, y);
    return true;
  };
  for (const auto* list : {&opaque, &transparent}) {
    for (const DrawItem& item : *list) {
      if (item.ground) continue;
      const float r = static_cast<float>(item.drawable->bounding_radius);
      if (!std::isfinite(r)) return whole;
      const Vec3f c = item.X_WG.block<3, 1>(0, 3);
      for (int k = 0; k < 8; ++k) {
        if (!add(c + r * Vec3f(k & 1 ? 1.0f : -1.0f, k & 2 ? 1.0f : -1.0f, k & 4 ? 1.0f : -1.0f))) return whole;
      }
    }
  }
  for (const auto* v : {&debug.lines, &debug.overlay_lines, &debug.points}) {
    for (const DebugVertex& p : *v) {
      if (!add(Vec3f(p.p_W[0], p.p_W[1], p.p_W[2]))) return whole;
    }
  }
  for (const PatchVertex& p : debug.patch_triangles) {
    if (!add(Vec3f(p.p_W[0], p.p_W[1], p.p_W[2]))) return whole;
  }
  if (!(x0 <= x1)) return Vec4i(0, 0, 0, 0);  // Nothing but the ground.
  const int ix0 = std::clamp(static_cast<int>(std::floor(x0)) - 2, 0, width);
  const int iy0 = std::clamp(static_cast<int>(std::floor(y0)) - 2, 0, height);
  const int ix1 = std::clamp(static_cast<int>(std::ceil(x1)) + 2, 0, width);
  const int iy1 = std::clamp(static_cast<int>(std::ceil(y1)) + 2, 0, height);
  return Vec4i(ix0, iy0, ix1 - ix0, iy1 - iy0);
}

Instance MakeInstance(const DrawItem& item) {
  Instance in;
  std::memcpy(in.model, item.X_WG.data(), sizeof in.model);
  for (int i = 0; i < 4; ++i) in.color[i] = item.color[i];
  in.material[0] = item.emissive;
  in.material[1] = item.drawable->specular;
  in.material[2] = item.drawable->shininess;
  in.material[3] = 0.0f;
  return in;
}

// Points `mesh`'s VAO (left bound) at instances first.. of `vbo`. The VAO
// keeps the pointers, so a mesh drawn in several batches is re-pointed for
// each (glDrawElementsInstancedBaseInstance is GL 4.2, beyond our 3.3).
void BindInstances(const GpuMesh& mesh, GLuint vbo, size_t first) {
  glBindVertexArray(mesh.vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  const size_t base = first * sizeof(Instance);
  auto attrib = [&](GLuint location, size_t offset) {
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                          reinterpret_cast<const void*>(base + offset));
    glVertexAttribDivisor(location, 1);
  };
  for (GLuint c = 0; c < 4; ++c) attrib(2 + c, offsetof(Instance, model) + 4 * sizeof(float) * c);
  attrib(6, offsetof(Instance, color));
  attrib(7, offsetof(Instance, material));
}

void Upload(GLuint vbo, const std::vector<Instance>& instances) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  // Orphan and refill: the driver need not wait for last frame's draws.
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instances.size() * sizeof(Instance)), instances.data(),
               GL_STREAM_DRAW);
}

// Batches of consecutive items with the same mesh (and kind): [begin, end).
template <typename MeshOf>
std::vector<std::pair<size_t, size_t>> Batches(const std::vector<DrawItem>& items, MeshOf mesh_of,
                                               bool instancing) {
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (instancing && !out.empty() && mesh_of(items[out.back().first]) == mesh_of(items[i]) &&
        items[out.back().first].ground == items[i].ground) {
      out.back().second = i + 1;
    } else {
      out.emplace_back(i, i + 1);
    }
  }
  return out;
}

// Appends the bits of `bytes` bytes at `data` to a cache key (compared
// bitwise: as floats, NaN patterns would never compare equal).
void AppendBits(std::vector<std::uint32_t>* key, const void* data, size_t bytes) {
  const size_t at = key->size();
  key->resize(at + (bytes + 3) / 4, 0u);
  std::memcpy(key->data() + at, data, bytes);
}


// A vertex array and its buffer of vertices `stride` bytes apart: location
// 0 the position (3 floats at position_offset), location 1 `size` floats at
// offset (a colour, a place on the colour map).
void MakeVertexArray(size_t stride, size_t position_offset, GLint size, size_t offset, GLuint* vao, GLuint* vbo) {
  glGenVertexArrays(1, vao);
  glGenBuffers(1, vbo);
  glBindVertexArray(*vao);
  glBindBuffer(GL_ARRAY_BUFFER, *vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, static_cast<GLsizei>(stride),
                        reinterpret_cast<const void*>(position_offset));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, size, GL_FLOAT, GL_FALSE, static_cast<GLsizei>(stride),
                        reinterpret_cast<const void*>(offset));
}

// What an item's level of detail depends on: the eye [m], the near plane
// [m] and the view's pixels per radian (height / 2 / tan(fovy / 2)).
struct LodView {
  Vec3f eye;
  float near_plane;
  float px_per_radian;
};

LodView MakeLodView(const Camera& camera, int height) {
  return LodView{camera.Eye(), camera.NearPlane(),
                 0.5f * static_cast<float>(height) /
                     std::tan(0.5f * camera.fovy_deg * std::numbers::pi_v<float> / 180.0f)};
}

// Drawable `d` at body pose X_WB, at the level of detail its projected size
// needs: radius in pixels = r / distance · px_per_radian.
DrawItem MakeDrawItem(const Drawable& d, const std::array<const GpuMesh*, kNumLods>& lods, const RigidTransform& X_WB,
                      const Vec4f& color, bool ghost, int selected_body, const LodView& view) {
  DrawItem item{&d, lods[0], lods[kNumLods - 1], ToMatrix(X_WB * d.X_BG), color, 0.0f, 0.0f, ghost,
                d.shape.type == ShapeType::kHalfSpace};
  item.depth = (item.X_WG.block<3, 1>(0, 3) - view.eye).norm();
  if (std::isfinite(d.bounding_radius)) {
    const float r = static_cast<float>(d.bounding_radius);
    const float distance = std::max(item.depth - r, view.near_plane);
    item.mesh = lods[ChooseLod(r / distance * view.px_per_radian)];
  }
  item.emissive = !ghost && d.body > 0 && d.body == selected_body ? 1.0f : 0.0f;
  return item;
}

// The items that cast shadows: bodies, not the half-space nor ghosts.
std::vector<DrawItem> ShadowCasters(const std::vector<DrawItem>& opaque, const std::vector<DrawItem>& transparent) {
  std::vector<DrawItem> casters;
  for (const auto* list : {&opaque, &transparent}) {
    for (const DrawItem& item : *list) {
      if (!item.ground && !item.ghost && std::isfinite(item.drawable->bounding_radius)) casters.push_back(item);
    }
  }
  return casters;
}

// The light's view-projection: the orthographic box around the casters'
// bounding spheres in the light's frame (receivers beyond it: mesh.frag
// clamps), with square texels so that the penumbra is as wide across as
// along. *half: half the box's side [m].
Mat4f FitLightFrustum(const std::vector<DrawItem>& casters, float* half) {
  Vec3f centre = Vec3f::Zero();
  for (const DrawItem& c : casters) centre += c.X_WG.block<3, 1>(0, 3);
  if (!casters.empty()) centre /= static_cast<float>(casters.size());
  const Mat4f light_view = LookAt(centre - kLightDir_W, centre, Vec3f::UnitZ());
  Vec3f lo = Vec3f::Constant(-0.1f), hi = Vec3f::Constant(0.1f);
  if (!casters.empty()) {
    lo = Vec3f::Constant(std::numeric_limits<float>::infinity());
    hi = -lo;
    for (const DrawItem& c : casters) {
      const Vec3f p = (light_view * c.X_WG.col(3)).head<3>();
      const float r = std::max(static_cast<float>(c.drawable->bounding_radius), 1e-3f);
      lo = lo.cwiseMin(p - Vec3f::Constant(r));
      hi = hi.cwiseMax(p + Vec3f::Constant(r));
    }
  }
  const Vec3f mid = 0.5f * (lo + hi);
  *half = 0.5f * std::max(hi.x() - lo.x(), hi.y() - lo.y()) * 1.02f;
  // View space looks down -z: near = -hi.z, far = -lo.z (plus a margin).
  const float depth_margin = 0.01f * (hi.z() - lo.z()) + 1e-3f;
  return Ortho(mid.x() - *half, mid.x() + *half, mid.y() - *half, mid.y() + *half, -hi.z() - depth_margin,
               -lo.z() + depth_margin) *
         light_view;
}

// What the shadow map's content depends on: the light frustum and every
// caster's mesh and pose; equal next frame = nothing to redo.
std::vector<std::uint32_t> ShadowKey(const Mat4f& light_view_proj, const std::vector<DrawItem>& casters) {
  std::vector<std::uint32_t> key;
  key.reserve(16 + casters.size() * 18);
  AppendBits(&key, light_view_proj.data(), 16 * sizeof(float));
  for (const DrawItem& c : casters) {
    AppendBits(&key, &c.shadow_mesh, sizeof c.shadow_mesh);
    AppendBits(&key, c.X_WG.data(), 16 * sizeof(float));
  }
  return key;
}

}  // namespace

Renderer::Renderer(const std::string& shader_dir) {
  {
    const char* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    software_renderer_ = IsSoftwareRenderer(name != nullptr ? name : "");
  }
  shadow_taps_ = software_renderer_ ? 1 : 4;
  for (int shadows = 0; shadows < 2; ++shadows) {
    for (int ground = 0; ground < 2; ++ground) {
      std::string defines = ground ? "#define GROUND\n" : "";
      if (shadows) defines += "#define SHADOWS\n#define SHADOW_TAPS " + std::to_string(shadow_taps_) + "\n";
      mesh_programs_[shadows][ground] = std::make_unique<ShaderProgram>(shader_dir, "mesh.vert", "mesh.frag", defines);
    }
  }
  shadow_program_ = std::make_unique<ShaderProgram>(shader_dir, "shadow.vert", "shadow.frag");
  line_program_ = std::make_unique<ShaderProgram>(shader_dir, "line.vert", "line.frag");
  patch_program_ = std::make_unique<ShaderProgram>(shader_dir, "pressure.vert", "pressure.frag");
  patch_program_->Use();
  glUniform3fv(patch_program_->Location("u_colormap"), kPressureColorStops, &kPressureColorMap[0][0]);
  glUseProgram(0);
  sky_program_ = std::make_unique<ShaderProgram>(shader_dir, "sky.vert", "sky.frag");
  fxaa_program_ = std::make_unique<ShaderProgram>(shader_dir, "fullscreen.vert", "fxaa.frag");
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples_);

  // Shadow map: a depth texture compared in hardware (sampler2DShadow).
  // Outside the map the border depth 1 means "lit".
  glGenTextures(1, &shadow_tex_);
  glBindTexture(GL_TEXTURE_2D, shadow_tex_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, kShadowMapSize, kShadowMapSize, 0,
               GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const float border[4] = {1, 1, 1, 1};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  glGenFramebuffers(1, &shadow_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, shadow_fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, shadow_tex_, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);

  MakeVertexArray(sizeof(DebugVertex), offsetof(DebugVertex, p_W), 4, offsetof(DebugVertex, color), &line_vao_,
                  &line_vbo_);
  MakeVertexArray(sizeof(PatchVertex), offsetof(PatchVertex, p_W), 1, offsetof(PatchVertex, fraction), &patch_vao_,
                  &patch_vbo_);
  glBindVertexArray(0);
  glGenVertexArrays(1, &empty_vao_);
  glGenBuffers(1, &instance_vbo_);
  glGenBuffers(1, &shadow_instance_vbo_);
}

Renderer::~Renderer() {
  DeleteTargets();
  glDeleteFramebuffers(1, &shadow_fbo_);
  glDeleteTextures(1, &shadow_tex_);
  const GLuint arrays[] = {line_vao_, patch_vao_, empty_vao_};
  glDeleteVertexArrays(3, arrays);
  const GLuint buffers[] = {line_vbo_, patch_vbo_, instance_vbo_, shadow_instance_vbo_};
  glDeleteBuffers(4, buffers);
}

void Renderer::LoadScene(const RenderScene& scene) {
  meshes_.Clear();
  for (const auto& [key, mesh] : scene.meshes) meshes_.Add(key, mesh);
  // The coarser levels of the round primitives (level 0 is the scene's mesh).
  drawable_meshes_.clear();
  for (const Drawable& d : scene.drawables) {
    std::array<const GpuMesh*, kNumLods> lods;
    lods.fill(meshes_.Find(d.mesh_key));
    if (lods[0] != nullptr && HasLevelsOfDetail(d.shape)) {
      for (int lod = 1; lod < kNumLods; ++lod) {
        const std::string key = d.mesh_key + "@lod" + std::to_string(lod);
        if (meshes_.Find(key) == nullptr) meshes_.Add(key, MakePrimitiveMesh(d.shape, lod));
        lods[lod] = meshes_.Find(key);
      }
    }
    drawable_meshes_.push_back(lods);
  }
  shadow_valid_ = false;  // Mesh objects may have been reused for other shapes.
}

void Renderer::DeleteTargets() {
  // Zero names (targets the antialiasing mode does not use) are ignored.
  const GLuint framebuffers[] = {ms_fbo_, scene_fbo_, resolve_fbo_};
  glDeleteFramebuffers(3, framebuffers);
  const GLuint renderbuffers[] = {ms_color_, ms_depth_, scene_depth_, resolve_color_, resolve_depth_};
  glDeleteRenderbuffers(5, renderbuffers);
  glDeleteTextures(1, &scene_color_);
  ms_fbo_ = ms_color_ = ms_depth_ = 0;
  scene_fbo_ = scene_color_ = scene_depth_ = 0;
  resolve_fbo_ = resolve_color_ = resolve_depth_ = 0;
}

void Renderer::EnsureTargets(int width, int height, Antialiasing aa) {
  if (width == width_ && height == height_ && aa == target_aa_ && resolve_fbo_ != 0) return;
  DeleteTargets();
  width_ = width;
  height_ = height;
  target_aa_ = aa;
  auto renderbuffer = [&](GLuint* rb, int samples, GLenum format, GLenum attachment) {
    glGenRenderbuffers(1, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, *rb);
    if (samples > 0) {
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, width, height);
    } else {
      glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
    }
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, attachment, GL_RENDERBUFFER, *rb);
  };

  glGenFramebuffers(1, &resolve_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
  renderbuffer(&resolve_color_, 0, GL_RGBA8, GL_COLOR_ATTACHMENT0);
  if (aa == Antialiasing::kOff) renderbuffer(&resolve_depth_, 0, GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT);

  if (aa == Antialiasing::kMsaa2 || aa == Antialiasing::kMsaa4) {
    const int samples = std::min(aa == Antialiasing::kMsaa4 ? 4 : 2, max_samples_);
    glGenFramebuffers(1, &ms_fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, ms_fbo_);
    renderbuffer(&ms_color_, samples, GL_RGBA8, GL_COLOR_ATTACHMENT0);
    renderbuffer(&ms_depth_, samples, GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT);
  }
  if (aa == Antialiasing::kFxaa) {
    glGenFramebuffers(1, &scene_fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, scene_fbo_);
    glGenTextures(1, &scene_color_);
    glBindTexture(GL_TEXTURE_2D, scene_color_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, scene_color_, 0);
    renderbuffer(&scene_depth_, 0, GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
}

// This frame's items: opaque grouped by mesh (one instanced draw each) with
// the ground last, so that llvmpipe's early depth test skips its shading
// under bodies; transparent back to front.
struct Renderer::DrawLists {
  std::vector<DrawItem> opaque, transparent;
  std::vector<DrawItem> casters;  ///< Of the shadow map, grouped by their shadow mesh.
};

void Renderer::Render(const RenderScene& scene, const Snapshot& snapshot, const Camera& camera,
                      const RenderOptions& options, const DebugDraw& debug, int selected_body,
                      int width, int height) {
  width = std::max(width, 1);
  height = std::max(height, 1);
  Antialiasing aa = ResolveAntialiasing(options.antialiasing);
  if ((aa == Antialiasing::kMsaa2 || aa == Antialiasing::kMsaa4) && max_samples_ < 2) aa = Antialiasing::kOff;
  EnsureTargets(width, height, aa);
  last_draw_calls_ = 0;
  DrawLists items = CollectDrawItems(scene, snapshot, camera, options, selected_body, height);
  const Mat4f view_proj = camera.ViewProjection(width, height);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  const Mat4f light_view_proj = options.shadows ? RenderShadowPass(scene, &items) : Mat4f::Identity();
  RenderScenePass(items, camera, options, view_proj, light_view_proj, aa, width, height);
  RenderDebugPass(debug, view_proj);
  RenderResolvePass(items, debug, view_proj, aa, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

std::array<const GpuMesh*, kNumLods> Renderer::LodsOf(const RenderScene& scene, size_t i) const {
  if (drawable_meshes_.size() == scene.drawables.size()) return drawable_meshes_[i];
  std::array<const GpuMesh*, kNumLods> lods;
  lods.fill(meshes_.Find(scene.drawables[i].mesh_key));
  return lods;
}

Renderer::DrawLists Renderer::CollectDrawItems(const RenderScene& scene, const Snapshot& snapshot,
                                               const Camera& camera, const RenderOptions& options,
                                               int selected_body, int height) const {
  const LodView view = MakeLodView(camera, height);
  DrawLists items;
  for (size_t i = 0; i < scene.drawables.size(); ++i) {
    const Drawable& d = scene.drawables[i];
    if (!d.visual && !options.show_collision_only) continue;
    if (d.body > 0 && !options.show_bodies) continue;
    if (d.body >= static_cast<int>(snapshot.X_WB.size())) continue;
    const std::array<const GpuMesh*, kNumLods> lods = LodsOf(scene, i);
    if (lods[0] == nullptr) continue;
    Vec4f color = d.color.cast<float>();
    if (!d.visual) color.w() *= 0.35f;  // Collision-only geometry: ghosted.
    if (d.body > 0 && d.body < static_cast<int>(snapshot.asleep.size()) && snapshot.asleep[d.body] != 0) {
      color.head<3>() *= 0.6f;  // Asleep (solver.sleep): darker until something wakes it.
    }
    if (options.transparent && d.body > 0) color.w() *= 0.4f;
    const DrawItem item = MakeDrawItem(d, lods, snapshot.X_WB[d.body], color, false, selected_body, view);
    (color.w() < 0.999f ? items.transparent : items.opaque).push_back(item);
  }
  // Ghosts: the same bodies, see-through and tinted; the gripper's target
  // pose cool, the timeline's previous branch warm.
  auto add_ghosts = [&](const std::vector<std::pair<int, RigidTransform>>& ghosts, const Vec4f& tint) {
    for (const auto& [body, X_WB] : ghosts) {
      for (size_t i = 0; i < scene.drawables.size(); ++i) {
        const Drawable& d = scene.drawables[i];
        if (d.body != body || !d.visual || !options.show_bodies) continue;
        const std::array<const GpuMesh*, kNumLods> lods = LodsOf(scene, i);
        if (lods[0] == nullptr) continue;
        items.transparent.push_back(MakeDrawItem(d, lods, X_WB, tint, true, selected_body, view));
      }
    }
  };
  add_ghosts(snapshot.ghost_bodies, Vec4f(0.35f, 0.85f, 1.0f, 0.3f));
  add_ghosts(snapshot.branch_ghost_bodies, Vec4f(1.0f, 0.6f, 0.2f, 0.35f));
  std::stable_sort(items.opaque.begin(), items.opaque.end(), [](const DrawItem& a, const DrawItem& b) {
    return a.ground != b.ground ? b.ground : a.mesh < b.mesh;
  });
  std::sort(items.transparent.begin(), items.transparent.end(),
            [](const DrawItem& a, const DrawItem& b) { return a.depth > b.depth; });
  return items;
}

// ---------------------------------------------------------------- shadow pass

// The shadow map from the directional light (bodies cast; the half-space and
// ghosts do not), kept when no caster moved. Returns the light's view-projection.
Mat4f Renderer::RenderShadowPass(const RenderScene& scene, DrawLists* items) {
  std::vector<DrawItem>& casters = items->casters;
  casters = ShadowCasters(items->opaque, items->transparent);
  float half = 0;
  const Mat4f light_view_proj = FitLightFrustum(casters, &half);
  // Shadow level of detail by the caster's size in texels.
  const float texels_per_m = static_cast<float>(kShadowMapSize) / (2.0f * half);
  for (DrawItem& c : casters) {
    const auto lods = LodsOf(scene, static_cast<size_t>(c.drawable - scene.drawables.data()));
    if (std::isfinite(c.drawable->bounding_radius)) {
      c.shadow_mesh = lods[ChooseLod(static_cast<float>(c.drawable->bounding_radius) * texels_per_m)];
    }
  }
  std::stable_sort(casters.begin(), casters.end(),
                   [](const DrawItem& a, const DrawItem& b) { return a.shadow_mesh < b.shadow_mesh; });
  std::vector<std::uint32_t> key = ShadowKey(light_view_proj, casters);
  if (shadow_valid_ && key == shadow_key_) return light_view_proj;
  shadow_key_ = std::move(key);
  shadow_valid_ = true;
  ++shadow_map_renders_;
  DrawShadowMap(*items, light_view_proj);
  return light_view_proj;
}

void Renderer::DrawShadowMap(const DrawLists& items, const Mat4f& light_view_proj) {
  const std::vector<DrawItem>& casters = items.casters;
  std::vector<Instance> instances;
  instances.reserve(casters.size());
  for (const DrawItem& c : casters) instances.push_back(MakeInstance(c));
  Upload(shadow_instance_vbo_, instances);
  glBindFramebuffer(GL_FRAMEBUFFER, shadow_fbo_);
  glViewport(0, 0, kShadowMapSize, kShadowMapSize);
  glClear(GL_DEPTH_BUFFER_BIT);
  // Back faces only: the map holds each caster's far side from the light, so
  // its lit front never compares against itself (no acne, also where the
  // shadow's coarser level of detail differs from the camera's). The offset
  // keeps the contact with the ground clean.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.5f, 2.0f);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_FRONT);
  shadow_program_->Use();
  shadow_program_->Set("u_light_view_proj", light_view_proj);
  const auto batches = Batches(casters, [](const DrawItem& c) { return c.shadow_mesh; }, instancing_);
  for (const auto& [begin, end] : batches) {
    const GpuMesh& mesh = *casters[begin].shadow_mesh;
    BindInstances(mesh, shadow_instance_vbo_, begin);
    glDrawElementsInstanced(GL_TRIANGLES, mesh.num_indices, GL_UNSIGNED_INT, nullptr,
                            static_cast<GLsizei>(end - begin));
    ++last_draw_calls_;
  }
  glDisable(GL_POLYGON_OFFSET_FILL);
  glCullFace(GL_BACK);
  glDisable(GL_CULL_FACE);
}

// ---------------------------------------------------------------- scene pass

// The scene into the target of the antialiasing mode: opaque items, the sky
// where nothing opaque is, then transparent items back to front.
void Renderer::RenderScenePass(const DrawLists& items, const Camera& camera, const RenderOptions& options,
                               const Mat4f& view_proj, const Mat4f& light_view_proj, Antialiasing aa, int width,
                               int height) {
  const GLuint target = aa == Antialiasing::kFxaa ? scene_fbo_ : aa == Antialiasing::kOff ? resolve_fbo_ : ms_fbo_;
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, width, height);
  glClearColor(kHorizonColor[0], kHorizonColor[1], kHorizonColor[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  SetMeshUniforms(camera, options, view_proj, light_view_proj);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, shadow_tex_);

  // All items' instances in one upload: opaque first, then transparent.
  std::vector<Instance> instances;
  instances.reserve(items.opaque.size() + items.transparent.size());
  for (const auto* list : {&items.opaque, &items.transparent}) {
    for (const DrawItem& item : *list) instances.push_back(MakeInstance(item));
  }
  Upload(instance_vbo_, instances);

  const int shadows = options.shadows ? 1 : 0;
  if (options.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  glDisable(GL_BLEND);
  ShaderProgram* current = nullptr;
  for (const auto& [begin, end] : Batches(items.opaque, [](const DrawItem& i) { return i.mesh; }, instancing_)) {
    DrawBatch(items, /*transparent=*/false, begin, end, shadows, &current);
  }
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  glDisable(GL_CULL_FACE);
  DrawSky(view_proj, camera.Eye());
  if (items.transparent.empty()) return;
  current = nullptr;
  if (options.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  // Back to front, one draw each: sorting matters more than batching here.
  for (size_t i = 0; i < items.transparent.size(); ++i) {
    DrawBatch(items, /*transparent=*/true, i, i + 1, shadows, &current);
  }
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  glDisable(GL_CULL_FACE);
}

void Renderer::SetMeshUniforms(const Camera& camera, const RenderOptions& options, const Mat4f& view_proj,
                               const Mat4f& light_view_proj) {
  const float fog_start = std::max(15.0f, 4.0f * camera.distance);
  const int shadows = options.shadows ? 1 : 0;
  const Vec3f horizon(kHorizonColor[0], kHorizonColor[1], kHorizonColor[2]);
  for (int ground = 0; ground < 2; ++ground) {
    ShaderProgram& p = *mesh_programs_[shadows][ground];
    p.Use();
    p.Set("u_view_proj", view_proj);
    p.Set("u_light_view_proj", light_view_proj);
    p.Set("u_light_dir_W", kLightDir_W);
    p.Set("u_eye_W", camera.Eye());
    p.Set("u_sun_color", kSunColor);
    p.Set("u_sky_ambient", kSkyAmbient);
    p.Set("u_ground_ambient", kGroundAmbient);
    if (shadows) {
      p.Set("u_shadow_map", 0);
      glUniform2f(p.Location("u_shadow_texel"), 1.0f / kShadowMapSize, 1.0f / kShadowMapSize);
    }
    if (ground) {
      p.Set("u_grid", options.grid ? 1 : 0);
      p.Set("u_fog_color", horizon);
      glUniform2f(p.Location("u_fog_range"), fog_start, 3.0f * fog_start);
    }
  }
}

// Items [begin, end) of the opaque or the transparent list in one instanced
// draw (the instance buffer holds the opaque items, then the transparent
// ones); *current is the program in use.
void Renderer::DrawBatch(const DrawLists& items, bool transparent, size_t begin, size_t end, int shadows,
                         ShaderProgram** current) {
  const size_t first_instance = transparent ? items.opaque.size() : 0;
  const DrawItem& item = (transparent ? items.transparent : items.opaque)[begin];
  ShaderProgram* program = mesh_programs_[shadows][item.ground ? 1 : 0].get();
  if (program != *current) {
    program->Use();
    *current = program;
  }
  if (item.ground) {
    glDisable(GL_CULL_FACE);  // Visible from below as well.
  } else {
    glEnable(GL_CULL_FACE);
  }
  BindInstances(*item.mesh, instance_vbo_, first_instance + begin);
  glDrawElementsInstanced(GL_TRIANGLES, item.mesh->num_indices, GL_UNSIGNED_INT, nullptr,
                          static_cast<GLsizei>(end - begin));
  ++last_draw_calls_;
}

// The sky where nothing opaque is: at the far plane, depth test only.
void Renderer::DrawSky(const Mat4f& view_proj, const Vec3f& eye) {
  sky_program_->Use();
  sky_program_->Set("u_inv_view_proj", Mat4f(view_proj.inverse()));
  sky_program_->Set("u_eye_W", eye);
  sky_program_->Set("u_horizon_color", Vec3f(kHorizonColor[0], kHorizonColor[1], kHorizonColor[2]));
  sky_program_->Set("u_zenith_color", Vec3f(kZenithColor[0], kZenithColor[1], kZenithColor[2]));
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_FALSE);
  glBindVertexArray(empty_vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
}

// ---------------------------------------------------------------- debug pass

// Debug lines depth tested; then on top the pressure patches (both faces:
// culling is off here), under the overlay lines and points; opaque, so that
// a colour reads as the legend's.
void Renderer::RenderDebugPass(const DebugDraw& debug, const Mat4f& view_proj) {
  line_program_->Use();
  line_program_->Set("u_view_proj", view_proj);
  line_program_->Set("u_point_size", 6.0f);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  auto draw_lines = [&](const std::vector<DebugVertex>& v, GLenum mode) {
    if (v.empty()) return;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(DebugVertex)), v.data(),
                 GL_STREAM_DRAW);
    glDrawArrays(mode, 0, static_cast<GLsizei>(v.size()));
  };
  draw_lines(debug.lines, GL_LINES);
  glDisable(GL_DEPTH_TEST);
  if (!debug.patch_triangles.empty()) {
    patch_program_->Use();
    patch_program_->Set("u_view_proj", view_proj);
    glBindVertexArray(patch_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, patch_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(debug.patch_triangles.size() * sizeof(PatchVertex)),
                 debug.patch_triangles.data(), GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(debug.patch_triangles.size()));
    line_program_->Use();
    glBindVertexArray(line_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  }
  draw_lines(debug.overlay_lines, GL_LINES);
  draw_lines(debug.points, GL_POINTS);
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
}

// ---------------------------------------------------------------- resolve pass

// Into the single-sample image everything reads: a blit for MSAA, the FXAA
// pass, nothing when off.
void Renderer::RenderResolvePass(const DrawLists& items, const DebugDraw& debug, const Mat4f& view_proj,
                                 Antialiasing aa, int width, int height) {
  if (aa == Antialiasing::kMsaa2 || aa == Antialiasing::kMsaa4) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  fxaa_pixels_ = 0;
  if (aa == Antialiasing::kFxaa) {
    // Edges needing the filter are where geometry other than the ground is
    // (the ground's grid lines are antialiased in mesh.frag, and its fog
    // ends in the sky's horizon colour): run it only inside the screen
    // rectangle of those items' bounding spheres and copy the rest. In a
    // scene of small objects that is a fraction of the frame (docs/viewer.md).
    RunFxaa(EdgeRectangle(items.opaque, items.transparent, debug, view_proj, width, height), width, height);
  }
}

void Renderer::RunFxaa(const Vec4i& rect, int width, int height) {
  if (rect[2] < width || rect[3] < height) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, scene_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
  glEnable(GL_SCISSOR_TEST);
  glScissor(rect[0], rect[1], rect[2], rect[3]);
  fxaa_pixels_ = static_cast<long long>(rect[2]) * rect[3];
  glDisable(GL_DEPTH_TEST);
  fxaa_program_->Use();
  fxaa_program_->Set("u_image", 0);
  glUniform2f(fxaa_program_->Location("u_texel"), 1.0f / static_cast<float>(width),
              1.0f / static_cast<float>(height));
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, scene_color_);
  glBindVertexArray(empty_vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_DEPTH_TEST);
}

const char* AntialiasingName(Antialiasing mode) {
  switch (mode) {
    case Antialiasing::kAuto: return "auto";
    case Antialiasing::kOff: return "off";
    case Antialiasing::kFxaa: return "FXAA";
    case Antialiasing::kMsaa2: return "MSAA 2x";
    case Antialiasing::kMsaa4: return "MSAA 4x";
  }
  return "?";
}

bool IsSoftwareRenderer(const std::string& gl_renderer) {
  return gl_renderer.find("llvmpipe") != std::string::npos || gl_renderer.find("softpipe") != std::string::npos ||
         gl_renderer.find("swrast") != std::string::npos;
}

Antialiasing AutoAntialiasing(bool software_renderer) {
  // docs/viewer.md "Rendering": on llvmpipe FXAA costs a fraction of MSAA.
  return software_renderer ? Antialiasing::kFxaa : Antialiasing::kMsaa4;
}

Antialiasing Renderer::ResolveAntialiasing(Antialiasing mode) const {
  return mode == Antialiasing::kAuto ? AutoAntialiasing(software_renderer_) : mode;
}

void Renderer::BlitToWindow(int x, int y, int width, int height) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  const bool scaled = width != width_ || height != height_;
  glBlitFramebuffer(0, 0, width_, height_, x, y, x + width, y + height, GL_COLOR_BUFFER_BIT,
                    scaled ? GL_LINEAR : GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void Renderer::BindResolvedFramebuffer() const {
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
  glViewport(0, 0, width_, height_);
}

std::vector<std::uint8_t> Renderer::ReadPixels(int* width, int* height) const {
  *width = width_;
  *height = height_;
  std::vector<std::uint8_t> rgb(static_cast<size_t>(width_) * height_ * 3);
  if (rgb.empty()) return rgb;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  return rgb;
}

}  // namespace stiction::app
