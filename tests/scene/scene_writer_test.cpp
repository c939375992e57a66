// "Save scene as" (engine/scene/scene_writer.h): every shipped scene saved
// into another directory, with and without live parameter edits, loads to
// the same parameters, the same scene and the same initial state, and a few
// run bit-identically; relative paths (includes, meshes, robots,
// package_path, commands) are rebased; a failed save leaves no file.
#include "engine/scene/scene_writer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

const std::string kSourceDir = STICTION_SOURCE_DIR;
const std::string kScenesDir = kSourceDir + "/assets/scenes";

std::vector<std::string> ShippedScenes() {
  std::vector<std::string> out;
  for (const fs::directory_entry& e : fs::directory_iterator(kScenesDir)) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Every value of a parameter table, exactly.
std::vector<std::variant<double, int, bool>> Values(const ParameterTable& table) {
  std::vector<std::variant<double, int, bool>> out;
  for (const ParameterBinding& p : table) {
    std::visit([&](auto* member) { out.emplace_back(*member); }, p.value);
  }
  return out;
}

template <typename Settings>
std::vector<std::variant<double, int, bool>> ValuesOf(Settings settings) {
  return Values(BindParameters(settings));
}

void ExpectSameParameters(const SceneParameters& a, const SceneParameters& b) {
  EXPECT_EQ(a.time_step, b.time_step);
  EXPECT_EQ(a.scheme, b.scheme);
  EXPECT_EQ(ValuesOf(a.nmdp), ValuesOf(b.nmdp));
  EXPECT_EQ(a.integrator.name, b.integrator.name);
  EXPECT_EQ(a.integrator.theta, b.integrator.theta);
  EXPECT_EQ(a.integrator.theta_vq, b.integrator.theta_vq);
  EXPECT_EQ(a.contact.model, b.contact.model);
  EXPECT_EQ(ValuesOf(a.contact), ValuesOf(b.contact));
  EXPECT_EQ(a.solver.type, b.solver.type);
  EXPECT_EQ(a.solver.sap.line_search, b.solver.sap.line_search);
  EXPECT_EQ(ValuesOf(a.solver.sap), ValuesOf(b.solver.sap));
  EXPECT_EQ(ValuesOf(a.solver.canal), ValuesOf(b.solver.canal));
  EXPECT_EQ(ValuesOf(a.solver.subadmm), ValuesOf(b.solver.subadmm));
  ASSERT_EQ(a.materials.size(), b.materials.size());
  for (std::size_t i = 0; i < a.materials.size(); ++i) {
    SCOPED_TRACE("material " + a.materials[i].first);
    EXPECT_EQ(a.materials[i].first, b.materials[i].first);
    EXPECT_EQ(a.materials[i].second.model, b.materials[i].second.model);
    EXPECT_EQ(ValuesOf(a.materials[i].second), ValuesOf(b.materials[i].second));
  }
}

bool SameVectors(const VectorX& a, const VectorX& b) {
  return a.size() == b.size() && (a.array() == b.array()).all();
}

/// What the saved scene must share with the source beyond the parameters:
/// the bodies with their geometry (mesh files resolved to the same path),
/// joints, actuators, robots, the gripper, the command file and the camera.
void ExpectSameScene(const SceneDescription& a, const SceneDescription& b) {
  EXPECT_EQ(a.description, b.description);
  EXPECT_EQ(a.gravity, b.gravity);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.default_material, b.default_material);
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    const BodyDescription& x = a.bodies[i];
    const BodyDescription& y = b.bodies[i];
    SCOPED_TRACE("body " + x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.mass, y.mass);
    EXPECT_EQ(x.com_B, y.com_B);
    EXPECT_EQ(x.I_Bcm_B, y.I_Bcm_B);
    ASSERT_EQ(x.geometries.size(), y.geometries.size());
    for (std::size_t g = 0; g < x.geometries.size(); ++g) {
      EXPECT_EQ(x.geometries[g].name, y.geometries[g].name);
      EXPECT_EQ(x.geometries[g].material, y.geometries[g].material);
      EXPECT_EQ(x.geometries[g].shape.mesh_file, y.geometries[g].shape.mesh_file);
      EXPECT_EQ(x.geometries[g].X_BG.p, y.geometries[g].X_BG.p);
      EXPECT_EQ(x.geometries[g].X_BG.R, y.geometries[g].X_BG.R);
    }
  }
  ASSERT_EQ(a.world_geometries.size(), b.world_geometries.size());
  for (std::size_t g = 0; g < a.world_geometries.size(); ++g) {
    EXPECT_EQ(a.world_geometries[g].name, b.world_geometries[g].name);
    EXPECT_EQ(a.world_geometries[g].shape.mesh_file, b.world_geometries[g].shape.mesh_file);
  }
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    EXPECT_EQ(a.joints[j].name, b.joints[j].name);
    EXPECT_EQ(a.joints[j].initial_q, b.joints[j].initial_q);
    EXPECT_EQ(a.joints[j].initial_v, b.joints[j].initial_v);
  }
  ASSERT_EQ(a.actuators.size(), b.actuators.size());
  for (std::size_t i = 0; i < a.actuators.size(); ++i) {
    EXPECT_EQ(a.actuators[i].name, b.actuators[i].name);
    EXPECT_EQ(a.actuators[i].kp, b.actuators[i].kp);
    EXPECT_EQ(a.actuators[i].target_position, b.actuators[i].target_position);
  }
  EXPECT_EQ(a.oscillators.size(), b.oscillators.size());
  EXPECT_EQ(a.constraints.size(), b.constraints.size());
  ASSERT_EQ(a.robots.size(), b.robots.size());
  for (std::size_t i = 0; i < a.robots.size(); ++i) EXPECT_EQ(a.robots[i].file, b.robots[i].file);
  ASSERT_EQ(a.grippers.size(), b.grippers.size());
  for (std::size_t i = 0; i < a.grippers.size(); ++i) {
    EXPECT_EQ(a.grippers[i].name, b.grippers[i].name);
    EXPECT_EQ(a.grippers[i].fingers.size(), b.grippers[i].fingers.size());
  }
  EXPECT_EQ(a.commands_file, b.commands_file);
  ASSERT_EQ(a.camera.has_value(), b.camera.has_value());
  if (a.camera) {
    EXPECT_EQ(a.camera->lookat, b.camera->lookat);
    EXPECT_EQ(a.camera->distance, b.camera->distance);
    EXPECT_EQ(a.camera->azimuth_deg, b.camera->azimuth_deg);
    EXPECT_EQ(a.camera->elevation_deg, b.camera->elevation_deg);
    EXPECT_EQ(a.camera->fovy_deg, b.camera->fovy_deg);
    EXPECT_EQ(a.camera->track, b.camera->track);
  }
}

/// Changes every kind of live parameter to a value no shipped scene has
/// (odd digits, so that a value written with too few digits would show).
void EditEveryParameter(Simulation* sim) {
  sim->SetTimeStep(sim->time_step() * 0.7310585786300049);
  sim->SetIntegrator(IntegratorSettings{"custom", 0.6180339887498949, 0.9});
  ContactModelParameters contact = sim->contact_model_parameters();
  contact.near_rigid_threshold = 0.7071067811865476;
  contact.stiction_tolerance = 2.718281828459045e-3;
  contact.load_aware_regularization = !contact.load_aware_regularization;
  contact.max_load_factor = 4321.0123456789;
  contact.model = contact.model == ContactModel::kSap ? ContactModel::kSimilar : ContactModel::kSap;
  sim->SetContactModelParameters(contact);
  bool any_model = false;
  for (const std::string& name : sim->material_names()) any_model |= sim->GetMaterial(name).model.has_value();
  for (const std::string& name : sim->material_names()) {
    ContactMaterial m = sim->GetMaterial(name);
    m.stiffness *= 1.4142135623730951;
    m.dissipation += 1.0 / 3.0 * 1e-3;
    m.friction = m.friction * 0.9 + 0.0123456789;
    m.hc_dissipation *= 0.3333333333333333;
    m.stiction_velocity *= 2.5;
    // One named model, on the last material, when no material names one
    // (two different ones would conflict).
    if (!any_model && name == sim->material_names().back()) m.model = ContactModel::kLagged;
    sim->SetMaterial(name, m);
  }
  SolverSettings solver = sim->solver_settings();
  solver.type = solver.type == SolverType::kCanal ? SolverType::kSubAdmm : SolverType::kCanal;
  solver.sap.relative_tolerance = 3.1415926535897932e-7;
  solver.sap.max_iterations = 123;
  solver.sap.line_search = LineSearchKind::kBacktracking;
  solver.sap.backtracking_rho = 0.625;  // Scene keys since the viewer edits them live.
  solver.sap.armijo_c = 0.02;
  solver.sap.backtracking_alpha_max = 1.25;
  solver.sap.islands.enabled = !solver.sap.islands.enabled;
  solver.canal.initial_penalty_ratio = 12345.678901234567;
  solver.canal.max_penalty_ratio = 2.2e6;
  solver.canal.warm_start = !solver.canal.warm_start;
  solver.subadmm.num_threads = 2;
  solver.subadmm.tolerance = 7.77e-7;
  solver.subadmm.islands.parallel = true;
  sim->SetSolver(solver);
  // The NMDP parameters (read by the NMDP schemes only; the scheme itself is
  // switched where nothing steps, EditTheSteppingScheme).
  NmdpParameters nmdp = sim->nmdp_parameters();
  nmdp.stiffness = 31415.926535897932;
  nmdp.activation_length = 1.7320508075688772e-3;
  nmdp.pyramid_edges = 11;
  nmdp.weight_tolerance = 3.3e-7;
  nmdp.max_subdivisions = 3;
  sim->SetNmdpParameters(nmdp);
}

/// Switches the stepping scheme to one the scene does not use. Kept out of
/// EditEveryParameter, whose scenes SavedScenesRunBitIdentically steps.
void EditTheSteppingScheme(Simulation* sim) {
  sim->SetSteppingScheme(sim->stepping_scheme() == SteppingScheme::kNmdpPgm ? SteppingScheme::kNeMdp
                                                                            : SteppingScheme::kNmdpPgm);
}

class SceneWriterTest : public test::ScratchDirTest {
 protected:
  /// Saves `sim`'s parameters for the scene at `source` to `name` in the
  /// scratch directory and loads it back.
  Simulation SaveAndLoad(const std::string& source, const Simulation& sim, const std::string& name) {
    const fs::path dest = dir_ / name;
    fs::create_directories(dest.parent_path());
    SaveSceneWithParameters(source, sim.CalcSceneParameters(), dest.string());
    return Simulation::FromFile(dest.string());
  }
};

TEST_F(SceneWriterTest, EveryShippedSceneRoundTripsUnchanged) {
  const std::vector<std::string> scenes = ShippedScenes();
  ASSERT_GE(scenes.size(), 30u);  // The scenes listed in docs/scene-format.md.
  for (const std::string& path : scenes) {
    SCOPED_TRACE(path);
    const Simulation original = Simulation::FromFile(path);
    // A directory at another depth than assets/scenes/, so every relative
    // path must be rebased.
    const Simulation saved = SaveAndLoad(path, original, "out/unchanged/" + fs::path(path).filename().string());
    ExpectSameParameters(original.CalcSceneParameters(), saved.CalcSceneParameters());
    ExpectSameScene(original.scene(), saved.scene());
    EXPECT_TRUE(SameVectors(original.positions(), saved.positions()));
    EXPECT_TRUE(SameVectors(original.velocities(), saved.velocities()));
  }
}

TEST_F(SceneWriterTest, EveryShippedSceneRoundTripsWithEditedParameters) {
  for (const std::string& path : ShippedScenes()) {
    SCOPED_TRACE(path);
    Simulation original = Simulation::FromFile(path);
    const SceneParameters before = original.CalcSceneParameters();
    EditEveryParameter(&original);
    EditTheSteppingScheme(&original);
    const SceneParameters edited = original.CalcSceneParameters();
    // The edits took (so the round trip below is not of the loaded values).
    ASSERT_NE(edited.time_step, before.time_step);
    ASSERT_NE(edited.scheme, before.scheme);
    ASSERT_NE(edited.nmdp.stiffness, before.nmdp.stiffness);
    ASSERT_NE(edited.solver.type, before.solver.type);
    ASSERT_NE(edited.materials.front().second.stiffness, before.materials.front().second.stiffness);
    const Simulation saved = SaveAndLoad(path, original, "edited/" + fs::path(path).filename().string());
    ExpectSameParameters(edited, saved.CalcSceneParameters());
    ExpectSameScene(original.scene(), saved.scene());
    EXPECT_TRUE(SameVectors(original.positions(), saved.positions()));
    EXPECT_TRUE(SameVectors(original.velocities(), saved.velocities()));
  }
}

TEST_F(SceneWriterTest, SavedScenesRunBitIdentically) {
  // An include with materials, a gripper with a command file, URDF robots,
  // a contact-rich SAP scene.
  for (const char* name : {"falling_box.yaml", "grasp_box.yaml", "iiwa_posture.yaml", "clutter.yaml"}) {
    SCOPED_TRACE(name);
    const std::string path = kScenesDir + "/" + name;
    Simulation original = Simulation::FromFile(path);
    EditEveryParameter(&original);
    // SubADMM on two threads is as deterministic as on one, but CANAL is
    // the solver most scenes' goldens do not cover; both are edited above.
    Simulation saved = SaveAndLoad(path, original, std::string("run/") + name);
    for (int i = 0; i < 50; ++i) {
      const StepResult a = original.Step();
      const StepResult b = saved.Step();
      ASSERT_EQ(a.status, b.status) << "step " << i;
    }
    EXPECT_TRUE(SameVectors(original.positions(), saved.positions()));
    EXPECT_TRUE(SameVectors(original.velocities(), saved.velocities()));
    EXPECT_EQ(original.time(), saved.time());
  }
}

TEST_F(SceneWriterTest, CouplersRoundTripAndTheFollowerStartsOnItsCouplingAgain) {
  // The follower's position is not written (it was not given): the saved
  // scene starts it on its coupling again, at the same place.
  const std::string path = (dir_ / "coupled.yaml").string();
  std::ofstream(path) << R"(bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: ha, type: revolute, parent: world, child: a, initial: {position: 0.2}}
  - {name: hb, type: revolute, parent: world, child: b}
couplers:
  - {joint: hb, to: ha, ratio: -1.5, offset: 0.25}
)";
  const Simulation original = Simulation::FromFile(path);
  const Simulation saved = SaveAndLoad(path, original, "out/coupled.yaml");
  ASSERT_EQ(saved.scene().couplers.size(), 1u);
  EXPECT_EQ(saved.scene().couplers[0].joint, "hb");
  EXPECT_EQ(saved.scene().couplers[0].to, "ha");
  EXPECT_EQ(saved.scene().couplers[0].ratio, -1.5);
  EXPECT_EQ(saved.scene().couplers[0].offset, 0.25);
  EXPECT_TRUE(SameVectors(original.positions(), saved.positions()));
  EXPECT_DOUBLE_EQ(saved.positions()[1], -1.5 * 0.2 + 0.25);
}

TEST_F(SceneWriterTest, RobotFileOpenedDirectlySavesAsAScene) {
  const std::string urdf = kSourceDir + "/assets/robots/iiwa14.urdf";
  Simulation original = Simulation::FromFile(urdf);
  EditEveryParameter(&original);
  const Simulation saved = SaveAndLoad(urdf, original, "robot/iiwa.yaml");
  ExpectSameParameters(original.CalcSceneParameters(), saved.CalcSceneParameters());
  ExpectSameScene(original.scene(), saved.scene());
  EXPECT_TRUE(SameVectors(original.positions(), saved.positions()));
  EXPECT_EQ(fs::path(saved.scene().file).extension(), ".yaml");
}

TEST_F(SceneWriterTest, MjcfFileOpenedDirectlyKeepsItsOptionsAndTheEditedTimeStep) {
  // Opened directly, an MJCF model takes its <option timestep gravity>
  // (use_file_options); the saved scene must not let them override the
  // edited δt on load.
  const std::string xml = Write("model/ball.xml", R"(<mujoco model="ball">
  <option timestep="0.002" gravity="0 0 -5"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="ball" pos="0 0 0.5"><freejoint/><geom type="sphere" size="0.05" mass="1"/></body>
  </worldbody>
</mujoco>
)");
  Simulation original = Simulation::FromFile(xml);
  ASSERT_EQ(original.time_step(), 0.002);
  original.SetTimeStep(0.0031);
  original.SetIntegrator(IntegratorPreset("implicit_euler"));
  const Simulation saved = SaveAndLoad(xml, original, "saved/ball.yaml");
  ExpectSameParameters(original.CalcSceneParameters(), saved.CalcSceneParameters());
  ExpectSameScene(original.scene(), saved.scene());
  EXPECT_EQ(saved.scene().gravity, Vector3(0, 0, -5));
  EXPECT_EQ(saved.integrator().name, "implicit_euler");
  EXPECT_TRUE(SameVectors(original.positions(), saved.positions()));
}

TEST_F(SceneWriterTest, RelativePathsAreRebasedAndIncludedMaterialsUpdated) {
  // ws/: a package with a mesh and, outside it, a robot that finds the mesh
  // through package_path; src/: the scene, including inc/parts.yaml, which
  // names a mesh of its own relative to itself.
  const fs::path mesh = fs::path(kSourceDir) / "tests/geometry/data/cube.obj";
  fs::create_directories(dir_ / "ws/my_robot/meshes");
  fs::copy_file(mesh, dir_ / "ws/my_robot/meshes/cube.obj");
  Write("ws/elsewhere/robot.urdf", R"(<robot name="r">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><mesh filename="package://my_robot/meshes/cube.obj"/></geometry></collision>
  </link>
</robot>
)");
  Write("src/inc/parts.yaml", R"(materials:
  - {name: rubber, friction: 0.9, stiffness: 1.0e5}
bodies:
  - name: m
    mass: 1
    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}
    geometry:
      - {shape: {type: mesh, file: ../../ws/my_robot/meshes/cube.obj}, material: rubber}
    pose: {position: [0, 0, 1]}
)");
  const std::string source = Write("src/scene.yaml", R"(description: "Paths everywhere."
include: inc/parts.yaml
package_path: [../ws]
robots:
  - {file: ../ws/elsewhere/robot.urdf, name: r, pose: {position: [1, 0, 0.5]}}
camera: {lookat: [0, 0, 0.2], distance: 1.5, track: m}
)");
  Simulation original = Simulation::FromFile(source);
  ContactMaterial rubber = original.GetMaterial("rubber");
  rubber.friction = 0.4321;
  original.SetMaterial("rubber", rubber);

  const fs::path dest = dir_ / "a/b/c/saved.yaml";
  const Simulation saved = SaveAndLoad(source, original, "a/b/c/saved.yaml");
  ExpectSameParameters(original.CalcSceneParameters(), saved.CalcSceneParameters());
  ExpectSameScene(original.scene(), saved.scene());
  EXPECT_EQ(saved.GetMaterial("rubber").friction, 0.4321);
  // The saved file is flat and its paths are relative to its own directory.
  const std::string text = ReadText(dest);
  EXPECT_EQ(text.find("include"), std::string::npos) << text;
  EXPECT_NE(text.find("../../../ws/my_robot/meshes/cube.obj"), std::string::npos) << text;
  EXPECT_NE(text.find("../../../ws/elsewhere/robot.urdf"), std::string::npos) << text;
  EXPECT_NE(text.find("../../../ws"), std::string::npos) << text;
  EXPECT_EQ(text.rfind("# Saved by Stiction from " + source, 0), 0u) << text;
  // Still loads after the source directory is gone: nothing points into it.
  fs::remove_all(dir_ / "src");
  EXPECT_NO_THROW(Simulation::FromFile(dest.string()));
}

TEST_F(SceneWriterTest, IncludedCameraIsReplacedWholeByTheIncludersAndSaved) {
  // camera: is a scalar key: the including file's map replaces the
  // included one whole (azimuth back to its default), as docs/scene-format.md says.
  Write("inc/view.yaml", "camera: {distance: 5, azimuth: 10, fovy: 30}\n");
  const std::string source = Write("top.yaml", "include: inc/view.yaml\ncamera: {distance: 2}\n");
  const Simulation original = Simulation::FromFile(source);
  ASSERT_TRUE(original.scene().camera);
  EXPECT_EQ(*original.scene().camera->distance, 2);
  EXPECT_EQ(original.scene().camera->azimuth_deg, 120);
  EXPECT_EQ(original.scene().camera->fovy_deg, 45);
  const Simulation saved = SaveAndLoad(source, original, "elsewhere/top.yaml");
  ExpectSameScene(original.scene(), saved.scene());
  // Only the includer's camera is left in the flat file.
  const Simulation included = Simulation::FromFile((dir_ / "inc/view.yaml").string());
  EXPECT_EQ(included.scene().camera->azimuth_deg, 10);
}

TEST_F(SceneWriterTest, OverridesAreSavedAsLoaded) {
  const std::string source = kScenesDir + "/falling_box.yaml";
  const std::vector<std::string> overrides = {"bodies.box.mass=2.5", "gravity=[0, 0, -1.62]"};
  const Simulation original = Simulation::FromFile(source, overrides);
  const fs::path dest = dir_ / "over/saved.yaml";
  fs::create_directories(dest.parent_path());
  SaveSceneWithParameters(source, original.CalcSceneParameters(), dest.string(), overrides);
  const Simulation saved = Simulation::FromFile(dest.string());
  ExpectSameScene(original.scene(), saved.scene());
  EXPECT_EQ(saved.scene().gravity.z(), -1.62);
}

TEST_F(SceneWriterTest, UnwritableDestinationThrowsNamingItAndLeavesNoFile) {
  const std::string source = kScenesDir + "/pendulum.yaml";
  const Simulation sim = Simulation::FromFile(source);
  // A directory that does not exist.
  const std::string missing = (dir_ / "no/such/dir/x.yaml").string();
  try {
    SaveSceneWithParameters(source, sim.CalcSceneParameters(), missing);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing + ": cannot write the scene file", 0), 0u) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_ / "no"));
  // A destination that is a directory: the rename fails, the temporary
  // file is removed and the directory is untouched.
  fs::create_directories(dir_ / "taken/x.yaml");
  const std::string taken = (dir_ / "taken/x.yaml").string();
  try {
    SaveSceneWithParameters(source, sim.CalcSceneParameters(), taken);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(taken + ": cannot write the scene file", 0), 0u) << e.what();
  }
  std::vector<std::string> left;
  for (const fs::directory_entry& e : fs::directory_iterator(dir_ / "taken")) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"x.yaml"});
  EXPECT_TRUE(fs::is_directory(taken));
}

TEST_F(SceneWriterTest, SavingOverAnExistingFileReplacesIt) {
  const std::string source = kScenesDir + "/pendulum.yaml";
  Simulation sim = Simulation::FromFile(source);
  const std::string dest = Write("over.yaml", "not: a scene\n");
  sim.SetTimeStep(0.0025);
  SaveSceneWithParameters(source, sim.CalcSceneParameters(), dest);
  EXPECT_EQ(Simulation::FromFile(dest).time_step(), 0.0025);
  std::vector<std::string> left;
  for (const fs::directory_entry& e : fs::directory_iterator(dir_)) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"over.yaml"});
}

TEST_F(SceneWriterTest, ParametersNoSceneFileHoldsAreRefused) {
  const std::string source = kScenesDir + "/pendulum.yaml";
  SceneParameters p = Simulation::FromFile(source).CalcSceneParameters();
  p.time_step = 2;  // The API allows it, the scene key does not.
  const std::string dest = (dir_ / "x.yaml").string();
  try {
    SaveSceneWithParameters(source, p, dest);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("time_step: must be in (0, 1]"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dest));
}

TEST_F(SceneWriterTest, SteppingSchemeAndNmdpMapAreWrittenAndReadBack) {
  // What Save scene as writes for them: the scheme by name and every key of
  // `nmdp:`, each read back exactly, also over a scene that names its own.
  const std::string source = (dir_ / "nmdp_source.yaml").string();
  {
    std::ofstream file(source);
    file << "stepping: ne_mdp\nnmdp: {stiffness: 5e4, pyramid_edges: 6}\nbodies: []\n";
  }
  Simulation sim = Simulation::FromFile(source);
  ASSERT_EQ(sim.stepping_scheme(), SteppingScheme::kNeMdp);
  ASSERT_EQ(sim.nmdp_parameters().stiffness, 5e4);
  sim.SetSteppingScheme(SteppingScheme::kNmdpZopgm);
  NmdpParameters nmdp = sim.nmdp_parameters();
  nmdp.energy_tolerance = 2.2250738585072014e-9;
  nmdp.projection_max_iterations = 17;
  sim.SetNmdpParameters(nmdp);
  const std::string dest = (dir_ / "out" / "nmdp_saved.yaml").string();
  fs::create_directories(fs::path(dest).parent_path());
  SaveSceneWithParameters(source, sim.CalcSceneParameters(), dest);
  const std::string text = ReadText(dest);
  EXPECT_NE(text.find("stepping: nmdp_zopgm"), std::string::npos) << text;
  EXPECT_NE(text.find("nmdp:"), std::string::npos) << text;
  EXPECT_NE(text.find("max_subdivisions: "), std::string::npos) << text;  // Every key, defaults too.
  const Simulation saved = Simulation::FromFile(dest);
  EXPECT_EQ(saved.stepping_scheme(), SteppingScheme::kNmdpZopgm);
  EXPECT_EQ(saved.nmdp_parameters().stiffness, 5e4);
  EXPECT_EQ(saved.nmdp_parameters().pyramid_edges, 6);
  EXPECT_EQ(saved.nmdp_parameters().energy_tolerance, 2.2250738585072014e-9);
  EXPECT_EQ(saved.nmdp_parameters().projection_max_iterations, 17);
  ExpectSameParameters(sim.CalcSceneParameters(), saved.CalcSceneParameters());

  // NMDP parameters out of range are refused before anything is written.
  SceneParameters bad = sim.CalcSceneParameters();
  bad.nmdp.pyramid_edges = 2;
  const std::string refused = (dir_ / "refused.yaml").string();
  try {
    SaveSceneWithParameters(source, bad, refused);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nmdp: pyramid_edges"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(refused));
}

TEST_F(SceneWriterTest, FlattenMergesIncludesInDocumentOrder) {
  const std::string text = FlattenSceneFile(kScenesDir + "/grasp_box.yaml", kScenesDir);
  // Saved beside the source, paths stay as written.
  EXPECT_NE(text.find("commands: commands/grasp_box.yaml"), std::string::npos) << text;
  EXPECT_EQ(text.find("include"), std::string::npos);
  // The included gripper's section and bodies are in.
  EXPECT_NE(text.find("gripper:"), std::string::npos);
  EXPECT_NE(text.find("finger_left_motor"), std::string::npos);
  EXPECT_LT(text.find("time_step"), text.find("bodies"));
}

}  // namespace
}  // namespace stiction
