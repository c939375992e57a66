// The viewer as a demo tool (docs/viewer.md "Layout" and "Live tuning"): the
// two panel columns at several window sizes, live edits driven through
// ImGui with the mouse and the keyboard (no Apply), refused values, Save
// scene as, and the remembered settings. A real hidden window under
//   xvfb-run -a -s "-screen 0 3840x2160x24"
// (Mesa llvmpipe), large enough for the 4K case.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/ui/layout.h"
#include "app/ui/ui_metrics.h"
#include "app/ui/viewer_settings.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

namespace fs = std::filesystem;
// Tests that write files get a scratch directory of their own (dir_, Write).
using ViewerFilesTest = test::ScratchDirTest;

const std::string kScenes = STICTION_SOURCE_DIR "/assets/scenes";

AppOptions Options(const std::string& scene, int width, int height) {
  AppOptions o;
  o.scene_path = kScenes + "/" + scene;
  o.width = width;
  o.height = height;
  o.visible = false;
  o.vsync = false;
  o.paused = true;
  return o;
}

struct WindowSizeCase {
  int width, height;
  float ui_scale;  // 0: the monitor's (1 under Xvfb).
};
// From the smallest size the issue names to 4K with the UI scaled for it.
const WindowSizeCase kSizes[] = {{1024, 600, 0}, {1280, 720, 0}, {1920, 1080, 0}, {3840, 2160, 2.0f}};

// ---------------------------------------------------------------- pure layout

TEST(LayoutTest, ColumnsStayInsideTheWindowAndLeaveTheSceneBetweenThem) {
  for (const WindowSizeCase& c : kSizes) {
    for (int mask = 0; mask < 4; ++mask) {
      LayoutSettings s;
      s.show_left = (mask & 1) != 0;
      s.show_right = (mask & 2) != 0;
      s.left_width = 5000;  // Wider than allowed: clamped.
      const float scale = c.ui_scale > 0 ? c.ui_scale : 1.0f;
      const Layout l = ComputeLayout(static_cast<float>(c.width), static_cast<float>(c.height), s, scale);
      SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height) + " mask " + std::to_string(mask));
      EXPECT_EQ(l.left_visible, s.show_left);
      EXPECT_EQ(l.right_visible, s.show_right);
      EXPECT_FALSE(l.left.Overlaps(l.right));
      EXPECT_FALSE(l.scene.Overlaps(l.left));
      EXPECT_FALSE(l.scene.Overlaps(l.right));
      for (const Rect& r : {l.left, l.right, l.scene}) {
        EXPECT_GE(r.x, 0.0f);
        EXPECT_LE(r.right(), static_cast<float>(c.width));
        EXPECT_GE(r.y, 0.0f);
        EXPECT_LE(r.bottom(), static_cast<float>(c.height));
      }
      // The three fill the width exactly, and the scene keeps a third of it.
      EXPECT_FLOAT_EQ(l.left.width + l.scene.width + l.right.width, static_cast<float>(c.width));
      EXPECT_GE(l.scene.width, 0.3f * static_cast<float>(c.width));
    }
  }
}

TEST(LayoutTest, LetterboxKeepsTheAspectInsideTheArea) {
  const Rect area{300, 0, 680, 720};
  const Rect r = FitAspect(area, 1280, 720);
  EXPECT_FLOAT_EQ(r.width, 680.0f);
  EXPECT_FLOAT_EQ(r.height, 382.5f);
  EXPECT_FLOAT_EQ(r.x, 300.0f);
  EXPECT_FLOAT_EQ(r.y, 0.5f * (720.0f - 382.5f));
}

// ---------------------------------------------------------------- settings file

TEST(ViewerSettingsTest, RoundTripAndDamagedLinesCostOnlyThemselves) {
  const fs::path dir = test::TempPath("stiction-viewer-settings-test");
  fs::remove_all(dir);
  const std::string path = (dir / "sub" / "viewer.ini").string();
  ViewerSettings s;
  s.window_width = 1500;
  s.window_height = 900;
  s.ui_scale = 1.5f;
  s.layout.show_right = false;
  s.layout.left_width = 410;
  s.sections["Contact"] = true;
  s.sections["Plots"] = false;
  std::string error;
  ASSERT_TRUE(SaveViewerSettings(s, path, &error)) << error;
  std::string warning;
  const ViewerSettings r = LoadViewerSettings(path, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(r.window_width, 1500);
  EXPECT_EQ(r.window_height, 900);
  EXPECT_EQ(r.ui_scale, 1.5f);
  EXPECT_FALSE(r.layout.show_right);
  EXPECT_TRUE(r.layout.show_left);
  EXPECT_EQ(r.layout.left_width, 410.0f);
  EXPECT_EQ(r.sections, s.sections);

  // A damaged file: the bad lines are named, the good ones still count.
  {
    std::ofstream out(path);
    out << "left_width = 300\nright_width = banana\nwhat = 1\nshow_left = 0\nno equals sign\n";
  }
  const ViewerSettings d = LoadViewerSettings(path, &warning);
  EXPECT_EQ(d.layout.left_width, 300.0f);
  EXPECT_FALSE(d.layout.show_left);
  EXPECT_EQ(d.layout.right_width, LayoutSettings{}.right_width);
  EXPECT_NE(warning.find(path + ":2: right_width: expected a width"), std::string::npos) << warning;
  EXPECT_NE(warning.find("(and 2 more)"), std::string::npos) << warning;

  // A missing file: defaults, no warning.
  const ViewerSettings m = LoadViewerSettings((dir / "none.ini").string(), &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(m.window_width, 0);
  // An unwritable place: an error naming the path, nothing thrown.
  EXPECT_FALSE(SaveViewerSettings(s, "/proc/stiction/viewer.ini", &error));
  EXPECT_NE(error.find("/proc/stiction/viewer.ini"), std::string::npos) << error;
  fs::remove_all(dir);
}

// ---------------------------------------------------------------- the real panels

// The top-level ImGui windows drawn in the last frame (columns, the info
// overlay), with their rectangles.
std::vector<std::pair<std::string, Rect>> DrawnWindows() {
  std::vector<std::pair<std::string, Rect>> out;
  for (ImGuiWindow* w : GImGui->Windows) {
    if (!w->WasActive || w->Hidden || w->ParentWindow != nullptr) continue;
    if (std::string(w->Name).rfind("Debug##", 0) == 0) continue;  // ImGui's implicit window (never drawn).
    out.emplace_back(w->Name, Rect{w->Pos.x, w->Pos.y, w->Size.x, w->Size.y});
  }
  return out;
}

TEST(ViewerLayoutTest, PanelsNeverOverlapOrLeaveTheWindowAtAnySize) {
  for (const WindowSizeCase& c : kSizes) {
    SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height));
    App app(Options("grasp_box.yaml", c.width, c.height));  // A gripper: the right column is full.
    app.ui().settings.ui_scale = c.ui_scale;
    // Every section open: the columns hold more than fits and must scroll.
    for (const char* s : {"Scene", "Simulation", "Recording", "Contact", "Solver", "Visualization", "Plots",
                          "Gripper", "Contacts"}) {
      app.ui().settings.sections[s] = true;
    }
    for (int i = 0; i < 3; ++i) app.Frame();
    int ww = 0, wh = 0;
    app.layout().WindowSize(&ww, &wh);
    ASSERT_EQ(ww, c.width);
    ASSERT_EQ(wh, c.height);
    const Layout& layout = app.ui().layout;
    ASSERT_TRUE(layout.left_visible && layout.right_visible);
    const auto windows = DrawnWindows();
    ASSERT_GE(windows.size(), 3u);  // Two columns and the info overlay.
    for (size_t i = 0; i < windows.size(); ++i) {
      const auto& [name, r] = windows[i];
      EXPECT_GE(r.x, 0.0f) << name;
      EXPECT_GE(r.y, 0.0f) << name;
      EXPECT_LE(r.right(), static_cast<float>(ww) + 0.5f) << name;
      EXPECT_LE(r.bottom(), static_cast<float>(wh) + 0.5f) << name;
      for (size_t j = i + 1; j < windows.size(); ++j) {
        EXPECT_FALSE(r.Overlaps(windows[j].second)) << name << " overlaps " << windows[j].first;
      }
      if (name == "Info") {  // The overlay stays inside the 3D view.
        EXPECT_GE(r.x, layout.scene.x);
        EXPECT_LE(r.right(), layout.scene.right() + 0.5f);
      }
    }
    // The sections scroll inside the left column instead of running off it.
    const ImGuiWindow* left = ImGui::FindWindowByName("##left_column");
    ASSERT_NE(left, nullptr);
    bool scrolls = false;
    for (const ImGuiWindow* child : GImGui->Windows) {
      if (child->ParentWindow == left) scrolls |= child->ScrollMax.y > 0;
    }
    EXPECT_TRUE(scrolls);
    // The scene image is the view between the columns (framebuffer = window here).
    int iw = 0, ih = 0;
    app.capture().ReadPixels(&iw, &ih);
    EXPECT_EQ(iw, static_cast<int>(std::lround(layout.scene.width)));
    EXPECT_EQ(ih, c.height);
    // The font follows the UI scale (high-DPI screens).
    EXPECT_FLOAT_EQ(ImGui::GetFontSize(), std::round(kBaseFontPixels * (c.ui_scale > 0 ? c.ui_scale : 1.0f)));
  }
}

TEST(ViewerLayoutTest, TabAndShiftTabHideTheColumnsAndTheSceneTakesTheRoom) {
  App app(Options("demo.yaml", 1280, 720));
  app.Frame();
  const Rect both = app.layout().SceneViewRect();
  EXPECT_GT(both.x, 0.0f);
  app.input().HandleKey(GLFW_KEY_TAB, GLFW_PRESS, 0);
  app.Frame();
  EXPECT_EQ(app.layout().SceneViewRect().x, 0.0f);
  EXPECT_GT(app.layout().SceneViewRect().width, both.width);
  app.input().HandleKey(GLFW_KEY_TAB, GLFW_PRESS, GLFW_MOD_SHIFT);
  app.Frame();
  EXPECT_EQ(app.layout().SceneViewRect().width, 1280.0f);
  EXPECT_EQ(ImGui::FindWindowByName("##left_column")->WasActive, false);
  int iw = 0, ih = 0;
  app.capture().ReadPixels(&iw, &ih);
  EXPECT_EQ(iw, 1280);
}

TEST(ViewerLayoutTest, WindowSizeColumnsAndSectionsPersistBetweenRuns) {
  const fs::path dir = test::TempPath("stiction-viewer-persist-test");
  fs::remove_all(dir);
  const std::string path = (dir / "viewer.ini").string();
  {
    AppOptions o = Options("demo.yaml", 1100, 650);
    o.settings_path = path;
    App app(o);
    app.input().HandleKey(GLFW_KEY_TAB, GLFW_PRESS, GLFW_MOD_SHIFT);  // Right column off.
    app.ui().settings.sections["Solver"] = true;
    app.ui().settings.layout.left_width = 300;
    app.Frame();
  }  // Closing writes the file.
  ASSERT_TRUE(fs::exists(path));
  AppOptions o = Options("demo.yaml", 1280, 720);
  o.size_given = false;  // As when the user gives no --size: the remembered size wins.
  o.settings_path = path;
  App app(o);
  app.Frame();
  int w = 0, h = 0;
  app.layout().WindowSize(&w, &h);
  EXPECT_EQ(w, 1100);
  EXPECT_EQ(h, 650);
  EXPECT_FALSE(app.ui().settings.layout.show_right);
  EXPECT_EQ(app.ui().settings.layout.left_width, 300.0f);
  EXPECT_TRUE(app.ui().settings.sections.at("Solver"));
  fs::remove_all(dir);
}

// ---------------------------------------------------------------- live tuning

// Feeds ImGui a pointer position and button state each frame.
struct Pointer {
  float x = -1, y = -1;
  bool down = false;
  std::string typed;      // Characters to type this frame.
  bool enter = false;     // Press Enter this frame.
  void Install(App& app) {
    app.imgui().set_ui_input([this](ImGuiIO& io) {
      io.MousePos = ImVec2(x, y);
      io.MouseDown[0] = down;
      for (char ch : typed) io.AddInputCharacter(static_cast<unsigned>(ch));
      typed.clear();
      io.KeysDown[GLFW_KEY_ENTER] = enter;
    });
  }
};

// Opens one section of the left column and folds the others, so its fields
// sit near the column's top whatever the status line's length (it wraps with
// the scene's path): the pointer reaches only fields wholly in view.
void OpenOnly(App& app, const std::string& section) {
  for (const char* title : {"Scene", "Simulation", "Recording", "Contact", "Solver", "Visualization"}) {
    app.ui().settings.sections[title] = section == title;
  }
}

double DeepestPhi(const App& app) {
  double phi = std::numeric_limits<double>::infinity();
  for (const ContactSnapshot& c : app.snapshot().contacts) phi = std::min(phi, c.phi);
  return phi;
}

// The Contact section's stiffness slider dragged down with the mouse: the
// engine gets each value on the next step, with no Apply, and the resting
// box sinks deeper.
TEST(ViewerLiveTuningTest, DraggingStiffnessDownSinksTheRestingBoxWithoutApply) {
  AppOptions o = Options("box_resting.yaml", 1280, 720);
  o.paused = false;
  o.steps_per_frame = 10;
  App app(o);
  OpenOnly(app, "Contact");
  Pointer pointer;
  pointer.Install(app);
  for (int i = 0; i < 10; ++i) app.Frame();  // 1 s: at rest.
  const double phi_rigid = DeepestPhi(app);
  const double k0 = app.simulation().GetMaterial("rigid").stiffness;
  ASSERT_EQ(k0, 1e12);
  ASSERT_EQ(app.ui().field_rects.count("contact.mat.rigid.k"), 1u) << "the slider is not wholly in view";
  const Rect slider = app.ui().field_rects.at("contact.mat.rigid.k");
  // Press on the slider's grab (logarithmic over [1e1, 1e14]), then drag left.
  const float grab = slider.x + slider.width * static_cast<float>(std::log10(k0 / 1e1) / 13.0);
  pointer.x = grab;
  pointer.y = slider.y + 0.5f * slider.height;
  pointer.down = true;
  app.Frame();
  std::vector<double> stiffness;
  for (int i = 0; i < 6; ++i) {
    pointer.x -= 0.1f * slider.width;
    app.Frame();  // The slider moves, the engine takes the value, the next steps use it.
    stiffness.push_back(app.simulation().GetMaterial("rigid").stiffness);
  }
  pointer.down = false;
  app.Frame();
  for (int i = 0; i < 10; ++i) app.Frame();  // Settle at the new stiffness.
  for (size_t i = 1; i < stiffness.size(); ++i) EXPECT_LT(stiffness[i], stiffness[i - 1]);
  const double k = app.simulation().GetMaterial("rigid").stiffness;
  EXPECT_LT(k, 1e6);
  EXPECT_EQ(k, app.ui().contact_edits.materials[0].material.stiffness);
  // Compliant now: the box (1 kg, weight 9.81 N) sinks to about mg/k; the
  // near-rigid contact rested at a few tens of micrometres.
  const double phi = DeepestPhi(app);
  std::printf("stiffness dragged from %.3g to %.3g N/m in %zu frames: deepest phi %.3g m -> %.3g m\n", k0, k,
              stiffness.size(), phi_rigid, phi);
  EXPECT_LT(phi, phi_rigid - 1e-4) << "k = " << k << " N/m";
  EXPECT_TRUE(ContactEdited(app.simulation(), app.ui().scene_values));  // "(edited)" and the * marker.
}

// A value the engine refuses stays in the field, red, with the reason, and
// is not applied; the other fields stay live. Revert restores the scene.
TEST(ViewerLiveTuningTest, RefusedTypedValueIsNotAppliedAndOthersStayLive) {
  App app(Options("box_resting.yaml", 1280, 720));
  OpenOnly(app, "Contact");
  Pointer pointer;
  pointer.Install(app);
  app.Frame();
  auto type_into = [&](const std::string& field, const std::string& text) {
    ASSERT_EQ(app.ui().field_rects.count(field), 1u) << field;
    const Rect r = app.ui().field_rects.at(field);
    pointer.x = r.x + 10;  // The number box (the label is to its right).
    pointer.y = r.y + 0.5f * r.height;
    pointer.down = true;
    app.Frame();
    pointer.down = false;
    app.Frame();  // Active, all selected (InputScalar selects all on click).
    pointer.typed = text;
    app.Frame();
    pointer.enter = true;
    app.Frame();  // Enter commits.
    pointer.enter = false;
    pointer.x = pointer.y = -1;
    app.Frame();
  };
  const double sigma0 = app.simulation().contact_model_parameters().stiction_tolerance;
  type_into("contact.sigma", "-1");
  EXPECT_EQ(app.simulation().contact_model_parameters().stiction_tolerance, sigma0);  // Refused: not applied.
  ASSERT_EQ(app.ui().field_errors.count("contact.sigma"), 1u);
  EXPECT_NE(app.ui().field_errors.at("contact.sigma").find("stiction"), std::string::npos)
      << app.ui().field_errors.at("contact.sigma");
  EXPECT_EQ(app.ui().contact_edits.params.stiction_tolerance, -1.0);  // Still shown in the field.
  // Another field still applies live while sigma is refused.
  type_into("contact.beta", "2");
  EXPECT_EQ(app.simulation().contact_model_parameters().near_rigid_threshold, 2.0);
  EXPECT_EQ(app.simulation().contact_model_parameters().stiction_tolerance, sigma0);
  EXPECT_EQ(app.ui().field_errors.count("contact.beta"), 0u);
  // A valid sigma clears the error.
  type_into("contact.sigma", "0.01");
  EXPECT_EQ(app.simulation().contact_model_parameters().stiction_tolerance, 0.01);
  EXPECT_EQ(app.ui().field_errors.count("contact.sigma"), 0u);
  // A time step out of the viewer's range: refused the same way.
  app.ui().settings.sections["Simulation"] = true;
  app.Frame();
  const double dt0 = app.simulation().time_step();
  type_into("sim.dt", "5");
  EXPECT_EQ(app.simulation().time_step(), dt0);
  EXPECT_EQ(app.ui().field_errors.count("sim.dt"), 1u);
  // Revert (Contact): the scene's β and σ again, errors of the section gone.
  EXPECT_TRUE(ContactEdited(app.simulation(), app.ui().scene_values));
  app.ui().contact_edits = app.ui().scene_values.contact;
  ASSERT_TRUE(ApplyContactEdits(app.simulation(), &app.ui(), &app));
  EXPECT_FALSE(ContactEdited(app.simulation(), app.ui().scene_values));
}

// ---------------------------------------------------------------- Save scene as

// The parameters tuned live are written to a scene file that loads to them.
TEST_F(ViewerFilesTest, SaveSceneAsWritesTheLiveParametersAndLoadsToThem) {
  const fs::path dir = dir_;
  App app(Options("grasp_box.yaml", 1280, 720));  // Includes, a gripper and a command file.
  ContactMaterial m = app.simulation().GetMaterial("default");
  m.stiffness = 3.5e5;
  m.friction = 0.8;
  app.SetMaterial("default", m);
  app.SetTimeStep(0.004);
  ContactModelParameters c = app.simulation().contact_model_parameters();
  c.stiction_tolerance = 2e-3;
  app.SetContactModelParameters(c);
  ASSERT_TRUE(ContactEdited(app.simulation(), app.ui().scene_values));
  const std::string saved = (dir / "tuned.yaml").string();
  ASSERT_TRUE(app.SaveSceneAs(saved)) << app.ui().message;
  EXPECT_NE(app.ui().message.find(saved), std::string::npos);
  const double t0 = app.simulation().time();
  ASSERT_TRUE(app.OpenScene(saved, false)) << app.ui().message;
  const Simulation& loaded = app.simulation();
  EXPECT_EQ(loaded.time(), t0);  // A new scene from its start.
  EXPECT_EQ(loaded.time_step(), 0.004);
  EXPECT_EQ(loaded.GetMaterial("default").stiffness, 3.5e5);
  EXPECT_EQ(loaded.GetMaterial("default").friction, 0.8);
  EXPECT_EQ(loaded.contact_model_parameters().stiction_tolerance, 2e-3);
  EXPECT_NE(app.gripper().controller(), nullptr);
  EXPECT_NE(app.gripper().player(), nullptr);  // The scene's command file, found from the new place.
  // The saved values are now the scene's: nothing is marked edited.
  EXPECT_FALSE(ContactEdited(loaded, app.ui().scene_values));
  EXPECT_FALSE(SimulationEdited(loaded, app.ui().scene_values));
  // An unwritable place: the message says so and the scene keeps running.
  EXPECT_FALSE(app.SaveSceneAs("/proc/stiction-no/tuned.yaml"));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("/proc/stiction-no/tuned.yaml"), std::string::npos) << app.ui().message;
}

// ---------------------------------------------------------------- cameras

// A scene's `camera:` key sets the view, and `track:` keeps the camera's
// offset to a falling body.
TEST_F(ViewerFilesTest, SceneCameraKeyAndTrackingCamera) {
  AppOptions o = Options("demo.yaml", 1280, 720);
  o.scene_path = Write("tracked.yaml", "include: " + kScenes + "/falling_box.yaml\n" +
                                           "camera: {azimuth: 90, elevation: -10, distance: 2.5, fovy: 40, track: box}\n");
  o.paused = false;
  o.steps_per_frame = 5;
  App app(o);
  EXPECT_EQ(app.director().camera().azimuth_deg, 90.0f);
  EXPECT_EQ(app.director().camera().elevation_deg, -10.0f);
  EXPECT_EQ(app.director().camera().distance, 2.5f);
  EXPECT_EQ(app.director().camera().fovy_deg, 40.0f);
  EXPECT_EQ(app.ui().track_body, "box");
  app.Frame();
  const int box = app.simulation().model().FindBody("box");
  ASSERT_GT(box, 0);
  const Vector3 p0 = app.snapshot().X_WB[box].p;
  const Vec3f lookat0 = app.director().camera().lookat;
  for (int i = 0; i < 40; ++i) app.Frame();  // It flies up, falls and lands.
  const Vector3 p1 = app.snapshot().X_WB[box].p;
  ASSERT_GT((p1 - p0).norm(), 0.1);  // It moved.
  // The camera moved with it (float positions: 1e-5 m).
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(app.director().camera().lookat[k] - lookat0[k], static_cast<float>(p1[k] - p0[k]), 1e-5f) << k;
  }
}

// Camera keyframes in a command file drive the camera during the replay,
// at the simulated time; a camera drag hands it back to the user.
TEST_F(ViewerFilesTest, CommandFileKeyframesDriveTheCameraUntilTheUserTakesIt) {
  const std::string file =
      Write("camera.yaml", "format: stiction-commands-1\ntime_step: 0.01\ncommands: []\ncamera:\n"
                           "  - {time: 0.0, lookat: [0, 0, 0.1], distance: 1.0, azimuth: 0, elevation: -20}\n"
                           "  - {time: 1.0, lookat: [0, 0, 0.1], distance: 1.0, azimuth: 90, elevation: -20}\n");
  AppOptions o = Options("grasp_box.yaml", 1280, 720);
  o.paused = false;
  o.steps_per_frame = 10;
  App app(o);
  ASSERT_TRUE(app.ReplayCommands(file)) << app.ui().message;
  EXPECT_TRUE(app.director().scripted());
  for (int i = 0; i < 5; ++i) app.Frame();  // t = 0.5 s: the smoothstep midpoint.
  EXPECT_NEAR(app.simulation().time(), 0.5, 1e-9);
  EXPECT_NEAR(app.director().camera().azimuth_deg, 45.0f, 1e-3f);
  EXPECT_NEAR(app.director().camera().distance, 1.0f, 1e-6f);
  // The user orbits: the script lets go and the camera stays where the user put it.
  app.input().HandleCursor(640, 360);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 10.0);
  app.input().HandleCursor(700, 360);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 10.1);
  EXPECT_FALSE(app.director().scripted());
  const float azimuth = app.director().camera().azimuth_deg;
  for (int i = 0; i < 3; ++i) app.Frame();
  EXPECT_EQ(app.director().camera().azimuth_deg, azimuth);
  // Reset replays the script from its start.
  app.ResetSimulation();
  EXPECT_TRUE(app.director().scripted());
}

// ---------------------------------------------------------------- video overlays

// The overlays are burned into the recorded image (top left: the scene's
// name; bottom left: the time), and only where they are drawn.
TEST_F(ViewerFilesTest, OverlaysAreBurnedIntoTheRecordedFrames) {
  const fs::path dir = dir_;
  auto record = [&](const std::string& overlay) {
    AppOptions o = Options("falling_box.yaml", 640, 360);
    o.ffmpeg_program = "stiction-test-no-such-ffmpeg";  // PNG frames: lossless.
    std::string error;
    EXPECT_TRUE(ParseOverlayList(overlay, &o.overlay, &error)) << error;
    o.overlay.caption = "a caption";
    App app(o);
    EXPECT_TRUE(app.StartRecording((dir / (overlay + ".mp4")).string(), 640, 360));
    EXPECT_TRUE(app.CaptureVideoFrames(1));
    int w = 0, h = 0;
    std::vector<std::uint8_t> rgb = app.capture().ReadPixels(&w, &h);
    app.StopRecording();
    EXPECT_EQ(w, 640);
    EXPECT_EQ(h, 360);
    return rgb;
  };
  const std::vector<std::uint8_t> plain = record("none");
  const std::vector<std::uint8_t> with = record("time,scene,caption,plot=kinetic_energy");
  // Pixels that differ, per region (rows from the top).
  auto differing = [&](int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        const size_t i = (static_cast<size_t>(359 - y) * 640 + x) * 3;
        n += std::abs(plain[i] - with[i]) + std::abs(plain[i + 1] - with[i + 1]) > 30;
      }
    }
    return n;
  };
  EXPECT_GT(differing(0, 0, 200, 50), 100);        // Name and caption.
  EXPECT_GT(differing(0, 320, 160, 360), 50);      // t = 0.00 s.
  EXPECT_GT(differing(420, 260, 640, 360), 500);   // The plot's panel.
  EXPECT_EQ(differing(250, 120, 390, 240), 0);     // The middle of the frame is the scene.
}


// ---------------------------------------------------------------- joints

// The Joints section driven with the mouse (docs/viewer.md, "Joints and
// Control"): on a paused iiwa14.urdf a press on a slider poses the joint at
// the value under the pointer (velocities zero, no time passes); running,
// the same slider moves the joint's PD target and the arm follows.
TEST(ViewerJointsTest, PressingAJointSliderPosesThePausedArmAndMovesTheTargetWhileRunning) {
  AppOptions o = Options("demo.yaml", 1280, 720);
  o.scene_path = STICTION_SOURCE_DIR "/assets/robots/iiwa14.urdf";
  o.steps_per_frame = 10;
  App app(o);
  app.ui().settings.sections["Joints"] = true;
  app.ui().settings.sections["Control"] = false;
  app.ui().settings.sections["Plots"] = false;
  Pointer pointer;
  pointer.Install(app);
  app.Frame();
  const std::string id = "joint.iiwa_joint_4";
  ASSERT_EQ(app.ui().field_rects.count(id), 1u) << "the slider is not wholly in view";
  const Simulation& sim = app.simulation();
  const Joint& joint = sim.model().joint(sim.model().FindJoint("iiwa_joint_4"));
  const std::string actuator = [&] {
    for (const std::string& name : sim.actuator_names()) {
      if (sim.actuator(name).joint == sim.model().FindJoint("iiwa_joint_4")) return name;
    }
    return std::string();
  }();
  ASSERT_FALSE(actuator.empty());
  // A press on the slider selects the value under the pointer: ImGui maps
  // the frame less 2 px of padding and the grab's width at each end
  // (ImGui::SliderBehaviorT) linearly onto the span.
  auto press_at = [&](double fraction) {
    const Rect r = app.ui().field_rects.at(id);
    const float grab = ImGui::GetStyle().GrabMinSize, pad = 2.0f;
    pointer.x = r.x + pad + 0.5f * grab + static_cast<float>(fraction) * (r.width - 2 * pad - grab);
    pointer.y = r.y + 0.5f * r.height;
    pointer.down = true;
    app.Frame();
    pointer.down = false;
    app.Frame();
    pointer.x = pointer.y = -1;
    return joint.lower_limit + fraction * (joint.upper_limit - joint.lower_limit);
  };
  const double span = joint.upper_limit - joint.lower_limit;
  const double want = press_at(0.8);
  const double q = sim.positions()[joint.q_start];
  EXPECT_NEAR(q, want, 0.01 * span);
  EXPECT_TRUE(sim.velocities().isZero(0.0));
  EXPECT_EQ(sim.time(), 0.0);
  EXPECT_EQ(sim.actuator(actuator).target_position, q);  // The target moved with the pose.

  app.TogglePause();
  const double target = press_at(0.3);
  EXPECT_NEAR(sim.actuator(actuator).target_position, target, 0.01 * span);
  for (int i = 0; i < 20; ++i) app.Frame();  // 2 s.
  // Under kp = 100 N m/rad the elbow sags under gravity, but it has moved
  // most of the way from 0.8 to 0.3 of the span.
  EXPECT_LT(std::abs(sim.positions()[joint.q_start] - sim.actuator(actuator).target_position),
            0.5 * std::abs(q - sim.actuator(actuator).target_position));
}

}  // namespace
}  // namespace stiction::app
