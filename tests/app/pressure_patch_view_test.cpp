// The viewer's side of pressure-field contact (docs/viewer.md "Pressure
// patches"): the snapshot's contact surfaces and their net wrench, the
// patches coloured by pressure in the scene image, the colour scale in its
// automatic and fixed modes, one glyph per patch instead of one per polygon,
// the inspector's patch lines and the live hydroelastic modulus field. A
// soft ball (E = 100 kPa) resting on a rigid ground, with a real hidden
// window under
//   xvfb-run -a -s "-screen 0 1280x720x24"
// (Mesa llvmpipe).
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/render/pressure_scale.h"
#include "app/ui/patch_inspector.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

constexpr double kMass = 0.5, kGravity = 9.81;
// The brief's soft ball: 0.5 kg, R = 5 cm, E = 1e5 Pa, dropped from 1 cm
// above contact; it settles with about 4 mm of penetration. The camera looks
// down at 45 degrees so that the patch under the ball is a wide ellipse.
const char* const kSoftBallScene = R"(gravity: [0, 0, -9.81]
time_step: 0.005
materials:
  - {name: rubber, friction: 0.8, hydroelastic_modulus: 1.0e5, dissipation: 0.01}
  - {name: table, friction: 0.8, stiffness: 1.0e12, dissipation: 0.003}
default_material: table
camera: {elevation: -45}
world_geometry:
  - {name: ground, shape: {type: half_space}}
bodies:
  - name: ball
    mass: 0.5
    geometry:
      - {shape: {type: sphere, radius: 0.05}, material: rubber, compliant: true}
    pose: {position: [0, 0, 0.06]}
)";

constexpr int kWidth = 640, kHeight = 360;

class PressurePatchViewTest : public test::ScratchDirTest {
 protected:
  AppOptions Options(bool panels = false) {
    AppOptions o;
    o.scene_path = Write("soft_ball.yaml", kSoftBallScene);
    o.width = panels ? 1280 : kWidth;
    o.height = panels ? 720 : kHeight;
    o.visible = false;
    o.vsync = false;
    o.paused = false;
    o.panels = panels;
    o.steps_per_frame = 20;  // 0.1 s of simulated time per frame, independent of the wall clock.
    return o;
  }
};

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // Bottom row first.
  Vec3f at(int x, int y_from_top) const {
    const std::uint8_t* p = &rgb[(static_cast<size_t>(height - 1 - y_from_top) * width + x) * 3];
    return Vec3f(p[0], p[1], p[2]) / 255.0f;
  }
};

Image Grab(const App& app) {
  Image im;
  im.rgb = app.capture().ReadPixels(&im.width, &im.height);
  return im;
}

// Pixel of a world point in the scene image (top-left origin); false when
// outside it (with a 3-pixel border, so that neighbours can be read).
bool Project(App& app, const Vector3& p_W, int* x, int* y) {
  const Rect view = app.layout().SceneViewRect();
  const int w = static_cast<int>(std::lround(view.width)), h = static_cast<int>(std::lround(view.height));
  Vec3f pixel;
  if (!app.director().camera().Project(p_W.cast<float>(), w, h, &pixel)) return false;
  *x = static_cast<int>(pixel.x());
  *y = static_cast<int>(pixel.y());
  return *x >= 3 && *y >= 3 && *x < w - 3 && *y < h - 3;
}

// Sum of the channels' absolute differences, in [0, 3].
float ColorDistance(const Vec3f& a, const Vec3f& b) { return (a - b).cwiseAbs().sum(); }

// Runs 1.5 s (15 frames of 20 steps) from the drop, then pauses: the ball
// has stopped bouncing (the 1 cm drop is damped by the rubber's τd = 10 ms
// within a few tenths of a second).
void Settle(App& app) {
  for (int i = 0; i < 15; ++i) app.Frame();
  app.TogglePause();
  app.Frame();
}

// A copy: the snapshot is replaced by the next frame.
ContactSurfaceSnapshot OnlySurface(const App& app) {
  EXPECT_EQ(app.snapshot().contact_surfaces.size(), 1u);
  return app.snapshot().contact_surfaces.empty() ? ContactSurfaceSnapshot{} : app.snapshot().contact_surfaces.front();
}

// The snapshot carries the one ball-ground surface with its polygons, and
// its net force from the solved polygon impulses holds the ball up.
TEST_F(PressurePatchViewTest, SnapshotCarriesTheSurfaceAndItsNetForceIsTheWeight) {
  App app(Options());
  Settle(app);
  ASSERT_EQ(app.snapshot().contact_surfaces.size(), 1u);
  const ContactSurfaceSnapshot s = OnlySurface(app);
  EXPECT_EQ(s.name_a, "world");
  EXPECT_EQ(s.name_b, "ball");
  EXPECT_GT(s.polygons.size(), 50u);
  EXPECT_EQ(s.pressures.size(), s.vertices_W.size());
  int polygon_contacts = 0;
  for (const ContactSnapshot& c : app.snapshot().contacts) {
    EXPECT_EQ(c.surface, 0);  // Every contact of this scene is a polygon of the patch.
    if (c.surface == 0) ++polygon_contacts;
  }
  EXPECT_EQ(polygon_contacts, static_cast<int>(s.polygons.size()));

  // At rest the step's impulses carry the weight: Σ γ = m g δt exactly once
  // the velocity no longer changes. 1 % covers what is left of the bounce
  // after 1.5 s (the drop's 1 cm is damped within a few tenths of a second,
  // so the residual is far below that; the bound is loose on purpose, yet a
  // force summed over the wrong contacts, a missing 1/δt or the force on A
  // instead of B would miss it by far).
  const double weight = kMass * kGravity;
  std::printf("patch: %zu polygons, area %.4g cm^2, net force (%.4g, %.4g, %.4g) N vs m g = %.4g N, "
              "peak %.4g kPa, centroid z %.3g mm, moment %.3g N m\n",
              s.polygons.size(), s.area * 1e4, s.force_W.x(), s.force_W.y(), s.force_W.z(), weight,
              s.peak_pressure * 1e-3, s.centroid_W.z() * 1e3, s.moment_W.norm());
  EXPECT_NEAR(s.force_W.z(), weight, 0.01 * weight);
  EXPECT_NEAR(s.normal_force(), weight, 0.01 * weight);
  // No sideways load on a ball resting on level ground: the tangential part
  // is round-off and the solver's tolerance, far below 1 % of the weight.
  EXPECT_LT(s.tangential_force(), 0.01 * weight);
  EXPECT_NEAR(s.normal_W.z(), 1.0, 1e-9);  // From the ground (A) into the ball (B).
  // The patch is symmetric about the vertical through its centroid, so the
  // polygon forces have no net moment about it beyond the mesh's asymmetry:
  // below 1 % of the weight times the patch radius √(A/π).
  const double radius = std::sqrt(s.area / std::numbers::pi);
  EXPECT_LT(s.moment_W.norm(), 0.01 * weight * radius);
  EXPECT_NEAR(s.centroid_W.x(), 0.0, 1e-3);
  EXPECT_NEAR(s.centroid_W.y(), 0.0, 1e-3);
  EXPECT_NEAR(s.centroid_W.z(), 0.0, 1e-9);  // On the ground plane.
  // The area and peak pressure of a sphere pressed h deep: a² ≈ 2 R h with
  // h ≈ 4 mm gives about 12 cm², and p = E h / R ≈ 8 kPa at the centre.
  EXPECT_GT(s.area, 6e-4);
  EXPECT_LT(s.area, 2e-3);
  EXPECT_GT(s.peak_pressure, 4e3);
  EXPECT_LT(s.peak_pressure, 16e3);
  EXPECT_EQ(app.snapshot().peak_pressure, s.peak_pressure);
}

// With patches on, the pixels at the polygons' centroids take the colour
// map's colour for their pressure; with patches off they do not; the
// colours follow the scale (fixed at four times the peak, the centre turns
// from yellow to blue).
TEST_F(PressurePatchViewTest, PatchesArePressureColouredAndFollowTheScale) {
  App app(Options());
  app.ui().viz.contact_points = false;  // No glyph over the patch: only the patch differs.
  Settle(app);
  for (int i = 0; i < 100; ++i) app.Frame();  // The automatic scale settles on the (constant) peak.
  const ContactSurfaceSnapshot s = OnlySurface(app);
  const PressureLegend auto_legend = app.ui().pressure_legend();
  ASSERT_TRUE(auto_legend.automatic);
  const Image on = Grab(app);
  app.ui().viz.pressure.show_patches = false;
  app.Frame();
  const Image off = Grab(app);
  app.ui().viz.pressure.show_patches = true;
  app.ui().viz.pressure.automatic = false;
  app.ui().viz.pressure.fixed_max_kpa = 4.0 * s.peak_pressure * 1e-3;
  app.Frame();
  const Image fixed = Grab(app);
  const PressureLegend fixed_legend = app.ui().pressure_legend();

  // A polygon's centroid pixel matches when it is within 0.1 (summed over
  // the channels, of 3) of the map's colour at the polygon's centroid
  // pressure: the shader maps the pressure interpolated across the polygon,
  // which at the pixel centre nearest the centroid differs from the
  // centroid's by a few percent of the scale, and 8-bit output rounds. The
  // nearest map colour to the ground's grey or the ball's terracotta is
  // several times farther. Polygons within 1.5 mm (about 3 pixels here) of
  // the patch's rim are left out: their pixels mix with the ball's around
  // the rim (coverage, FXAA), and the rim's polygons are slivers.
  constexpr float kMatch = 0.1f;
  double rim = 0;  // Patch radius about its centroid [m].
  for (const Vector3& v : s.vertices_W) rim = std::max(rim, (v - s.centroid_W).norm());
  int checked = 0, on_matches = 0, off_matches = 0, fixed_matches = 0, high = 0, high_auto_in_fixed = 0;
  for (const ContactPolygon& p : s.polygons) {
    int x = 0, y = 0;
    if ((p.centroid_W - s.centroid_W).norm() > rim - 1.5e-3) continue;
    if (!Project(app, p.centroid_W, &x, &y)) continue;
    ++checked;
    const Vec3f expected_auto = PressureColor(auto_legend.Fraction(p.pressure)).head<3>();
    const Vec3f expected_fixed = PressureColor(fixed_legend.Fraction(p.pressure)).head<3>();
    if (ColorDistance(on.at(x, y), expected_auto) < kMatch) ++on_matches;
    if (ColorDistance(off.at(x, y), expected_auto) < kMatch) ++off_matches;
    if (ColorDistance(fixed.at(x, y), expected_fixed) < kMatch) ++fixed_matches;
    if (p.pressure > 0.8 * s.peak_pressure) {  // Yellow-green in auto, blue at a quarter of the fixed scale.
      ++high;
      if (ColorDistance(fixed.at(x, y), expected_auto) < kMatch) ++high_auto_in_fixed;
    }
  }
  std::printf("polygon centroids inside the rim %d of %zu: pressure colour with patches on %d, off %d, fixed scale %d; "
              "high-pressure centroids %d, of which still auto-coloured in fixed mode %d\n",
              checked, s.polygons.size(), on_matches, off_matches, fixed_matches, high, high_auto_in_fixed);
  ASSERT_GT(checked, 50);
  EXPECT_GE(on_matches, 0.95 * checked);
  EXPECT_EQ(off_matches, 0);
  EXPECT_GE(fixed_matches, 0.95 * checked);
  ASSERT_GT(high, 5);
  EXPECT_EQ(high_auto_in_fixed, 0);
}

// The legend: in automatic mode the top is the frame's peak (smoothed, so
// after frames of a constant peak it equals it), in kPa for these few kPa;
// in fixed mode it is the user's value.
TEST_F(PressurePatchViewTest, LegendFollowsThePeakOrTheFixedValue) {
  App app(Options());
  Settle(app);
  for (int i = 0; i < 100; ++i) app.Frame();
  const double peak = app.snapshot().peak_pressure;
  PressureLegend legend = app.ui().pressure_legend();
  std::printf("peak %.6g Pa, automatic legend top %.6g Pa (%s), labels %s / %s / %s\n", peak, legend.max_pa,
              legend.Title().c_str(), legend.Label(legend.max_pa).c_str(), legend.Label(0.5 * legend.max_pa).c_str(),
              legend.Label(0).c_str());
  EXPECT_TRUE(legend.automatic);
  // (1 − 0.083)^100 ≈ 2e-4 of the settling's excess is left: 0.1 % of the peak.
  EXPECT_NEAR(legend.max_pa, peak, 1e-3 * peak);
  EXPECT_STREQ(legend.unit, "kPa");
  EXPECT_EQ(legend.Title(), "pressure [kPa]");
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", peak * 1e-3);
  EXPECT_EQ(legend.Label(legend.max_pa), text);
  EXPECT_EQ(legend.Label(0), "0");

  app.ui().viz.pressure.automatic = false;
  app.ui().viz.pressure.fixed_max_kpa = 25;
  app.Frame();
  legend = app.ui().pressure_legend();
  EXPECT_FALSE(legend.automatic);
  EXPECT_EQ(legend.max_pa, 25e3);
  EXPECT_EQ(legend.Label(legend.max_pa), "25");
  EXPECT_STREQ(legend.ModeName(), "fixed");
  app.ui().viz.pressure.fixed_max_kpa = 0.5;  // Below 1 kPa the labels are in Pa.
  EXPECT_STREQ(app.ui().pressure_legend().unit, "Pa");
  EXPECT_EQ(app.ui().pressure_legend().Label(500), "500");
}

// The automatic scale's smoothing on its own: up at once, down by a fraction
// per frame, kept while nothing touches.
TEST(AutoPressureMaxTest, RisesAtOnceFallsGraduallyAndHoldsWithoutContact) {
  AutoPressureMax m;
  m.Update(10e3);
  EXPECT_EQ(m.max_pa(), 10e3);
  m.Update(20e3);
  EXPECT_EQ(m.max_pa(), 20e3);
  m.Update(10e3);
  EXPECT_NEAR(m.max_pa(), 20e3 - AutoPressureMax::kFallPerFrame * 10e3, 1e-9);
  for (int i = 0; i < 7; ++i) m.Update(10e3);
  EXPECT_NEAR(m.max_pa(), 15e3, 0.02 * 10e3);  // Eight frames: half way down.
  const double before = m.max_pa();
  m.Update(0);  // No contact this frame.
  EXPECT_EQ(m.max_pa(), before);
  EXPECT_EQ(MakePressureLegend(PressureScaleSettings{}, 0).max_pa, 1.0);  // Never an empty scale.
  EXPECT_EQ(ColorDistance(PressureColor(0).head<3>(), Vec3f(0.267004f, 0.004874f, 0.329415f)), 0.0f);
  EXPECT_EQ(ColorDistance(PressureColor(2).head<3>(), PressureColor(1).head<3>()), 0.0f);
}

// Polygon contacts get no marker each: with patches off, turning the
// contact points on changes nothing at the polygons' centroids away from
// the patch's own glyph, which is one point and the net-force arrow at the
// pressure centroid.
TEST_F(PressurePatchViewTest, OneGlyphPerPatchInsteadOfOnePerPolygon) {
  App app(Options());
  app.ui().viz.pressure.show_patches = false;
  app.ui().viz.contact_points = false;
  Settle(app);
  const Image without = Grab(app);
  app.ui().viz.contact_points = true;
  app.Frame();
  const Image with = Grab(app);
  const ContactSurfaceSnapshot s = OnlySurface(app);
  int cx = 0, cy = 0;
  ASSERT_TRUE(Project(app, s.centroid_W, &cx, &cy));
  int far = 0, far_changed = 0;
  for (const ContactPolygon& p : s.polygons) {
    int x = 0, y = 0;
    if (!Project(app, p.centroid_W, &x, &y)) continue;
    if (std::abs(x - cx) < 8) continue;  // The centroid's point and its (upward) arrow.
    ++far;
    if (ColorDistance(with.at(x, y), without.at(x, y)) > 0.1f) ++far_changed;
  }
  // The glyph: the point at the centroid and the arrow half way up.
  int ax = 0, ay = 0;
  ASSERT_TRUE(Project(app, s.centroid_W + 0.5 * s.force_W / app.ui().viz.force_scale, &ax, &ay));
  float glyph = 0, arrow = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      glyph = std::max(glyph, ColorDistance(with.at(cx + dx, cy + dy), without.at(cx + dx, cy + dy)));
      arrow = std::max(arrow, ColorDistance(with.at(ax + dx, ay + dy), without.at(ax + dx, ay + dy)));
    }
  }
  std::printf("polygon centroids away from the patch glyph: %d, changed by the points toggle: %d; "
              "glyph change %.2f, arrow change %.2f\n", far, far_changed, glyph, arrow);
  ASSERT_GT(far, 20);
  EXPECT_EQ(far_changed, 0);
  EXPECT_GT(glyph, 0.3f);
  EXPECT_GT(arrow, 0.3f);
}

// Selecting a polygon contact shows its patch in the inspector: the lines
// carry the area in cm², the peak pressure in kPa and the net force.
TEST_F(PressurePatchViewTest, InspectorDescribesThePatchOfAPolygonContact) {
  App app(Options(/*panels=*/true));
  Settle(app);
  const ContactSurfaceSnapshot s = OnlySurface(app);
  // The polygon nearest the pressure centroid, selected as Alt+click would.
  int pick = -1;
  double best = 1e9;
  for (size_t i = 0; i < app.snapshot().contacts.size(); ++i) {
    const double d = (app.snapshot().contacts[i].p_W - s.centroid_W).norm();
    if (d < best) {
      best = d;
      pick = static_cast<int>(i);
    }
  }
  ASSERT_GE(pick, 0);
  app.inspector().Select(pick);
  app.Frame();  // The inspector (right column, opened by the selection) draws the patch.
  ASSERT_NE(app.inspector().selected(), nullptr);
  EXPECT_TRUE(app.ui().settings.sections.at("Contacts"));
  const ContactSnapshot& c = *app.inspector().selected();
  ASSERT_EQ(c.surface, 0);
  const std::vector<std::string> lines = DescribePatch(app.snapshot().contact_surfaces[0], c.surface, c.polygon);
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  std::printf("%s", text.c_str());
  char area[64], peak[64], force[64];
  std::snprintf(area, sizeof area, "area      %.4g cm^2", s.area * 1e4);
  std::snprintf(peak, sizeof peak, "peak pressure  %.4g kPa", s.peak_pressure * 1e-3);
  std::snprintf(force, sizeof force, "f_n       %.4g N", s.normal_force());
  EXPECT_NE(text.find(area), std::string::npos) << area;
  EXPECT_NE(text.find(peak), std::string::npos) << peak;
  EXPECT_NE(text.find(force), std::string::npos) << force;
  EXPECT_NE(text.find("world (A) - ball (B)"), std::string::npos);
  EXPECT_NE(text.find("N m"), std::string::npos);  // The moment, with its unit.
  char polygons[32];
  std::snprintf(polygons, sizeof polygons, "polygons  %zu", s.polygons.size());
  EXPECT_NE(text.find(polygons), std::string::npos);
}

// The Contact section's hydroelastic modulus field: typed, it reaches the
// engine on Enter with no Apply, marks the material edited, and the stiffer
// ball rests on a smaller patch at a higher peak pressure.
TEST_F(PressurePatchViewTest, HydroelasticModulusIsALiveField) {
  App app(Options(/*panels=*/true));
  for (const char* title : {"Scene", "Simulation", "Recording", "Contact", "Solver", "Visualization"}) {
    app.ui().settings.sections[title] = std::string(title) == "Contact";
  }
  struct {
    float x = -1, y = -1;
    bool down = false, enter = false;
    std::string typed;
  } pointer;
  app.imgui().set_ui_input([&](ImGuiIO& io) {
    io.MousePos = ImVec2(pointer.x, pointer.y);
    io.MouseDown[0] = pointer.down;
    for (char ch : pointer.typed) io.AddInputCharacter(static_cast<unsigned>(ch));
    pointer.typed.clear();
    io.KeysDown[GLFW_KEY_ENTER] = pointer.enter;
  });
  Settle(app);
  const double area_soft = OnlySurface(app).area, peak_soft = OnlySurface(app).peak_pressure;
  const std::string id = "contact.mat.rubber.E";
  ASSERT_EQ(app.ui().field_rects.count(id), 1u) << "the field is not wholly in view";
  const Rect r = app.ui().field_rects.at(id);
  pointer.x = r.x + 10;
  pointer.y = r.y + 0.5f * r.height;
  pointer.down = true;
  app.Frame();
  pointer.down = false;
  app.Frame();
  pointer.typed = "4e5";
  app.Frame();
  pointer.enter = true;
  app.Frame();
  pointer.enter = false;
  pointer.x = pointer.y = -1;
  app.Frame();
  EXPECT_EQ(app.simulation().GetMaterial("rubber").hydroelastic_modulus, 4e5);
  EXPECT_EQ(app.ui().field_errors.count(id), 0u);
  EXPECT_TRUE(ContactEdited(app.simulation(), app.ui().scene_values));
  app.TogglePause();
  for (int i = 0; i < 15; ++i) app.Frame();  // Settles at the new E.
  const ContactSurfaceSnapshot s = OnlySurface(app);
  std::printf("E 1e5 -> 4e5 Pa: area %.4g -> %.4g cm^2, peak %.4g -> %.4g kPa, net force %.4g N\n",
              area_soft * 1e4, s.area * 1e4, peak_soft * 1e-3, s.peak_pressure * 1e-3, s.force_W.z());
  EXPECT_LT(s.area, 0.8 * area_soft);
  EXPECT_GT(s.peak_pressure, 1.3 * peak_soft);
}

}  // namespace
}  // namespace stiction::app
