#include "engine/multibody/multibody_model.h"

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

TEST(MultibodyModelTest, TreesAndSlicesAreContiguous) {
  const MultibodyModel model = test::MakeMixedForest();
  ASSERT_EQ(model.num_trees(), 2);
  EXPECT_EQ(model.num_positions(), 7 + 4 + 1 + 0);
  EXPECT_EQ(model.num_velocities(), 6 + 3 + 1 + 0);
  EXPECT_EQ(model.tree(0).body_begin, 1);
  EXPECT_EQ(model.tree(0).body_end, 4);
  EXPECT_EQ(model.tree(0).nv, 10);
  EXPECT_EQ(model.tree(1).nv, 0);
  EXPECT_EQ(model.FindBody("slider"), 3);
  EXPECT_EQ(model.FindBody("nope"), -1);
  EXPECT_EQ(model.joint(model.FindJoint("slide")).child, 3);
  EXPECT_EQ(model.FindJoint("nope"), -1);
}

TEST(MultibodyModelTest, SubtreeIsABodyAndEverythingOutboardOfIt) {
  // base (1) ─ arm (2) ─ slider (3); post (4) is its own tree on the world.
  const MultibodyModel model = test::MakeMixedForest();
  EXPECT_EQ(model.Subtree(1), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(model.Subtree(2), (std::vector<int>{2, 3}));
  EXPECT_EQ(model.Subtree(3), (std::vector<int>{3}));
  EXPECT_EQ(model.Subtree(4), (std::vector<int>{4}));
  EXPECT_EQ(model.Subtree(0), (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(MultibodyModelTest, DefaultPositionsHaveIdentityQuaternions) {
  const MultibodyModel model = test::MakeMixedForest();
  const VectorX q = model.DefaultPositions();
  EXPECT_EQ(q[0], 1.0);  // Free joint quaternion w.
  EXPECT_EQ(q[7], 1.0);  // Ball joint quaternion w.
  EXPECT_EQ(q.sum(), 2.0);
}

TEST(MultibodyModelTest, RejectsBadBodies) {
  MultibodyModel model;
  Body b;
  b.name = "b";
  b.mass = -1;
  b.I_Bcm_B = Matrix3::Identity();
  Joint j;
  EXPECT_THROW(model.AddBody(b, j), InputError);
  b.mass = 1;
  b.I_Bcm_B(0, 0) = -1;
  EXPECT_THROW(model.AddBody(b, j), InputError);
  b.I_Bcm_B = Matrix3::Identity();
  j.parent = 5;
  EXPECT_THROW(model.AddBody(b, j), InputError);
  j.parent = 0;
  j.type = JointType::kRevolute;
  j.axis_F = Vector3::Zero();
  EXPECT_THROW(model.AddBody(b, j), InputError);
}

// A massless body may move only as a joint frame (between two joints of one
// MJCF body), and only with a body outboard of it to give its degrees of
// freedom inertia; a joint frame carries no mass of its own.
TEST(MultibodyModelTest, AMovingMasslessBodyMustBeAJointFrameWithABodyOutboard) {
  Body frame;
  frame.name = "frame";
  Joint slide;
  slide.name = "slide";
  slide.type = JointType::kPrismatic;
  slide.axis_F = Vector3::UnitX();
  Body massive;
  massive.name = "massive";
  massive.mass = 1;
  massive.I_Bcm_B = Matrix3::Identity();
  Joint hinge;
  hinge.name = "hinge";
  hinge.type = JointType::kRevolute;
  hinge.parent = 1;

  MultibodyModel plain;  // Not marked: refused as before.
  try {
    plain.AddBody(frame, slide);
    ADD_FAILURE() << "a massless moving body was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mass must be positive"), std::string::npos) << e.what();
  }

  frame.joint_frame = true;
  MultibodyModel chain;
  chain.AddBody(frame, slide);
  chain.AddBody(massive, hinge);
  chain.Finalize();
  EXPECT_EQ(chain.num_velocities(), 2);
  EXPECT_TRUE(chain.body(1).joint_frame);

  MultibodyModel bare;  // Nothing outboard: its slide would have no inertia.
  bare.AddBody(frame, slide);
  try {
    bare.Finalize();
    ADD_FAILURE() << "a joint frame with nothing outboard was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("body 'frame': a joint frame needs a body with mass outboard of it"),
              std::string::npos)
        << e.what();
  }

  MultibodyModel heavy;
  frame.mass = 1;
  frame.I_Bcm_B = Matrix3::Identity();
  try {
    heavy.AddBody(frame, slide);
    ADD_FAILURE() << "a joint frame with mass was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a joint frame carries no mass"), std::string::npos) << e.what();
  }
}

TEST(MultibodyModelTest, NormalizeQuaternions) {
  const MultibodyModel model = test::MakeFreeBody();
  VectorX q = model.DefaultPositions();
  q.head<4>() << 2, 0, 0, 0;
  q.tail<3>() << 5, 6, 7;
  model.NormalizeQuaternions(&q);
  EXPECT_DOUBLE_EQ(q[0], 1.0);
  EXPECT_DOUBLE_EQ(q[4], 5.0);
}

}  // namespace
}  // namespace stiction
