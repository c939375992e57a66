// Bad input to the contact pipeline (issue 3): bad contact materials, zero
// mass and bad meshes fail at load time with one clear InputError line; a
// solver failure is a returned status that leaves the state untouched, and
// stiction-sim reports it with exit code 3 and one line.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

const std::string kGeometryData = std::string(STICTION_SOURCE_DIR) + "/tests/geometry/data";

// A box on the ground; `material` and `body` are spliced in.
std::string Scene(const std::string& material, const std::string& body_extra = "mass: 1.0",
                  const std::string& shape = "{type: box, size: [0.1, 0.1, 0.1]}") {
  return "materials:\n  - {name: m, " + material +
         "}\n"
         "default_material: m\n"
         "world_geometry:\n  - {name: ground, shape: {type: half_space}}\n"
         "bodies:\n  - name: box\n    " +
         body_extra +
         "\n    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
         "    geometry:\n      - shape: " +
         shape + "\n    pose: {position: [0, 0, 0.05]}\n";
}

// Loading and building must fail with one line containing `location` and `reason`.
void ExpectLoadError(const std::string& yaml, const std::string& location,
                     const std::string& reason) {
  SCOPED_TRACE(yaml);
  try {
    Simulation sim(LoadSceneString(yaml, "bad.yaml", kGeometryData));
    ADD_FAILURE() << "expected InputError with '" << reason << "'";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(location), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(SapBadInputTest, ContactMaterialsAreValidatedAtLoad) {
  // The valid scene loads and steps.
  Simulation ok(LoadSceneString(Scene("stiffness: 1.0e6"), "ok.yaml", kGeometryData));
  EXPECT_EQ(ok.Step().status, StepStatus::kSuccess);

  ExpectLoadError(Scene("stiffness: .nan"), "bad.yaml:2: materials[0].stiffness", "finite");
  ExpectLoadError(Scene("stiffness: -1.0e6"), "bad.yaml:2: materials[0].stiffness", "positive");
  ExpectLoadError(Scene("stiffness: 0"), "bad.yaml:2: materials[0].stiffness", "positive");
  ExpectLoadError(Scene("dissipation: -0.01"), "bad.yaml:2: materials[0].dissipation", ">= 0");
  ExpectLoadError(Scene("dissipation: .inf"), "bad.yaml:2: materials[0].dissipation", "finite");
  ExpectLoadError(Scene("friction: -0.5"), "bad.yaml:2: materials[0].friction", ">= 0");
  ExpectLoadError(Scene("friction: .nan"), "bad.yaml:2: materials[0].friction", "finite");
}

TEST(SapBadInputTest, MaterialChangesAtRunTimeAreValidated) {
  Simulation sim(LoadSceneString(Scene("stiffness: 1.0e6"), "ok.yaml", kGeometryData));
  const ContactMaterial good = sim.GetMaterial("m");
  // One bad field at a time, the others valid: k, τd, μ, d, v_s.
  const double nan = std::nan("");
  for (const auto& [k, tau, mu, d, vs] :
       {std::tuple{nan, 0.01, 0.5, 10.0, 1e-4}, {-1.0, 0.01, 0.5, 10.0, 1e-4}, {1e6, -0.01, 0.5, 10.0, 1e-4},
        {1e6, 0.01, -0.5, 10.0, 1e-4}, {1e6, 0.01, INFINITY, 10.0, 1e-4}, {1e6, 0.01, 0.5, -1.0, 1e-4},
        {1e6, 0.01, 0.5, nan, 1e-4}, {1e6, 0.01, 0.5, 10.0, 0.0}, {1e6, 0.01, 0.5, 10.0, INFINITY}}) {
    ContactMaterial bad = good;
    bad.stiffness = k;
    bad.dissipation = tau;
    bad.friction = mu;
    bad.hc_dissipation = d;
    bad.stiction_velocity = vs;
    EXPECT_THROW(sim.SetMaterial("m", bad), InputError) << k << " " << tau << " " << mu << " " << d << " " << vs;
  }
  // Unchanged after the rejected calls.
  EXPECT_EQ(sim.GetMaterial("m").stiffness, good.stiffness);
  EXPECT_EQ(sim.GetMaterial("m").dissipation, good.dissipation);
  EXPECT_EQ(sim.GetMaterial("m").friction, good.friction);
  EXPECT_EQ(sim.GetMaterial("m").hc_dissipation, good.hc_dissipation);
  EXPECT_EQ(sim.GetMaterial("m").stiction_velocity, good.stiction_velocity);
}

TEST(SapBadInputTest, ZeroMassIsALoadError) {
  ExpectLoadError(Scene("stiffness: 1.0e6", "mass: 0"), "bad.yaml:8: bodies[0].mass", "positive");
  ExpectLoadError(Scene("stiffness: 1.0e6", "mass: -1"), "bad.yaml:8: bodies[0].mass", "positive");
}

TEST(SapBadInputTest, MissingMeshesAreLoadErrorsAndOpenOnesLoadWithANote) {
  // The closed cube loads (mesh bodies need an explicit inertia).
  Simulation ok(LoadSceneString(Scene("stiffness: 1.0e6", "mass: 1.0", "{type: mesh, file: cube.obj}"),
                                "ok.yaml", kGeometryData));
  EXPECT_EQ(ok.Step().status, StepStatus::kSuccess);
  ExpectLoadError(Scene("stiffness: 1.0e6", "mass: 1.0", "{type: mesh, file: no_such_mesh.obj}"),
                  "bad.yaml", "not found");
  // An open surface (a cube without its top): contact uses its hull, as for
  // every mesh, and the load says so once.
  Simulation open(LoadSceneString(Scene("stiffness: 1.0e6", "mass: 1.0", "{type: mesh, file: open_box.obj}"),
                                  "open.yaml", kGeometryData));
  const std::vector<std::string> notes = open.load_notes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("open.yaml:11: mesh '", 0), 0u) << notes[0];
  EXPECT_NE(notes[0].find("open_box.obj' is not a closed surface"), std::string::npos) << notes[0];
  EXPECT_EQ(open.Step().status, StepStatus::kSuccess);
  EXPECT_TRUE(ok.load_notes().empty());
}

// A contact-rich problem that cannot converge: one Newton iteration and zero
// tolerances (Eq. 26 can then never hold).
const std::vector<std::string> kImpossibleSolver = {
    "solver.max_iterations=1", "solver.relative_tolerance=0", "solver.absolute_tolerance=0"};

TEST(SapBadInputTest, SolverFailureIsAStatusAndLeavesTheStateAlone) {
  Simulation sim = Simulation::FromFile(test::ScenePath("stack10.yaml"));
  test::Run(&sim, 0.5, [] {});  // Settled: 40 contacts.
  const VectorX q = sim.positions(), v = sim.velocities();
  const double t = sim.time();
  SapSolverParameters p = sim.solver_parameters();
  p.max_iterations = 1;
  p.relative_tolerance = 0;
  p.absolute_tolerance = 0;
  sim.SetSolverParameters(p);
  const StepResult r = sim.Step();
  EXPECT_EQ(r.status, StepStatus::kSolverFailed);
  EXPECT_NE(r.message.find("did not converge"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find('\n'), std::string::npos) << r.message;
  EXPECT_GT(r.stats.num_contacts, 0);
  // The state did not change (and is finite).
  EXPECT_EQ(sim.time(), t);
  EXPECT_EQ(sim.positions(), q);
  EXPECT_EQ(sim.velocities(), v);
  EXPECT_TRUE(sim.positions().allFinite() && sim.velocities().allFinite());
  // With the defaults back, the simulation continues.
  sim.SetSolverParameters(SapSolverParameters{});
  EXPECT_EQ(sim.Step().status, StepStatus::kSuccess);

  // The same from the scene file's solver settings.
  Simulation from_file = Simulation::FromFile(test::ScenePath("stack10.yaml"), kImpossibleSolver);
  EXPECT_EQ(from_file.Step().status, StepStatus::kSolverFailed);
  EXPECT_EQ(from_file.time(), 0.0);
}

TEST(SapBadInputTest, TheCliReportsASolverFailureWithExitCode3) {
  const fs::path dir = test::TempPath("stiction_sap_bad_input_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string command = std::string("'") + STICTION_SIM_EXE + "' '" +
                        test::ScenePath("stack10.yaml") + "' --quiet --duration 0.05";
  for (const std::string& o : kImpossibleSolver) command += " --set '" + o + "'";
  command += " >'" + (dir / "out.txt").string() + "' 2>'" + (dir / "err.txt").string() + "'";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(status != -1 && WIFEXITED(status)) << command;
  EXPECT_EQ(WEXITSTATUS(status), 3);
  std::ifstream in(dir / "err.txt");
  std::stringstream err;
  err << in.rdbuf();
  const std::string text = err.str();
  // Exactly one line: "stiction-sim: step 1 at t=0: SAP did not converge ...".
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  EXPECT_EQ(text.rfind("stiction-sim: step 1 at t=0", 0), 0u) << text;
  EXPECT_NE(text.find("did not converge"), std::string::npos) << text;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace stiction
