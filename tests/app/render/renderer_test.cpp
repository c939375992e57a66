// The Renderer with a real (hidden) window and OpenGL context: instanced
// drawing, the antialiasing modes, the shadow-map cache and the sky. Needs a
// display: ctest runs this executable under
//   xvfb-run -a -s "-screen 0 1280x720x24 -noreset"
// (Mesa llvmpipe, deterministic for a given build).
#include "app/render/renderer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>

#include "app/benchmark.h"
#include "app/record/screenshot.h"
#include "app/render/window.h"
#include "app/snapshot.h"
#include "engine/scene/scene_loader.h"

namespace stiction::app {
namespace {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // Bottom row first.
  const std::uint8_t* at(int x, int y_from_top) const {
    return &rgb[(static_cast<size_t>(height - 1 - y_from_top) * width + x) * 3];
  }
  float Luma(int x, int y_from_top) const {
    const std::uint8_t* p = at(x, y_from_top);
    return 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
  }
};

struct LoadedScene {
  std::unique_ptr<Simulation> sim;
  RenderScene render;
  Snapshot snapshot;
};

LoadedScene Load(const std::string& yaml) {
  LoadedScene s;
  s.sim = std::make_unique<Simulation>(LoadSceneString(yaml, "renderer_test.yaml"));
  s.render = BuildRenderScene(*s.sim);
  s.snapshot = MakeSnapshot(*s.sim, StepStats{}, false);
  return s;
}

class RendererTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    WindowOptions w;
    w.width = 320;
    w.height = 240;
    w.visible = false;
    w.vsync = false;
    window_ = new Window(w);
    renderer_ = new Renderer(ResolveShaderDir(""));
  }
  static void TearDownTestSuite() {
    delete renderer_;
    delete window_;
  }

  static Image Render(const LoadedScene& s, const Camera& camera, const RenderOptions& options, int width,
                      int height) {
    renderer_->Render(s.render, s.snapshot, camera, options, DebugDraw{}, -1, width, height);
    Image im;
    im.rgb = renderer_->ReadPixels(&im.width, &im.height);
    return im;
  }

  static Window* window_;
  static Renderer* renderer_;
};
Window* RendererTest::window_ = nullptr;
Renderer* RendererTest::renderer_ = nullptr;

// One box well above the camera's target, tilted about z so that its edges
// are slanted staircases in the image; optionally the ground.
std::string BoxScene(bool ground) {
  std::string y = "time_step: 0.01\n";
  if (ground) y += "world_geometry:\n  - name: ground\n    shape: {type: half_space}\n";
  y += "bodies:\n  - name: box\n    mass: 1\n    color: [0.15, 0.2, 0.35, 1]\n"
       "    geometry:\n      - shape: {type: box, size: [0.4, 0.4, 0.4]}\n"
       "    pose: {position: [0, 0, 0.5], rpy: [0, 0, 0.35]}\n";
  return y;
}

Camera LookingAt(const Vec3f& lookat, float distance, float elevation_deg) {
  Camera c;
  c.lookat = lookat;
  c.distance = distance;
  c.elevation_deg = elevation_deg;
  return c;
}

// Instanced drawing (one draw call per mesh) and one draw call per item run
// the same shaders on the same instance data, so the images must agree. The
// tolerance allows for the rasterizer's evaluation order only: llvmpipe bins
// triangles per draw, and where two coplanar faces tie in depth the winner
// may change; that touches a handful of pixels, never whole bodies.
TEST_F(RendererTest, InstancedDrawingMatchesOneDrawPerItem) {
  const LoadedScene s = Load(MakeClutterSceneYaml(160));
  renderer_->LoadScene(s.render);
  const Camera camera = LookingAt(Vec3f(0, 0, 0.2f), 4.5f, -35.0f);
  RenderOptions options;
  options.antialiasing = Antialiasing::kOff;
  const int w = 640, h = 360;

  auto timed = [&](bool instancing, Image* im, int* draws) {
    renderer_->set_instancing(instancing);
    *im = Render(s, camera, options, w, h);  // Also warms up.
    *draws = renderer_->last_draw_calls();
    glFinish();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 5; ++i) Render(s, camera, options, w, h);
    glFinish();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 5;
  };
  Image instanced, per_item;
  int draws_instanced = 0, draws_per_item = 0;
  const double ms_instanced = timed(true, &instanced, &draws_instanced);
  const double ms_per_item = timed(false, &per_item, &draws_per_item);
  renderer_->set_instancing(true);
  std::printf("160 bodies at %dx%d: instanced %d draws %.1f ms, one draw per item %d draws %.1f ms\n", w, h,
              draws_instanced, ms_instanced, draws_per_item, ms_per_item);

  // 80 boxes and 80 spheres (each at up to 4 levels of detail) plus the ground.
  EXPECT_LE(draws_instanced, 1 + 4 + 1);
  EXPECT_GE(draws_per_item, 161);
  ASSERT_EQ(instanced.rgb.size(), per_item.rgb.size());
  int differing = 0;
  for (size_t i = 0; i < instanced.rgb.size(); i += 3) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(instanced.rgb[i + c] - per_item.rgb[i + c]));
    if (d > 8) ++differing;
  }
  EXPECT_LT(differing, w * h / 1000) << "pixels that differ by more than 8 levels";
  // And the image shows the bodies: many pixels differ from the sky/ground.
  std::set<int> colours;
  for (size_t i = 0; i < instanced.rgb.size(); i += 3) {
    colours.insert(instanced.rgb[i] << 16 | instanced.rgb[i + 1] << 8 | instanced.rgb[i + 2]);
  }
  EXPECT_GT(colours.size(), 500u);
}

// STICTION_RENDER_TEST_PNG_DIR=DIR: the tests write the images they compare
// there, for looking at the antialiasing modes side by side.
void MaybeWritePng(const Image& im, const std::string& name) {
  const char* dir = std::getenv("STICTION_RENDER_TEST_PNG_DIR");
  if (dir != nullptr) WritePng(std::string(dir) + "/" + name + ".png", im.rgb, im.width, im.height);
}

// The demo in every mode: antialiasing changes edges, not the picture (a
// small mean difference to "off"), and every mode renders something.
TEST_F(RendererTest, EveryAntialiasingModeRendersTheDemo) {
  LoadedScene s;
  s.sim = std::make_unique<Simulation>(Simulation::FromFile(STICTION_SOURCE_DIR "/assets/scenes/demo.yaml"));
  s.render = BuildRenderScene(*s.sim);
  s.snapshot = MakeSnapshot(*s.sim, StepStats{}, false);
  renderer_->LoadScene(s.render);
  Vector3 centre;
  double radius = 1;
  CalcSceneBounds(s.render, s.snapshot.X_WB, &centre, &radius);
  Camera camera;
  camera.Fit(centre.cast<float>(), static_cast<float>(radius));
  RenderOptions options;
  options.antialiasing = Antialiasing::kOff;
  const Image off = Render(s, camera, options, 640, 360);
  MaybeWritePng(off, "demo-off");
  for (const Antialiasing aa : {Antialiasing::kFxaa, Antialiasing::kMsaa2, Antialiasing::kMsaa4}) {
    SCOPED_TRACE(AntialiasingName(aa));
    options.antialiasing = aa;
    const Image im = Render(s, camera, options, 640, 360);
    MaybeWritePng(im, std::string("demo-") + AntialiasingName(aa));
    ASSERT_EQ(im.rgb.size(), off.rgb.size());
    double sum = 0;
    int changed = 0;
    for (size_t i = 0; i < im.rgb.size(); ++i) {
      const int d = std::abs(im.rgb[i] - off.rgb[i]);
      sum += d;
      if (d > 16) ++changed;
    }
    EXPECT_LT(sum / static_cast<double>(im.rgb.size()), 3.0);
    EXPECT_GT(changed, 100) << "antialiasing changed no edge";
  }
}

// Hard luma steps between horizontal or vertical neighbours, larger than
// 80 % of the contrast between the (near-black) box and the sky: a staircase
// edge has one at nearly every pixel along it; antialiasing turns the step
// into a ramp over two or more pixels whose steps are smaller (MSAA 4x:
// coverage in quarters, so steps of at most 75 % next to a full pixel).
int HardSteps(const Image& im, float contrast) {
  int n = 0;
  for (int y = 0; y + 1 < im.height; ++y) {
    for (int x = 0; x + 1 < im.width; ++x) {
      const float l = im.Luma(x, y);
      if (std::abs(l - im.Luma(x + 1, y)) > 0.8f * contrast || std::abs(l - im.Luma(x, y + 1)) > 0.8f * contrast) ++n;
    }
  }
  return n;
}

TEST_F(RendererTest, FxaaAndMsaaSoftenTheStaircaseOfABoxEdge) {
  // A near-black box tilted about all axes: its outline against the sky is
  // made of slanted edges at several angles.
  const LoadedScene s = Load(
      "time_step: 0.01\nbodies:\n  - name: box\n    mass: 1\n    color: [0.04, 0.04, 0.05, 1]\n"
      "    geometry:\n      - shape: {type: box, size: [0.4, 0.4, 0.4]}\n"
      "    pose: {position: [0, 0, 0.5], rpy: [0.5, 0.4, 0.3]}\n");
  renderer_->LoadScene(s.render);
  const Camera camera = LookingAt(Vec3f(0, 0, 0.5f), 1.6f, -20.0f);
  RenderOptions options;
  options.shadows = false;
  options.antialiasing = Antialiasing::kOff;
  const Image off = Render(s, camera, options, 320, 240);
  const float contrast = off.Luma(2, 2) - off.Luma(160, 120);  // Sky minus box.
  ASSERT_GT(contrast, 120.0f);
  auto steps = [&](Antialiasing aa) {
    options.antialiasing = aa;
    const Image im = Render(s, camera, options, 320, 240);
    MaybeWritePng(im, std::string("box-") + AntialiasingName(aa));
    return HardSteps(im, contrast);
  };
  const int hard_off = steps(Antialiasing::kOff);
  const int hard_fxaa = steps(Antialiasing::kFxaa);
  const int hard_msaa = steps(Antialiasing::kMsaa4);
  std::printf("hard steps along the box's outline: off %d, FXAA %d, MSAA 4x %d\n", hard_off, hard_fxaa,
              hard_msaa);
  EXPECT_GT(hard_off, 150) << "the box's outline is not in the image";
  EXPECT_LT(hard_fxaa, hard_off / 2);
  // llvmpipe's 4x MSAA leaves full steps on shallow edges (its coverage
  // there comes in halves): better than off, far from FXAA on this measure.
  EXPECT_LT(hard_msaa, hard_off * 4 / 5);
}

TEST_F(RendererTest, AutoAntialiasingIsFxaaOnSoftwareRenderers) {
  EXPECT_EQ(renderer_->ResolveAntialiasing(Antialiasing::kAuto),
            renderer_->software_renderer() ? Antialiasing::kFxaa : Antialiasing::kMsaa4);
  EXPECT_EQ(renderer_->ResolveAntialiasing(Antialiasing::kMsaa2), Antialiasing::kMsaa2);
  EXPECT_TRUE(IsSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
  EXPECT_FALSE(IsSoftwareRenderer("NVIDIA GeForce RTX 3060/PCIe/SSE2"));
}

TEST_F(RendererTest, ShadowMapIsRenderedOnlyWhenACasterMoves) {
  LoadedScene s = Load(BoxScene(/*ground=*/true));
  renderer_->LoadScene(s.render);
  Camera camera = LookingAt(Vec3f(0, 0, 0.3f), 2.0f, -30.0f);
  RenderOptions options;
  options.antialiasing = Antialiasing::kOff;
  const std::int64_t n0 = renderer_->shadow_map_renders();
  const Image first = Render(s, camera, options, 320, 240);
  EXPECT_EQ(renderer_->shadow_map_renders(), n0 + 1);
  const Image second = Render(s, camera, options, 320, 240);
  EXPECT_EQ(renderer_->shadow_map_renders(), n0 + 1) << "nothing moved";
  EXPECT_EQ(first.rgb, second.rgb) << "the reused map must give the same shadows";
  camera.azimuth_deg += 30;  // The light frustum follows the casters, not the camera.
  Render(s, camera, options, 320, 240);
  EXPECT_EQ(renderer_->shadow_map_renders(), n0 + 1);
  options.shadows = false;
  s.snapshot.X_WB[1].p.x() += 0.1;
  Render(s, camera, options, 320, 240);
  EXPECT_EQ(renderer_->shadow_map_renders(), n0 + 1) << "shadows off: no map";
  options.shadows = true;
  Render(s, camera, options, 320, 240);
  EXPECT_EQ(renderer_->shadow_map_renders(), n0 + 2) << "the box moved";
  renderer_->LoadScene(s.render);
  Render(s, camera, options, 320, 240);
  EXPECT_EQ(renderer_->shadow_map_renders(), n0 + 3) << "a new scene";
}

// The shadow is there: the ground right under the box (seen from above) is
// darker with shadows than without.
TEST_F(RendererTest, TheBoxCastsAShadowOnTheGround) {
  const LoadedScene s = Load(BoxScene(/*ground=*/true));
  renderer_->LoadScene(s.render);
  Camera camera = LookingAt(Vec3f(0, 0, 0), 3.0f, -89.0f);
  RenderOptions options;
  options.antialiasing = Antialiasing::kOff;
  // The light travels along +x, +y (and down): the shadow falls that way.
  Vec3f pixel;
  ASSERT_TRUE(camera.Project(Vec3f(0.3f, 0.38f, 0.0f), 320, 240, &pixel));
  const Image lit = [&] {
    options.shadows = false;
    return Render(s, camera, options, 320, 240);
  }();
  options.shadows = true;
  const Image shadowed = Render(s, camera, options, 320, 240);
  const int x = static_cast<int>(pixel.x()), y = static_cast<int>(pixel.y());
  EXPECT_LT(shadowed.Luma(x, y), 0.8f * lit.Luma(x, y)) << "at pixel " << x << ", " << y;
}

// The background is a gradient: at the horizon (the image's middle row when
// the camera looks level) the horizon colour, towards the top the zenith's.
TEST_F(RendererTest, SkyIsAGradientFromTheHorizonUp) {
  const LoadedScene s = Load(BoxScene(/*ground=*/false));
  renderer_->LoadScene(s.render);
  const Camera camera = LookingAt(Vec3f(0, 0, 0.5f), 2.0f, 0.0f);
  RenderOptions options;
  options.antialiasing = Antialiasing::kOff;
  const Image im = Render(s, camera, options, 320, 240);
  const std::uint8_t* top = im.at(5, 0);
  const std::uint8_t* horizon = im.at(5, 120);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(horizon[c], 255.0f * Renderer::kHorizonColor[c], 2.0f) << "channel " << c;
  }
  // Towards the zenith colour: less red, about as blue.
  EXPECT_LT(top[0], horizon[0] - 40);
  EXPECT_GT(top[2], horizon[2] - 30);
}

// Bodies whose geometry has no colour get palette colours by body index;
// given colours are kept (this needs no GL context).
TEST(RenderSceneTest, UncolouredBodiesGetDistinctPaletteColours) {
  const LoadedScene s = Load(
      "time_step: 0.01\nbodies:\n"
      "  - {name: a, mass: 1, geometry: [{shape: {type: sphere, radius: 0.1}}], pose: {position: [0, 0, 1]}}\n"
      "  - {name: b, mass: 1, geometry: [{shape: {type: sphere, radius: 0.1}}], pose: {position: [1, 0, 1]}}\n"
      "  - {name: c, mass: 1, color: [0.7, 0.2, 0.1, 1], geometry: [{shape: {type: sphere, radius: 0.1}}],"
      " pose: {position: [2, 0, 1]}}\n");
  ASSERT_EQ(s.render.drawables.size(), 3u);
  const Drawable& a = s.render.drawables[0];
  const Drawable& b = s.render.drawables[1];
  const Drawable& c = s.render.drawables[2];
  EXPECT_FALSE(a.color_given);
  EXPECT_FALSE(b.color_given);
  EXPECT_TRUE(c.color_given);
  EXPECT_NE(a.color, kDefaultGeometryColor);
  EXPECT_GT((a.color - b.color).norm(), 0.2);
  EXPECT_EQ(c.color, Vector4(0.7, 0.2, 0.1, 1));
}

}  // namespace
}  // namespace stiction::app
