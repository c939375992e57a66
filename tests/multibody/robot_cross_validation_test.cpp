// Cross-validation of Stiction's rigid-body dynamics against MuJoCo on the
// same robot files: MuJoCo compiles each URDF (and an MJCF written here) with
// its own parser; Stiction imports it through liburdfdom (or MuJoCo's
// compiler for MJCF) and builds its own model. Joints are mapped by name, not
// order. At random states, the mass matrix M(q) and the bias C(q, v) v − τ_g
// must agree to 1e-9 relative; a 1 s contact-free, damping-free trajectory
// must agree to within the integrators' known difference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include "bench/crossval/mujoco_cross_validation.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

// MujocoCrossValidation (bench/crossval/): both engines on one file,
// joints mapped by name, M and the bias at random states. Its states keep
// every hinge and slide coordinate within ±3 (rad or m), as this test always
// has, so that its figures stay comparable from run to run.
constexpr double kCoordinateBound = 3.0;

// Appended rather than `std::string(...) + "..."`, which g++ 12 misreads
// as an out-of-bounds copy at -O1 (-Warray-bounds, GCC PR 105651).
std::string Robot(const std::string& name) {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/assets/robots/").append(name);
  return path;
}

/// An MJCF model exercising what URDF cannot: a free base, a ball joint,
/// slide joints, armature, a non-zero joint reference, capsules.
std::string WriteMjcfModel() {
  // One file per process: ctest runs this file's two tests at once, and a
  // shared name let one truncate the model while the other compiled it.
  const std::string path = test::FreshTempPath("stiction_xval", "model.xml").string();
  std::ofstream out(path);
  out << R"(<mujoco model="xval">
  <option gravity="0 0 -9.81"/>
  <worldbody>
    <body name="base" pos="0 0 1" quat="0.9 0.1 0.2 0.3">
      <freejoint name="base_free"/>
      <geom type="box" size="0.2 0.1 0.05" mass="3"/>
      <body name="upper" pos="0.2 0 0" euler="0.3 0.2 0.1">
        <joint name="shoulder" type="ball" armature="0.01"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04" mass="1"/>
        <body name="lower" pos="0.3 0 0">
          <joint name="elbow" type="hinge" axis="0 1 0.5" ref="0.3" limited="true" range="-2 2" armature="0.02"/>
          <geom type="capsule" fromto="0 0 0 0 0 -0.25" size="0.03" mass="0.5"/>
          <body name="slider" pos="0 0 -0.25">
            <joint name="slide" type="slide" axis="1 1 0" limited="true" range="-0.1 0.1"/>
            <geom type="sphere" size="0.05" mass="0.3" pos="0.02 0 0"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)";
  return path;
}

struct Case {
  const char* name;
  std::string robot_file;   ///< What Stiction imports.
  std::string mujoco_file;  ///< What MuJoCo compiles (the same file).
};

/// Bodies with several joints (hinges, slides, a hinge then a ball), the
/// later ones off the body origin: tests/scene/data/multijoint.xml.
std::string MultijointModel() {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/tests/scene/data/multijoint.xml");
  return path;
}

/// dm_control's finger's case: gravity disabled by a flag; also a massive
/// body welded to a moving one, hinges with ref, passive forces:
/// tests/scene/data/gravity_disabled.xml.
std::string GravityDisabledModel() {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/tests/scene/data/gravity_disabled.xml");
  return path;
}

std::vector<Case> Cases() {
  const std::string mjcf = WriteMjcfModel();
  return {
      {"iiwa14", Robot("iiwa14.urdf"), Robot("iiwa14.urdf")},
      {"parallel_gripper", Robot("parallel_gripper.urdf"), Robot("parallel_gripper.urdf")},
      {"four_finger_hand", Robot("four_finger_hand.urdf"), Robot("four_finger_hand.urdf")},
      {"quadruped (fixed base)", Robot("quadruped.urdf"), Robot("quadruped.urdf")},
      {"mjcf free+ball+hinge+slide", mjcf, mjcf},
      {"mjcf multi-joint bodies", MultijointModel(), MultijointModel()},
      {"mjcf gravity off, welded", GravityDisabledModel(), GravityDisabledModel()},
  };
}

TEST(RobotCrossValidationTest, MassMatrixAndBiasMatchMuJoCoAtRandomStates) {
  std::printf("%-28s %4s %14s %14s %11s %11s %11s\n", "model", "nv", "max rel dM", "max rel dbias",
              "dmass rel", "dcom [m]", "dI rel");
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    MujocoCrossValidation xv(c.robot_file, c.mujoco_file);
    ASSERT_GT(xv.nv(), 0);
    const CrossValidationFigures figures = xv.Run(20, 7, kCoordinateBound);
    const double worst_M = figures.max_rel_dM, worst_bias = figures.max_rel_dbias;
    const InertialDifferences& import = xv.import_differences();
    std::printf("%-28s %4d %14.3e %14.3e %11.1e %11.1e %11.1e\n", c.name, xv.nv(), worst_M, worst_bias,
                import.mass_rel, import.com_m, import.inertia_rel);
    // The import itself: masses and centres of mass are copied numbers;
    // a tensor with products of inertia differs by what MuJoCo's compile of
    // it loses (its diagonalization; measured up to 1.4e-7 of the body's
    // largest entry, the order of single-precision rounding, while diagonal
    // tensors agree to 1e-16). 1e-6 leaves room; a wrong rotation, sign or
    // unit of an inertial is off by 1e-2 or more.
    EXPECT_LT(import.mass_rel, 1e-14);
    EXPECT_LT(import.com_m, 1e-14);
    EXPECT_LT(import.inertia_rel, 1e-6);
    // Both are exact recursive algorithms in double precision on the same
    // numbers: only round-off separates them (the issue's 1e-9 relative).
    EXPECT_LT(worst_M, 1e-9);
    EXPECT_LT(worst_bias, 1e-9);
  }
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

/// Largest joint-coordinate difference [rad or m] over a 1 s contact-free,
/// damping-free, spring-free, limit-free run from the same state (gravity reversed, see
/// below): Stiction's θ-method
/// (midpoint, θ = θ_vq = ½, second order) against MuJoCo's RK4 (fourth
/// order, so at these steps effectively the exact trajectory).
double TrajectoryDifference(const std::string& file, double dt) {
  MujocoCrossValidation xv(file, file);
  SceneDescription scene = xv.sim().scene();
  // MuJoCo's side runs without contact and passive forces (below): so does
  // ours, without geometry and springs.
  scene.world_geometries.clear();
  for (BodyDescription& b : scene.bodies) b.geometries.clear();
  for (JointDescription& j : scene.joints) {
    j.damping = 0;
    j.spring_stiffness = 0;
    j.lower_limit = -std::numeric_limits<double>::infinity();
    j.upper_limit = std::numeric_limits<double>::infinity();
  }
  scene.actuators.clear();
  scene.time_step = dt;
  // Gravity upwards: the arm, standing on its base, then hangs from it like
  // a multiple pendulum near its stable equilibrium, a regular motion. With
  // gravity down and limits off it folds through itself and tumbles
  // chaotically, where any two integrators part within half a second.
  scene.gravity = Vector3(0, 0, 9.81);
  Simulation sim(scene);
  mjModel* m = xv.mj();
  m->opt.timestep = dt;
  m->opt.integrator = mjINT_RK4;
  m->opt.gravity[2] = 9.81;
  m->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_PASSIVE | mjDSBL_ACTUATION;
  std::mt19937 rng(3);
  VectorX q, v;
  xv.RandomState(&rng, &q, &v, kCoordinateBound);
  for (int j = 0; j < sim.model().num_joints(); ++j) {  // Swing within ±0.9 rad of straight.
    const Joint& joint = sim.model().joint(j);
    if (joint.nq == 1) q[joint.q_start] = 0.3 * std::clamp(q[joint.q_start], -3.0, 3.0);
  }
  v *= 0.25;
  sim.SetState(q, v);
  xv.ToMuJoCo(sim.positions(), sim.velocities());
  double worst = 0;
  const int steps = static_cast<int>(std::lround(1.0 / dt));
  for (int k = 0; k < steps; ++k) {
    if (sim.Step().status != StepStatus::kSuccess) return std::numeric_limits<double>::infinity();
    mj_step(m, xv.data());
    VectorX q_mj, v_mj;
    xv.FromMuJoCo(&q_mj, &v_mj);
    VectorX dq = sim.positions() - q_mj;
    // A quaternion and its negative are the same rotation.
    for (int j = 0; j < sim.model().num_joints(); ++j) {
      const Joint& joint = sim.model().joint(j);
      if (joint.type == JointType::kFree || joint.type == JointType::kBall) {
        const auto a = sim.positions().segment<4>(joint.q_start);
        const auto b = q_mj.segment<4>(joint.q_start);
        dq.segment<4>(joint.q_start) = (a.dot(b) < 0 ? VectorX(a + b) : VectorX(a - b));
      }
    }
    worst = std::max(worst, dq.cwiseAbs().maxCoeff());

  }
  return worst;
}

TEST(RobotCrossValidationTest, TrajectoriesConvergeToMuJoCosAtSecondOrder) {
  std::printf("%-28s %12s %12s %8s\n", "model", "dq dt=2ms", "dq dt=1ms", "ratio");
  const std::vector<Case> cases = Cases();
  // The arm, the MJCF free/ball/hinge/slide model and the multi-joint bodies.
  for (const Case& c : {cases[0], cases[4], cases[5]}) {
    SCOPED_TRACE(c.name);
    const double coarse = TrajectoryDifference(c.robot_file, 2e-3);
    const double fine = TrajectoryDifference(c.robot_file, 1e-3);
    std::printf("%-28s %12.3e %12.3e %8.2f\n", c.name, coarse, fine, coarse / fine);
    // The two models are the same (previous test), so the difference is
    // the midpoint rule's O(δt²) truncation error: halving δt divides it by
    // about four. [3, 5] allows the higher-order terms at these steps; a
    // modelling difference would not shrink at all (ratio ≈ 1).
    EXPECT_GT(coarse / fine, 3.0);
    EXPECT_LT(coarse / fine, 5.0);
    EXPECT_LT(fine, 1e-2);
  }
}

}  // namespace
}  // namespace stiction
