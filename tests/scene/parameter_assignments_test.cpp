// The live parameters as "key=value" assignments (a command file's `set:`
// entries; engine/scene/parameter_assignments.h): every key reads back what
// it wrote, a diff is exactly the keys that changed, and bad assignments
// name the key and the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/scene/parameter_assignments.h"
#include "engine/simulation.h"

namespace stiction {
namespace {

const std::string kScenes = STICTION_SOURCE_DIR "/assets/scenes";

ContactMaterial& Material(SceneParameters* p, const std::string& name) {
  for (auto& [n, m] : p->materials) {
    if (n == name) return m;
  }
  throw InputError("no material " + name);
}

std::string ErrorOf(const std::string& assignment, SceneParameters p) {
  try {
    ApplyParameterAssignment(assignment, &p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ParameterAssignmentsTest, EveryKeyReadsBackWhatItWrote) {
  const SceneParameters scene = Simulation::FromFile(kScenes + "/grasp_box.yaml").CalcSceneParameters();
  const std::vector<std::string> all = FlattenSceneParameters(scene);
  // The scene's keys, each once: a few of each section.
  for (const char* key : {"time_step=", "stepping=", "integrator.theta=", "contact_model=", "solver.type=",
                          "solver.line_search=", "solver.relative_tolerance=", "solver.stiction_tolerance=",
                          "solver.budget_ms=", "solver.canal.", "solver.pgs.", "nmdp.",
                          "materials.box_surface.friction=", "materials.box_surface.contact_model="}) {
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const std::string& a) { return a.rfind(key, 0) == 0; }))
        << key;
  }
  // Applying every assignment to other parameters gives the scene's back.
  SceneParameters other = scene;
  ApplyParameterAssignment("time_step=0.002", &other);
  ApplyParameterAssignment("solver.type=pgs", &other);
  ApplyParameterAssignment("materials.box_surface.friction=0.25", &other);
  ApplyParameterAssignment("integrator.theta=1", &other);
  ApplyParameterAssignment("materials.box_surface.contact_model=lagged", &other);
  EXPECT_EQ(DiffSceneParameters(scene, other).size(), 5u);
  for (const std::string& a : all) ApplyParameterAssignment(a, &other);
  EXPECT_EQ(FlattenSceneParameters(other), all);
  EXPECT_TRUE(DiffSceneParameters(scene, other).empty());
}

TEST(ParameterAssignmentsTest, ADiffIsTheChangedKeysAndReadsBackBitIdentically) {
  const SceneParameters before = Simulation::FromFile(kScenes + "/grasp_box.yaml").CalcSceneParameters();
  SceneParameters after = before;
  Material(&after, "box_surface").friction = 0.1 + 0.2;  // Not a short decimal: 0.30000000000000004.
  after.contact.stiction_tolerance = 2e-3;
  after.integrator = IntegratorPreset("implicit_euler");
  const std::vector<std::string> diff = DiffSceneParameters(before, after);
  ASSERT_EQ(diff.size(), 4u);  // θ, θ_vq, σ, μ.
  EXPECT_EQ(diff[0], "integrator.theta=1");
  EXPECT_EQ(diff[1], "integrator.theta_vq=1");
  SceneParameters replayed = before;
  for (const std::string& a : diff) ApplyParameterAssignment(a, &replayed);
  EXPECT_EQ(Material(&replayed, "box_surface").friction, 0.1 + 0.2);
  EXPECT_EQ(replayed.contact.stiction_tolerance, 2e-3);
  EXPECT_EQ(replayed.integrator.name, "implicit_euler");  // Named after the preset the θ values match.
  EXPECT_TRUE(DiffSceneParameters(after, replayed).empty());
}

TEST(ParameterAssignmentsTest, BadAssignmentsNameTheKeyAndTheReason) {
  const SceneParameters p = Simulation::FromFile(kScenes + "/grasp_box.yaml").CalcSceneParameters();
  EXPECT_NE(ErrorOf("materials.box_surface.friction", p).find("expected KEY=VALUE"), std::string::npos);
  EXPECT_NE(ErrorOf("materials.box_surface.friction=-1", p).find("materials.box_surface.friction: must be >= 0"),
            std::string::npos);
  EXPECT_NE(ErrorOf("materials.box_surface.friction=abc", p).find("expected a number, got 'abc'"), std::string::npos);
  EXPECT_NE(ErrorOf("materials.box_surface.friction=nan", p).find("must be >= 0 and finite"), std::string::npos);
  EXPECT_NE(ErrorOf("materials.cheese.friction=1", p).find("not a live parameter"), std::string::npos);
  EXPECT_NE(ErrorOf("materials.cheese.friction=1", p).find("box_surface"), std::string::npos);  // Names the materials.
  EXPECT_NE(ErrorOf("bodies.box.mass=2", p).find("bodies.box.mass: not a live parameter"), std::string::npos);
  EXPECT_NE(ErrorOf("solver.type=newton", p).find("unknown name 'newton' (one of: sap, canal, subadmm, pgs)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("solver.max_iterations=2.5", p).find("expected an integer"), std::string::npos);
  EXPECT_NE(ErrorOf("time_step=0", p).find("time_step: must be in (0, 1]"), std::string::npos);
  EXPECT_NE(ErrorOf("solver.load_aware_regularization=yes", p).find("expected true or false"), std::string::npos);
}

// The facade takes a whole set at once, or nothing.
TEST(ParameterAssignmentsTest, SetSceneParametersChangesNothingOnAnError) {
  Simulation sim = Simulation::FromFile(kScenes + "/grasp_box.yaml");
  SceneParameters p = sim.CalcSceneParameters();
  ApplyParameterAssignment("time_step=0.005", &p);
  Material(&p, "box_surface").friction = -1;  // Out of range: past the assignment's check.
  EXPECT_THROW(sim.SetSceneParameters(p), InputError);
  EXPECT_EQ(sim.time_step(), 0.01);
  Material(&p, "box_surface").friction = 0.4;
  sim.SetSceneParameters(p);
  EXPECT_EQ(sim.time_step(), 0.005);
  EXPECT_EQ(sim.GetMaterial("box_surface").friction, 0.4);
  EXPECT_TRUE(DiffSceneParameters(p, sim.CalcSceneParameters()).empty());
}

}  // namespace
}  // namespace stiction
