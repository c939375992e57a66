#include "app/input/picking.h"

#include <gtest/gtest.h>

namespace stiction::app {
namespace {

ShapeDescription Shape(ShapeType type, double radius, double length, Vector3 size = Vector3::Zero()) {
  ShapeDescription s;
  s.type = type;
  s.radius = radius;
  s.length = length;
  s.size = size;
  return s;
}

TEST(PickingTest, RayCastsAgainstPrimitives) {
  const Vector3 down(0, 0, -1);
  const Vector3 from_above(0, 0, 2);
  EXPECT_NEAR(RayCastShape(Shape(ShapeType::kSphere, 0.5, 0), 0, from_above, down), 1.5, 1e-12);
  EXPECT_NEAR(RayCastShape(Shape(ShapeType::kBox, 0, 0, Vector3(1, 1, 0.4)), 0, from_above, down), 1.8, 1e-12);
  EXPECT_NEAR(RayCastShape(Shape(ShapeType::kCapsule, 0.1, 1.0), 0, from_above, down), 1.4, 1e-12);
  EXPECT_NEAR(RayCastShape(Shape(ShapeType::kCylinder, 0.1, 1.0), 0, from_above, down), 1.5, 1e-12);
  EXPECT_NEAR(RayCastShape(Shape(ShapeType::kHalfSpace, 0, 0), 0, from_above, down), 2.0, 1e-12);
  // From the side: the cylinder's curved surface, and a miss above the capsule.
  EXPECT_NEAR(RayCastShape(Shape(ShapeType::kCylinder, 0.1, 1.0), 0, Vector3(2, 0, 0.3), Vector3(-1, 0, 0)), 1.9,
              1e-12);
  EXPECT_TRUE(std::isinf(
      RayCastShape(Shape(ShapeType::kCapsule, 0.1, 1.0), 0, Vector3(2, 0, 0.65), Vector3(-1, 0, 0))));
  EXPECT_TRUE(std::isinf(RayCastShape(Shape(ShapeType::kSphere, 0.5, 0), 0, from_above, Vector3(0, 0, 1))));
}

TEST(PickingTest, PicksTheNearestBodyAndSkipsTheWorldUnlessAsked) {
  RenderScene scene;
  Drawable ground;
  ground.body = 0;
  ground.shape = Shape(ShapeType::kHalfSpace, 0, 0);
  Drawable near_ball, far_ball;
  near_ball.body = 1;
  near_ball.shape = Shape(ShapeType::kSphere, 0.1, 0);
  far_ball.body = 2;
  far_ball.shape = Shape(ShapeType::kSphere, 0.1, 0);
  scene.drawables = {ground, near_ball, far_ball};
  std::vector<RigidTransform> X_WB(3);
  X_WB[1].p = Vector3(0, 0, 1);
  X_WB[2].p = Vector3(0, 0, 0.5);
  // Looking down from z = 3: ball 1 is nearer.
  PickResult pick = Pick(scene, X_WB, Vector3(0, 0, 3), Vector3(0, 0, -1), false);
  EXPECT_EQ(pick.body, 1);
  EXPECT_TRUE(pick.p_W.isApprox(Vector3(0, 0, 1.1)));
  // Off the balls: only the ground, and only when asked.
  EXPECT_FALSE(Pick(scene, X_WB, Vector3(1, 0, 3), Vector3(0, 0, -1), false).hit());
  pick = Pick(scene, X_WB, Vector3(1, 0, 3), Vector3(0, 0, -1), true);
  EXPECT_EQ(pick.body, 0);
  EXPECT_TRUE(pick.p_W.isApprox(Vector3(1, 0, 0)));
}

}  // namespace
}  // namespace stiction::app
