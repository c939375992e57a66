#include "app/render/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace stiction::app {
namespace {

// Direction the sunlight travels, world frame: from above, slightly from the
// viewer's left and front so that shadows fall visibly on the ground.
const Vec3f kLightDir_W = Vec3f(0.35f, 0.45f, -1.0f).normalized();

struct DrawItem {
  const Drawable* drawable;
  const GpuMesh* mesh;
  Mat4f X_WG;
  Vec4f color;
  float depth;  // Distance to the eye, for sorting transparent items.
  bool ghost = false;  // A target-pose ghost: casts no shadow.
};

}  // namespace

Renderer::Renderer(const std::string& shader_dir) {
  for (int shadows = 0; shadows < 2; ++shadows) {
    for (int ground = 0; ground < 2; ++ground) {
      const std::string defines = std::string(shadows ? "#define SHADOWS\n" : "") + (ground ? "#define GROUND\n" : "");
      mesh_programs_[shadows][ground] = std::make_unique<ShaderProgram>(shader_dir, "mesh.vert", "mesh.frag", defines);
    }
  }
  shadow_program_ = std::make_unique<ShaderProgram>(shader_dir, "shadow.vert", "shadow.frag");
  line_program_ = std::make_unique<ShaderProgram>(shader_dir, "line.vert", "line.frag");
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples_);
  {
    const char* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string renderer = name != nullptr ? name : "";
    software_renderer_ = renderer.find("llvmpipe") != std::string::npos ||
                         renderer.find("softpipe") != std::string::npos ||
                         renderer.find("swrast") != std::string::npos;
  }

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

  glGenVertexArrays(1, &line_vao_);
  glGenBuffers(1, &line_vbo_);
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(DebugVertex),
                        reinterpret_cast<const void*>(offsetof(DebugVertex, p_W)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(DebugVertex),
                        reinterpret_cast<const void*>(offsetof(DebugVertex, color)));
  glBindVertexArray(0);
}

Renderer::~Renderer() {
  DeleteTargets();
  glDeleteFramebuffers(1, &shadow_fbo_);
  glDeleteTextures(1, &shadow_tex_);
  glDeleteVertexArrays(1, &line_vao_);
  glDeleteBuffers(1, &line_vbo_);
}

void Renderer::LoadScene(const RenderScene& scene) {
  meshes_.Clear();
  for (const auto& [key, mesh] : scene.meshes) meshes_.Add(key, mesh);
}

void Renderer::DeleteTargets() {
  glDeleteFramebuffers(1, &ms_fbo_);
  glDeleteRenderbuffers(1, &ms_color_);
  glDeleteRenderbuffers(1, &ms_depth_);
  glDeleteFramebuffers(1, &resolve_fbo_);
  glDeleteRenderbuffers(1, &resolve_color_);
  ms_fbo_ = ms_color_ = ms_depth_ = resolve_fbo_ = resolve_color_ = 0;
}

void Renderer::EnsureTargets(int width, int height, int samples) {
  if (width == width_ && height == height_ && samples == samples_ && ms_fbo_ != 0) return;
  DeleteTargets();
  width_ = width;
  height_ = height;
  samples_ = samples;
  glGenFramebuffers(1, &ms_fbo_);
  glGenRenderbuffers(1, &ms_color_);
  glGenRenderbuffers(1, &ms_depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, ms_color_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, ms_depth_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, ms_fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms_color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, ms_depth_);

  glGenFramebuffers(1, &resolve_fbo_);
  glGenRenderbuffers(1, &resolve_color_);
  glBindRenderbuffer(GL_RENDERBUFFER, resolve_color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolve_color_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
}

void Renderer::Render(const RenderScene& scene, const Snapshot& snapshot, const Camera& camera,
                      const RenderOptions& options, const DebugDraw& debug, int selected_body,
                      int width, int height) {
  width = std::max(width, 1);
  height = std::max(height, 1);
  const Antialiasing aa = ResolveAntialiasing(options.antialiasing);
  const int wanted = aa == Antialiasing::kMsaa4 ? 4 : aa == Antialiasing::kMsaa2 ? 2 : 0;
  const int samples = std::min(wanted, max_samples_);
  EnsureTargets(width, height, samples);

  // Collect what to draw.
  const Vec3f eye = camera.Eye();
  std::vector<DrawItem> opaque, transparent;
  for (const Drawable& d : scene.drawables) {
    if (!d.visual && !options.show_collision_only) continue;
    if (d.body > 0 && !options.show_bodies) continue;
    if (d.body >= static_cast<int>(snapshot.X_WB.size())) continue;
    const GpuMesh* mesh = meshes_.Find(d.mesh_key);
    if (mesh == nullptr) continue;
    DrawItem item{&d, mesh, ToMatrix(snapshot.X_WB[d.body] * d.X_BG), d.color.cast<float>(), 0.0f};
    if (!d.visual) item.color.w() *= 0.35f;  // Collision-only geometry: ghosted.
    if (options.transparent && d.body > 0) item.color.w() *= 0.4f;
    item.depth = (item.X_WG.block<3, 1>(0, 3) - eye).norm();
    (item.color.w() < 0.999f ? transparent : opaque).push_back(item);
  }
  // Ghosts (the gripper's target pose): the same bodies, see-through and tinted.
  for (const auto& [body, X_WB] : snapshot.ghost_bodies) {
    for (const Drawable& d : scene.drawables) {
      if (d.body != body || !d.visual || !options.show_bodies) continue;
      const GpuMesh* mesh = meshes_.Find(d.mesh_key);
      if (mesh == nullptr) continue;
      DrawItem item{&d, mesh, ToMatrix(X_WB * d.X_BG), Vec4f(0.35f, 0.85f, 1.0f, 0.3f), 0.0f, true};
      item.depth = (item.X_WG.block<3, 1>(0, 3) - eye).norm();
      transparent.push_back(item);
    }
  }
  std::sort(transparent.begin(), transparent.end(),
            [](const DrawItem& a, const DrawItem& b) { return a.depth > b.depth; });

  // Light frustum: an orthographic box around the finite geometry.
  Vector3 center;
  double radius = 1;
  CalcSceneBounds(scene, snapshot.X_WB, &center, &radius);
  const float r = static_cast<float>(std::clamp(radius * 1.1, 0.1, 50.0));
  const Vec3f c = center.cast<float>();
  const Mat4f light_view_proj =
      Ortho(-r, r, -r, r, 0.01f, 4.0f * r) * LookAt(c - 2.0f * r * kLightDir_W, c, Vec3f::UnitZ());

  // 1. Shadow pass (bodies cast; the half-space does not need to).
  glEnable(GL_DEPTH_TEST);
  glDepthMask(GL_TRUE);
  if (options.shadows) {
    glBindFramebuffer(GL_FRAMEBUFFER, shadow_fbo_);
    glViewport(0, 0, kShadowMapSize, kShadowMapSize);
    glClear(GL_DEPTH_BUFFER_BIT);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 2.0f);
    glDisable(GL_CULL_FACE);
    shadow_program_->Use();
    shadow_program_->Set("u_light_view_proj", light_view_proj);
    for (const auto* list : {&opaque, &transparent}) {
      for (const DrawItem& item : *list) {
        if (item.drawable->shape.type == ShapeType::kHalfSpace || item.ghost) continue;
        shadow_program_->Set("u_model", item.X_WG);
        glBindVertexArray(item.mesh->vao);
        glDrawElements(GL_TRIANGLES, item.mesh->num_indices, GL_UNSIGNED_INT, nullptr);
      }
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
  }

  // 2. Scene into the multisample FBO.
  glBindFramebuffer(GL_FRAMEBUFFER, ms_fbo_);
  glViewport(0, 0, width, height);
  glClearColor(kClearColor[0], kClearColor[1], kClearColor[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const Mat4f view_proj = camera.ViewProjection(width, height);
  const float fog_start = std::max(15.0f, 4.0f * camera.distance);
  const int shadows = options.shadows ? 1 : 0;
  for (int ground = 0; ground < 2; ++ground) {
    ShaderProgram& p = *mesh_programs_[shadows][ground];
    p.Use();
    p.Set("u_view_proj", view_proj);
    p.Set("u_light_view_proj", light_view_proj);
    p.Set("u_light_dir_W", kLightDir_W);
    p.Set("u_eye_W", eye);
    if (shadows) {
      p.Set("u_shadow_map", 0);
    }
    if (ground) {
      p.Set("u_grid", options.grid ? 1 : 0);
      p.Set("u_fog_color", Vec3f(kClearColor[0], kClearColor[1], kClearColor[2]));
      glUniform2f(p.Location("u_fog_range"), fog_start, 3.0f * fog_start);
    }
  }
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, shadow_tex_);
  if (options.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);

  ShaderProgram* current = nullptr;
  auto draw = [&](const DrawItem& item) {
    const bool half_space = item.drawable->shape.type == ShapeType::kHalfSpace;
    ShaderProgram* program = mesh_programs_[shadows][half_space ? 1 : 0].get();
    if (program != current) {
      program->Use();
      current = program;
    }
    if (half_space) {
      glDisable(GL_CULL_FACE);  // Visible from below as well.
    } else {
      glEnable(GL_CULL_FACE);
    }
    program->Set("u_model", item.X_WG);
    program->Set("u_normal_matrix", Mat3f(item.X_WG.block<3, 3>(0, 0)));
    program->Set("u_color", item.color);
    program->Set("u_emissive",
                 item.drawable->body > 0 && item.drawable->body == selected_body ? 1.0f : 0.0f);
    glBindVertexArray(item.mesh->vao);
    glDrawElements(GL_TRIANGLES, item.mesh->num_indices, GL_UNSIGNED_INT, nullptr);
  };
  glDisable(GL_BLEND);
  for (const DrawItem& item : opaque) draw(item);
  if (!transparent.empty()) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    for (const DrawItem& item : transparent) draw(item);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  glDisable(GL_CULL_FACE);

  // 3. Debug lines and points.
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
  draw_lines(debug.overlay_lines, GL_LINES);
  draw_lines(debug.points, GL_POINTS);
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);

  // 4. Resolve.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
  glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
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

Antialiasing Renderer::ResolveAntialiasing(Antialiasing mode) const {
  if (mode != Antialiasing::kAuto) return mode;
  return software_renderer_ ? Antialiasing::kMsaa2 : Antialiasing::kMsaa4;
}

void Renderer::BlitToWindow(int x, int y, int width, int height) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  const bool scaled = width != width_ || height != height_;
  glBlitFramebuffer(0, 0, width_, height_, x, y, x + width, y + height, GL_COLOR_BUFFER_BIT,
                    scaled ? GL_LINEAR : GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
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
