// The Cartesian-impedance family: [SAP] Sec. VII's implicit PD with effort
// limits on the rows of a frame Jacobian. Per block (translation, rotation)
// three clamped rows uᵀ J_E v in a frame whose first axis u1 is the error
// e0's direction, with R = 1/(δt (δt K + D)), v̂ = (D uᵀv_T − K uᵀe0)/(δt K
// + D), bounds ±δt F_max (±δt T_max); posture rows are ordinary PD rows.
// Checked against the frame's velocity computed independently from the
// bodies' spatial velocities, the closed-form R and v̂, the implicit law
// evaluated directly, finite differences of each row's cost, a known
// rotation error, keys and layout, and validation.
#include "engine/contact/cartesian_impedance_constraints.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/spatial_algebra.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

constexpr double kTestPi = std::numbers::pi;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDt = 1e-3;

// A free body (tree 0), a three-link revolute arm (tree 1) and a body
// welded to the world (tree 2, no velocities).
struct ImpedanceScene {
  MultibodyModel model;
  int free = 0, link0 = 0, link1 = 0, link2 = 0, post = 0;
};

ImpedanceScene MakeScene() {
  ImpedanceScene s;
  Body body = test::BoxBody("free", 1.2, Vector3(0.02, -0.03, 0.05), Vector3(0.3, 0.2, 0.1));
  s.free = test::AddFreeBody(&s.model, body);
  const std::vector<int> links = test::AddRevoluteChain(&s.model, body, test::kThreeSkewedLinks);
  s.link0 = links[0];
  s.link1 = links[1];
  s.link2 = links[2];
  s.post = test::AddWeldedBody(&s.model, body, "post", Vector3(-1, 0, 0));
  s.model.Finalize();
  return s;
}

class CartesianImpedanceConstraintsTest : public ::testing::Test {
 protected:
  CartesianImpedanceConstraintsTest() : s_(MakeScene()), cache_(s_.model) {
    std::mt19937 rng(7);
    test::RandomState(s_.model, 11, &q0_, &v0_);
    problem_ = test::RandomSpdProblem(s_.model, kDt, &rng);
    // 0: the free body, offset and rotated frame, moving target, limits.
    CartesianImpedance c;
    c.body = s_.free;
    c.X_BE = test::RandomPose(&rng);
    c.X_WT = test::RandomPose(&rng);
    c.v_WT = Vector3(0.3, -0.2, 0.5);
    c.w_WT = Vector3(-1, 0.4, 0.2);
    c.translational_stiffness = 800;
    c.translational_damping = 40;
    c.rotational_stiffness = 60;
    c.rotational_damping = 3;
    c.max_force = 25;
    c.max_torque = 4;
    controllers_.push_back(c);
    // 1: the arm's tip with a posture term; unlimited, pure spring rotation.
    c = CartesianImpedance();
    c.body = s_.link2;
    c.X_BE.p = Vector3(0, 0, 0.3);
    c.X_WT = test::RandomPose(&rng);
    c.translational_stiffness = 300;
    c.translational_damping = 0;
    c.rotational_stiffness = 20;
    c.posture = {{s_.model.body(s_.link0).joint, 0.2}, {s_.model.body(s_.link2).joint, -0.4}};
    c.posture_stiffness = 2;
    c.posture_damping = 0.5;
    c.posture_effort_limit = 1.5;
    controllers_.push_back(c);
    // 2: on the welded body: no rows.
    c = CartesianImpedance();
    c.body = s_.post;
    c.translational_stiffness = 10;
    controllers_.push_back(c);
    // 3: translation only, a pure damper (rotational gains zero: no rows).
    c = CartesianImpedance();
    c.body = s_.link1;
    c.X_WT = test::RandomPose(&rng);
    c.translational_damping = 5;
    c.max_force = 2;
    controllers_.push_back(c);
  }

  // Builds with one constraint of another family already in the problem, so
  // that constraint indices are not controller indices.
  void Build() {
    CalcKinematics(s_.model, q0_, v0_, BodyRange::All(s_.model), &cache_);
    ConstraintAssembly assembly(s_.model);
    assembly.Begin(cache_, q0_, v0_, 1e-3, nullptr, &problem_);
    assembly.Append(1).blocks[0].tree = 0;
    AddCartesianImpedanceConstraints(controllers_, &assembly, &first_, &rows_);
  }

  // The gains, limit and error of controller i's block k (0: translation).
  struct BlockData {
    double K, D, limit;
    Vector3 e0, v_d;
  };
  BlockData Block(int i, int k) const {
    const CartesianImpedance& c = controllers_[i];
    const CartesianImpedanceErrors e = CalcCartesianImpedanceErrors(c, cache_.X_WB[c.body]);
    if (k == 0) return {c.translational_stiffness, c.translational_damping, c.max_force, e.translation, c.v_WT};
    return {c.rotational_stiffness, c.rotational_damping, c.max_torque, e.rotation, c.w_WT};
  }

  ImpedanceScene s_;
  KinematicsCache cache_;
  VectorX q0_, v0_;
  ContactProblem problem_;
  std::vector<CartesianImpedance> controllers_;
  std::vector<int> first_;
  std::vector<CartesianImpedanceRows> rows_;
};

TEST_F(CartesianImpedanceConstraintsTest, LayoutOriginsAndKeys) {
  Build();
  // The other family's constraint; controller 0: 6 rows; 1: 6 + 2 posture;
  // 2: none (welded); 3: 3 translational rows.
  ASSERT_EQ(first_, (std::vector<int>{1, 7, -1, 15}));
  ASSERT_EQ(problem_.constraints.size(), 18u);
  EXPECT_EQ(rows_[0].num_translation, 3);
  EXPECT_EQ(rows_[0].num_rotation, 3);
  EXPECT_EQ(rows_[1].num_posture, 2);
  EXPECT_EQ(rows_[2].first_constraint, -1);
  EXPECT_EQ(rows_[3].num_translation, 3);
  EXPECT_EQ(rows_[3].num_rotation, 0);
  std::set<std::uint64_t> keys;
  for (const int i : {0, 1, 3}) {
    const int n = rows_[i].num_translation + rows_[i].num_rotation + rows_[i].num_posture;
    for (int r = 0; r < n; ++r) {
      const Constraint& c = problem_.constraints[first_[i] + r];
      EXPECT_EQ(c.kind, ConstraintKind::kClamped);
      EXPECT_EQ(c.num_rows, 1);
      EXPECT_EQ(c.origin, ConstraintOrigin::kCartesian);
      ASSERT_EQ(c.blocks.size(), 1u);
      const int body = r < 6 ? controllers_[i].body : s_.model.joint(controllers_[i].posture[r - 6].joint).child;
      EXPECT_EQ(c.blocks[0].tree, s_.model.body(body).tree) << i << " " << r;
      EXPECT_EQ(c.key, MakeConstraintKey(ConstraintOrigin::kCartesian, static_cast<std::uint64_t>(i),
                                         static_cast<std::uint64_t>(r), 0));
      keys.insert(c.key);
    }
  }
  // Distinct from each other and from the actuators' index space.
  EXPECT_EQ(keys.size(), 17u);
  EXPECT_EQ(keys.count(MakeConstraintKey(ConstraintOrigin::kActuator, 0, 0, 0)), 0u);
}

TEST_F(CartesianImpedanceConstraintsTest, RowFrameFirstAxisAlongTheError) {
  Build();
  for (const int i : {0, 1, 3}) {
    for (int k = 0; k < 2; ++k) {
      if (k == 1 && i == 3) continue;
      const Matrix3& Q = k == 0 ? rows_[i].R_WRt : rows_[i].R_WRr;
      const Vector3 e0 = Block(i, k).e0;
      ASSERT_GT(e0.norm(), 1e-3);
      EXPECT_LT((Q.transpose() * Q - Matrix3::Identity()).norm(), 1e-14) << i << " " << k;
      EXPECT_NEAR(Q.determinant(), 1.0, 1e-14);
      EXPECT_LT((Q.col(0) - e0.normalized()).norm(), 1e-15) << i << " " << k;
      // The error in the rows' frame is (|e0|, 0, 0).
      const Vector3 e_rows = Q.transpose() * e0;
      EXPECT_NEAR(e_rows[0], e0.norm(), 1e-15);
      EXPECT_NEAR(e_rows[1], 0, 1e-15);
      EXPECT_NEAR(e_rows[2], 0, 1e-15);
    }
  }
  // Axis-aligned errors (the completion must not pick a parallel axis),
  // and world axes for a vanishing error.
  for (const Vector3& e : {Vector3(0, 0, 2), Vector3(-1e-3, 0, 0), Vector3(0, 1, 1e-9)}) {
    const Matrix3 Q = CartesianRowFrame(e);
    EXPECT_LT((Q.transpose() * Q - Matrix3::Identity()).norm(), 1e-14);
    EXPECT_NEAR(Q.determinant(), 1.0, 1e-14);
    EXPECT_LT((Q.col(0) - e.normalized()).norm(), 1e-15);
  }
  EXPECT_EQ(CartesianRowFrame(Vector3::Zero()), Matrix3::Identity());
  EXPECT_EQ(CartesianRowFrame(Vector3(1e-13, 0, 0)), Matrix3::Identity());
}

TEST_F(CartesianImpedanceConstraintsTest, RowsAreTheFramesVelocityInTheRowFrame) {
  // v_c of the translational rows is Q_tᵀ v_WE (E's origin as a point of
  // the body) and of the rotational rows Q_rᵀ ω_WB, computed here from the
  // bodies' spatial velocities at random v, independently of the Jacobian.
  Build();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-2, 2);
  KinematicsCache cache(s_.model);
  for (int sample = 0; sample < 5; ++sample) {
    const VectorX v = VectorX::NullaryExpr(s_.model.num_velocities(), [&] { return u(rng); });
    CalcKinematics(s_.model, q0_, v, BodyRange::All(s_.model), &cache);
    for (const int i : {0, 1, 3}) {
      const CartesianImpedance& c = controllers_[i];
      const Vector6& V = cache.V_WB[c.body];
      const Vector3 p_WE = cache.X_WB[c.body] * c.X_BE.p;
      Vector6 expected;
      expected.head<3>() = rows_[i].R_WRt.transpose() * PointVelocity(V, p_WE);
      expected.tail<3>() = rows_[i].R_WRr.transpose() * V.head<3>();
      const int n = rows_[i].num_translation + rows_[i].num_rotation;
      for (int r = 0; r < n; ++r) {
        const Constraint& con = problem_.constraints[first_[i] + r];
        const ConstraintJacobianBlock& b = con.blocks[0];
        const double vc = (b.J * v.segment(problem_.tree_v_start[b.tree], problem_.tree_nv[b.tree]))(0);
        EXPECT_NEAR(vc, expected[r], 1e-13 * (1 + std::abs(expected[r]))) << i << " " << r;
      }
      // Posture rows: the joint's velocity.
      for (int p = 0; p < rows_[i].num_posture; ++p) {
        const Constraint& con = problem_.constraints[first_[i] + n + p];
        const ConstraintJacobianBlock& b = con.blocks[0];
        const double vc = (b.J * v.segment(problem_.tree_v_start[b.tree], problem_.tree_nv[b.tree]))(0);
        EXPECT_EQ(vc, v[s_.model.joint(c.posture[p].joint).v_start]);
      }
    }
  }
}

TEST_F(CartesianImpedanceConstraintsTest, RegularizationStabilizationAndBoundsMatchTheFormulas) {
  Build();
  for (const int i : {0, 1, 3}) {
    const int blocks = rows_[i].num_rotation == 3 ? 2 : 1;
    for (int k = 0; k < blocks; ++k) {
      const BlockData d = Block(i, k);
      const Matrix3& Q = k == 0 ? rows_[i].R_WRt : rows_[i].R_WRr;
      const double gain = kDt * d.K + d.D;
      for (int r = 0; r < 3; ++r) {
        const Constraint& c = problem_.constraints[first_[i] + 3 * k + r];
        const double R = 1 / (kDt * gain);
        EXPECT_NEAR(c.clamped.R, R, 1e-14 * R) << i << " " << k << " " << r;
        const double v_hat = (d.D * Q.col(r).dot(d.v_d) - d.K * Q.col(r).dot(d.e0)) / gain;
        EXPECT_NEAR(c.clamped.v_hat, v_hat, 1e-14 * (1 + std::abs(v_hat))) << i << " " << k << " " << r;
        EXPECT_EQ(c.clamped.lower, -kDt * d.limit);
        EXPECT_EQ(c.clamped.upper, kDt * d.limit);
      }
      // Along the error: v̂ = (D u1ᵀv_T − K |e0|)/(δt K + D).
      EXPECT_NEAR(problem_.constraints[first_[i] + 3 * k].clamped.v_hat,
                  (d.D * Q.col(0).dot(d.v_d) - d.K * d.e0.norm()) / gain, 1e-12);
    }
    // Posture rows: PD rows of k_null, d_null about q_nominal.
    const CartesianImpedance& c = controllers_[i];
    const int n = rows_[i].num_translation + rows_[i].num_rotation;
    for (int p = 0; p < rows_[i].num_posture; ++p) {
      const Constraint& con = problem_.constraints[first_[i] + n + p];
      const double gain = kDt * c.posture_stiffness + c.posture_damping;
      const double q0 = q0_[s_.model.joint(c.posture[p].joint).q_start];
      EXPECT_NEAR(con.clamped.R, 1 / (kDt * gain), 1e-14 / (kDt * gain));
      EXPECT_NEAR(con.clamped.v_hat, -c.posture_stiffness * (q0 - c.posture[p].q_nominal) / gain, 1e-14);
      EXPECT_EQ(con.clamped.upper, kDt * c.posture_effort_limit);
      EXPECT_EQ(con.clamped.lower, -kDt * c.posture_effort_limit);
    }
  }
  EXPECT_EQ(problem_.constraints[first_[1]].clamped.upper, kInf);  // Unlimited.
}

TEST_F(CartesianImpedanceConstraintsTest, RowImpulseIsTheImplicitLawClamped) {
  // Each row's impulse at any v is −δt (K (uᵀe0 + δt v_c) + D (v_c − uᵀv_T))
  // clamped to ±δt·limit: the impedance law at the end-of-step error
  // e0 + δt J_E v, projected on u.
  Build();
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> u(-30, 30);
  int saturated = 0, inside = 0;
  ConstraintEvaluation e;
  for (int sample = 0; sample < 200; ++sample) {
    const VectorX v = VectorX::NullaryExpr(s_.model.num_velocities(), [&] { return u(rng); });
    for (const int i : {0, 3}) {
      const int blocks = rows_[i].num_rotation == 3 ? 2 : 1;
      for (int k = 0; k < blocks; ++k) {
        const BlockData d = Block(i, k);
        const Matrix3& Q = k == 0 ? rows_[i].R_WRt : rows_[i].R_WRr;
        for (int r = 0; r < 3; ++r) {
          const Constraint& c = problem_.constraints[first_[i] + 3 * k + r];
          const ConstraintJacobianBlock& b = c.blocks[0];
          const VectorX vc = b.J * v.segment(problem_.tree_v_start[b.tree], problem_.tree_nv[b.tree]);
          c.Evaluate(vc, &e);
          const double e0 = Q.col(r).dot(d.e0), vd = Q.col(r).dot(d.v_d);
          const double unclamped = -kDt * (d.K * (e0 + kDt * vc[0]) + d.D * (vc[0] - vd));
          const double limit = kDt * d.limit;
          ++(std::abs(unclamped) > limit ? saturated : inside);
          const double scale = kDt * (d.K * (std::abs(e0) + kDt * std::abs(vc[0])) +
                                      d.D * (std::abs(vc[0]) + std::abs(vd)));
          EXPECT_NEAR(e.gamma(0), std::clamp(unclamped, -limit, limit), 1e-13 * scale) << i << " " << k << " " << r;
        }
      }
    }
  }
  EXPECT_GT(saturated, 100);
  EXPECT_GT(inside, 100);
}

TEST_F(CartesianImpedanceConstraintsTest, CostImpulseAndHessianMatchFiniteDifferences) {
  // γ = −∂ℓ/∂v_c and G = ∂²ℓ/∂v_c² by central differences of the cost,
  // at velocities inside the limits and beyond them (on both sides), for
  // every row of every controller.
  Build();
  ConstraintEvaluation e, ep, em;
  int beyond = 0, within = 0;
  for (std::size_t k = 1; k < problem_.constraints.size(); ++k) {
    const Constraint& c = problem_.constraints[k];
    const SapClampedParameters& p = c.clamped;
    // y = −(v_c − v̂)/R reaches the bound b at v_c = v̂ − R b.
    std::vector<double> samples = {p.v_hat, p.v_hat + 0.3 * p.R * std::min(1.0, p.upper),
                                   p.v_hat - 0.3 * p.R * std::min(1.0, p.upper)};
    if (std::isfinite(p.upper)) {
      samples.push_back(p.v_hat - 3 * p.R * p.upper);  // y > upper.
      samples.push_back(p.v_hat + 3 * p.R * p.upper);  // y < lower.
    }
    for (const double vc : samples) {
      Eigen::Matrix<double, 1, 1> x(vc);
      c.Evaluate(x, &e);
      const double y = -(vc - p.v_hat) / p.R;
      const bool out = y > p.upper || y < p.lower;
      ++(out ? beyond : within);
      // Step: small against the distance to the kinks at v̂ − R·bounds.
      const double h = 1e-4 * p.R * (std::isfinite(p.upper) ? p.upper : 1.0);
      Eigen::Matrix<double, 1, 1> xp(vc + h), xm(vc - h);
      c.Evaluate(xp, &ep);
      const double gp = ep.gamma(0), lp = ep.cost;
      c.Evaluate(xm, &em);
      const double gm = em.gamma(0), lm = em.cost;
      const double dl = (lp - lm) / (2 * h);
      const double scale = std::abs(e.gamma(0)) + std::abs(e.cost / (p.R * (std::isfinite(p.upper) ? p.upper : 1)));
      EXPECT_NEAR(e.gamma(0), -dl, 1e-7 * scale + 1e-12) << k << " vc " << vc;
      const double d2l = (gm - gp) / (2 * h);  // −∂γ/∂v_c.
      EXPECT_NEAR(e.G(0, 0), d2l, 1e-6 / p.R) << k << " vc " << vc;
      EXPECT_EQ(e.G(0, 0), out ? 0.0 : 1 / p.R) << k;
    }
  }
  EXPECT_GT(beyond, 20);
  EXPECT_GT(within, 40);
}

TEST(CartesianImpedanceErrorTest, RotationErrorOfAKnownRotation) {
  // E turned 30° about a from the target: e_r = (π/6) a, in world axes,
  // whatever the target's own orientation and E's offset on the body.
  const Vector3 a = Vector3(1, -2, 0.5).normalized();
  CartesianImpedance c;
  c.X_BE.R = Eigen::AngleAxisd(0.4, Vector3(0, 1, 1).normalized()).toRotationMatrix();
  c.X_BE.p = Vector3(0.1, 0.2, -0.3);
  c.X_WT.R = Eigen::AngleAxisd(1.1, Vector3(1, 0, 1).normalized()).toRotationMatrix();
  c.X_WT.p = Vector3(1, 2, 3);
  for (const double angle : {kTestPi / 6, 1e-7, 3.0}) {
    // R_WE = Exp(angle a) R_WT, so R_WB = R_WE R_BEᵀ.
    RigidTransform X_WB;
    X_WB.R = Eigen::AngleAxisd(angle, a).toRotationMatrix() * c.X_WT.R * c.X_BE.R.transpose();
    X_WB.p = Vector3(0.5, -0.5, 1) - X_WB.R * c.X_BE.p;  // p_WE = (0.5, −0.5, 1).
    const CartesianImpedanceErrors e = CalcCartesianImpedanceErrors(c, X_WB);
    EXPECT_LT((e.rotation - angle * a).norm(), 1e-14 + 1e-9 * angle) << angle;
    EXPECT_LT((e.translation - (Vector3(0.5, -0.5, 1) - c.X_WT.p)).norm(), 1e-14);
  }
  // Beyond π the log map takes the short way: 200° about a is 160° about −a.
  const double deg = kTestPi / 180;
  EXPECT_LT((RotationVector(Eigen::AngleAxisd(200 * deg, a).toRotationMatrix()) + 160 * deg * a).norm(), 1e-12);
  EXPECT_EQ(RotationVector(Matrix3::Identity()), Vector3::Zero());
}

TEST(CartesianImpedanceValidateTest, BadInputThrowsNamingTheParameter) {
  const ImpedanceScene s = MakeScene();
  CartesianImpedance good;
  good.body = s.free;
  good.translational_stiffness = 100;
  EXPECT_NO_THROW(ValidateCartesianImpedance(good, s.model));
  auto expect_throw = [&](const std::string& key, auto&& mutate) {
    CartesianImpedance c = good;
    mutate(c);
    try {
      ValidateCartesianImpedance(c, s.model);
      ADD_FAILURE() << key << ": no throw";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_throw("body", [](CartesianImpedance& c) { c.body = 0; });
  expect_throw("body", [](CartesianImpedance& c) { c.body = 99; });
  expect_throw("translational_stiffness", [](CartesianImpedance& c) { c.translational_stiffness = -1; });
  expect_throw("translational_damping", [&](CartesianImpedance& c) { c.translational_damping = nan; });
  expect_throw("rotational_stiffness", [](CartesianImpedance& c) { c.rotational_stiffness = kInf; });
  expect_throw("rotational_damping", [](CartesianImpedance& c) { c.rotational_damping = -0.1; });
  expect_throw("max_force", [](CartesianImpedance& c) { c.max_force = 0; });
  expect_throw("max_torque", [&](CartesianImpedance& c) { c.max_torque = nan; });
  expect_throw("X_WT", [&](CartesianImpedance& c) { c.X_WT.p.x() = nan; });
  expect_throw("X_WT", [](CartesianImpedance& c) { c.X_WT.R(0, 0) = 2; });
  expect_throw("X_BE", [](CartesianImpedance& c) { c.X_BE.R = -Matrix3::Identity(); });
  expect_throw("v_WT", [](CartesianImpedance& c) { c.v_WT.y() = kInf; });
  expect_throw("w_WT", [&](CartesianImpedance& c) { c.w_WT.z() = nan; });
  expect_throw("posture[0].joint", [&](CartesianImpedance& c) {
    c.posture = {{s.model.body(s.free).joint, 0}};  // A free joint.
    c.posture_stiffness = 1;
  });
  expect_throw("posture_stiffness", [&](CartesianImpedance& c) {
    c.posture = {{s.model.body(s.link0).joint, 0}};  // No posture gains.
  });
  expect_throw("posture_effort_limit", [](CartesianImpedance& c) { c.posture_effort_limit = -1; });
}

}  // namespace
}  // namespace stiction
