#include "app/render/camera.h"

#include <gtest/gtest.h>

namespace stiction::app {
namespace {

TEST(CameraTest, ProjectAndPixelRayAreInverse) {
  Camera camera;
  camera.lookat = Vec3f(0.2f, -0.1f, 0.5f);
  camera.distance = 2.5f;
  const int w = 640, h = 360;
  // The look-at point projects to the centre.
  Vec3f pixel;
  ASSERT_TRUE(camera.Project(camera.lookat, w, h, &pixel));
  EXPECT_NEAR(pixel.x(), w / 2.0f, 1e-3f);
  EXPECT_NEAR(pixel.y(), h / 2.0f, 1e-3f);
  // The ray through a pixel passes through the points that project onto it.
  const Vec3f p(0.5f, 0.3f, 0.1f);
  ASSERT_TRUE(camera.Project(p, w, h, &pixel));
  const Ray ray = camera.PixelRay(pixel.x(), pixel.y(), w, h);
  const Vec3f to_p = p - ray.origin;
  EXPECT_LT((to_p - to_p.dot(ray.direction) * ray.direction).norm(), 1e-4f);
}

TEST(CameraTest, FrameIsRightHandedAndZUp) {
  Camera camera;
  camera.azimuth_deg = 90;
  camera.elevation_deg = 0;
  EXPECT_TRUE(camera.Forward().isApprox(Vec3f::UnitY(), 1e-6f));
  EXPECT_TRUE(camera.Right().isApprox(Vec3f::UnitX(), 1e-6f));
  EXPECT_TRUE(camera.Up().isApprox(Vec3f::UnitZ(), 1e-6f));
}

TEST(CameraTest, OrbitPanZoom) {
  Camera camera;
  const float az = camera.azimuth_deg, el = camera.elevation_deg;
  camera.Orbit(100, 0, 500);
  EXPECT_NE(camera.azimuth_deg, az);
  EXPECT_EQ(camera.elevation_deg, el);
  camera.Orbit(0, 1e6, 500);  // Elevation is clamped short of the pole.
  EXPECT_GE(camera.elevation_deg, -89.0f);
  // Panning right moves the look-at point left, by one pixel's world size.
  Camera c2;
  const Vec3f before = c2.lookat;
  c2.Pan(10, 0, 500, false);
  const Vec3f moved = c2.lookat - before;
  EXPECT_NEAR(moved.dot(c2.Right()), -10 * c2.PixelSize(c2.distance, 500), 1e-6f);
  // Horizontal panning keeps the height.
  c2.Pan(0, 30, 500, true);
  EXPECT_NEAR(c2.lookat.z(), before.z(), 1e-6f);
  const float d = c2.distance;
  c2.Zoom(1);
  EXPECT_LT(c2.distance, d);
  c2.Zoom(-1);
  EXPECT_NEAR(c2.distance, d, 1e-5f);
}

}  // namespace
}  // namespace stiction::app
