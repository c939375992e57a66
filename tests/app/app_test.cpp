// The viewer end to end, with a real (hidden) window and OpenGL context.
// Needs a display: ctest runs this executable under
//   xvfb-run -a -s "-screen 0 1280x720x24"
// (Mesa llvmpipe). Input is driven through InputController::Handle*
// (app.input()), the functions the GLFW callbacks call.
#include "app/app.h"
#include "engine/common/error.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>

#include "app/record/screenshot.h"
#include "app/ui/demo_scenes.h"
#include "engine/control/command_log.h"
#include "engine/common/text.h"
#include "engine/control/scene_gripper.h"
#include "engine/dataset/demo_file.h"
#include "engine/dataset/demo_replay.h"
#include "engine/scene/scene_loader.h"
#include "tests/app/run_command.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

namespace fs = std::filesystem;
using test::RunCommand;

const std::string kScenes = STICTION_SOURCE_DIR "/assets/scenes";
const std::string kDemo = kScenes + "/demo.yaml";
const std::string kGolden = STICTION_SOURCE_DIR "/tests/app/golden/demo.png";
constexpr int kWidth = 640, kHeight = 360;

AppOptions Options(const std::string& scene, bool paused = true) {
  AppOptions o;
  o.scene_path = scene;
  o.width = kWidth;
  o.height = kHeight;
  o.visible = false;
  o.vsync = false;
  o.paused = paused;
  o.panels = false;  // The scene fills the window (the layout tests show the columns).
  return o;
}

// A gripper scene running 10 steps per frame, its takes autosaved to a
// scratch directory.
AppOptions GripperOptions(const std::string& scene, int steps_per_frame = 10) {
  AppOptions o = Options(kScenes + "/" + scene, /*paused=*/false);
  o.steps_per_frame = steps_per_frame;
  // Command recordings autosave there (docs/recording-faults.md), not in
  // the working directory.
  o.screenshot_dir = test::TempDir().string();
  return o;
}

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // Bottom row first.
  const std::uint8_t* at(int x, int y_from_top) const {
    return &rgb[(static_cast<size_t>(height - 1 - y_from_top) * width + x) * 3];
  }
};

Image Grab(const App& app) {
  Image im;
  im.rgb = app.capture().ReadPixels(&im.width, &im.height);
  return im;
}

// Window pixel (top-left origin) of a world point, through the scene view.
bool ProjectToWindow(App& app, const Vector3& p_W, double* x, double* y) {
  const Rect view = app.layout().SceneViewRect();
  const int w = static_cast<int>(std::lround(view.width)), h = static_cast<int>(std::lround(view.height));
  Vec3f pixel;
  if (!app.director().camera().Project(p_W.cast<float>(), w, h, &pixel)) return false;
  *x = view.x + pixel.x();
  *y = view.y + pixel.y();
  return pixel.x() >= 2 && pixel.y() >= 2 && pixel.x() < w - 2 && pixel.y() < h - 2;
}

// --------------------------------------------------------------- rendering

// Every shipped scene loads and renders, and at the projected centre of each
// visible body the frame differs from the same frame with the bodies hidden
// (the "empty" frame: clear colour and ground only).
TEST(AppTest, EveryShippedSceneDrawsItsBodies) {
  int scenes = 0;
  for (const auto& entry : fs::directory_iterator(kScenes)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    ++scenes;
    App app(Options(entry.path().string()));
    app.Frame();
    app.Frame();
    const Image full = Grab(app);
    ASSERT_EQ(full.width, kWidth);
    ASSERT_EQ(full.height, kHeight);
    app.ui().viz.render.show_bodies = false;
    app.Frame();
    const Image empty = Grab(app);
    app.ui().viz.render.show_bodies = true;

    int checked = 0;
    std::vector<bool> seen(app.snapshot().X_WB.size(), false);
    for (const Drawable& d : app.render_scene().drawables) {
      if (d.body <= 0 || !d.visual || seen[d.body]) continue;
      seen[d.body] = true;
      double x = 0, y = 0;
      if (!ProjectToWindow(app, app.snapshot().X_WB[d.body] * d.X_BG.p, &x, &y)) continue;
      int differing = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const std::uint8_t* a = full.at(static_cast<int>(x) + dx, static_cast<int>(y) + dy);
          const std::uint8_t* b = empty.at(static_cast<int>(x) + dx, static_cast<int>(y) + dy);
          if (std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]) > 30) ++differing;
        }
      }
      EXPECT_GT(differing, 0) << "body " << app.simulation().model().body(d.body).name << " not drawn at ("
                              << x << ", " << y << ")";
      ++checked;
    }
    EXPECT_GE(checked, 1);
  }
  EXPECT_GE(scenes, 7);
}

// The default scene at t = 0 from the default camera against a stored image.
// llvmpipe is deterministic for a given Mesa build, but Mesa versions change
// rasterization details (MSAA sample positions, the rounding of the shadow
// comparison, fwidth on the grid), and the LLVM version changes float
// rounding, so we allow a small mean difference instead of exact equality.
// Regenerate with STICTION_UPDATE_GOLDEN=1 after an intended visual change.
void ExpectMatchesGolden(const Image& im, const std::string& golden_path) {
  if (std::getenv("STICTION_UPDATE_GOLDEN") != nullptr) {
    ASSERT_TRUE(WritePng(golden_path, im.rgb, im.width, im.height));
    std::printf("golden image written to %s\n", golden_path.c_str());
    return;
  }
  int gw = 0, gh = 0, gc = 0;
  stbi_uc* golden = stbi_load(golden_path.c_str(), &gw, &gh, &gc, 3);
  ASSERT_NE(golden, nullptr) << "cannot read " << golden_path
                             << " (STICTION_UPDATE_GOLDEN=1 writes it; docs/viewer.md)";
  ASSERT_EQ(gw, im.width);
  ASSERT_EQ(gh, im.height);
  double sum[3] = {0, 0, 0};
  int large = 0;
  for (int y = 0; y < gh; ++y) {
    for (int x = 0; x < gw; ++x) {
      const std::uint8_t* a = im.at(x, y);
      const stbi_uc* b = golden + (static_cast<size_t>(y) * gw + x) * 3;  // Top row first.
      int d_max = 0;
      for (int c = 0; c < 3; ++c) {
        const int d = std::abs(a[c] - b[c]);
        sum[c] += d;
        d_max = std::max(d_max, d);
      }
      if (d_max > 64) ++large;
    }
  }
  stbi_image_free(golden);
  const double n = static_cast<double>(gw) * gh;
  for (int c = 0; c < 3; ++c) EXPECT_LT(sum[c] / n, 2.0) << "channel " << c << " against " << golden_path;
  EXPECT_LT(large, n * 0.005) << "pixels off by more than 64 levels against " << golden_path;
}

TEST(AppTest, DemoMatchesTheGoldenImage) {
  App app(Options(kDemo));
  app.Frame();
  app.Frame();
  ExpectMatchesGolden(Grab(app), kGolden);
}

// --------------------------------------------------------------- interaction

TEST(AppTest, PauseStepAndApplyTimeStepFromThePanel) {
  App app(Options(kDemo, /*paused=*/false));
  app.Frame();
  ASSERT_FALSE(app.physics().paused());
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  EXPECT_TRUE(app.physics().paused());
  const double t0 = app.simulation().time();
  const auto steps0 = app.physics().steps_taken();
  app.Frame();
  app.Frame();
  EXPECT_EQ(app.simulation().time(), t0);

  // Right arrow: exactly one step.
  const double dt = app.simulation().time_step();
  app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
  app.Frame();
  EXPECT_EQ(app.physics().steps_taken(), steps0 + 1);
  EXPECT_NEAR(app.simulation().time(), t0 + dt, 1e-12);
  app.Frame();
  EXPECT_EQ(app.physics().steps_taken(), steps0 + 1);

  // The panel's Apply: the engine takes the new δt on the next step.
  app.ui().sim_edits.time_step = 0.002;
  ASSERT_TRUE(ApplySimulationEdits(&app.ui(), &app)) << app.ui().message;
  EXPECT_EQ(app.simulation().time_step(), 0.002);
  const double t1 = app.simulation().time();
  app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
  app.Frame();
  EXPECT_NEAR(app.simulation().time(), t1 + 0.002, 1e-12);

  // An integrator preset and raw θ values.
  app.ui().sim_edits.integrator = IntegratorPreset("implicit_euler");
  ASSERT_TRUE(ApplySimulationEdits(&app.ui(), &app)) << app.ui().message;
  EXPECT_EQ(app.simulation().integrator().name, "implicit_euler");
  EXPECT_EQ(app.simulation().integrator().theta, 1.0);

  // Refused values: a message, nothing applied, and the simulation runs on.
  app.ui().sim_edits.time_step = -1;
  EXPECT_FALSE(ApplySimulationEdits(&app.ui(), &app));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("refused"), std::string::npos) << app.ui().message;
  EXPECT_EQ(app.simulation().time_step(), 0.002);
  app.ui().sim_edits = SimulationEditsFrom(app.simulation());
  app.ui().sim_edits.integrator = {std::string(kCustomIntegrator), 1.5, 0.5};
  EXPECT_FALSE(ApplySimulationEdits(&app.ui(), &app));
  EXPECT_EQ(app.simulation().integrator().name, "implicit_euler");
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  EXPECT_FALSE(app.physics().paused());
  const double t2 = app.simulation().time();
  for (int i = 0; i < 5; ++i) app.Frame();
  EXPECT_GT(app.simulation().time(), t2);

  // Backspace resets; = and - change the real-time factor.
  app.input().HandleKey(GLFW_KEY_BACKSPACE, GLFW_PRESS, 0);
  EXPECT_EQ(app.simulation().time(), 0.0);
  const double rtf = app.physics().clock().real_time_factor();
  app.input().HandleKey(GLFW_KEY_EQUAL, GLFW_PRESS, 0);
  EXPECT_EQ(app.physics().clock().real_time_factor(), 2 * rtf);
  app.input().HandleKey(GLFW_KEY_MINUS, GLFW_PRESS, 0);
  app.input().HandleKey(GLFW_KEY_MINUS, GLFW_PRESS, 0);
  EXPECT_EQ(app.physics().clock().real_time_factor(), rtf / 2);
}

// The Simulation section's stepping scheme and NMDP parameters
// (docs/viewer.md): applied and refused (all or nothing) like the integrator,
// marked edited and reverted; the NMDP fields are drawn only while an NMDP
// scheme is chosen. Paused throughout: nothing steps under an NMDP scheme.
// Issue 38: the timeline. Left/Right while paused and the scrubber move the
// viewer's simulation through the states it kept; each is the state an
// independent headless run of the same scene and script reaches at that
// step, and running on from a rewound state with nothing changed gives the
// same future.
TEST(AppTest, TimelineLeftRightAndTheScrubberMoveThroughKeptStates) {
  App app(GripperOptions("grasp_box.yaml"));
  for (int i = 0; i < 30; ++i) app.Frame();  // 300 steps: the grasp closes at 1.4 s.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  ASSERT_EQ(app.simulation().step_index(), 300);
  ASSERT_EQ(app.physics().history().size(), 301);
  const VectorX q300 = app.simulation().positions();

  // The same scene and script headless, state by state.
  Simulation reference = Simulation::FromFile(kScenes + "/grasp_box.yaml");
  SceneGripper script = SceneGripper::ForScene(reference);
  std::vector<VectorX> q_at(301);
  q_at[0] = reference.positions();
  for (int k = 1; k <= 300; ++k) {
    script.PrepareStep(&reference);
    ASSERT_EQ(reference.Step().status, StepStatus::kSuccess);
    q_at[static_cast<std::size_t>(k)] = reference.positions();
  }
  auto at = [&](int k) { return (app.simulation().positions().array() == q_at[static_cast<std::size_t>(k)].array()).all(); };
  EXPECT_TRUE(at(300));

  for (int i = 0; i < 10; ++i) app.input().HandleKey(GLFW_KEY_LEFT, GLFW_PRESS, 0);
  app.Frame();
  EXPECT_EQ(app.simulation().step_index(), 290);
  EXPECT_TRUE(at(290));
  EXPECT_TRUE(app.physics().paused());
  app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
  app.Frame();
  EXPECT_EQ(app.simulation().step_index(), 291);  // Restored, not stepped.
  EXPECT_TRUE(at(291));
  EXPECT_EQ(app.physics().history().size(), 301);

  // The scrubber to step 120 (the box still on the ground), then run on:
  // nothing changed, so step 300 is the old one bit for bit.
  app.ScrubTo(120);
  app.Frame();
  EXPECT_EQ(app.simulation().step_index(), 120);
  EXPECT_TRUE(at(120));
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  while (app.simulation().step_index() < 300) app.Frame();
  EXPECT_EQ(app.simulation().step_index(), 300);
  EXPECT_TRUE((app.simulation().positions().array() == q300.array()).all());

  // A cap smaller than one state is refused with a message.
  const std::size_t cap = app.physics().history().cap_bytes();
  app.SetHistoryCap(1e-4);
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("smaller than one state"), std::string::npos) << app.ui().message;
  EXPECT_EQ(app.physics().history().cap_bytes(), cap);
}

// A parameter edited after a rewind starts a branch; the replaced run stays
// as a ghost: at every step of the new branch, its bodies where the old run
// had them (checked against an independent headless run).
TEST(AppTest, AnEditAfterARewindLeavesTheOldRunAsAGhost) {
  App app(GripperOptions("grasp_box.yaml"));
  for (int i = 0; i < 30; ++i) app.Frame();  // 3 s: the box grasped and lifted.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  ASSERT_EQ(app.simulation().step_index(), 300);
  const int box = app.simulation().model().FindBody("box");
  const Vector3 box_old = app.snapshot().X_WB[static_cast<std::size_t>(box)].p;
  EXPECT_TRUE(app.snapshot().branch_ghost_bodies.empty());

  app.ScrubTo(150);  // Just after the grasp closed.
  ContactMaterial slippery = app.simulation().GetMaterial("box_surface");
  slippery.friction = 0.1;  // The pads cannot hold the 1 kg box with 20 N.
  app.SetMaterial("box_surface", slippery);
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  while (app.simulation().step_index() < 300) app.Frame();
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.Frame();
  const Snapshot& s = app.snapshot();
  Vector3 ghost_box = Vector3::Constant(std::nan(""));
  for (const auto& [body, X_WB] : s.branch_ghost_bodies) {
    if (body == box) ghost_box = X_WB.p;
  }
  EXPECT_EQ(ghost_box, box_old);  // The old run at step 300, bit for bit.
  const Vector3 box_now = s.X_WB[static_cast<std::size_t>(box)].p;
  std::printf("box at 3 s: lifted to z = %.3f m with mu = 1 (the ghost), z = %.3f m with mu = 0.1\n", ghost_box.z(),
              box_now.z());
  EXPECT_GT(ghost_box.z() - box_now.z(), 0.05);  // It slipped out and fell.
  // The Gripper panel's plots have the old run's lines beside the new ones.
  const std::vector<BranchPlot>& plots = app.ui().gripper.timeline;
  ASSERT_FALSE(plots.empty());
  EXPECT_TRUE(std::all_of(plots.begin(), plots.end(), [](const BranchPlot& p) { return p.has_previous(); }));
  // Forgotten, the ghost is gone.
  app.ClearBranchGhost();
  app.Frame();
  EXPECT_TRUE(app.snapshot().branch_ghost_bodies.empty());
}

// The scrubber's marks: what the script did (waits passed, grips) at the
// steps it did it, parameter edits where they were made; a branch keeps the
// marks up to its start.
TEST(AppTest, TheTimelineMarksScriptEventsAndEditsAtTheirSteps) {
  App app(GripperOptions("two_arm_stack.yaml"));
  for (int i = 0; i < 50; ++i) app.Frame();  // 5 s: the left arm has gripped (wait 1) and is carrying the cube.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  const CommandPlayer* player = app.gripper().player();
  ASSERT_NE(player, nullptr);
  ASSERT_GE(player->events().size(), 1u);
  const std::int64_t wait_step = player->events()[0].step;
  std::int64_t grip_step = -1, wait_mark = -1;
  for (const TimelineEvent& e : app.physics().history().events()) {
    if (e.text == "grip closes (left)" && grip_step < 0) grip_step = e.step;
    if (e.text == "script: " + player->events()[0].what) wait_mark = e.step;
  }
  EXPECT_EQ(wait_mark, wait_step);
  // The script closes the left grip at 0.2 + 1.2 + 1.0 s = step 240.
  EXPECT_EQ(grip_step, 240);
  EXPECT_FALSE(app.MakeView().timeline_marks.empty());

  // An edit after going back to step 300 is marked there; running on
  // drops the old marks after 300 (the wait at ~308 comes again, at the
  // same step: nothing that acts before it changed).
  app.ScrubTo(300);
  ContactMaterial rubber = app.simulation().GetMaterial("rubber");
  app.SetMaterial("rubber", rubber);  // The same values: an edit all the same.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.Frame();
  bool edit = false;
  for (const TimelineEvent& e : app.physics().history().events()) {
    if (e.text == "edit: material rubber") {
      EXPECT_EQ(e.step, 300);
      edit = true;
    }
    EXPECT_LE(e.step, app.simulation().step_index());
  }
  EXPECT_TRUE(edit);
}

// A state taken under another solver or time step: going back to it says
// so (the future will differ from the kept one), and running on from it
// works under the current settings and starts a new branch.
TEST(AppTest, RewindingPastASolverSwitchSaysWhatChanged) {
  App app(GripperOptions("grasp_box.yaml"));
  for (int i = 0; i < 10; ++i) app.Frame();
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  ASSERT_EQ(app.simulation().step_index(), 100);
  SolverSettings pgs = app.simulation().solver_settings();
  pgs.type = SolverType::kPgs;
  app.SetSolver(pgs);
  app.SetTimeStep(0.005);
  app.ScrubTo(50);
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  EXPECT_NE(app.ui().message.find("taken with the sap solver (now pgs), dt = 10 ms (now 5 ms)"), std::string::npos)
      << app.ui().message;
  EXPECT_EQ(app.physics().history().size(), 101);  // Nothing lost yet.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.Frame();
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  EXPECT_EQ(app.simulation().step_index(), 60);
  EXPECT_NEAR(app.simulation().time(), 0.5 + 10 * 0.005, 1e-12);
  EXPECT_GT(app.physics().history().previous_branch_size(), 0);
  // Back to a state taken under the current settings: nothing to say.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.ui().Info("");
  app.ScrubTo(app.physics().history().size() - 2);
  EXPECT_EQ(app.ui().message.find("taken with"), std::string::npos) << app.ui().message;
}

// A branch saved as a command file reproduces from the scene file: the
// run rewound to 1.5 s, the box's friction edited, the grip opened by hand
// at 2.5 s; the file (the script's commands, the user's, and the edit as a
// `set:` entry) replayed headless and in the viewer reaches the same
// state bit for bit.
TEST(AppTest, ASavedBranchReplaysBitIdenticallyFromTheSceneFile) {
  App app(GripperOptions("grasp_box.yaml"));
  for (int i = 0; i < 30; ++i) app.Frame();
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.ScrubTo(150);
  ContactMaterial m = app.simulation().GetMaterial("box_surface");
  m.friction = 0.3;
  app.SetMaterial("box_surface", m);
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  while (app.simulation().step_index() < 250) app.Frame();
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.SetGripClosed(false);  // Taken over by hand: the box drops.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  while (app.simulation().step_index() < 300) app.Frame();
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  ASSERT_EQ(app.simulation().step_index(), 300);
  const VectorX q300 = app.simulation().positions();

  const std::string file = (test::TempDir() / "branch.yaml").string();
  ASSERT_TRUE(app.SaveBranch(file)) << app.ui().message;
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  EXPECT_NE(app.ui().message.find("1 parameter edits"), std::string::npos) << app.ui().message;
  const CommandLog log = LoadCommandFile(file);
  bool edit_at_150 = false, open_at_250 = false;
  for (const CommandEntry& e : log.entries) {
    if (!e.set.empty()) {
      EXPECT_EQ(e.step, 150);
      EXPECT_EQ(e.set, std::vector<std::string>{"materials.box_surface.friction=0.3"});
      edit_at_150 = true;
    }
    if (e.grip == GripState::kOpen && e.step == 250) open_at_250 = true;
  }
  EXPECT_TRUE(edit_at_150);
  EXPECT_TRUE(open_at_250);

  // Headless, from the scene file as written.
  Simulation sim = Simulation::FromFile(kScenes + "/grasp_box.yaml");
  SceneGripper grippers = SceneGripper::ForScene(sim);
  grippers.PlayFile(sim, file);
  while (sim.step_index() < 300) {
    grippers.PrepareStep(&sim);
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  }
  EXPECT_EQ(sim.GetMaterial("box_surface").friction, 0.3);
  EXPECT_TRUE((sim.positions().array() == q300.array()).all());

  // In the viewer: Replay starts from the scene file's parameters (μ = 1
  // again until step 150) and the panels show the edit when it comes.
  ASSERT_TRUE(app.ReplayCommands(file)) << app.ui().message;
  EXPECT_EQ(app.simulation().GetMaterial("box_surface").friction, 1.0);
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  while (app.simulation().step_index() < 300) app.Frame();
  EXPECT_TRUE((app.simulation().positions().array() == q300.array()).all());
  bool shown = false;
  for (const MaterialEdit& e : app.ui().contact_edits.materials) {
    if (e.name == "box_surface") shown = e.material.friction == 0.3;
  }
  EXPECT_TRUE(shown);
}

// What a branch cannot be saved with: the start dropped by the memory cap,
// and inputs a command file cannot hold (named, the file still written).
TEST(AppTest, SavingABranchSaysWhatItCannotKeep) {
  App app(GripperOptions("grasp_box.yaml"));
  app.Frame();
  const std::string file = (test::TempDir() / "branch-bad.yaml").string();
  const std::string actuator = app.simulation().actuator_names().front();
  app.SetActuatorTarget(actuator, 0.01, 0);
  for (int i = 0; i < 4; ++i) app.Frame();
  EXPECT_TRUE(app.SaveBranch(file));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("cannot hold t = 0.1 s: actuator target " + actuator), std::string::npos)
      << app.ui().message;
  // A cap of ten states: t = 0 goes.
  app.SetHistoryCap(10.0 * static_cast<double>(app.physics().history().largest_state_bytes()) / (1 << 20));
  for (int i = 0; i < 3; ++i) app.Frame();
  ASSERT_GT(app.physics().history().step_at(0), 0);
  EXPECT_FALSE(app.SaveBranch(file));
  EXPECT_NE(app.ui().message.find("no longer holds t = 0"), std::string::npos) << app.ui().message;
}

TEST(AppTest, SimulationPanelSetsTheSteppingSchemeAndNmdpParameters) {
  AppOptions o = Options(kDemo, /*paused=*/true);
  o.width = 1280;
  o.height = 720;
  o.panels = true;
  App app(o);
  UiState& ui = app.ui();
  for (const char* title : {"Scene", "Simulation", "Recording", "Contact", "Solver", "Visualization"}) {
    ui.settings.sections[title] = std::string(title) == "Simulation";
  }
  app.Frame();
  const Simulation& sim = app.simulation();
  EXPECT_EQ(ui.sim_edits.scheme, SteppingScheme::kThetaMethod);
  EXPECT_EQ(ui.field_rects.count("sim.stepping"), 1u) << "the stepping combo is not drawn";
  EXPECT_EQ(ui.field_rects.count("sim.nmdp.stiffness"), 0u) << "NMDP fields under the theta-method";

  ui.sim_edits.scheme = SteppingScheme::kNmdpPgm;
  ui.sim_edits.nmdp.stiffness = 3e4;
  ASSERT_TRUE(ApplySimulationEdits(&ui, &app)) << ui.message;
  EXPECT_EQ(sim.stepping_scheme(), SteppingScheme::kNmdpPgm);
  EXPECT_EQ(sim.nmdp_parameters().stiffness, 3e4);
  EXPECT_NE(ui.message.find("nmdp_pgm"), std::string::npos) << ui.message;
  EXPECT_TRUE(SimulationEdited(sim, ui.scene_values));
  app.Frame();
  EXPECT_EQ(sim.time(), 0.0);
  EXPECT_EQ(ui.field_rects.count("sim.nmdp.stiffness"), 1u) << "no NMDP fields under NMDP-PGM";

  // A value out of range: nothing applied, neither the scheme nor the rest.
  ui.sim_edits.scheme = SteppingScheme::kNeMdp;
  ui.sim_edits.time_step = 0.004;
  ui.sim_edits.nmdp.pyramid_edges = 2;
  EXPECT_FALSE(ApplySimulationEdits(&ui, &app));
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_NE(ui.message.find("pyramid_edges"), std::string::npos) << ui.message;
  EXPECT_EQ(sim.stepping_scheme(), SteppingScheme::kNmdpPgm);
  EXPECT_EQ(sim.nmdp_parameters().pyramid_edges, NmdpParameters{}.pyramid_edges);
  EXPECT_NE(sim.time_step(), 0.004);

  // Revert: the scene's values again.
  ui.sim_edits = ui.scene_values.sim;
  ASSERT_TRUE(ApplySimulationEdits(&ui, &app)) << ui.message;
  EXPECT_EQ(sim.stepping_scheme(), SteppingScheme::kThetaMethod);
  EXPECT_EQ(sim.nmdp_parameters().stiffness, NmdpParameters{}.stiffness);
  EXPECT_FALSE(SimulationEdited(sim, ui.scene_values));
}

TEST(AppTest, KeysTypedIntoAFieldDoNotReachTheViewer) {
  App app(Options(kDemo));
  app.Frame();
  ASSERT_TRUE(app.physics().paused());
  // What ImGui reports while a text field has focus.
  ImGui::GetIO().WantCaptureKeyboard = true;
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.input().HandleKey(GLFW_KEY_TAB, GLFW_PRESS, 0);
  EXPECT_TRUE(app.physics().paused());
  EXPECT_FALSE(app.ui().settings.layout.show_left);  // Options() starts without panels.
  ImGui::GetIO().WantCaptureKeyboard = false;
  app.input().HandleKey(GLFW_KEY_TAB, GLFW_PRESS, 0);
  EXPECT_TRUE(app.ui().settings.layout.show_left);
  EXPECT_FALSE(app.ui().settings.layout.show_right);
  app.input().HandleKey(GLFW_KEY_TAB, GLFW_PRESS, GLFW_MOD_SHIFT);
  EXPECT_TRUE(app.ui().settings.layout.show_right);
  app.input().HandleKey(GLFW_KEY_F1, GLFW_PRESS, 0);
  EXPECT_TRUE(app.ui().show_help);
  app.Frame();  // The help window draws.
}

TEST(AppTest, CameraFollowsTheMouse) {
  App app(Options(kDemo));
  app.Frame();
  const Camera before = app.director().camera();
  // Left drag orbits.
  app.input().HandleCursor(300, 200);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 1.0);
  app.input().HandleCursor(350, 200);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 1.1);
  EXPECT_NE(app.director().camera().azimuth_deg, before.azimuth_deg);
  // Right drag pans; scroll zooms.
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0, 2.0);
  app.input().HandleCursor(350, 250);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, 0, 2.1);
  EXPECT_GT((app.director().camera().lookat - before.lookat).norm(), 1e-3f);
  const float d = app.director().camera().distance;
  app.input().HandleScroll(2);
  EXPECT_LT(app.director().camera().distance, d);
  // Right double-click on the ground centres the view there (z = 0).
  app.input().HandleCursor(320, 340);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0, 5.0);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, 0, 5.05);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0, 5.1);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, 0, 5.15);
  EXPECT_NEAR(app.director().camera().lookat.z(), 0.0f, 1e-4f);
}

// Select a body by double-click, pull it with Ctrl+right drag, release it.
TEST(AppTest, SpringPerturbationMovesTheBodyAndStopsOnRelease) {
  App app(Options(kDemo));
  app.Frame();
  Simulation& sim = app.simulation();
  const int box = sim.model().FindBody("red_box");
  ASSERT_GT(box, 0);
  double x = 0, y = 0;
  ASSERT_TRUE(ProjectToWindow(app, app.snapshot().X_WB[box].p, &x, &y));

  // Double-click selects.
  app.input().HandleCursor(x, y);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 10.0);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 10.05);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 10.1);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 10.15);
  ASSERT_EQ(app.perturber().selected_body(), box);

  // Ctrl+right drag 80 px to the right: the target moves along screen-right.
  const Vector3 right = app.director().camera().Right().cast<double>();
  const Vector3 p0 = app.snapshot().X_WB[box].p;
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, GLFW_MOD_CONTROL, 20.0);
  ASSERT_TRUE(app.perturber().perturbation().active());
  app.input().HandleCursor(x + 80, y);
  EXPECT_GT((app.perturber().perturbation().target_W - p0).dot(right), 0.1);
  for (int i = 0; i < 60; ++i) {
    app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
    app.Frame();
  }
  ASSERT_EQ(app.perturber().applied_wrenches().size(), 1u);
  EXPECT_EQ(app.perturber().applied_wrenches()[0].body, box);
  const Vector3 p1 = app.snapshot().X_WB[box].p;
  EXPECT_GT((p1 - p0).dot(right), 0.1) << "the box did not follow the spring";
  // Held against gravity: it sags by about g/ω² (0.1 m), it does not fall
  // the 0.44 m of 0.3 s of free fall.
  EXPECT_GT(p1.z(), p0.z() - 0.2);

  // Release: no wrench any more; the box is in free flight (Δv = g δt).
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, GLFW_MOD_CONTROL, 21.0);
  EXPECT_FALSE(app.perturber().perturbation().active());
  EXPECT_TRUE(app.perturber().applied_wrenches().empty());
  const Vector3 v1 = sim.CalcBodyStates()[box - 1].linear_velocity;
  app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
  app.Frame();
  const Vector3 v2 = sim.CalcBodyStates()[box - 1].linear_velocity;
  const Vector3 expected = v1 + sim.time_step() * sim.scene().gravity;
  EXPECT_LT((v2 - expected).norm(), 1e-9) << "still pushed after release";
}

TEST(AppTest, CtrlLeftDragRotatesTheSelectedBody) {
  App app(Options(kDemo));
  app.Frame();
  const int box = app.simulation().model().FindBody("red_box");
  double x = 0, y = 0;
  ASSERT_TRUE(ProjectToWindow(app, app.snapshot().X_WB[box].p, &x, &y));
  app.input().HandleCursor(x, y);
  for (double t : {1.0, 1.1}) {
    app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, t);
    app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, t + 0.01);
  }
  ASSERT_EQ(app.perturber().selected_body(), box);
  const Matrix3 R0 = app.snapshot().X_WB[box].R;
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_CONTROL, 3.0);
  app.input().HandleCursor(x + 60, y);
  for (int i = 0; i < 40; ++i) {
    app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
    app.Frame();
  }
  const Eigen::AngleAxisd turned(app.snapshot().X_WB[box].R * R0.transpose());
  EXPECT_GT(turned.angle(), 0.3);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, GLFW_MOD_CONTROL, 4.0);
  EXPECT_TRUE(app.perturber().applied_wrenches().empty());
}

TEST(AppTest, ScenesOpenReloadAndRefuseBadFiles) {
  App app(Options(kDemo));
  app.Frame();
  // Ctrl+L reloads and keeps the camera.
  app.director().camera().distance = 7.5f;
  app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
  app.Frame();
  ASSERT_GT(app.simulation().time(), 0);
  app.input().HandleKey(GLFW_KEY_L, GLFW_PRESS, GLFW_MOD_CONTROL);
  EXPECT_EQ(app.simulation().time(), 0.0);
  EXPECT_EQ(app.director().camera().distance, 7.5f);
  // Dropping a file opens it.
  app.input().HandleDrop({kScenes + "/pendulum.yaml"});
  EXPECT_EQ(app.simulation().model().num_bodies(), 2);
  app.Frame();
  // The Open field goes through the next frame.
  app.ui().pending_open = kScenes + "/double_pendulum.yaml";
  app.Frame();
  EXPECT_EQ(app.simulation().model().num_bodies(), 3);
  // A bad file: a message, and the current scene stays.
  EXPECT_FALSE(app.OpenScene(kScenes + "/no_such_scene.yaml", false));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_EQ(app.simulation().model().num_bodies(), 3);
  app.Frame();
}

TEST(AppTest, SetOverridesTheCommandLineSceneAndItsReloadsOnly) {
  AppOptions o = Options(kScenes + "/pendulum.yaml");
  o.overrides = {"time_step=0.004"};
  App app(o);
  EXPECT_EQ(app.simulation().time_step(), 0.004);
  app.SetTimeStep(0.01);
  ASSERT_TRUE(app.ReloadScene());
  EXPECT_EQ(app.simulation().time_step(), 0.004);  // Reloaded with its --set.
  ASSERT_TRUE(app.OpenScene(kScenes + "/double_pendulum.yaml", false));
  EXPECT_NE(app.simulation().time_step(), 0.004);  // Another scene: its own values.
  // A bad override refuses to start with the loader's line, as stiction-sim's.
  o.overrides = {"time_step=-1"};
  try {
    App bad(o);
    ADD_FAILURE() << "a negative time step was accepted";
  } catch (const stiction::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--set time_step=-1: "), std::string::npos) << e.what();
  }
}

TEST(AppTest, SleepingBodiesAreDrawnDarkerUntilAnEditWakesThem) {
  AppOptions o = Options(kScenes + "/stack10.yaml", /*paused=*/false);
  o.overrides = {"solver.sleep=true"};
  o.steps_per_frame = 20;
  App app(o);
  app.ui().viz.contact_points = false;
  for (int i = 0; i < 10; ++i) app.Frame();  // 2 s: 20 steps of 10 ms per frame.
  const int boxes = app.simulation().model().num_bodies() - 1;
  ASSERT_EQ(app.snapshot().last_stats.sleeping_bodies, boxes);
  const VectorX q = app.simulation().positions(), v = app.simulation().velocities();
  const double t = app.simulation().time();
  app.ShowState(q, v, t);
  const std::vector<std::uint8_t> asleep = app.RenderImage(160, 120);
  ContactMaterial m = app.simulation().GetMaterial(app.simulation().material_names().front());
  app.SetMaterial(app.simulation().material_names().front(), m);  // An edit: every island wakes.
  app.ShowState(q, v, t);
  ASSERT_EQ(app.snapshot().asleep, std::vector<char>(boxes + 1, 0));
  const std::vector<std::uint8_t> awake = app.RenderImage(160, 120);
  // The same state, the same camera: only the boxes' shade differs, darker
  // (x 0.6) while asleep.
  ASSERT_EQ(asleep.size(), awake.size());
  long darker = 0, lighter = 0;
  for (std::size_t i = 0; i < awake.size(); ++i) {
    darker += asleep[i] + 8 < awake[i];
    lighter += asleep[i] > awake[i] + 8;
  }
  std::printf("pixels (channels) darker asleep: %ld, lighter: %ld of %zu\n", darker, lighter, awake.size());
  EXPECT_GT(darker, 300);
  EXPECT_LT(lighter * 50, darker);  // A few edge pixels of the multisampled outlines (12 of 2,992 here).
}

TEST(AppTest, AFailedStepPausesAndTheAppKeepsRunning) {
  App app(Options(kScenes + "/tumbling_body.yaml", /*paused=*/false));
  app.Frame();
  Simulation& sim = app.simulation();
  VectorX v = sim.velocities();
  v.setConstant(1e300);  // Overflows to inf within the step.
  sim.SetState(sim.positions(), v);
  for (int i = 0; i < 3; ++i) app.Frame();
  EXPECT_TRUE(app.physics().paused());
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("step failed"), std::string::npos) << app.ui().message;
  app.input().HandleKey(GLFW_KEY_BACKSPACE, GLFW_PRESS, 0);
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  for (int i = 0; i < 3; ++i) app.Frame();
  EXPECT_FALSE(app.physics().paused());
}

TEST(AppTest, ScreenshotAndResize) {
  const fs::path dir = test::TempPath("stiction-app-test-shots");
  fs::remove_all(dir);
  fs::create_directories(dir);
  AppOptions o = Options(kDemo);
  o.screenshot_dir = dir.string();
  App app(o);
  app.Frame();
  app.input().HandleKey(GLFW_KEY_P, GLFW_PRESS, GLFW_MOD_CONTROL);
  app.Frame();
  int pngs = 0;
  for (const auto& e : fs::directory_iterator(dir)) pngs += e.path().extension() == ".png";
  EXPECT_EQ(pngs, 1);
  fs::remove_all(dir);
}

// --------------------------------------------------------------- contact

const std::string kBoxResting = kScenes + "/box_resting.yaml";

// A box resting on the ground, running `steps_per_frame` exact steps a frame.
AppOptions RunningBox(int steps_per_frame) {
  AppOptions o = Options(kBoxResting, /*paused=*/false);
  o.steps_per_frame = steps_per_frame;
  return o;
}

double DeepestPhi(const App& app) {
  double phi = std::numeric_limits<double>::infinity();
  for (const ContactSnapshot& c : app.snapshot().contacts) phi = std::min(phi, c.phi);
  return phi;
}

// The snapshot carries the engine's contacts: forces are γ/δt in the world,
// and a box at rest is held by its weight.
TEST(AppContactTest, SnapshotCarriesTheContactsOfTheLastStep) {
  App app(RunningBox(10));
  EXPECT_TRUE(app.snapshot().contacts.empty());  // Loaded, no step yet.
  for (int i = 0; i < 5; ++i) app.Frame();
  const Simulation& sim = app.simulation();
  const auto& contacts = app.snapshot().contacts;
  ASSERT_EQ(contacts.size(), sim.contacts().size());
  ASSERT_GE(contacts.size(), 3u);
  double fz = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    const ContactSnapshot& c = contacts[i];
    const ContactReport& r = sim.contacts()[i];
    EXPECT_EQ(c.phi, r.phi);
    EXPECT_LT((c.f_W - r.R_WC * r.gamma_C / sim.time_step()).norm(), 1e-9);
    EXPECT_EQ(c.name_b, "box");
    EXPECT_NEAR(c.slip_speed, r.vc.head<2>().norm(), 1e-15);
    EXPECT_LE(c.utilisation, 1.0 + 1e-9);
    fz += c.f_W.z();
  }
  EXPECT_NEAR(fz, 9.81, 0.01 * 9.81) << "a 1 kg box at rest carries its weight";
  app.input().HandleKey(GLFW_KEY_BACKSPACE, GLFW_PRESS, 0);
  EXPECT_TRUE(app.snapshot().contacts.empty());  // Reset: no last step.
}

// The Contact panel's Apply (what its button calls) reaches the engine from
// the next step: a 100x softer material makes the resting box sink deeper.
TEST(AppContactTest, ContactPanelAppliesStiffnessAndSigma) {
  App app(RunningBox(20));
  Simulation& sim = app.simulation();
  UiState& ui = app.ui();
  // The scene's material (the list may hold others, e.g. a default).
  MaterialEdit* rigid = nullptr;
  for (MaterialEdit& m : ui.contact_edits.materials) {
    if (m.name == "rigid") rigid = &m;
  }
  ASSERT_NE(rigid, nullptr);
  EXPECT_EQ(rigid->material.stiffness, 1e12);

  // k = 1e6 N/m is still near-rigid at dt = 10 ms (Eq. 29): about 25 um.
  rigid->material.stiffness = 1e6;
  ASSERT_TRUE(ApplyContactEdits(sim, &ui, &app)) << ui.message;
  EXPECT_EQ(sim.GetMaterial("rigid").stiffness, 1e6);
  for (int i = 0; i < 10; ++i) app.Frame();
  const double phi_stiff = DeepestPhi(app);
  EXPECT_LT(phi_stiff, 0.0);
  EXPECT_GT(phi_stiff, -1e-4);

  // 100x softer: compliant regime, mg/k_total of about 0.5 mm.
  rigid->material.stiffness = 1e4;
  ASSERT_TRUE(ApplyContactEdits(sim, &ui, &app)) << ui.message;
  EXPECT_EQ(sim.GetMaterial("rigid").stiffness, 1e4);
  for (int i = 0; i < 15; ++i) app.Frame();
  const double phi_soft = DeepestPhi(app);
  EXPECT_LT(phi_soft, 5 * phi_stiff) << "stiff " << phi_stiff << " m, soft " << phi_soft << " m";
  EXPECT_LT(phi_soft, -2e-4);

  // σ.
  ui.contact_edits.params.stiction_tolerance = 1e-2;
  ASSERT_TRUE(ApplyContactEdits(sim, &ui, &app)) << ui.message;
  EXPECT_EQ(sim.contact_model_parameters().stiction_tolerance, 1e-2);

  // Refused values: a message, nothing changes (all or nothing), it runs on.
  ui.contact_edits.params.near_rigid_threshold = 2.0;
  rigid->material.stiffness = -1;
  EXPECT_FALSE(ApplyContactEdits(sim, &ui, &app));
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_NE(ui.message.find("refused"), std::string::npos) << ui.message;
  EXPECT_NE(ui.message.find("rigid"), std::string::npos) << ui.message;
  EXPECT_EQ(sim.GetMaterial("rigid").stiffness, 1e4);
  EXPECT_EQ(sim.contact_model_parameters().near_rigid_threshold, 1.0);
  rigid = nullptr;  // Points into the edits replaced here.
  ui.contact_edits = ContactEditsFrom(sim);
  ui.contact_edits.params.stiction_tolerance = 0;
  EXPECT_FALSE(ApplyContactEdits(sim, &ui, &app));
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_NE(ui.message.find("stiction_tolerance"), std::string::npos) << ui.message;
  EXPECT_EQ(sim.contact_model_parameters().stiction_tolerance, 1e-2);
  const double t = sim.time();
  app.Frame();
  EXPECT_GT(sim.time(), t);
  EXPECT_FALSE(app.physics().paused());

  // The derived figures of the panel.
  EXPECT_NEAR(NearRigidPenetration(1.0, 9.81, 0.01), 2.485e-5, 1e-8);
  EXPECT_NEAR(StictionSlipBound(0.5, 1e-3, 9.81, 0.01), 4.905e-5, 1e-12);
}

// The Contact panel switches the contact model live: scene-wide, then per
// material; two materials naming different models are refused.
TEST(AppContactTest, ContactPanelSwitchesTheContactModelLive) {
  App app(RunningBox(20));
  Simulation& sim = app.simulation();
  UiState& ui = app.ui();
  auto models_in_contact = [&]() {
    std::vector<ContactModel> out;
    for (const ContactReport& c : sim.contacts()) out.push_back(c.model);
    return out;
  };
  for (int i = 0; i < 5; ++i) app.Frame();
  ASSERT_FALSE(sim.contacts().empty());
  for (ContactModel m : models_in_contact()) EXPECT_EQ(m, ContactModel::kSap);

  ui.contact_edits.params.model = ContactModel::kLagged;
  ASSERT_TRUE(ApplyContactEdits(sim, &ui, &app)) << ui.message;
  EXPECT_EQ(sim.contact_model_parameters().model, ContactModel::kLagged);
  for (int i = 0; i < 3; ++i) app.Frame();
  ASSERT_FALSE(sim.contacts().empty());
  for (ContactModel m : models_in_contact()) EXPECT_EQ(m, ContactModel::kLagged);

  // Per material: "rigid" names Similar, which wins over the scene's Lagged.
  MaterialEdit* rigid = nullptr;
  MaterialEdit* other = nullptr;
  for (MaterialEdit& m : ui.contact_edits.materials) (m.name == "rigid" ? rigid : other) = &m;
  ASSERT_NE(rigid, nullptr);
  rigid->material.model = ContactModel::kSimilar;
  ASSERT_TRUE(ApplyContactEdits(sim, &ui, &app)) << ui.message;
  for (int i = 0; i < 3; ++i) app.Frame();
  ASSERT_FALSE(sim.contacts().empty());
  for (ContactModel m : models_in_contact()) EXPECT_EQ(m, ContactModel::kSimilar);

  if (other != nullptr) {
    // Another material naming a different model: refused, nothing changes.
    other->material.model = ContactModel::kSap;
    EXPECT_FALSE(ApplyContactEdits(sim, &ui, &app));
    EXPECT_TRUE(ui.message_is_error);
    EXPECT_NE(ui.message.find("conflicts"), std::string::npos) << ui.message;
    EXPECT_EQ(sim.GetMaterial("rigid").model, ContactModel::kSimilar);
    EXPECT_FALSE(sim.GetMaterial(other->name).model.has_value());
  }
  const double t = sim.time();
  app.Frame();
  EXPECT_GT(sim.time(), t);
}

TEST(AppContactTest, SolverPanelAppliesAndRefuses) {
  App app(RunningBox(5));
  Simulation& sim = app.simulation();
  UiState& ui = app.ui();
  EXPECT_EQ(ui.solver_edits.type, sim.solver_type());
  ui.solver_edits.sap.relative_tolerance = 1e-3;
  ui.solver_edits.sap.max_iterations = 40;
  ui.solver_edits.sap.line_search = LineSearchKind::kBacktracking;
  ui.solver_edits.sap.backtracking_rho = 0.5;
  ASSERT_TRUE(ApplySolverEdits(&ui, &app)) << ui.message;
  EXPECT_EQ(sim.solver_parameters().relative_tolerance, 1e-3);
  EXPECT_EQ(sim.solver_parameters().max_iterations, 40);
  EXPECT_EQ(sim.solver_parameters().line_search, LineSearchKind::kBacktracking);
  EXPECT_EQ(sim.solver_parameters().backtracking_rho, 0.5);
  app.Frame();
  EXPECT_FALSE(app.physics().paused()) << ui.message;
  ui.solver_edits.sap.backtracking_rho = 1.5;
  EXPECT_FALSE(ApplySolverEdits(&ui, &app));
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_EQ(sim.solver_parameters().backtracking_rho, 0.5);
  ui.solver_edits = SolverEditsFrom(sim);
  ui.solver_edits.sap.relative_tolerance = -1;
  EXPECT_FALSE(ApplySolverEdits(&ui, &app));
  EXPECT_EQ(sim.solver_parameters().relative_tolerance, 1e-3);
  app.Frame();
  EXPECT_FALSE(app.physics().paused());
  EXPECT_GE(app.ui().plots.log_momentum_error.values().size(), 2u);
  EXPECT_EQ(app.ui().plots.line_search_iterations.values().size(),
            app.ui().plots.log_momentum_error.values().size());
}

// The Solver panel switches to CANAL and SubADMM live, with their own
// parameters, and refuses an invalid one with the engine's message.
TEST(AppContactTest, SolverPanelSwitchesSolversLive) {
  App app(RunningBox(5));
  Simulation& sim = app.simulation();
  UiState& ui = app.ui();
  ui.solver_edits.type = SolverType::kCanal;
  ui.solver_edits.canal.initial_penalty_ratio = 20;
  ASSERT_TRUE(ApplySolverEdits(&ui, &app)) << ui.message;
  EXPECT_EQ(sim.solver_type(), SolverType::kCanal);
  EXPECT_EQ(sim.solver_settings().canal.initial_penalty_ratio, 20);
  app.Frame();
  EXPECT_FALSE(app.physics().paused()) << ui.message;
  ui.solver_edits.canal.penalty_growth = 0.5;  // κ must be > 1.
  EXPECT_FALSE(ApplySolverEdits(&ui, &app));
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_NE(ui.message.find("penalty_growth"), std::string::npos) << ui.message;
  EXPECT_EQ(sim.solver_settings().canal.penalty_growth, 10);
  ui.solver_edits = SolverEditsFrom(sim);
  EXPECT_EQ(ui.solver_edits.type, SolverType::kCanal);
  ui.solver_edits.type = SolverType::kSubAdmm;
  ui.solver_edits.subadmm.num_threads = 2;
  ASSERT_TRUE(ApplySolverEdits(&ui, &app)) << ui.message;
  EXPECT_EQ(sim.solver_type(), SolverType::kSubAdmm);
  app.Frame();
  EXPECT_FALSE(app.physics().paused()) << ui.message;
  ui.solver_edits.type = SolverType::kSap;
  ASSERT_TRUE(ApplySolverEdits(&ui, &app)) << ui.message;
  EXPECT_EQ(sim.solver_type(), SolverType::kSap);
}

// The Solver panel's time budget (solver.budget_ms) applies live to
// whichever solver runs, its count of steps at the budget follows the
// steps, a negative budget is refused naming the key, and a reset clears the
// count.
TEST(AppContactTest, SolverPanelSetsATimeBudgetAndCountsTheStepsAtIt) {
  App app(RunningBox(5));
  Simulation& sim = app.simulation();
  UiState& ui = app.ui();
  // PGS from a cold start on the resting box needs more than one sweep on
  // its first step; one nanosecond per step stops it after the first.
  ui.solver_edits.type = SolverType::kPgs;
  ui.solver_edits.budget.time_ms = 1e-6;
  ASSERT_TRUE(ApplySolverEdits(&ui, &app)) << ui.message;
  EXPECT_EQ(sim.solver_settings().budget.time_ms, 1e-6);
  EXPECT_TRUE(SolverEdited(sim, ui.scene_values));
  for (int i = 0; i < 4; ++i) app.Frame();
  EXPECT_FALSE(app.physics().paused()) << ui.message;
  EXPECT_EQ(ui.solver_stops.steps, 20);
  EXPECT_GE(ui.solver_stops.budget_hits, 1);
  EXPECT_LE(ui.solver_stops.budget_hits, ui.solver_stops.short_of_tolerance);
  ui.solver_edits.budget.time_ms = -1;
  EXPECT_FALSE(ApplySolverEdits(&ui, &app));
  EXPECT_NE(ui.message.find("budget_ms"), std::string::npos) << ui.message;
  EXPECT_EQ(sim.solver_settings().budget.time_ms, 1e-6);
  app.ResetSimulation();
  EXPECT_EQ(ui.solver_stops.steps, 0);
  EXPECT_EQ(ui.solver_stops.budget_hits, 0);
}

// Contact drawing shows where the projected contact points are.
TEST(AppContactTest, ContactGlyphsAreDrawnAtTheContactPoints) {
  App app(Options(kBoxResting));
  app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
  app.Frame();
  ASSERT_GE(app.snapshot().contacts.size(), 3u);
  VisualizationState& viz = app.ui().viz;
  viz.contact_points = viz.normal_forces = viz.friction_forces = viz.friction_cones = false;
  app.Frame();
  const Image off = Grab(app);
  viz.contact_points = viz.normal_forces = viz.friction_forces = viz.friction_cones = true;
  app.Frame();
  const Image on = Grab(app);
  for (const ContactSnapshot& c : app.snapshot().contacts) {
    double x = 0, y = 0;
    ASSERT_TRUE(ProjectToWindow(app, c.p_W, &x, &y));
    int differing = 0;
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx) {
        const std::uint8_t* a = on.at(static_cast<int>(x) + dx, static_cast<int>(y) + dy);
        const std::uint8_t* b = off.at(static_cast<int>(x) + dx, static_cast<int>(y) + dy);
        if (std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]) > 60) ++differing;
      }
    }
    EXPECT_GT(differing, 4) << "no glyph at (" << x << ", " << y << ")";
  }
}

// Alt+click near a projected contact point selects it for the inspector,
// which follows it from step to step.
TEST(AppContactTest, InspectorReportsTheRestingBoxInStiction) {
  App app(RunningBox(10));
  for (int i = 0; i < 5; ++i) app.Frame();  // 50 steps at rest.
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  app.Frame();
  const auto& contacts = app.snapshot().contacts;
  ASSERT_GE(contacts.size(), 3u);
  const int target = static_cast<int>(contacts.size()) - 1;
  double x = 0, y = 0;
  ASSERT_TRUE(ProjectToWindow(app, contacts[target].p_W, &x, &y));
  app.input().HandleCursor(x + 3, y - 2);  // Within 10 px.
  const Camera camera = app.director().camera();
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_ALT, 1.0);
  app.input().HandleCursor(x + 40, y);  // Not a camera drag.
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, GLFW_MOD_ALT, 1.1);
  EXPECT_EQ(app.director().camera().azimuth_deg, camera.azimuth_deg);
  ASSERT_EQ(app.ui().selected_contact, target);
  const ContactSnapshot* c = app.inspector().selected();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->phi, app.simulation().contacts()[target].phi);
  EXPECT_LT(c->phi, 0.0);
  EXPECT_GT(c->phi, -1e-4);
  EXPECT_EQ(c->region, ConeRegion::kStiction);
  EXPECT_STREQ(ContactStateName(*c), "stick");
  EXPECT_GT(c->gamma_C.z(), 0.0);
  EXPECT_LT(c->utilisation, 1.0);
  EXPECT_LT(c->slip_speed, StictionSlipBound(0.5, 1e-3, 9.81, 0.01));
  // Copied now: the next frame rebuilds the snapshot, and c points into it
  // (reading it after the frame was a use-after-free that ASan found).
  const Vector3 p = c->p_W;
  app.ui().settings.layout.show_right = true;
  app.Frame();  // The inspector draws the selection.

  // A step later it still shows a box-ground contact near the same point.
  app.input().HandleKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
  app.Frame();
  ASSERT_NE(app.inspector().selected(), nullptr);
  EXPECT_LT((app.inspector().selected()->p_W - p).norm(), 1e-3);

  // Alt+click far from every contact deselects.
  app.ui().settings.layout.show_right = false;
  app.Frame();
  app.input().HandleCursor(5, 5);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_ALT, 3.0);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, GLFW_MOD_ALT, 3.1);
  EXPECT_EQ(app.inspector().selected(), nullptr);
}

// The default camera frames the bodies: in the clutter scene their centres
// spread over a good part of the view.
TEST(AppContactTest, DefaultCameraFramesTheBodies) {
  App app(Options(kScenes + "/clutter.yaml"));
  app.Frame();
  double lo_y = 1e9, hi_y = -1e9, lo_x = 1e9, hi_x = -1e9;
  for (size_t b = 1; b < app.snapshot().X_WB.size(); ++b) {
    double x = 0, y = 0;
    ASSERT_TRUE(ProjectToWindow(app, app.snapshot().X_WB[b].p, &x, &y)) << "body " << b << " out of view";
    lo_x = std::min(lo_x, x), hi_x = std::max(hi_x, x);
    lo_y = std::min(lo_y, y), hi_y = std::max(hi_y, y);
  }
  EXPECT_GT(hi_y - lo_y, 0.5 * kHeight) << "the bodies appear small";
}

// ------------------------------------------------------- the executable

TEST(AppExecutableTest, HeadlessFramesWriteAScreenshot) {
  const fs::path png = test::TempPath("stiction-app-test-headless.png");
  fs::remove(png);
  std::string out;
  const int code = RunCommand(std::string(STICTION_APP_EXE) + " " + kScenes +
                           "/falling_box.yaml --headless-frames 3 --size 320x240 --screenshot " + png.string(),
                       &out);
  EXPECT_EQ(code, 0) << out;
  int w = 0, h = 0, c = 0;
  stbi_uc* data = stbi_load(png.string().c_str(), &w, &h, &c, 3);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(w, 320);
  EXPECT_EQ(h, 240);
  stbi_image_free(data);
  fs::remove(png);
}

TEST(AppExecutableTest, BrokenOrMissingShadersGiveOneLineAndExitOne) {
  const fs::path dir = test::TempPath("stiction-app-test-shaders");
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(STICTION_SOURCE_DIR "/shaders")) {
    fs::copy_file(e.path(), dir / e.path().filename());
  }
  {
    std::ofstream broken(dir / "mesh.frag", std::ios::app);
    broken << "\nthis is not GLSL\n";
  }
  std::string out;
  EXPECT_EQ(RunCommand(std::string(STICTION_APP_EXE) + " --headless-frames 1 --shaders " + dir.string(), &out), 1);
  EXPECT_EQ(out.find('\n'), out.size() - 1) << out;
  EXPECT_NE(out.find("mesh.frag': compile failed: "), std::string::npos) << out;

  fs::remove(dir / "line.vert");
  out.clear();
  fs::copy_file(STICTION_SOURCE_DIR "/shaders/mesh.frag", dir / "mesh.frag", fs::copy_options::overwrite_existing);
  EXPECT_EQ(RunCommand("STICTION_SHADERS=" + dir.string() + " " + STICTION_APP_EXE + " --headless-frames 1", &out), 1);
  EXPECT_NE(out.find("line.vert': cannot read the file"), std::string::npos) << out;
  fs::remove_all(dir);
}


// --------------------------------------------------------------- gripper

// A gripper scene, running a fixed number of steps per frame (deterministic).

TEST(AppGripperTest, TeleopFocusSwallowsViewerShortcutsAndEscLeaves) {
  {
    // T in a scene without a gripper: refused with a message. (One App at a
    // time: each owns the ImGui context.)
    App plain(Options(kDemo));
    plain.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
    EXPECT_FALSE(plain.gripper().teleop());
    EXPECT_TRUE(plain.ui().message_is_error);
  }
  App app(GripperOptions("grasp_box.yaml"));
  ASSERT_NE(app.gripper().controller(), nullptr);
  ASSERT_NE(app.gripper().player(), nullptr);  // The scene's own script plays.
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  ASSERT_TRUE(app.gripper().teleop());
  // Teleop takes the gripper over from the script, which keeps playing.
  ASSERT_NE(app.gripper().player(), nullptr);
  EXPECT_TRUE(app.gripper().player()->held(0));
  const bool panels = app.ui().settings.layout.show_left;
  for (int key : {GLFW_KEY_SPACE, GLFW_KEY_BACKSPACE, GLFW_KEY_TAB, GLFW_KEY_F1, GLFW_KEY_EQUAL}) {
    app.input().HandleKey(key, GLFW_PRESS, 0);
  }
  EXPECT_FALSE(app.physics().paused());  // Space did not pause.
  EXPECT_EQ(app.ui().settings.layout.show_left, panels);
  EXPECT_FALSE(app.ui().show_help);
  EXPECT_EQ(app.physics().clock().real_time_factor(), 1.0);
  // V records a take without leaving teleop.
  app.Frame();
  app.input().HandleKey(GLFW_KEY_V, GLFW_PRESS, 0);
  EXPECT_TRUE(app.video().recording()) << app.ui().message;
  EXPECT_TRUE(app.gripper().teleop());
  app.Frame();
  app.input().HandleKey(GLFW_KEY_V, GLFW_PRESS, 0);
  EXPECT_FALSE(app.video().recording()) << app.ui().message;
  EXPECT_TRUE(app.gripper().teleop());
  // A double-click does not select a body while teleoperating.
  double x = 0, y = 0;
  ASSERT_TRUE(ProjectToWindow(app, app.snapshot().X_WB[app.simulation().model().FindBody("box")].p, &x, &y));
  app.input().HandleCursor(x, y);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 1.0);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 1.05);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 1.1);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 1.15);
  EXPECT_EQ(app.perturber().selected_body(), -1);
  // Esc leaves and hands the gripper back to the script; then the
  // shortcuts work again.
  app.input().HandleKey(GLFW_KEY_ESCAPE, GLFW_PRESS, 0);
  EXPECT_FALSE(app.gripper().teleop());
  ASSERT_NE(app.gripper().player(), nullptr);
  EXPECT_FALSE(app.gripper().player()->held(0));
  app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  EXPECT_TRUE(app.physics().paused());
}

// Issue 37, item 2: with two arms under one script, T takes the first over,
// T again hands it back and takes the second, Esc hands that back; the
// script drives whatever the user does not hold.
TEST(AppGripperTest, TeleopTakesOneArmOfATaskScriptAtATimeAndHandsItBack) {
  App app(GripperOptions("two_arm_stack.yaml"));
  ASSERT_EQ(app.gripper().num_grippers(), 2);
  ASSERT_NE(app.gripper().player(), nullptr);
  for (int i = 0; i < 5; ++i) app.Frame();  // 50 steps: both arms are moving to their first targets.
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  ASSERT_TRUE(app.gripper().teleop());
  EXPECT_EQ(app.gripper().controller()->name(), "left");
  EXPECT_TRUE(app.gripper().player()->held(0));
  EXPECT_FALSE(app.gripper().player()->held(1));
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  EXPECT_EQ(app.gripper().selected(), 1);
  EXPECT_EQ(app.gripper().controller()->name(), "right");
  EXPECT_FALSE(app.gripper().player()->held(0));
  EXPECT_TRUE(app.gripper().player()->held(1));
  EXPECT_NE(app.ui().message.find("gripper 'right'"), std::string::npos) << app.ui().message;
  // G closes the right gripper; the script still drives the left one down
  // to the red cube meanwhile (its target at t = 1.4 s + 0.8 s ramp).
  app.input().HandleKey(GLFW_KEY_G, GLFW_PRESS, 0);
  EXPECT_EQ(app.gripper().controller()->grip(), GripState::kClosed);
  for (int i = 0; i < 20; ++i) app.Frame();  // To t = 2.5 s.
  EXPECT_EQ(app.gripper().controller()->grip(), GripState::kClosed);
  EXPECT_NEAR(app.simulation().CalcFramePose("left_hand/gripper_base", RigidTransform()).p.z(), 0.025 + 0.111,
              0.01);
  app.input().HandleKey(GLFW_KEY_ESCAPE, GLFW_PRESS, 0);
  EXPECT_FALSE(app.gripper().teleop());
  EXPECT_FALSE(app.gripper().player()->held(1));
  EXPECT_NE(app.ui().message.find("the script drives the grippers again"), std::string::npos) << app.ui().message;
}

TEST(AppGripperTest, DragScrollAndCtrlDragMoveTheTarget) {
  App app(GripperOptions("grasp_box.yaml"));
  app.Frame();
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  const GripperPose start = app.gripper().controller()->target();
  // Plain drag: horizontal plane only.
  app.input().HandleCursor(300, 200);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 1.0);
  app.input().HandleCursor(360, 170);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 1.2);
  const GripperPose moved = app.gripper().controller()->target();
  EXPECT_GT(std::hypot(moved.x - start.x, moved.y - start.y), 1e-3);
  EXPECT_EQ(moved.z, start.z);
  EXPECT_EQ(moved.yaw, start.yaw);
  // 60 px right moves along the camera's right vector flattened: check the
  // direction of the x-y move against it.
  Vec3f right = app.director().camera().Right();
  right.z() = 0;
  EXPECT_GT(right.normalized().dot(Vec3f(static_cast<float>(moved.x - start.x), static_cast<float>(moved.y - start.y), 0)),
            0.0f);
  // Shift+drag up raises the target; scroll lowers it 1 cm per notch.
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_SHIFT, 2.0);
  app.input().HandleCursor(360, 120);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, GLFW_MOD_SHIFT, 2.2);
  const GripperPose raised = app.gripper().controller()->target();
  EXPECT_GT(raised.z, moved.z + 1e-3);
  EXPECT_EQ(raised.x, moved.x);
  app.input().HandleScroll(-3);
  EXPECT_NEAR(app.gripper().controller()->target().z, raised.z - 0.03, 1e-12);
  // Ctrl+drag turns the yaw only.
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_CONTROL, 3.0);
  app.input().HandleCursor(460, 120);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, GLFW_MOD_CONTROL, 3.2);
  EXPECT_NEAR(app.gripper().controller()->target().yaw - start.yaw, 100 * 3.14159265358979 / kWidth, 1e-9);
  // The ghost is drawn at the target: the palm's ghost pose is the target.
  app.Frame();
  const int palm = app.gripper().controller()->palm_body();
  bool found = false;
  for (const auto& [body, X] : app.snapshot().ghost_bodies) {
    if (body != palm) continue;
    found = true;
    EXPECT_NEAR(X.p.x(), app.gripper().controller()->target().x, 1e-12);
    EXPECT_NEAR(X.p.z(), app.gripper().controller()->target().z, 1e-12);
  }
  EXPECT_TRUE(found);
  // The camera did not orbit while the left button dragged the target.
}

// A robot file opened on its own has no gripper: double-click a link, press
// T, and the link is teleoperated where it was picked (an arm gripper made
// on the spot, its joint PDs on the chain replaced by the posture term).
// Scrolling up raises the target 5 cm; the picked point rises towards it.
TEST(AppGripperTest, TAfterPickingALinkTeleoperatesThatLink) {
  const std::string urdf = test::TempPath("stiction_app_pick_teleop_arm.urdf").string();
  std::ofstream(urdf) << R"(<robot name="arm">
  <link name="base"><inertial><mass value="5"/><inertia ixx="0.05" iyy="0.05" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.3 0.3 0.1"/></geometry></collision><visual><geometry><box size="0.3 0.3 0.1"/></geometry></visual></link>
  <link name="turret"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><cylinder radius="0.05" length="0.1"/></geometry></visual></link>
  <link name="boom"><inertial><origin xyz="0.3 0 0"/><mass value="1"/><inertia ixx="0.002" iyy="0.03" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.3 0 0"/><geometry><box size="0.6 0.08 0.08"/></geometry></visual>
    <collision><origin xyz="0.3 0 0"/><geometry><box size="0.6 0.08 0.08"/></geometry></collision></link>
  <joint name="spin" type="revolute"><parent link="base"/><child link="turret"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="100" velocity="2"/></joint>
  <joint name="lift" type="revolute"><parent link="turret"/><child link="boom"/><origin xyz="0 0 0.1"/><axis xyz="0 -1 0"/>
    <limit lower="-1" upper="1.5" effort="100" velocity="2"/></joint>
</robot>
)";
  AppOptions options = Options(urdf, /*paused=*/false);
  options.steps_per_frame = 10;
  options.screenshot_dir = test::TempDir().string();
  App app(options);
  app.Frame();
  ASSERT_EQ(app.gripper().controller(), nullptr);
  const int boom = app.simulation().model().FindBody("boom");
  const Vector3 tip_W = app.snapshot().X_WB[boom] * Vector3(0.5, 0, 0);
  double x = 0, y = 0;
  ASSERT_TRUE(ProjectToWindow(app, tip_W, &x, &y));
  app.input().HandleCursor(x, y);
  for (double t : {10.0, 10.05, 10.1, 10.15}) {
    app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, t == 10.0 || t == 10.1 ? GLFW_PRESS : GLFW_RELEASE, 0, t);
  }
  ASSERT_EQ(app.perturber().selected_body(), boom);
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  ASSERT_NE(app.gripper().controller(), nullptr) << app.ui().message;
  EXPECT_EQ(app.gripper().controller()->palm_body(), boom);
  EXPECT_NE(app.ui().message.find("teleoperating link 'boom'"), std::string::npos) << app.ui().message;
  // The chain's joint PDs gave way to the gripper's impedance.
  for (const std::string& name : app.simulation().actuator_names()) EXPECT_NE(name, "lift");
  const GripperPose start = app.gripper().controller()->target();
  app.input().HandleScroll(5);  // 1 cm per notch.
  ASSERT_NEAR(app.gripper().controller()->target().z, start.z + 0.05, 1e-12);
  for (int i = 0; i < 30; ++i) app.Frame();  // 3 s.
  const Vector3 picked_W = app.simulation().CalcFramePose("boom", app.gripper().controller()->X_BE()).p;
  std::printf("picked point: z %.4f m, target %.4f m, start %.4f m\n", picked_W.z(), start.z + 0.05, start.z);
  // It rises towards the target; not all the way: the two-joint boom must
  // pitch to rise, and the gripper's impedance also holds the link's
  // orientation (300 N m/rad against 3000 N/m at a 0.5 m lever, an
  // equilibrium at 70 % of the way, 3.5 cm measured).
  EXPECT_GT(picked_W.z() - start.z, 0.025);
  EXPECT_LT(picked_W.z() - start.z, 0.05 + 1e-3);
}

TEST(AppGripperTest, ArmHandTiltsWithAltDragAndGClosesEveryFinger) {
  App app(GripperOptions("iiwa_hand_grasp.yaml"));
  app.Frame();
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  ASSERT_TRUE(app.gripper().controller()->can_tilt());
  const GripperPose start = app.gripper().controller()->target();
  // Alt+drag down tilts the target only: a quarter turn per window height.
  app.input().HandleCursor(300, 200);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_ALT, 1.0);
  app.input().HandleCursor(300, 272);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, GLFW_MOD_ALT, 1.2);
  const GripperPose tilted = app.gripper().controller()->target();
  EXPECT_NEAR(tilted.tilt - start.tilt, 72 * 0.5 * 3.14159265358979 / kHeight, 1e-9);
  EXPECT_EQ(tilted.x, start.x);
  EXPECT_EQ(tilted.yaw, start.yaw);
  // G closes all four fingers: every finger actuator aims at its closed value.
  app.input().HandleKey(GLFW_KEY_G, GLFW_PRESS, 0);
  app.Frame();
  ASSERT_EQ(app.simulation().scene().grippers.size(), 1u);
  const GripperDescription& g = app.simulation().scene().grippers.front();
  ASSERT_EQ(g.fingers.size(), 4u);
  for (const FingerDescription& finger : g.fingers) {
    for (std::size_t i = 0; i < finger.actuators.size(); ++i) {
      EXPECT_EQ(app.simulation().actuator(finger.actuators[i]).target_position, finger.closed[i])
          << finger.actuators[i];
    }
  }
  // The readout and the panel's plots cover every finger.
  EXPECT_EQ(app.gripper().readout().fingers.size(), 4u);
  EXPECT_EQ(app.ui().gripper.normal_force.size(), 4u);
}

TEST(AppGripperTest, AltDragOnAGantrySaysItCannotTilt) {
  App app(GripperOptions("grasp_box.yaml"));
  app.Frame();
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  const GripperPose start = app.gripper().controller()->target();
  app.input().HandleCursor(300, 200);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_ALT, 1.0);
  app.input().HandleCursor(300, 260);
  app.input().HandleMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, GLFW_MOD_ALT, 1.2);
  EXPECT_EQ(app.gripper().controller()->target(), start);
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("cannot tilt"), std::string::npos) << app.ui().message;
}

// Teleoperates a grasp: lower 16 cm by scrolling, close with G, raise 15 cm.
void TeleopGrasp(App* app) {
  app->input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  app->input().HandleScroll(-16);  // z 0.25 -> 0.09 m: pads 1 cm above the box centre.
  for (int i = 0; i < 12; ++i) app->Frame();  // 1.2 s.
  app->input().HandleKey(GLFW_KEY_G, GLFW_PRESS, 0);
  for (int i = 0; i < 5; ++i) app->Frame();
  for (int i = 0; i < 15; ++i) {
    app->input().HandleScroll(1);  // Raise in 1 cm steps, one per frame.
    app->Frame();
  }
  for (int i = 0; i < 10; ++i) app->Frame();
}

TEST(AppGripperTest, ClosingGripsAndLiftsTheBox) {
  App app(GripperOptions("grasp_box.yaml"));
  TeleopGrasp(&app);
  const int box = app.simulation().model().FindBody("box");
  const GraspReadout& g = app.gripper().readout();
  ASSERT_TRUE(g.holding());
  EXPECT_EQ(g.held_body, box);
  // Force control: each finger presses with the commanded 20 N (1%).
  EXPECT_NEAR(g.fingers[0].normal_force, 20.0, 0.2);
  EXPECT_NEAR(g.fingers[1].normal_force, 20.0, 0.2);
  EXPECT_LT(g.fingers[0].friction_utilisation, 1.0);
  EXPECT_FALSE(g.fingers[0].slipping);
  // Lifted with the palm (target 0.24 m: the box centre ~1 cm below the pads at 0.19 m).
  EXPECT_GT(app.snapshot().X_WB[box].p.z(), 0.15);
  // The panel's plots received the readout.
  EXPECT_NEAR(app.ui().gripper.normal_force[0].last(), 20.0f, 0.2f);
}

TEST(AppGripperTest, RecordSaveReplayReproducesTheState) {
  const fs::path file = test::TempPath("stiction_app_gripper_record.yaml");
  App app(GripperOptions("grasp_box.yaml"));
  app.Frame();
  app.StartCommandRecording();
  ASSERT_TRUE(app.gripper().recorder().recording());
  EXPECT_EQ(app.simulation().step_index(), 0);
  TeleopGrasp(&app);
  app.StopCommandRecording();
  const VectorX q = app.simulation().positions(), v = app.simulation().velocities();
  const std::int64_t steps = app.simulation().step_index();
  ASSERT_GT(app.gripper().recorder().log().entries.size(), 10u);
  ASSERT_TRUE(app.SaveCommandRecording(file.string()));
  // Replay in the same viewer: reset, then the same number of steps.
  ASSERT_TRUE(app.ReplayCommands(file.string()));
  EXPECT_FALSE(app.gripper().teleop());
  while (app.simulation().step_index() < steps) app.Frame();
  ASSERT_EQ(app.simulation().step_index(), steps);
  EXPECT_TRUE((app.simulation().positions().array() == q.array()).all());
  EXPECT_TRUE((app.simulation().velocities().array() == v.array()).all());
  // A malformed file is refused with FILE:LINE: KEY.
  const fs::path bad = test::TempPath("stiction_app_gripper_bad.yaml");
  std::ofstream(bad) << "commands:\n  - {step: 0, grip: shut}\n";
  EXPECT_FALSE(app.ReplayCommands(bad.string()));
  EXPECT_EQ(app.ui().message, bad.string() + ":2: commands[0].grip: expected open or close, got 'shut'");
  fs::remove(bad);
}

TEST(AppGripperTest, ATakeKeptAsADemoReplaysFromItsActionsBitForBit) {
  const fs::path dir = test::FreshTempPath("stiction_app_take", "dataset");
  const std::string file = (dir / "demos.hdf5").string();
  App app(GripperOptions("grasp_box.yaml"));
  app.Frame();
  app.StartCommandRecording();
  TeleopGrasp(&app);
  app.StopCommandRecording();
  const std::int64_t steps = app.simulation().step_index();
  const GripperView held = app.gripper().MakeView();
  ASSERT_TRUE(held.take_held);
  EXPECT_NEAR(held.take_seconds, 0.01 * static_cast<double>(steps), 1e-9);
  EXPECT_TRUE(held.take_not_reproducible.empty()) << held.take_not_reproducible;

  // A file that cannot be written: the message, and the take still held.
  EXPECT_FALSE(app.KeepTake("/proc/stiction/demos.hdf5", true));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("/proc/stiction/demos.hdf5: "), std::string::npos) << app.ui().message;
  ASSERT_TRUE(app.gripper().MakeView().take_held);

  ASSERT_TRUE(app.KeepTake(file, true)) << app.ui().message;
  EXPECT_EQ(app.ui().message, StringPrintf("kept the take as demo_0 of %s (%.2f s, success)", file.c_str(),
                                            0.01 * static_cast<double>(steps)));
  EXPECT_FALSE(app.gripper().MakeView().take_held);
  const Demo demo = ReadDemo(file, 0);
  EXPECT_EQ(demo.num_samples(), steps);
  EXPECT_TRUE(demo.success);
  // The user's teleop closed the grip: the action's grip column turns +1.
  EXPECT_EQ(demo.actions.row(0)[5], -1.0);
  EXPECT_EQ(demo.actions.row(steps - 1)[5], 1.0);
  const DemoReplayResult r = ReplayDemo(demo);
  EXPECT_TRUE(r.exact()) << "from sample " << r.first_mismatch << ", max " << r.max_abs_difference;
  // The final state is the viewer's, bit for bit.
  EXPECT_EQ(demo.final_state[1], app.simulation().positions()[0]);

  // A second take with a parameter edit in it: kept as a failure, and
  // marked as not reproducible from its actions alone.
  app.StartCommandRecording();
  for (int i = 0; i < 3; ++i) app.Frame();
  const MaterialDescription& box = app.simulation().scene().materials.back();
  ContactMaterial m = box.material;
  m.friction = 0.5;
  app.SetMaterial(box.name, m);
  for (int i = 0; i < 3; ++i) app.Frame();
  app.StopCommandRecording();
  EXPECT_NE(app.gripper().MakeView().take_not_reproducible.find("an edit of the material"), std::string::npos);
  ASSERT_TRUE(app.KeepTake(file, false));
  const std::vector<DemoFileEntry> demos = ListDemos(file);
  ASSERT_EQ(demos.size(), 2u);
  EXPECT_FALSE(demos[1].success);
  EXPECT_FALSE(demos[1].reproducible);
  // A third, discarded: nothing is added.
  app.StartCommandRecording();
  for (int i = 0; i < 2; ++i) app.Frame();
  app.StopCommandRecording();
  app.DiscardTake();
  EXPECT_FALSE(app.gripper().MakeView().take_held);
  EXPECT_EQ(ListDemos(file).size(), 2u);
  EXPECT_EQ(app.gripper().MakeView().demos_kept, 2);

  // demo_0 replayed in the viewer: the actions drive every step, and at
  // its end every state matched the recording.
  ASSERT_TRUE(app.ReplayDemo(file, 0)) << app.ui().message;
  EXPECT_EQ(app.gripper().MakeView().demo_playing, file + " demo_0");
  while (app.simulation().step_index() < steps) app.Frame();
  EXPECT_EQ(app.gripper().MakeView().demo_playing, "");
  EXPECT_EQ(app.ui().message, file + " demo_0 replayed: all " + std::to_string(steps + 1) +
                                  " states match the recording bit for bit");
  EXPECT_EQ(app.simulation().positions()[0], demo.final_state[1]);
  // Replayed again with the box's friction changed halfway: the grasp
  // slips, and the message says from when the states differ.
  ASSERT_TRUE(app.ReplayDemo(file, 0));
  while (app.simulation().step_index() < steps / 2) app.Frame();
  app.SetMaterial(box.name, m);
  while (app.simulation().step_index() < steps) app.Frame();
  EXPECT_NE(app.ui().message.find(file + " demo_0 replayed: the states differ from the recording from t = "),
            std::string::npos)
      << app.ui().message;
  // A demo the file lacks.
  EXPECT_FALSE(app.ReplayDemo(file, 9));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("no demo_9"), std::string::npos) << app.ui().message;
  fs::remove_all(dir);
}

TEST(AppGripperTest, TeleopKeysRecordATakeAndKeepItAsADemo) {
  const fs::path dir = test::FreshTempPath("stiction_app_take_keys", "dataset");
  App app(GripperOptions("grasp_box.yaml"));
  app.ui().gripper.dataset_path = (dir / "keys.hdf5").string();
  app.Frame();
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);      // Teleop focus.
  app.input().HandleKey(GLFW_KEY_ENTER, GLFW_PRESS, 0);  // The take starts (reset to t = 0).
  ASSERT_TRUE(app.gripper().recorder().recording());
  app.input().HandleKey(GLFW_KEY_G, GLFW_PRESS, 0);      // Close the grip.
  for (int i = 0; i < 5; ++i) app.Frame();
  app.input().HandleKey(GLFW_KEY_ENTER, GLFW_PRESS, 0);  // ... and stops.
  EXPECT_FALSE(app.gripper().recorder().recording());
  ASSERT_TRUE(app.gripper().MakeView().take_held);
  app.input().HandleKey(GLFW_KEY_N, GLFW_PRESS, 0);      // Kept as a failure.
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  const std::vector<DemoFileEntry> demos = ListDemos(app.ui().gripper.dataset_path);
  ASSERT_EQ(demos.size(), 1u);
  EXPECT_FALSE(demos[0].success);
  EXPECT_EQ(demos[0].num_samples, 50);
  // Backspace with nothing held: nothing happens, no error.
  app.input().HandleKey(GLFW_KEY_BACKSPACE, GLFW_PRESS, 0);
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  EXPECT_TRUE(app.gripper().teleop());
  fs::remove_all(dir);
}

TEST(AppGripperTest, ReplayOptionReproducesARecording) {
  // Record a take, then start a fresh viewer with --replay FILE.
  const fs::path file = test::TempPath("stiction_app_gripper_option.yaml");
  VectorX q;
  std::int64_t steps = 0;
  {
    App app(GripperOptions("grasp_box.yaml"));
    app.StartCommandRecording();
    TeleopGrasp(&app);
    q = app.simulation().positions();
    steps = app.simulation().step_index();
    ASSERT_TRUE(app.SaveCommandRecording(file.string()));
  }
  AppOptions o = GripperOptions("grasp_box.yaml");
  o.replay_path = file.string();
  App fresh(o);
  while (fresh.simulation().step_index() < steps) fresh.Frame();
  EXPECT_TRUE((fresh.simulation().positions().array() == q.array()).all());
  fs::remove(file);
}

// Every entry of the Demos list is a shipped scene with a description.
TEST(AppDemoListTest, EveryDemoLoadsAndHasADescription) {
  for (const DemoScene& demo : DemoScenes()) {
    SCOPED_TRACE(demo.file);
    const SceneDescription scene = LoadSceneFile(kScenes + "/" + demo.file);
    EXPECT_FALSE(scene.description.empty());
  }
}

// Issue 39, item 6: the first window a newcomer sees (no scene given) is
// the welcome scene: an arm with a gripper and objects on a table, no
// script, at rest, and a one-line hint in the view until T takes the arm.
TEST(AppGripperTest, TheDefaultSceneIsAnArmReadyToTeleoperateWithAHint) {
  AppOptions o = GripperOptions("welcome.yaml");
  o.scene_path.clear();
  o.width = 1280;  // The default window, with both columns of panels.
  o.height = 720;
  o.panels = true;
  App app(o);
  EXPECT_EQ(fs::path(app.MakeView().scene_file).filename(), "welcome.yaml");
  ASSERT_EQ(app.gripper().num_grippers(), 1);
  EXPECT_EQ(app.gripper().player(), nullptr);  // No script: the user drives it.
  const std::string hint = TeleopHint(app.MakeView(), app.gripper().MakeView());
  EXPECT_EQ(hint.rfind("T: take the arm", 0), 0u) << hint;
  EXPECT_NE(hint.find("G: grasp"), std::string::npos) << hint;
  EXPECT_NE(hint.find("V: record"), std::string::npos) << hint;
  app.Frame();
  // It fits the scene view between the columns (else it is not drawn).
  const float width = ImGui::CalcTextSize(hint.c_str()).x + 1.2f * ImGui::GetFontSize();
  EXPECT_LT(width, app.layout().SceneViewRect().width) << hint;
  const int cube = app.simulation().model().FindBody("cube");
  for (int i = 0; i < 10; ++i) app.Frame();  // 1 s.
  EXPECT_NEAR(app.snapshot().X_WB[static_cast<std::size_t>(cube)].p.z(), 0.125, 1e-3);  // On the table.
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  EXPECT_TRUE(app.gripper().MakeView().teleop);
  EXPECT_TRUE(TeleopHint(app.MakeView(), app.gripper().MakeView()).empty());
}

// Issue 39, item 3: keyboard teleop for users without a mouse device —
// W/S, A/D, R/F move the target along x, y, z while held, Q/E turn it,
// Z/X tilt an arm's; released, it stops; outside teleop the keys do nothing.
TEST(AppGripperTest, HeldKeysMoveTheTeleopTarget) {
  App app(GripperOptions("welcome.yaml"));
  app.Frame();
  const GripperPose start = app.gripper().MakeView().target;
  app.input().HandleKey(GLFW_KEY_W, GLFW_PRESS, 0);  // Not in teleop: nothing.
  for (int i = 0; i < 3; ++i) app.Frame();
  app.input().HandleKey(GLFW_KEY_W, GLFW_RELEASE, 0);
  EXPECT_EQ(app.gripper().MakeView().target, start);

  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  app.input().HandleKey(GLFW_KEY_W, GLFW_PRESS, 0);
  app.input().HandleKey(GLFW_KEY_R, GLFW_PRESS, 0);
  app.input().HandleKey(GLFW_KEY_Q, GLFW_PRESS, 0);
  for (int i = 0; i < 5; ++i) app.Frame();
  for (int key : {GLFW_KEY_W, GLFW_KEY_R, GLFW_KEY_Q}) app.input().HandleKey(key, GLFW_RELEASE, 0);
  const GripperPose moved = app.gripper().MakeView().target;
  std::printf("held W, R, Q for 5 frames: target moved dx %.4f m, dz %.4f m, yaw %.4f rad\n", moved.x - start.x,
              moved.z - start.z, moved.yaw - start.yaw);
  EXPECT_GT(moved.x - start.x, 0);
  EXPECT_GT(moved.z - start.z, 0);
  EXPECT_GT(moved.yaw - start.yaw, 0);
  EXPECT_EQ(moved.y, start.y);
  EXPECT_EQ(moved.tilt, start.tilt);
  // At 0.15 m/s and 0.8 rad/s for at most 0.1 s a frame.
  EXPECT_LE(moved.x - start.x, 0.15 * 0.1 * 5 + 1e-12);
  EXPECT_NEAR((moved.z - start.z) / (moved.x - start.x), 1.0, 1e-9);
  EXPECT_NEAR((moved.yaw - start.yaw) / (moved.x - start.x), 0.8 / 0.15, 1e-9);
  // Released: it stays.
  for (int i = 0; i < 3; ++i) app.Frame();
  EXPECT_EQ(app.gripper().MakeView().target, moved);
  // The other way along y, and an arm's tilt.
  app.input().HandleKey(GLFW_KEY_D, GLFW_PRESS, 0);
  app.input().HandleKey(GLFW_KEY_Z, GLFW_PRESS, 0);
  for (int i = 0; i < 3; ++i) app.Frame();
  const GripperPose turned = app.gripper().MakeView().target;
  EXPECT_LT(turned.y, moved.y);
  EXPECT_GT(turned.tilt, moved.tilt);
}

TEST(AppGripperTest, DemoScenesOpenAndDescribeThemselves) {
  for (const char* scene : {"grasp_box.yaml", "pick_and_place.yaml", "stack_blocks.yaml", "slip_control.yaml"}) {
    SCOPED_TRACE(scene);
    App app(GripperOptions(scene));
    EXPECT_FALSE(app.simulation().scene().description.empty());
    EXPECT_NE(app.gripper().player(), nullptr);  // Its script plays.
    app.Frame();
    EXPECT_FALSE(app.snapshot().ghost_bodies.empty());
  }
}

// ---------------------------------------------------------------- robots

const std::string kRobots = STICTION_SOURCE_DIR "/assets/robots";

// The robot's silhouette in the current frame: the pixels that change when
// the bodies are hidden, rendered without shadows and contact points so that
// only the robot's own surfaces count. Pauses the app (so that both frames
// show one state) and restores the toggles.
struct Silhouette {
  Image full;
  std::vector<bool> mask;  // Top row first.
  int pixels = 0;
  int centre_pixels = 0;   // Inside the middle half of the width and the height.
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;  // Bounding box (top-left origin).
  bool robot(int x, int y) const { return mask[static_cast<size_t>(y) * full.width + x]; }
};

Silhouette RobotSilhouette(App& app) {
  if (!app.physics().paused()) app.input().HandleKey(GLFW_KEY_SPACE, GLFW_PRESS, 0);
  RenderOptions& render = app.ui().viz.render;
  const RenderOptions saved = render;
  const bool saved_points = app.ui().viz.contact_points;
  render.shadows = false;
  app.ui().viz.contact_points = false;
  app.Frame();
  Silhouette s;
  s.full = Grab(app);
  render.show_bodies = false;
  app.Frame();
  const Image empty = Grab(app);
  render = saved;
  app.ui().viz.contact_points = saved_points;
  const int w = s.full.width, h = s.full.height;
  s.mask.assign(static_cast<size_t>(w) * h, false);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* a = s.full.at(x, y);
      const std::uint8_t* b = empty.at(x, y);
      if (std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]) <= 30) continue;
      s.mask[static_cast<size_t>(y) * w + x] = true;
      ++s.pixels;
      if (x >= w / 4 && x < 3 * w / 4 && y >= h / 4 && y < 3 * h / 4) ++s.centre_pixels;
      s.x0 = std::min(s.x0, x), s.x1 = std::max(s.x1, x);
      s.y0 = std::min(s.y0, y), s.y1 = std::max(s.y1, y);
    }
  }
  return s;
}

// Pixels of the silhouette whose colour passes `match` (r, g, b in 0..255).
template <typename Match>
int CountColour(const Silhouette& s, Match match) {
  int n = 0;
  for (int y = 0; y < s.full.height; ++y) {
    for (int x = 0; x < s.full.width; ++x) {
      const std::uint8_t* p = s.full.at(x, y);
      if (s.robot(x, y) && match(p[0], p[1], p[2])) ++n;
    }
  }
  return n;
}

struct RobotSceneCase {
  const char* scene;
  const char* colour;  // What the colour test looks for.
  bool (*match)(int r, int g, int b);
  double min_colour_fraction;  // Of the silhouette.
};

// The orange of the iiwa's links (URDF rgba 1 0.42 0.04) and of the
// quadruped's trunk (0.9 0.55 0.1), lit: red well above green, little blue.
bool Orange(int r, int g, int b) { return r > 90 && g < 0.8 * r && b < 0.45 * r; }
// The hand's fingertips (rgba 0.92 0.92 0.92): bright, grey.
bool White(int r, int g, int b) {
  return std::min({r, g, b}) > 170 && std::max({r, g, b}) - std::min({r, g, b}) < 25;
}

const RobotSceneCase kRobotScenes[] = {
    {"iiwa_posture", "iiwa orange", Orange, 0.3},
    {"hand_posture", "fingertip white", White, 0.02},
    {"quadruped_stand", "trunk orange", Orange, 0.1},
};

// Each robot scene (the Demos list's robots), after a second of simulated
// time with the default camera: the robot is in view and fills a good part of
// it (the camera frames the bodies' bounding box; the hand is only 0.2 m),
// its silhouette sits in the middle and is not cut by the border, the robot's
// own colours are there (not only background), every body's origin projects
// inside the window, and the frame, shadows included, matches a golden image
// (tests/app/golden/<scene>.png; STICTION_UPDATE_GOLDEN=1 rewrites them).
TEST(AppRobotTest, RobotScenesFrameTheRobotAndMatchTheirGoldenImages) {
  for (const RobotSceneCase& c : kRobotScenes) {
    SCOPED_TRACE(c.scene);
    AppOptions o = Options(kScenes + "/" + c.scene + ".yaml", /*paused=*/false);
    o.steps_per_frame = 10;
    App app(o);
    ASSERT_FALSE(app.simulation().scene().robots.empty());
    for (int i = 0; i < 10; ++i) app.Frame();
    EXPECT_NEAR(app.simulation().time(), 1.0, 1e-9);
    EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;

    for (size_t b = 1; b < app.snapshot().X_WB.size(); ++b) {
      double x = 0, y = 0;
      EXPECT_TRUE(ProjectToWindow(app, app.snapshot().X_WB[b].p, &x, &y))
          << "body " << app.simulation().model().body(static_cast<int>(b)).name << " out of view";
    }

    const Silhouette s = RobotSilhouette(app);
    const double n = static_cast<double>(kWidth) * kHeight;
    const int colour = CountColour(s, c.match);
    std::printf("%s: silhouette %.1f %% of the frame, %.1f %% of the centre, box %d..%d x %d..%d, %s %.1f %%\n",
                c.scene, 100.0 * s.pixels / n, 100.0 * s.centre_pixels / (n / 4), s.x0, s.x1, s.y0, s.y1,
                c.colour, 100.0 * colour / std::max(s.pixels, 1));
    EXPECT_GT(s.pixels, 0.04 * n) << "the robot covers too little of the view";
    EXPECT_GT(s.centre_pixels, 0.10 * n / 4) << "the middle of the view is mostly background";
    EXPECT_GT(std::max((s.x1 - s.x0) / static_cast<double>(kWidth), (s.y1 - s.y0) / static_cast<double>(kHeight)),
              0.4)
        << "the robot appears small";
    EXPECT_GT(s.x0, 0);
    EXPECT_GT(s.y0, 0);
    EXPECT_LT(s.x1, kWidth - 1);
    EXPECT_LT(s.y1, kHeight - 1) << "the robot is cut by the border";
    EXPECT_GT(colour, c.min_colour_fraction * s.pixels) << "too little " << c.colour;

    app.Frame();  // With the default toggles again (shadows, contact points).
    ExpectMatchesGolden(Grab(app), STICTION_SOURCE_DIR "/tests/app/golden/" + std::string(c.scene) + ".png");
  }
}

// Writes `text` to a fresh file under the temp directory.
fs::path WriteTempFile(const std::string& name, const std::string& text) {
  const fs::path dir = test::TempPath("stiction-app-test-robots");
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file) << text;
  return file;
}

// A robot file opens as a scene by itself: as the app's scene, and dropped on
// the window (on a ground plane, docs/robots.md); the camera frames it.
TEST(AppRobotTest, RobotFilesOpenDirectlyAndByDrop) {
  App app(Options(kRobots + "/iiwa14.urdf", /*paused=*/false));
  ASSERT_EQ(app.simulation().scene().robots.size(), 1u);
  EXPECT_EQ(app.simulation().scene().robots[0].format, "URDF");
  EXPECT_GE(app.simulation().model().num_bodies(), 8);
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  for (int i = 0; i < 3; ++i) app.Frame();
  EXPECT_GT(app.simulation().time(), 0);
  Silhouette s = RobotSilhouette(app);
  EXPECT_GT(s.pixels, 0.03 * kWidth * kHeight) << "the robot appears small";
  EXPECT_GT(s.centre_pixels, 0.05 * kWidth * kHeight / 4);  // Upright and slim.
  EXPECT_GT(CountColour(s, Orange), 0.3 * s.pixels);

  app.input().HandleDrop({kRobots + "/four_finger_hand.urdf"});
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  ASSERT_EQ(app.simulation().scene().robots.size(), 1u);
  EXPECT_NE(app.simulation().scene().robots[0].file.find("four_finger_hand.urdf"), std::string::npos);
  EXPECT_EQ(app.ui().scene_path_field, kRobots + "/four_finger_hand.urdf");
  app.Frame();
  s = RobotSilhouette(app);
  EXPECT_GT(s.pixels, 0.02 * kWidth * kHeight) << "the dropped hand appears small";
  EXPECT_GT(s.centre_pixels, 0.05 * kWidth * kHeight / 4);

  // A scene dropped after a robot file; several files: the first opens.
  app.input().HandleDrop({kScenes + "/iiwa_posture.yaml", kScenes + "/pendulum.yaml"});
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  EXPECT_EQ(app.simulation().scene().robots.size(), 2u);
  EXPECT_NE(app.ui().message.find("1 more dropped file(s) ignored"), std::string::npos) << app.ui().message;
  app.Frame();
}

// Bad dropped files: each shows the loader's one-line message naming the
// file, the scene that was running keeps running, and nothing throws out of
// the drop callback.
TEST(AppRobotTest, ABadDroppedFileKeepsTheSceneRunning) {
  App app(Options(kScenes + "/hand_posture.yaml", /*paused=*/false));
  app.Frame();
  const Simulation* before = &app.simulation();
  const int bodies = app.simulation().model().num_bodies();
  const std::vector<fs::path> bad = {
      WriteTempFile("truncated.urdf", "<robot name=\"r\"><link name=\"a\"><visual>"),
      WriteTempFile("not_a_robot.xml", "<html><body>hello</body></html>\n"),
      WriteTempFile("broken_joint.urdf",
                    "<robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"revolute\">"
                    "<parent link=\"a\"/><child link=\"missing\"/></joint></robot>\n"),
      WriteTempFile("bad.yaml", "bodies: [\n  - {name: x, mass: -1\n"),
      WriteTempFile("bad_mass.yaml", "bodies:\n  - name: box\n    mass: -1\n"),
      test::TempPath("stiction-app-test-robots") / "no_such_robot.urdf",
      fs::path(kScenes),  // A directory.
  };
  for (const fs::path& file : bad) {
    SCOPED_TRACE(file.string());
    EXPECT_NO_THROW(app.input().HandleDrop({file.string()}));
    EXPECT_TRUE(app.ui().message_is_error) << app.ui().message;
    EXPECT_NE(app.ui().message.find(file.filename().string()), std::string::npos) << app.ui().message;
    EXPECT_EQ(app.ui().message.find('\n'), std::string::npos) << app.ui().message;
    EXPECT_EQ(&app.simulation(), before);
    EXPECT_EQ(app.simulation().model().num_bodies(), bodies);
    const double t = app.simulation().time();
    app.Frame();
    app.Frame();
    EXPECT_GT(app.simulation().time(), t) << "the scene stopped";
  }
  EXPECT_NO_THROW(app.input().HandleDrop({}));
}

// A robot file with elements the importer skips: the notes are printed to
// stderr once at load, and the status line points at the Import notes list.
TEST(AppRobotTest, ImportNotesArePrintedAndShown) {
  const fs::path urdf = WriteTempFile(
      "noted.urdf",
      "<robot name=\"noted_arm\">\n"
      "  <link name=\"base\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\""
      " ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
      "    <visual><geometry><box size=\"0.2 0.2 0.1\"/></geometry></visual></link>\n"
      "  <link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\""
      " ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
      "    <visual><geometry><box size=\"0.05 0.05 0.3\"/></geometry></visual></link>\n"
      "  <link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\""
      " ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
      "    <visual><geometry><box size=\"0.05 0.05 0.3\"/></geometry></visual></link>\n"
      "  <joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"a\"/>"
      "<origin xyz=\"0 0 0.2\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/></joint>\n"
      "  <joint name=\"j2\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
      "<origin xyz=\"0 0 0.3\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/>"
      "<safety_controller soft_lower_limit=\"-0.9\" soft_upper_limit=\"0.9\" k_velocity=\"1\"/></joint>\n"
      "</robot>\n");
  App app(Options(kDemo));
  testing::internal::CaptureStderr();
  app.input().HandleDrop({urdf.string()});
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  ASSERT_EQ(app.simulation().scene().robots.size(), 1u);
  const std::vector<std::string>& notes = app.simulation().scene().robots[0].notes;
  ASSERT_FALSE(notes.empty());
  size_t lines = 0;
  for (const std::string& note : notes) {
    EXPECT_NE(err.find(note), std::string::npos) << "not printed: " << note << "\nstderr: " << err;
    ++lines;
  }
  EXPECT_EQ(static_cast<size_t>(std::count(err.begin(), err.end(), '\n')), lines) << err;
  EXPECT_NE(err.find("<safety_controller> ignored"), std::string::npos) << err;
  EXPECT_NE(app.ui().message.find(std::to_string(notes.size()) + " import note"), std::string::npos)
      << app.ui().message;
  // Frames (the panel lists the notes) do not print them again.
  testing::internal::CaptureStderr();
  app.Frame();
  app.Frame();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  // The shipped robot scenes have no notes: nothing printed.
  testing::internal::CaptureStderr();
  app.input().HandleDrop({kScenes + "/iiwa_posture.yaml"});
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// An MJCF robot whose only geometry is a mesh geom, held in memory (no file
// for the viewer to load): it is drawn in its own colour, cached under a key
// of its name and content, and the key survives a reload of the file.
TEST(AppRobotTest, AnMjcfMeshGeomIsDrawn) {
  // A 0.4 x 0.2 x 0.1 m slab, off-centre; MuJoCo makes the faces (hull).
  const fs::path xml = WriteTempFile("mesh_slab.xml", R"(<mujoco model="slab">
  <asset>
    <mesh name="slab" vertex="1 1 0  1.4 1 0  1 1.2 0  1.4 1.2 0  1 1 0.1  1.4 1 0.1  1 1.2 0.1  1.4 1.2 0.1"/>
  </asset>
  <worldbody>
    <body name="slab" pos="-1.2 -1.1 0.1">
      <freejoint/>
      <geom type="mesh" mesh="slab" rgba="1 0.42 0.04 1" density="500"/>
    </body>
  </worldbody>
</mujoco>
)");
  auto find_mesh = [](const App& app) -> const Drawable* {
    for (const Drawable& d : app.render_scene().drawables) {
      if (d.shape.type == ShapeType::kMesh) return &d;
    }
    return nullptr;
  };
  App app(Options(xml.string()));
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  EXPECT_TRUE(app.render_scene().warnings.empty());
  const Drawable* slab = find_mesh(app);
  ASSERT_NE(slab, nullptr);
  ASSERT_NE(slab->shape.mesh_data, nullptr);
  EXPECT_TRUE(slab->shape.mesh_file.empty());
  EXPECT_EQ(slab->mesh_key.rfind("mesh:data:mesh 'slab' of " + xml.string() + "#", 0), 0u) << slab->mesh_key;
  // Half the slab's diagonal: the vertices surround the geom origin (the
  // compiler moved them to the centroid); float vertices, hence 1e-6.
  EXPECT_NEAR(slab->bounding_radius, 0.5 * std::sqrt(0.4 * 0.4 + 0.2 * 0.2 + 0.1 * 0.1), 1e-6);
  const std::string key = slab->mesh_key;

  const Silhouette s = RobotSilhouette(app);
  std::printf("MJCF mesh slab: silhouette %.1f %% of the frame, orange %.1f %%\n",
              100.0 * s.pixels / (kWidth * kHeight), 100.0 * CountColour(s, Orange) / std::max(s.pixels, 1));
  EXPECT_GT(s.pixels, 0.02 * kWidth * kHeight) << "the mesh is not drawn, or tiny";
  EXPECT_GT(CountColour(s, Orange), 0.3 * s.pixels) << "the mesh is not drawn in its colour";

  app.input().HandleDrop({xml.string()});  // Reloads: a new MeshData, the same key.
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  slab = find_mesh(app);
  ASSERT_NE(slab, nullptr);
  EXPECT_EQ(slab->mesh_key, key);
  app.Frame();
}

// The executable opens a robot file given on the command line, and exits 1
// with one line for a bad one.
TEST(AppExecutableTest, OpensARobotFileFromTheCommandLine) {
  const fs::path png = test::TempPath("stiction-app-test-robot.png");
  fs::remove(png);
  std::string out;
  EXPECT_EQ(RunCommand(std::string(STICTION_APP_EXE) + " " + kRobots +
                           "/iiwa14.urdf --paused --headless-frames 2 --size 320x240 --screenshot " + png.string(),
                       &out),
            0)
      << out;
  EXPECT_TRUE(fs::exists(png));
  fs::remove(png);
  const fs::path bad = WriteTempFile("cli_truncated.urdf", "<robot name=\"r\"><link");
  out.clear();
  EXPECT_EQ(RunCommand(std::string(STICTION_APP_EXE) + " " + bad.string() + " --headless-frames 1", &out), 1);
  EXPECT_EQ(out.find('\n'), out.size() - 1) << out;
  EXPECT_NE(out.find("cli_truncated.urdf"), std::string::npos) << out;
}

}  // namespace
}  // namespace stiction::app
