// ContactProblemBuilder::Build on a small scene with every family present
// (a box touching the ground and a handle, a carriage on a rail near its
// upper limit driven by a PD actuator, a weld between the box and the
// handle): the constraints come in family order — contacts, joint limits,
// actuators, welds ([SAP] Sec. V and VII) — the actuator's index points at
// its row, reports are for contacts only, and building again recycles the
// storage with a stable count and order.
#include "engine/contact/contact_problem_builder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/multibody/dynamics.h"
#include "engine/multibody/model_builder.h"
#include "engine/scene/scene_loader.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

constexpr char kScene[] = R"(
time_step: 0.001
bodies:
  - name: box
    mass: 1
    inertia: {ixx: 1.0e-3, iyy: 1.5e-3, izz: 2.0e-3}
    pose: {position: [0, 0, 0.05]}
  - name: carriage
    mass: 2
    inertia: {ixx: 1.0e-2, iyy: 1.0e-2, izz: 1.0e-2}
  - name: handle
    mass: 0.5
    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}
    pose: {position: [0.3, 0, 0.05]}
joints:
  - name: rail
    type: prismatic
    parent: world
    child: carriage
    parent_frame: {position: [0, 1, 0]}
    axis: [1, 0, 0]
    limits: {lower: -0.2, upper: 0.2}
    initial: {position: 0.1995, velocity: 0}   # 0.5 mm from the upper limit.
)";

constexpr double kMargin = 1e-3;  // The upper limit (φ = 0.5 mm) is within it.

class ContactProblemBuilderTest : public ::testing::Test {
 protected:
  ContactProblemBuilderTest() : built_(BuildModel(LoadSceneString(kScene, "builder.yaml"))), cache_(model()) {
    const MultibodyModel& m = model();
    box_ = m.FindBody("box");
    handle_ = m.FindBody("handle");
    carriage_ = m.FindBody("carriage");
    rail_ = m.body(carriage_).joint;
    CalcKinematics(m, built_.q0, built_.v0, BodyRange::All(m), &cache_);
    // The problem as the stepper fills it: A per tree (here the mass
    // matrices) and v* (here v0).
    problem_ = test::TreeProblem(m, 1e-3, [&](int t) {
      MatrixX M;
      CalcTreeMassMatrix(m, cache_, t, &M);
      return M;
    });
    problem_.v_star = built_.v0;
    // Geometry 0 is the ground, 1 the box, 2 the handle; one material.
    sources_.materials.materials = {ContactMaterial()};
    sources_.materials.of_geometry = {0, 0, 0};
    builder_ = std::make_unique<ContactProblemBuilder>(m);
    JointActuator motor;
    motor.joint = rail_;
    motor.kp = 100;
    motor.kd = 10;
    motor.effort_limit = 50;
    sources_.actuators.push_back(motor);
    BodyConstraint weld;
    weld.body_a = box_;
    weld.body_b = handle_;
    weld.X_AFa.p = Vector3(0.3, 0, 0);
    sources_.body_constraints.push_back(weld);
  }

  const MultibodyModel& model() const { return *built_.model; }

  // Two points of the box on the ground, one between the box and the handle.
  std::vector<ContactPoint> Contacts() const {
    ContactPoint ground;
    ground.body_a = 0;
    ground.geometry_a = 0;
    ground.body_b = box_;
    ground.geometry_b = 1;
    ground.phi = -1e-4;
    std::vector<ContactPoint> out(3, ground);
    out[0].p_W = Vector3(0.05, 0.05, 0);
    out[1].p_W = Vector3(-0.05, 0.05, 0);
    out[2].body_a = box_;
    out[2].geometry_a = 1;
    out[2].body_b = handle_;
    out[2].geometry_b = 2;
    out[2].p_W = Vector3(0.15, 0, 0.05);
    out[2].nhat_AB_W = Vector3::UnitX();
    return out;
  }

  void Build(const std::vector<ContactPoint>& contacts) {
    builder_->Build(cache_, built_.q0, built_.v0, contacts, sources_, params_, kMargin, nullptr, &problem_,
                    &reports_);
  }

  std::vector<ConstraintOrigin> Origins() const {
    std::vector<ConstraintOrigin> out;
    for (const Constraint& c : problem_.constraints) out.push_back(c.origin);
    return out;
  }

  BuiltModel built_;
  KinematicsCache cache_;
  int box_ = 0, handle_ = 0, carriage_ = 0, rail_ = 0;
  ContactProblem problem_;
  ContactModelParameters params_;
  ConstraintSources sources_;
  std::unique_ptr<ContactProblemBuilder> builder_;
  std::vector<ContactReport> reports_;
};

using O = ConstraintOrigin;

TEST_F(ContactProblemBuilderTest, FamiliesInOrder) {
  // Junk in the reports must not survive: Build replaces them.
  reports_.resize(5);
  Build(Contacts());
  EXPECT_EQ(Origins(), (std::vector<O>{O::kContact, O::kContact, O::kContact, O::kJointLimit, O::kActuator, O::kWeld}));
  // The limit row is the rail's upper side (J = −1 on its column).
  const Constraint& limit = problem_.constraints[3];
  ASSERT_EQ(limit.blocks.size(), 1u);
  EXPECT_EQ(limit.blocks[0].tree, model().body(carriage_).tree);
  EXPECT_EQ(limit.blocks[0].J, MatrixX::Constant(1, 1, -1.0));
  EXPECT_NEAR(limit.phi0, 5e-4, 1e-15);  // 0.2 − 0.1995, one subtraction.
  // The weld's six rows.
  EXPECT_EQ(problem_.constraints[5].num_rows, 6);
  EXPECT_EQ(problem_.constraints[5].kind, ConstraintKind::kBilateral);
}

TEST_F(ContactProblemBuilderTest, ActuatorIndexPointsAtItsRow) {
  Build(Contacts());
  ASSERT_EQ(builder_->actuator_constraints(), std::vector<int>{4});
  const Constraint& row = problem_.constraints[4];
  EXPECT_EQ(row.origin, O::kActuator);
  ASSERT_EQ(row.blocks.size(), 1u);
  EXPECT_EQ(row.blocks[0].tree, model().body(carriage_).tree);
  EXPECT_EQ(row.blocks[0].J, MatrixX::Constant(1, 1, 1.0));
  EXPECT_EQ(row.clamped.upper, 1e-3 * 50);  // δt · effort limit: this actuator's.
  // With one contact fewer the index follows the row.
  Build({Contacts()[0]});
  ASSERT_EQ(builder_->actuator_constraints(), std::vector<int>{2});
  EXPECT_EQ(problem_.constraints[2].origin, O::kActuator);
}

TEST_F(ContactProblemBuilderTest, ReportsOnlyForContacts) {
  const std::vector<ContactPoint> contacts = Contacts();
  Build(contacts);
  ASSERT_EQ(reports_.size(), contacts.size());
  for (size_t i = 0; i < contacts.size(); ++i) {
    EXPECT_EQ(reports_[i].body_a, contacts[i].body_a) << i;
    EXPECT_EQ(reports_[i].body_b, contacts[i].body_b) << i;
    EXPECT_EQ(reports_[i].p_W, contacts[i].p_W) << i;
  }
  // Without contacts: no reports, the other families still present.
  Build({});
  EXPECT_TRUE(reports_.empty());
  EXPECT_EQ(Origins(), (std::vector<O>{O::kJointLimit, O::kActuator, O::kWeld}));
}

TEST_F(ContactProblemBuilderTest, SecondBuildRecyclesWithStableCountAndOrder) {
  Build(Contacts());
  const std::vector<O> origins = Origins();
  std::vector<std::uint64_t> keys;
  std::vector<const double*> data;
  for (const Constraint& c : problem_.constraints) {
    keys.push_back(c.key);
    data.push_back(c.blocks[0].J.data());
  }
  const int rows = problem_.num_rows();
  for (int step = 0; step < 2; ++step) {
    Build(Contacts());
    EXPECT_EQ(Origins(), origins) << step;
    EXPECT_EQ(problem_.num_rows(), rows) << step;
    EXPECT_EQ(reports_.size(), 3u) << step;
    ASSERT_EQ(problem_.constraints.size(), keys.size()) << step;
    for (size_t i = 0; i < keys.size(); ++i) {
      EXPECT_EQ(problem_.constraints[i].key, keys[i]) << step << " " << i;
      // Same shapes: constraint i's Jacobian storage is reused in place.
      EXPECT_EQ(problem_.constraints[i].blocks[0].J.data(), data[i]) << step << " " << i;
    }
  }
}

}  // namespace
}  // namespace stiction
