#include "engine/geometry/collision_world.h"

#include <chrono>
#include <cmath>
#include <random>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/geometry/pose_helpers.h"

#include "engine/common/error.h"

namespace stiction {
namespace {

constexpr double kPi = 3.14159265358979323846;

GeometryDescription Shape(ShapeType type, const std::string& name) {
  GeometryDescription g;
  g.name = name;
  g.shape.type = type;
  return g;
}
GeometryDescription HalfSpace() { return Shape(ShapeType::kHalfSpace, "ground"); }
GeometryDescription Sphere(double r) {
  GeometryDescription g = Shape(ShapeType::kSphere, "sphere");
  g.shape.radius = r;
  return g;
}
GeometryDescription Box(const Vector3& size) {
  GeometryDescription g = Shape(ShapeType::kBox, "box");
  g.shape.size = size;
  return g;
}
GeometryDescription Capsule(double r, double length) {
  GeometryDescription g = Shape(ShapeType::kCapsule, "capsule");
  g.shape.radius = r;
  g.shape.length = length;
  return g;
}
GeometryDescription Cylinder(double r, double length) {
  GeometryDescription g = Shape(ShapeType::kCylinder, "cylinder");
  g.shape.radius = r;
  g.shape.length = length;
  return g;
}
GeometryDescription Mesh(const std::string& file) {
  GeometryDescription g = Shape(ShapeType::kMesh, "mesh");
  g.shape.mesh_file = std::string(STICTION_SOURCE_DIR) + "/tests/geometry/data/" + file;
  return g;
}

using test::Pose;
using test::Rot;

// Poses bodies 1..n (body 0 = world) and computes the contacts.
std::vector<ContactPoint> Contacts(CollisionWorld* world, std::vector<RigidTransform> X_WB,
                                   double margin) {
  X_WB.insert(X_WB.begin(), RigidTransform::Identity());
  world->UpdatePoses(X_WB);
  std::vector<ContactPoint> contacts;
  world->ComputeContacts(margin, &contacts);
  return contacts;
}

// Round-off only: the analytic paths do a handful of flops on O(0.1 m) values.
constexpr double kExact = 1e-12;

TEST(CollisionWorldTest, BoxRestingFlatOnHalfSpaceGivesFourCorners) {
  CollisionWorld world({{0, HalfSpace()}, {1, Box(Vector3::Constant(0.1))}}, {});
  const auto contacts = Contacts(&world, {Pose(Vector3(0.3, 0.2, 0.05 - 1e-3))}, 0.0);
  ASSERT_EQ(contacts.size(), 4u);
  std::set<std::pair<int, int>> corners;
  for (const ContactPoint& c : contacts) {
    EXPECT_EQ(c.body_a, 0);
    EXPECT_EQ(c.body_b, 1);
    EXPECT_EQ(c.geometry_a, 0);
    EXPECT_EQ(c.geometry_b, 1);
    EXPECT_NEAR(c.phi, -1e-3, kExact);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(Vector3::UnitZ(), kExact));
    EXPECT_NEAR(c.p_W.z(), -0.5e-3, kExact);  // Midway between the surfaces.
    EXPECT_NEAR(std::abs(c.p_W.x() - 0.3), 0.05, kExact);
    EXPECT_NEAR(std::abs(c.p_W.y() - 0.2), 0.05, kExact);
    corners.emplace(c.p_W.x() > 0.3, c.p_W.y() > 0.2);
  }
  EXPECT_EQ(corners.size(), 4u);
}

TEST(CollisionWorldTest, SleepingBodiesSkipEachOtherAndTheWorldButNotAwakeOnes) {
  // Boxes 1 and 2 stacked on the ground, sphere 3 on the ground against box 1.
  CollisionWorld world({{0, HalfSpace()}, {1, Box(Vector3::Constant(0.1))}, {2, Box(Vector3::Constant(0.1))},
                        {3, Sphere(0.05)}},
                       {});
  const std::vector<RigidTransform> poses = {Pose(Vector3(0, 0, 0.05)), Pose(Vector3(0, 0, 0.15)),
                                             Pose(Vector3(0.1, 0, 0.05))};
  auto pairs = [&](const std::vector<char>& asleep) {
    world.SetSleepingBodies(asleep);
    std::set<std::pair<int, int>> out;
    for (const ContactPoint& c : Contacts(&world, poses, 1e-3)) {
      out.emplace(std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b));
    }
    return out;
  };
  using Pairs = std::set<std::pair<int, int>>;
  EXPECT_EQ(pairs({}), (Pairs{{0, 1}, {0, 3}, {1, 2}, {1, 3}}));
  // Boxes asleep: their pairs with each other and the ground are skipped,
  // the awake sphere still finds both the ground and box 1.
  EXPECT_EQ(pairs({0, 1, 1, 0}), (Pairs{{0, 3}, {1, 3}}));
  // Everything asleep: nothing (the broad phase is skipped).
  EXPECT_EQ(pairs({0, 1, 1, 1}), Pairs{});
  EXPECT_EQ(pairs({}), (Pairs{{0, 1}, {0, 3}, {1, 2}, {1, 3}}));
}

TEST(CollisionWorldTest, BoxOnEdgeGivesTwoAndLiftedBoxIsSpeculative) {
  CollisionWorld world({{0, HalfSpace()}, {1, Box(Vector3::Constant(0.1))}}, {});
  // Tilted 30° about x: the lowest edge is 0.05 (cos 30° + sin 30°) below the centre.
  const double drop = 0.05 * (std::cos(kPi / 6) + std::sin(kPi / 6));
  auto contacts =
      Contacts(&world, {Pose(Vector3(0, 0, drop - 1e-3), Rot(kPi / 6, Vector3::UnitX()))}, 0.0);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ContactPoint& c : contacts) EXPECT_NEAR(c.phi, -1e-3, kExact);

  contacts = Contacts(&world, {Pose(Vector3(0, 0, 0.05 + 2e-3))}, 5e-3);
  ASSERT_EQ(contacts.size(), 4u);
  for (const ContactPoint& c : contacts) EXPECT_NEAR(c.phi, 2e-3, kExact);
  EXPECT_TRUE(Contacts(&world, {Pose(Vector3(0, 0, 0.05 + 2e-3))}, 1e-3).empty());
}

TEST(CollisionWorldTest, SphereOnHalfSpaceAndTiltedGround) {
  GeometryDescription ground = HalfSpace();
  CollisionWorld world({{0, ground}, {1, Sphere(0.05)}}, {});
  auto contacts = Contacts(&world, {Pose(Vector3(1, 2, 0.049))}, 0.0);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].phi, -1e-3, kExact);
  EXPECT_TRUE(contacts[0].p_W.isApprox(Vector3(1, 2, -0.5e-3), kExact));

  // A ramp tilted 20° about y through (0, 0, 0.1): the normal is R_y * z.
  ground.X_BG = Pose(Vector3(0, 0, 0.1), Rot(0.35, Vector3::UnitY()));
  CollisionWorld ramp({{0, ground}, {1, Sphere(0.05)}}, {});
  const Vector3 n = ground.X_BG.R.col(2);
  contacts = Contacts(&ramp, {Pose(Vector3(0, 0, 0.1) + (0.05 + 3e-3) * n)}, 1e-2);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].phi, 3e-3, kExact);
  EXPECT_TRUE(contacts[0].nhat_AB_W.isApprox(n, kExact));
}

TEST(CollisionWorldTest, SphereSphereSignedDistanceIsExact) {
  CollisionWorld world({{1, Sphere(0.05)}, {2, Sphere(0.08)}}, {});
  const Vector3 dir = Vector3(1, -2, 0.5).normalized();
  for (double distance : {0.12, 0.15, 0.13}) {  // Overlapping, separated, touching.
    const auto contacts =
        Contacts(&world, {Pose(Vector3(0.1, 0, 0)), Pose(Vector3(0.1, 0, 0) + distance * dir)},
                 0.05);
    ASSERT_EQ(contacts.size(), 1u);
    EXPECT_NEAR(contacts[0].phi, distance - 0.13, 1e-9);
    EXPECT_TRUE(contacts[0].nhat_AB_W.isApprox(dir, 1e-9));
    // The point is midway between the two surface points.
    const Vector3 expected = Vector3(0.1, 0, 0) + (0.05 + 0.5 * (distance - 0.13)) * dir;
    EXPECT_TRUE(contacts[0].p_W.isApprox(expected, 1e-9));
  }
  // Beyond the margin: nothing.
  EXPECT_TRUE(Contacts(&world, {Pose(Vector3::Zero()), Pose(Vector3(0.2, 0, 0))}, 0.05).empty());
}

TEST(CollisionWorldTest, BoxSphereNormalPointsFromAToB) {
  // Box is geometry 0 (A): normal +z from the box up into the sphere.
  CollisionWorld world({{1, Box(Vector3(0.2, 0.2, 0.2))}, {2, Sphere(0.05)}}, {});
  auto contacts = Contacts(&world, {Pose(Vector3::Zero()), Pose(Vector3(0.03, 0, 0.148))}, 0.0);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].phi, -2e-3, kExact);
  EXPECT_TRUE(contacts[0].nhat_AB_W.isApprox(Vector3::UnitZ(), kExact));
  EXPECT_TRUE(contacts[0].p_W.isApprox(Vector3(0.03, 0, 0.099), kExact));

  // Sphere is geometry 0 (A): the normal points down into the box.
  CollisionWorld flipped({{2, Sphere(0.05)}, {1, Box(Vector3(0.2, 0.2, 0.2))}}, {});
  contacts = Contacts(&flipped, {Pose(Vector3::Zero()), Pose(Vector3(0.03, 0, 0.148))}, 0.0);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].body_a, 2);
  EXPECT_EQ(contacts[0].body_b, 1);
  EXPECT_NEAR(contacts[0].phi, -2e-3, kExact);
  EXPECT_TRUE(contacts[0].nhat_AB_W.isApprox(-Vector3::UnitZ(), kExact));
}

// Stacks: the lower box (body 1, A) is 0.2 x 0.2 x 0.1 centred at z = 0.05,
// so its top face is z = 0.1.
class BoxStackTest : public ::testing::Test {
 protected:
  std::vector<ContactPoint> Stack(const Vector3& top_size, const RigidTransform& X_W2) {
    CollisionWorld world({{1, Box(Vector3(0.2, 0.2, 0.1))}, {2, Box(top_size)}}, {});
    return Contacts(&world, {Pose(Vector3(0, 0, 0.05)), X_W2}, 1e-3);
  }
};

// The face-clipping path: phi comes from plane distances (exact up to
// round-off), but the manifold is only built once GJK/EPA has confirmed
// contact, so the tolerance is still round-off level.
constexpr double kClip = 1e-9;

TEST_F(BoxStackTest, CenteredTopBoxGivesFourCorners) {
  const auto contacts = Stack(Vector3::Constant(0.1), Pose(Vector3(0, 0, 0.15 - 1e-3)));
  ASSERT_EQ(contacts.size(), 4u);
  for (const ContactPoint& c : contacts) {
    EXPECT_EQ(c.body_a, 1);
    EXPECT_EQ(c.body_b, 2);
    EXPECT_NEAR(c.phi, -1e-3, kClip);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(Vector3::UnitZ(), kClip));
    EXPECT_NEAR(std::abs(c.p_W.x()), 0.05, kClip);
    EXPECT_NEAR(std::abs(c.p_W.y()), 0.05, kClip);
    EXPECT_NEAR(c.p_W.z(), 0.1 - 0.5e-3, kClip);
  }
}

TEST_F(BoxStackTest, EqualBoxesAndSpeculativeGap) {
  // Equal footprints: incident corners lie exactly on the side planes and
  // must not be duplicated by clipping.
  auto contacts = Stack(Vector3(0.2, 0.2, 0.1), Pose(Vector3(0, 0, 0.15 - 1e-3)));
  EXPECT_EQ(contacts.size(), 4u);
  contacts = Stack(Vector3::Constant(0.1), Pose(Vector3(0, 0, 0.15 + 0.5e-3)));
  ASSERT_EQ(contacts.size(), 4u);
  for (const ContactPoint& c : contacts) EXPECT_NEAR(c.phi, 0.5e-3, kClip);
  EXPECT_TRUE(Stack(Vector3::Constant(0.1), Pose(Vector3(0, 0, 0.15 + 2e-3))).empty());
}

TEST_F(BoxStackTest, OverhangingTopBoxGivesOverlapCorners) {
  // The top box spans x in [0.05, 0.15]; the overlap is x in [0.05, 0.1].
  const auto contacts = Stack(Vector3::Constant(0.1), Pose(Vector3(0.1, 0, 0.15 - 1e-3)));
  ASSERT_EQ(contacts.size(), 4u);
  std::set<std::pair<bool, bool>> corners;
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.phi, -1e-3, kClip);
    const bool at_inner = std::abs(c.p_W.x() - 0.05) < kClip;
    const bool at_outer = std::abs(c.p_W.x() - 0.1) < kClip;
    EXPECT_TRUE(at_inner || at_outer) << c.p_W.transpose();
    EXPECT_NEAR(std::abs(c.p_W.y()), 0.05, kClip);
    corners.emplace(at_outer, c.p_W.y() > 0);
  }
  EXPECT_EQ(corners.size(), 4u);
}

TEST_F(BoxStackTest, RotatedTopBoxGivesClippedOctagon) {
  // Same footprint rotated 45° about z: the overlap is a regular octagon.
  const auto contacts = Stack(Vector3(0.2, 0.2, 0.1),
                              Pose(Vector3(0, 0, 0.15 - 1e-3), Rot(kPi / 4, Vector3::UnitZ())));
  ASSERT_GE(contacts.size(), 4u);
  ASSERT_LE(contacts.size(), static_cast<size_t>(kMaxManifoldPoints));
  EXPECT_EQ(contacts.size(), 8u);
  const Matrix3 R = Rot(kPi / 4, Vector3::UnitZ());
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.phi, -1e-3, kClip);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(Vector3::UnitZ(), kClip));
    // Inside both squares (half side 0.1), within round-off.
    EXPECT_LE(c.p_W.head<2>().cwiseAbs().maxCoeff(), 0.1 + kClip);
    EXPECT_LE((R.transpose() * c.p_W).head<2>().cwiseAbs().maxCoeff(), 0.1 + kClip);
    // On the octagon's boundary: on the edge of one square or the other.
    const double a = c.p_W.head<2>().cwiseAbs().maxCoeff();
    const double b = (R.transpose() * c.p_W).head<2>().cwiseAbs().maxCoeff();
    EXPECT_TRUE(std::abs(a - 0.1) < kClip || std::abs(b - 0.1) < kClip);
  }
}

TEST_F(BoxStackTest, CrossedEdgesGiveOnePoint) {
  // Lower box rolled 45° about x, upper rolled 45° about y: their edges cross.
  CollisionWorld world({{1, Box(Vector3::Constant(0.1))}, {2, Box(Vector3::Constant(0.1))}}, {});
  const double reach = 0.05 * std::sqrt(2.0);
  const auto contacts = Contacts(
      &world,
      {Pose(Vector3::Zero(), Rot(kPi / 4, Vector3::UnitX())),
       Pose(Vector3(0, 0, 2 * reach - 1e-3), Rot(kPi / 4, Vector3::UnitY()))},
      0.0);
  ASSERT_EQ(contacts.size(), 1u);
  // EPA's penetration depth: libccd converges to ~1e-6 m.
  EXPECT_NEAR(contacts[0].phi, -1e-3, 1e-5);
  EXPECT_TRUE(contacts[0].nhat_AB_W.isApprox(Vector3::UnitZ(), 1e-4));
  EXPECT_NEAR(contacts[0].nhat_AB_W.norm(), 1.0, 1e-12);
}

TEST(CollisionWorldTest, CylinderAndCapsuleOnHalfSpace) {
  CollisionWorld world({{0, HalfSpace()}, {1, Cylinder(0.05, 0.2)}}, {});
  // Upright on its cap.
  auto contacts = Contacts(&world, {Pose(Vector3(0, 0, 0.1 - 1e-3))}, 0.0);
  EXPECT_GE(contacts.size(), 3u);
  EXPECT_EQ(contacts.size(), 8u);
  Vector3 mean = Vector3::Zero();
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.phi, -1e-3, kExact);
    EXPECT_NEAR(c.p_W.head<2>().norm(), 0.05, kExact);  // On the rim.
    mean += c.p_W / static_cast<double>(contacts.size());
  }
  EXPECT_LT(mean.head<2>().norm(), kExact);  // Spread evenly around the rim.

  // Lying on its side (axis along y): the two ends of the line contact.
  contacts = Contacts(&world, {Pose(Vector3(0, 0, 0.05 - 1e-3), Rot(kPi / 2, Vector3::UnitX()))},
                      0.0);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.phi, -1e-3, kExact);
    EXPECT_NEAR(std::abs(c.p_W.y()), 0.1, kExact);
    EXPECT_NEAR(c.p_W.x(), 0.0, kExact);
  }

  CollisionWorld capsule_world({{0, HalfSpace()}, {1, Capsule(0.05, 0.2)}}, {});
  contacts = Contacts(&capsule_world,
                      {Pose(Vector3(0, 0, 0.05 - 1e-3), Rot(kPi / 2, Vector3::UnitY()))}, 0.0);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.phi, -1e-3, kExact);
    EXPECT_NEAR(std::abs(c.p_W.x()), 0.1, kExact);
  }
}

TEST(CollisionWorldTest, RoundShapesRestingOnABoxGetManifolds) {
  // A cylinder standing on a box must not rock, nor a capsule lying on one.
  CollisionWorld world({{1, Box(Vector3(0.4, 0.4, 0.1))}, {2, Cylinder(0.05, 0.2)}}, {});
  auto contacts = Contacts(&world, {Pose(Vector3::Zero()), Pose(Vector3(0, 0, 0.15 - 1e-3))}, 0.0);
  EXPECT_GE(contacts.size(), 3u);
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.phi, -1e-3, kClip);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(Vector3::UnitZ(), kClip));
  }
  CollisionWorld capsule({{2, Capsule(0.05, 0.2)}, {1, Box(Vector3(0.4, 0.4, 0.1))}}, {});
  contacts = Contacts(&capsule,
                      {Pose(Vector3::Zero()),
                       Pose(Vector3(0, 0, 0.1 - 1e-3), Rot(kPi / 2, Vector3::UnitY()))},
                      0.0);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ContactPoint& c : contacts) {
    EXPECT_EQ(c.body_a, 2);  // The capsule is A: the normal points down.
    EXPECT_NEAR(c.phi, -1e-3, kClip);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(-Vector3::UnitZ(), kClip));
    EXPECT_NEAR(std::abs(c.p_W.x()), 0.1, kClip);
  }
  // Hanging half over the edge (box spans x <= 0.2): clipped at the edge.
  contacts = Contacts(&capsule,
                      {Pose(Vector3::Zero()),
                       Pose(Vector3(0.2, 0, 0.1 - 1e-3), Rot(kPi / 2, Vector3::UnitY()))},
                      0.0);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ContactPoint& c : contacts) EXPECT_LE(c.p_W.x(), 0.2 + kClip);
}

TEST(CollisionWorldTest, FclPairsGiveUnitNormalsFromAToB) {
  // Cylinder (A) upright at the origin, sphere (B) above its top cap.
  CollisionWorld world({{1, Cylinder(0.1, 0.2)}, {2, Sphere(0.05)}}, {});
  for (double gap : {3e-3, -2e-3}) {
    const auto contacts =
        Contacts(&world, {Pose(Vector3::Zero()), Pose(Vector3(0.02, 0, 0.15 + gap))}, 5e-3);
    ASSERT_EQ(contacts.size(), 1u);
    // GJK (separated) and EPA (overlapping) converge to ~1e-6 m in libccd.
    EXPECT_NEAR(contacts[0].phi, gap, 1e-5);
    EXPECT_NEAR(contacts[0].nhat_AB_W.norm(), 1.0, 1e-12);
    EXPECT_TRUE(contacts[0].nhat_AB_W.isApprox(Vector3::UnitZ(), 1e-3));
  }
  // The same with the sphere as A: the normal flips.
  CollisionWorld flipped({{2, Sphere(0.05)}, {1, Cylinder(0.1, 0.2)}}, {});
  const auto contacts =
      Contacts(&flipped, {Pose(Vector3::Zero()), Pose(Vector3(0.02, 0, 0.15 - 2e-3))}, 0.0);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_TRUE(contacts[0].nhat_AB_W.isApprox(-Vector3::UnitZ(), 1e-3));
}

TEST(CollisionWorldTest, FilteringRemovesPairs) {
  const RigidTransform overlap = Pose(Vector3(0.05, 0, 0));
  // Same body.
  CollisionWorld same({{1, Sphere(0.05)}, {1, Sphere(0.05)}}, {});
  EXPECT_TRUE(Contacts(&same, {Pose(Vector3::Zero())}, 0.01).empty());
  // Excluded body pair (either order).
  CollisionFilter filter;
  filter.ExcludeBodyPair(2, 1);
  CollisionWorld filtered({{1, Sphere(0.05)}, {2, Sphere(0.05)}}, filter);
  EXPECT_TRUE(Contacts(&filtered, {Pose(Vector3::Zero()), overlap}, 0.01).empty());
  CollisionWorld unfiltered({{1, Sphere(0.05)}, {2, Sphere(0.05)}}, {});
  EXPECT_EQ(Contacts(&unfiltered, {Pose(Vector3::Zero()), overlap}, 0.01).size(), 1u);
  // A shared collision group (the other group names do not matter).
  GeometryDescription a = Sphere(0.05), b = Sphere(0.05);
  a.groups = {"left_finger", "gripper"};
  b.groups = {"gripper"};
  CollisionWorld grouped({{1, a}, {2, b}}, {});
  EXPECT_TRUE(Contacts(&grouped, {Pose(Vector3::Zero()), overlap}, 0.01).empty());
  EXPECT_EQ(grouped.group_names().size(), 2u);
  b.groups = {"other", ""};
  CollisionWorld disjoint({{1, a}, {2, b}}, {});
  EXPECT_EQ(Contacts(&disjoint, {Pose(Vector3::Zero()), overlap}, 0.01).size(), 1u);
  // collision == false: skipped entirely.
  b.collision = false;
  CollisionWorld visual({{1, a}, {2, b}, {0, HalfSpace()}}, {});
  EXPECT_TRUE(Contacts(&visual, {Pose(Vector3(0, 0, 1)), overlap}, 0.01).empty());
  // World–world never.
  CollisionWorld statics({{0, HalfSpace()}, {0, Box(Vector3::Constant(1))}}, {});
  EXPECT_TRUE(Contacts(&statics, {}, 0.01).empty());
}

TEST(CollisionWorldTest, BadInputThrows) {
  EXPECT_THROW(CollisionWorld({{1, HalfSpace()}}, {}), InputError);
  EXPECT_THROW(CollisionWorld({{1, Sphere(-1)}}, {}), InputError);
  EXPECT_THROW(CollisionWorld({{1, Box(Vector3(0.1, 0, 0.1))}}, {}), InputError);
  CollisionWorld world({{2, Sphere(0.1)}}, {});
  EXPECT_THROW(world.UpdatePoses({RigidTransform::Identity()}), InputError);
  std::vector<ContactPoint> contacts;
  EXPECT_THROW(world.ComputeContacts(-1e-3, &contacts), InputError);
}

TEST(CollisionWorldTest, BroadPhaseScalesToAGridOfSpheres) {
  // 400 spheres 0.1 m apart surface to surface, each its own body: with a
  // 1 cm margin no pair may reach the narrow phase.
  std::vector<CollisionGeometrySpec> specs;
  std::vector<RigidTransform> poses;
  for (int i = 0; i < 400; ++i) {
    specs.push_back({i + 1, Sphere(0.05)});
    poses.push_back(Pose(Vector3(0.2 * (i % 20), 0.2 * (i / 20), 0.5)));
  }
  specs.push_back({0, HalfSpace()});
  CollisionWorld world(std::move(specs), {});
  const auto start = std::chrono::steady_clock::now();
  std::vector<ContactPoint> contacts;
  for (int step = 0; step < 10; ++step) contacts = Contacts(&world, poses, 0.01);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(contacts.empty());
  EXPECT_EQ(world.num_candidate_pairs(), 0);
  // O(n²) pair tests would be ~80k narrow phases per pass; the tree does a
  // pass in well under a millisecond here. 50 ms per pass only catches a
  // quadratic regression, not machine noise.
  EXPECT_LT(seconds / 10, 0.05);
  EXPECT_GE(world.broad_phase_seconds(), 0.0);
  EXPECT_GE(world.narrow_phase_seconds(), 0.0);
}

TEST(CollisionWorldTest, BroadPhaseFindsTheSamePairsAsBruteForce) {
  for (unsigned seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<CollisionGeometrySpec> specs;
    std::vector<RigidTransform> poses;
    specs.push_back({0, HalfSpace()});
    specs.push_back({0, Box(Vector3(0.3, 0.3, 0.05))});  // A static table.
    for (int i = 0; i < 60; ++i) {
      const double a = 0.03 + 0.05 * unit(rng), b = 0.03 + 0.05 * unit(rng);
      GeometryDescription g;
      switch (i % 5) {
        case 0: g = Sphere(a); break;
        case 1: g = Box(Vector3(2 * a, 2 * b, a + b)); break;
        case 2: g = Capsule(a, 2 * b); break;
        case 3: g = Cylinder(a, 2 * b); break;
        case 4: g = Mesh("cube.obj"); break;
      }
      specs.push_back({i + 1, g});
      const Eigen::Quaterniond q(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5,
                                 unit(rng) - 0.5);
      poses.push_back(Pose(Vector3(0.6 * unit(rng) - 0.3, 0.6 * unit(rng) - 0.3,
                                   0.5 * unit(rng)),
                           q.normalized().toRotationMatrix()));
    }
    CollisionWorld world(std::move(specs), {});
    const double margin = 0.01;
    const auto contacts = Contacts(&world, poses, margin);
    std::set<std::pair<int, int>> fast;
    for (const ContactPoint& c : contacts) {
      fast.emplace(std::min(c.geometry_a, c.geometry_b), std::max(c.geometry_a, c.geometry_b));
      EXPECT_LT(c.phi, margin);
      EXPECT_NEAR(c.nhat_AB_W.norm(), 1.0, 1e-9);
      EXPECT_EQ(c.body_a, world.geometry(c.geometry_a).body());
      EXPECT_EQ(c.body_b, world.geometry(c.geometry_b).body());
    }
    std::set<std::pair<int, int>> brute;
    for (int i = 0; i < world.num_geometries(); ++i) {
      for (int j = i + 1; j < world.num_geometries(); ++j) {
        if (!world.CanCollide(i, j)) continue;
        std::vector<ContactPoint> pair;
        world.ComputePairContacts(i, j, margin, &pair);
        if (!pair.empty()) brute.emplace(i, j);
      }
    }
    EXPECT_GT(brute.size(), 10u) << "the pile should be crowded";
    EXPECT_EQ(fast, brute) << "seed " << seed;
  }
}

TEST(CollisionWorldTest, MeshCubeStacksOnBox) {
  CollisionWorld world({{1, Box(Vector3(0.2, 0.2, 0.1))}, {2, Mesh("cube.obj")}}, {});
  const auto contacts =
      Contacts(&world, {Pose(Vector3(0, 0, 0.05)), Pose(Vector3(0, 0, 0.15 - 1e-3))}, 0.0);
  ASSERT_EQ(contacts.size(), 4u);
  for (const ContactPoint& c : contacts) {
    // The mesh's float coordinates are ~1e-9 m off the decimal values.
    EXPECT_NEAR(c.phi, -1e-3, 1e-8);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(Vector3::UnitZ(), 1e-9));
  }
}

}  // namespace
}  // namespace stiction
