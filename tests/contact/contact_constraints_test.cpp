// The contact family (AddContactConstraints, [SAP] Sec. V): for hand-made
// contact points between free bodies, an arm, a welded body and the world,
// the rows [t1, t2, n] give v_c = R_WCᵀ (v_B − v_A) at the contact point
// (velocities from the bodies' spatial velocities, independently of the
// Jacobians), the frame is right-handed with z = n̂, the Delassus estimate
// is ‖Σ J A⁻¹ Jᵀ‖_F/3 (Sec. V-B) computed densely, the SAP parameters follow
// Eqs. (29)–(30) with the pair's combined material, a Lagged material gives
// [ICF]'s Hunt & Crossley constraint with f0 = −k φ0 and γ_n0 of [ICF]
// Eq. (29) at the step-start velocity; plus CombineMaterials, keys, skipped
// welded pairs and reports.
#include "engine/contact/contact_constraints.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <numbers>
#include <random>
#include <set>
#include <vector>

#include "engine/multibody/kinematics.h"
#include "engine/multibody/spatial_algebra.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

constexpr double kTestPi = std::numbers::pi;
constexpr double kDt = 1e-3;

// Bodies: two free bodies (one tree each), a two-link revolute arm (one
// 2-DOF tree) and a body welded to the world (a tree without velocities).
struct Scene {
  MultibodyModel model;
  int a = 0, b = 0, link0 = 0, link1 = 0, post = 0;
};

Scene MakeScene() {
  Scene s;
  Body body = test::BoxBody("a", 1.5, Vector3(0.03, 0.01, -0.02), Vector3(0.2, 0.1, 0.3));
  s.a = test::AddFreeBody(&s.model, body);
  body.mass = 0.7;  // b keeps a's rotational inertia.
  body.name = "b";
  s.b = test::AddFreeBody(&s.model, body);
  const std::vector<int> arm =
      test::AddRevoluteChain(&s.model, body,
                             {{"link0", Vector3::UnitZ(), Vector3(0.5, 0.5, 0)},
                              {"link1", Vector3(0, 1, 1).normalized(), Vector3(0.3, 0, 0.1)}});
  s.link0 = arm[0];
  s.link1 = arm[1];
  s.post = test::AddWeldedBody(&s.model, body, "post", Vector3(-0.5, 0, 0.2));
  s.model.Finalize();
  return s;
}

// Geometry indices and their materials.
enum Geometry { kGround, kGeomA, kGeomB, kGeomLink0, kGeomLink1, kGeomPost, kGeomALagged, kNumGeometries };

ContactMaterial Stiff() {  // Near-rigid pairs: Eq. (29)'s β term wins.
  ContactMaterial m;
  m.stiffness = 1e12;
  m.dissipation = 1e-3;
  m.friction = 0.8;
  m.hc_dissipation = 0.02;
  m.stiction_velocity = 1e-4;
  return m;
}
ContactMaterial Soft() {  // Compliant pairs: the physical term wins.
  ContactMaterial m;
  m.stiffness = 1e4;
  m.dissipation = 0.02;
  m.friction = 0.4;
  m.hc_dissipation = 0.05;
  m.stiction_velocity = 5e-4;
  return m;
}
ContactMaterial Lagged() {
  ContactMaterial m;
  m.stiffness = 5e4;
  m.dissipation = 0.01;
  m.friction = 0.6;
  m.hc_dissipation = 0.03;
  m.stiction_velocity = 2e-3;
  m.model = ContactModel::kLagged;
  return m;
}

GeometryMaterials MakeMaterials() {
  GeometryMaterials gm;
  gm.materials = {Stiff(), Soft(), Lagged()};
  gm.of_geometry.assign(kNumGeometries, 0);
  gm.of_geometry[kGeomA] = 1;
  gm.of_geometry[kGeomB] = 1;
  gm.of_geometry[kGeomLink0] = 1;
  gm.of_geometry[kGeomALagged] = 2;
  return gm;
}

// The pair's material combined by hand (docs/contact-model.md): springs in
// series, damping coefficients c = τd k in series, d weighted by the other
// side's stiffness, harmonic μ, the smaller v_s.
ContactMaterial HandCombined(const ContactMaterial& x, const ContactMaterial& y) {
  ContactMaterial m;
  m.stiffness = x.stiffness * y.stiffness / (x.stiffness + y.stiffness);
  const double cx = x.dissipation * x.stiffness, cy = y.dissipation * y.stiffness;
  m.dissipation = cx * cy / (cx + cy) / m.stiffness;
  m.friction = 2 * x.friction * y.friction / (x.friction + y.friction);
  m.hc_dissipation = (y.stiffness * x.hc_dissipation + x.stiffness * y.hc_dissipation) / (x.stiffness + y.stiffness);
  m.stiction_velocity = std::min(x.stiction_velocity, y.stiction_velocity);
  return m;
}

ContactPoint Point(int body_a, int geometry_a, int body_b, int geometry_b, const Vector3& p_W,
                   const Vector3& n, double phi) {
  ContactPoint cp;
  cp.body_a = body_a;
  cp.geometry_a = geometry_a;
  cp.body_b = body_b;
  cp.geometry_b = geometry_b;
  cp.p_W = p_W;
  cp.nhat_AB_W = n.normalized();
  cp.phi = phi;
  return cp;
}

// One step's inputs for a random state; the family's outputs.
class ContactConstraintsTest : public ::testing::Test {
 protected:
  ContactConstraintsTest() : scene_(MakeScene()), materials_(MakeMaterials()), cache_(scene_.model) {}

  // Random q, v0 (kinematics), A per tree and v* ≠ v0, then the family.
  void Build(unsigned seed, const std::vector<ContactPoint>& contacts) {
    const MultibodyModel& model = scene_.model;
    test::RandomState(model, seed, &q0_, &v0_);
    CalcKinematics(model, q0_, v0_, BodyRange::All(model), &cache_);
    std::mt19937 rng(seed + 100);
    problem_ = test::RandomSpdProblem(model, kDt, &rng);
    // v* differs from v0 so that a family reading the wrong one is caught.
    problem_.v_star = v0_ + VectorX::Constant(model.num_velocities(), 0.5);
    contacts_ = contacts;
    reports_.clear();
    ConstraintAssembly assembly(model);
    assembly.Begin(cache_, q0_, v0_, 1e-3, nullptr, &problem_);
    AddContactConstraints(contacts_, materials_, params_, &assembly, &reports_);
  }

  // v_c = Σ_blocks J v_tree for velocities v.
  Vector3 ConstraintVelocity(const Constraint& c, const VectorX& v) const {
    Vector3 vc = Vector3::Zero();
    for (const ConstraintJacobianBlock& b : c.blocks) {
      vc += b.J * v.segment(problem_.tree_v_start[b.tree], problem_.tree_nv[b.tree]);
    }
    return vc;
  }

  // Velocity of the point p_W moving with `body` (zero for the world), from
  // its spatial velocity (at v0).
  Vector3 PointVelocityOf(int body, const Vector3& p_W) const {
    return body == 0 ? Vector3::Zero() : PointVelocity(cache_.V_WB[body], p_W);
  }

  // Dense Delassus block W = J A⁻¹ Jᵀ with J the full 3 × nv Jacobian and A
  // the full block-diagonal matrix, inverted by LU.
  Matrix3 DenseDelassus(const Constraint& c) const {
    const MatrixX J = test::DenseJacobian(c, problem_, 3);
    return J * test::BlockDiagonalA(problem_).inverse() * J.transpose();
  }

  const ContactMaterial& MaterialOf(int geometry) const { return materials_.of(geometry); }

  Scene scene_;
  GeometryMaterials materials_;
  ContactModelParameters params_;
  KinematicsCache cache_;
  VectorX q0_, v0_;
  ContactProblem problem_;
  std::vector<ContactPoint> contacts_;
  std::vector<ContactReport> reports_;
};

// Random contact points on every kind of pair; normals include ±x, where
// the frame construction switches its helper axis.
std::vector<ContactPoint> MixedContacts(unsigned seed, const Scene& s) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  auto p = [&] { return Vector3(u(rng), u(rng), u(rng)); };
  auto phi = [&] { return 1e-3 * u(rng); };
  return {
      Point(0, kGround, s.a, kGeomA, p(), Vector3::UnitZ(), phi()),       // A manifold of three
      Point(0, kGround, s.a, kGeomA, p(), Vector3::UnitX(), phi()),       // points on the world
      Point(0, kGround, s.a, kGeomA, p(), -Vector3::UnitX(), phi()),      // (normals vary here).
      Point(s.a, kGeomA, s.b, kGeomB, p(), p(), phi()),                   // Two free bodies,
      Point(s.a, kGeomA, s.b, kGeomB, p(), p(), phi()),                   // two points.
      Point(s.post, kGeomPost, 0, kGround, p(), p(), phi()),              // Welded pair: skipped.
      Point(s.b, kGeomB, 0, kGround, p(), p(), phi()),                    // World as B.
      Point(s.post, kGeomPost, s.b, kGeomB, p(), p(), phi()),             // Welded body vs b.
      Point(s.link0, kGeomLink0, s.link1, kGeomLink1, p(), p(), phi()),   // Self-contact (one tree).
      Point(0, kGround, s.link1, kGeomLink1, p(), -Vector3::UnitY(), phi()),  // Arm vs world.
      Point(0, kGround, s.b, kGeomB, p(), p(), phi()),  // Same A geometry as the previous point, other B.
  };
}
constexpr int kSkipped = 5;  // Index of the welded pair in MixedContacts.

TEST_F(ContactConstraintsTest, RowsAreTheRelativeVelocityInTheContactFrame) {
  for (const unsigned seed : {1u, 2u, 3u}) {
    Build(seed, MixedContacts(seed, scene_));
    ASSERT_EQ(problem_.constraints.size(), contacts_.size() - 1) << seed;
    ASSERT_EQ(reports_.size(), problem_.constraints.size());
    for (size_t i = 0, j = 0; i < problem_.constraints.size(); ++i, ++j) {
      if (j == kSkipped) ++j;
      const ContactPoint& cp = contacts_[j];
      const Constraint& c = problem_.constraints[i];
      const Matrix3& R_WC = reports_[i].R_WC;
      // The frame: orthonormal, right-handed, z = n̂ (1e-14: a few
      // operations on unit vectors).
      EXPECT_LT((R_WC.transpose() * R_WC - Matrix3::Identity()).norm(), 1e-14) << seed << " " << i;
      EXPECT_NEAR(R_WC.determinant(), 1.0, 1e-14) << seed << " " << i;
      EXPECT_LT((R_WC.col(2) - cp.nhat_AB_W).norm(), 1e-15) << seed << " " << i;
      // Rows [t1, t2, n]: the velocity of B's point relative to A's point,
      // expressed in C. Point velocities are ≲ 20 m/s (|v| ≤ 2 per entry,
      // points within √3 m) after ~50 flops: 1e-12 absolute.
      const Vector3 expected = R_WC.transpose() * (PointVelocityOf(cp.body_b, cp.p_W) -
                                                   PointVelocityOf(cp.body_a, cp.p_W));
      EXPECT_LT((ConstraintVelocity(c, v0_) - expected).norm(), 1e-12)
          << seed << " " << i << ": " << ConstraintVelocity(c, v0_).transpose() << " vs " << expected.transpose();
      EXPECT_EQ(c.num_rows, 3);
      EXPECT_EQ(c.origin, ConstraintOrigin::kContact);
    }
  }
}

TEST_F(ContactConstraintsTest, FreeBodyRowsMatchTheFreeJointVelocities) {
  // A cross-check of the fixture that does not use the kinematics at all:
  // for a free joint with identity joint frames, q = [quaternion; p_WB] and
  // v = [ω_B (body frame); ṗ_WB (world)], so a point P of the body moves at
  // ṗ_WB + (R_WB ω_B) × (p_WP − p_WB).
  Build(4, MixedContacts(4, scene_));
  const MultibodyModel& model = scene_.model;
  auto point_velocity = [&](int body, const Vector3& p_W) -> Vector3 {
    if (body == 0) return Vector3::Zero();
    const Joint& j = model.joint(model.body(body).joint);
    const Matrix3 R_WB = Quaternion(q0_[j.q_start], q0_[j.q_start + 1], q0_[j.q_start + 2], q0_[j.q_start + 3])
                             .normalized()
                             .toRotationMatrix();
    const Vector3 p_WB = q0_.segment<3>(j.q_start + 4);
    return v0_.segment<3>(j.v_start + 3) + (R_WB * v0_.segment<3>(j.v_start)).cross(p_W - p_WB);
  };
  // Constraints 0–4 and 5 (contact 6, world as B; contact 5 is skipped)
  // involve only free bodies and the world.
  for (const int i : {0, 1, 2, 3, 4, 5}) {
    const ContactPoint& cp = contacts_[i < kSkipped ? i : i + 1];
    const Vector3 expected =
        reports_[i].R_WC.transpose() * (point_velocity(cp.body_b, cp.p_W) - point_velocity(cp.body_a, cp.p_W));
    EXPECT_LT((ConstraintVelocity(problem_.constraints[i], v0_) - expected).norm(), 1e-12) << i;
  }
}

TEST_F(ContactConstraintsTest, BlocksCoverExactlyTheMovingTrees) {
  Build(5, MixedContacts(5, scene_));
  const MultibodyModel& model = scene_.model;
  const int tree_a = model.body(scene_.a).tree, tree_b = model.body(scene_.b).tree;
  const int tree_arm = model.body(scene_.link0).tree;
  auto trees = [&](int i) {
    std::multiset<int> out;
    for (const ConstraintJacobianBlock& b : problem_.constraints[i].blocks) {
      out.insert(b.tree);
      EXPECT_EQ(b.J.rows(), 3);
      EXPECT_EQ(b.J.cols(), problem_.tree_nv[b.tree]);
    }
    return out;
  };
  EXPECT_EQ(trees(0), std::multiset<int>({tree_a}));
  EXPECT_EQ(trees(3), std::multiset<int>({tree_a, tree_b}));
  EXPECT_EQ(trees(5), std::multiset<int>({tree_b}));
  EXPECT_EQ(trees(6), std::multiset<int>({tree_b}));    // The welded body adds no block.
  EXPECT_EQ(trees(7), std::multiset<int>({tree_arm}));  // Self-contact: one block J_B − J_A.
  EXPECT_EQ(trees(8), std::multiset<int>({tree_arm}));
}

TEST_F(ContactConstraintsTest, SapParametersFollowEqs29And30WithTheDenseDelassusEstimate) {
  params_.near_rigid_threshold = 0.8;
  params_.stiction_tolerance = 2e-3;
  Build(6, MixedContacts(6, scene_));
  bool near_rigid_seen = false, compliant_seen = false;
  for (size_t i = 0, j = 0; i < problem_.constraints.size(); ++i, ++j) {
    if (j == kSkipped) ++j;
    const ContactPoint& cp = contacts_[j];
    const Constraint& c = problem_.constraints[i];
    ASSERT_EQ(c.kind, ConstraintKind::kFrictionCone) << i;
    const ContactMaterial m = HandCombined(MaterialOf(cp.geometry_a), MaterialOf(cp.geometry_b));
    // Sec. V-B: w = ‖W_ii‖_F/3 (the rms of the 3 × 3 block's entries over 3
    // rows). Dense LU and the per-tree LLT differ by round-off relative to
    // cond(A) ≤ 2: 1e-12 relative.
    const double w = DenseDelassus(c).norm() / 3;
    const double near_rigid = 0.8 * 0.8 / (4 * kTestPi * kTestPi) * w;                  // Eq. (29), β term.
    const double compliance = 1 / (kDt * m.stiffness * (kDt + m.dissipation));  // Eq. (29), physical.
    near_rigid_seen |= near_rigid > compliance;
    compliant_seen |= compliance > near_rigid;
    EXPECT_NEAR(c.cone.Rn, std::max(near_rigid, compliance), 1e-12 * std::max(near_rigid, compliance)) << i;
    EXPECT_NEAR(c.cone.Rt, 2e-3 * w, 1e-12 * 2e-3 * w) << i;  // Eq. (30).
    // Sec. V-A: v̂_n = −φ0/(δt + τd); round-off of three operations.
    const double vn_hat = -cp.phi / (kDt + m.dissipation);
    EXPECT_NEAR(c.cone.vn_hat, vn_hat, 1e-14 * std::abs(vn_hat)) << i;
    EXPECT_NEAR(c.cone.mu, m.friction, 1e-15) << i;
    EXPECT_NEAR(c.mu, m.friction, 1e-15) << i;
    EXPECT_EQ(c.phi0, cp.phi) << i;
  }
  // Both branches of Eq. (29)'s max were exercised (stiff and soft pairs).
  EXPECT_TRUE(near_rigid_seen);
  EXPECT_TRUE(compliant_seen);
}

TEST_F(ContactConstraintsTest, SapParametersEqualMakeFrictionConeParametersOfTheCombinedMaterial) {
  // The family must hand MakeFrictionConeParameters (tested on its own in
  // friction_cone_constraint_test) the pair's material, w, φ0 and δt.
  Build(7, MixedContacts(7, scene_));
  for (size_t i = 0, j = 0; i < problem_.constraints.size(); ++i, ++j) {
    if (j == kSkipped) ++j;
    const ContactPoint& cp = contacts_[j];
    const ContactMaterial m = HandCombined(MaterialOf(cp.geometry_a), MaterialOf(cp.geometry_b));
    const double w = DenseDelassus(problem_.constraints[i]).norm() / 3;
    const SapFrictionConeParameters expected =
        MakeFrictionConeParameters(w, m.stiffness, m.dissipation, m.friction, cp.phi, kDt, params_);
    const SapFrictionConeParameters& got = problem_.constraints[i].cone;
    // w and the hand-combined material carry round-off: 1e-12 relative.
    EXPECT_NEAR(got.Rn, expected.Rn, 1e-12 * expected.Rn) << i;
    EXPECT_NEAR(got.Rt, expected.Rt, 1e-12 * expected.Rt) << i;
    EXPECT_NEAR(got.vn_hat, expected.vn_hat, 1e-12 * std::abs(expected.vn_hat)) << i;
    EXPECT_NEAR(got.mu, expected.mu, 1e-15) << i;
  }
}

TEST_F(ContactConstraintsTest, LaggedMaterialGivesHuntCrossleyWithTheStepStartImpulse) {
  // b against a's Lagged geometry, overlapping by 2 mm; plus a SAP pair.
  const Vector3 n = Vector3(0.2, -0.4, 1).normalized();
  const std::vector<ContactPoint> contacts = {
      Point(scene_.b, kGeomB, scene_.a, kGeomALagged, Vector3(0.1, 0.2, 0.3), n, -2e-3),
      Point(0, kGround, scene_.a, kGeomA, Vector3(0, 0, -0.1), Vector3::UnitZ(), -1e-3),
  };
  Build(8, contacts);
  ASSERT_EQ(problem_.constraints.size(), 2u);
  const Constraint& c = problem_.constraints[0];
  ASSERT_EQ(c.kind, ConstraintKind::kHuntCrossley);
  EXPECT_EQ(c.num_rows, 3);
  EXPECT_EQ(c.hc.model, HuntCrossleyModel::kLagged);
  EXPECT_EQ(reports_[0].model, ContactModel::kLagged);
  const ContactMaterial m = HandCombined(Soft(), Lagged());
  const ContactPoint& cp = contacts[0];
  // Hand-combined material vs the family's (round-off of a few operations).
  EXPECT_NEAR(c.hc.k, m.stiffness, 1e-12 * m.stiffness);
  EXPECT_NEAR(c.hc.d, m.hc_dissipation, 1e-12 * m.hc_dissipation);
  EXPECT_NEAR(c.hc.mu, m.friction, 1e-15);
  EXPECT_EQ(c.hc.eps_s, m.stiction_velocity);
  EXPECT_EQ(c.hc.dt, kDt);
  // [ICF] Eq. (15): f0 = k x0 with x0 = −φ0.
  EXPECT_NEAR(c.hc.f0, -m.stiffness * cp.phi, 1e-12 * m.stiffness * std::abs(cp.phi));
  // [ICF] Eq. (29): γ_n0 = δt k x0₊ (1 + d ẋ0)₊ with ẋ0 = −v_n0, the normal
  // velocity of B relative to A at the step start (v0, not v*), from the
  // spatial velocities.
  const double vn0 = cp.nhat_AB_W.dot(PointVelocityOf(cp.body_b, cp.p_W) - PointVelocityOf(cp.body_a, cp.p_W));
  const double damping = 1 - m.hc_dissipation * vn0;
  ASSERT_GT(damping, 0);  // The premise: the (·)₊ does not cut here.
  const double gamma_n0 = kDt * m.stiffness * (-cp.phi) * damping;
  EXPECT_NEAR(c.hc.gamma_n0, gamma_n0, 1e-12 * gamma_n0);
  // The same through the library's Eq. (29) helper.
  EXPECT_NEAR(c.hc.gamma_n0, HuntCrossleyLaggedImpulse(kDt, m.hc_dissipation, -m.stiffness * cp.phi, vn0),
              1e-12 * gamma_n0);
  // The pair without a model keeps the scene's (SAP).
  EXPECT_EQ(problem_.constraints[1].kind, ConstraintKind::kFrictionCone);
  EXPECT_EQ(reports_[1].model, ContactModel::kSap);
}

TEST_F(ContactConstraintsTest, ModelChoiceMaterialFirstThenScene) {
  const std::vector<ContactPoint> contacts = {
      Point(0, kGround, scene_.a, kGeomA, Vector3(0, 0, -0.1), Vector3::UnitZ(), -1e-3),
      Point(scene_.b, kGeomB, scene_.a, kGeomALagged, Vector3(0.1, 0.2, 0.3), Vector3::UnitY(), -2e-3),
  };
  // Scene model Similar: the unnamed pair is Similar, the Lagged one Lagged.
  params_.model = ContactModel::kSimilar;
  Build(9, contacts);
  ASSERT_EQ(problem_.constraints.size(), 2u);
  EXPECT_EQ(problem_.constraints[0].kind, ConstraintKind::kHuntCrossley);
  EXPECT_EQ(problem_.constraints[0].hc.model, HuntCrossleyModel::kSimilar);
  EXPECT_EQ(reports_[0].model, ContactModel::kSimilar);
  EXPECT_EQ(problem_.constraints[1].hc.model, HuntCrossleyModel::kLagged);
  EXPECT_EQ(reports_[1].model, ContactModel::kLagged);
  // A material naming SAP wins over a Hunt & Crossley scene model.
  materials_.materials[0].model = ContactModel::kSap;
  params_.model = ContactModel::kLagged;
  Build(9, contacts);
  EXPECT_EQ(problem_.constraints[0].kind, ConstraintKind::kFrictionCone);
  EXPECT_EQ(reports_[0].model, ContactModel::kSap);
}

TEST_F(ContactConstraintsTest, RegularizedLaggedTakesSapStictionDuringImpacts) {
  // [ICF] Eq. (44): ε_s = max(v_s, σ w μ γ_n0). σ and the overlap (2 cm)
  // are raised so that the impact term wins over v_s = 5e-4 m/s here
  // (σ w μ γ_n0 ≈ 1 · 0.1 · 0.5 · 0.2 ≈ 1e-2 m/s).
  materials_.materials[1].model = ContactModel::kRegularizedLagged;
  params_.stiction_tolerance = 1.0;
  const std::vector<ContactPoint> contacts = {
      Point(0, kGround, scene_.a, kGeomA, Vector3(0.05, 0, -0.1), Vector3::UnitZ(), -2e-2)};
  Build(10, contacts);
  ASSERT_EQ(problem_.constraints.size(), 1u);
  const Constraint& c = problem_.constraints[0];
  ASSERT_EQ(c.kind, ConstraintKind::kHuntCrossley);
  EXPECT_EQ(c.hc.model, HuntCrossleyModel::kLagged);
  EXPECT_EQ(reports_[0].model, ContactModel::kRegularizedLagged);
  const ContactMaterial m = HandCombined(Stiff(), Soft());
  const double w = DenseDelassus(c).norm() / 3;
  const double vn0 = PointVelocityOf(scene_.a, contacts[0].p_W).z();
  const double gamma_n0 = kDt * m.stiffness * 2e-2 * std::max(0.0, 1 - m.hc_dissipation * vn0);
  const double eps = 1.0 * w * m.friction * gamma_n0;
  ASSERT_GT(eps, m.stiction_velocity);  // The premise: the impact term wins.
  EXPECT_NEAR(c.hc.eps_s, eps, 1e-12 * eps);  // Round-off of w and γ_n0.
}

TEST(CombineMaterialsTest, SeriesSpringsHarmonicFrictionSmallerStictionModelOfEither) {
  ContactMaterial x, y;
  x.stiffness = 1e5;
  x.dissipation = 0.01;
  x.friction = 0.5;
  x.hc_dissipation = 2;
  x.stiction_velocity = 1e-3;
  y.stiffness = 3e5;
  y.dissipation = 0.03;
  y.friction = 0.9;
  y.hc_dissipation = 6;
  y.stiction_velocity = 2e-4;
  y.model = ContactModel::kSimilar;
  for (const bool swap : {false, true}) {
    const ContactMaterial m = swap ? CombineMaterials(y, x) : CombineMaterials(x, y);
    // By hand: k = 1e5·3e5/4e5 = 7.5e4 N/m; c = τd k: 1e3 and 9e3 N s/m in
    // series = 900 N s/m, τd = 900/7.5e4 = 0.012 s; μ = 2·0.45/1.4 = 9/14;
    // d = (3e5·2 + 1e5·6)/4e5 = 3 s/m; v_s = 2e-4 m/s. Inputs such as 0.01
    // are inexact in binary and each result takes a few operations: a few
    // ulp, 1e-14 relative.
    EXPECT_NEAR(m.stiffness, 7.5e4, 1e-14 * 7.5e4) << swap;
    EXPECT_NEAR(m.dissipation, 0.012, 1e-14 * 0.012) << swap;
    EXPECT_NEAR(m.friction, 9.0 / 14.0, 1e-14) << swap;
    EXPECT_NEAR(m.hc_dissipation, 3.0, 1e-14 * 3) << swap;
    EXPECT_EQ(m.stiction_velocity, 2e-4) << swap;
    ASSERT_TRUE(m.model.has_value()) << swap;  // Named by one side only.
    EXPECT_EQ(*m.model, ContactModel::kSimilar) << swap;
  }
  // Neither names a model: the scene's applies (nullopt).
  EXPECT_FALSE(CombineMaterials(x, x).model.has_value());
  // Frictionless on either side means frictionless, never NaN.
  ContactMaterial slick = x;
  slick.friction = 0;
  EXPECT_EQ(CombineMaterials(slick, y).friction, 0.0);
  EXPECT_EQ(CombineMaterials(y, slick).friction, 0.0);
  EXPECT_EQ(CombineMaterials(slick, slick).friction, 0.0);
  // Equal materials combine to half the stiffness, the same τd, μ and d.
  const ContactMaterial same = CombineMaterials(x, x);
  EXPECT_NEAR(same.stiffness, 5e4, 1e-14 * 5e4);
  EXPECT_NEAR(same.dissipation, 0.01, 1e-14 * 0.01);
  EXPECT_NEAR(same.friction, 0.5, 1e-14);
  EXPECT_NEAR(same.hc_dissipation, 2.0, 1e-14 * 2);
}

TEST_F(ContactConstraintsTest, PointsOfAManifoldGetConsecutiveIndicesInTheirKeys) {
  Build(11, MixedContacts(11, scene_));
  // Expected point index within each manifold, for the constraints (the
  // welded pair dropped): three points, two points, then single points
  // (the last two share geometry A but not B: different manifolds).
  const int point_index[] = {0, 1, 2, 0, 1, 0, 0, 0, 0, 0};
  ASSERT_EQ(problem_.constraints.size(), std::size(point_index));
  std::set<std::uint64_t> keys;
  for (size_t i = 0, j = 0; i < problem_.constraints.size(); ++i, ++j) {
    if (j == kSkipped) ++j;
    const ContactPoint& cp = contacts_[j];
    EXPECT_EQ(problem_.constraints[i].key,
              MakeConstraintKey(ConstraintOrigin::kContact, static_cast<std::uint64_t>(cp.geometry_a),
                                static_cast<std::uint64_t>(cp.geometry_b),
                                static_cast<std::uint64_t>(point_index[i])))
        << i;
    keys.insert(problem_.constraints[i].key);
  }
  EXPECT_EQ(keys.size(), problem_.constraints.size());  // All distinct.
}

TEST_F(ContactConstraintsTest, WeldedPairsAddNothing) {
  const std::vector<ContactPoint> contacts = {
      Point(scene_.post, kGeomPost, 0, kGround, Vector3(0, 0, 0), Vector3::UnitZ(), -1e-3),
      Point(0, kGround, scene_.post, kGeomPost, Vector3(0, 0, 0), Vector3::UnitZ(), -1e-3),
  };
  Build(12, contacts);
  EXPECT_TRUE(problem_.constraints.empty());
  EXPECT_TRUE(reports_.empty());
}

TEST_F(ContactConstraintsTest, OneReportPerConstraintInOrder) {
  Build(13, MixedContacts(13, scene_));
  ASSERT_EQ(reports_.size(), problem_.constraints.size());
  for (size_t i = 0, j = 0; i < reports_.size(); ++i, ++j) {
    if (j == kSkipped) ++j;
    const ContactPoint& cp = contacts_[j];
    const ContactReport& r = reports_[i];
    EXPECT_EQ(r.body_a, cp.body_a) << i;
    EXPECT_EQ(r.body_b, cp.body_b) << i;
    EXPECT_EQ(r.p_W, cp.p_W) << i;
    EXPECT_EQ(r.phi, cp.phi) << i;
    EXPECT_EQ(r.model, ContactModel::kSap) << i;
    const ContactMaterial m = HandCombined(MaterialOf(cp.geometry_a), MaterialOf(cp.geometry_b));
    EXPECT_NEAR(r.mu, m.friction, 1e-15) << i;
    // Results are filled after the solve, not here.
    EXPECT_EQ(r.gamma_C, Vector3::Zero()) << i;
    EXPECT_EQ(r.region, ConeRegion::kNoContact) << i;
  }
}

}  // namespace
}  // namespace stiction
