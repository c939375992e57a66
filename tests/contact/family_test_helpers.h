#pragma once
// Shared fixtures of the constraint-family tests (tests/contact/): pieces of
// the small MultibodyModels they build by hand (a free body with a box
// inertia, a prismatic slider carrying a revolute elbow, a revolute chain, a
// body welded to the world), joint lookups within a tree, and a
// ContactProblem prepared the way the stepper fills it before the families
// run (δt, the trees' velocity slices, A per tree, v*), with the random SPD
// A of known conditioning that the families' tolerances rely on; plus the
// dense views (block-diagonal A, a constraint's full Jacobian) that
// independent checks compare against.
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/contact/contact_problem.h"
#include "engine/multibody/multibody_model.h"
#include "tests/multibody/test_models.h"

namespace stiction::test {

/// A body named `name` with the rotational inertia of a uniform box of the
/// given size about its COM.
/// A random pose: a uniformly drawn quaternion direction, position in [-1, 1]³ m.
inline RigidTransform RandomPose(std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  RigidTransform X;
  X.R = Quaternion(u(*rng), u(*rng), u(*rng), u(*rng)).normalized().toRotationMatrix();
  X.p = Vector3(u(*rng), u(*rng), u(*rng));
  return X;
}

inline Body BoxBody(const std::string& name, double mass, const Vector3& com_B, const Vector3& box_size) {
  Body b;
  b.name = name;
  b.mass = mass;
  b.com_B = com_B;
  b.I_Bcm_B = BoxInertia(mass, box_size);
  return b;
}

/// Adds `body` on a free joint from the world (its own tree, 6 velocities),
/// the joint named `joint_name` or, if empty, like the body. Returns the
/// body index.
inline int AddFreeBody(MultibodyModel* model, const Body& body, const std::string& joint_name = "") {
  Joint free;
  free.type = JointType::kFree;
  free.name = joint_name.empty() ? body.name : joint_name;
  return model->AddBody(body, free);
}

/// Adds `body`, renamed `name`, welded to the world with its joint frame at
/// p_WF (a tree without velocities); the joint named `joint_name` or, if
/// empty, `name`. Returns the body index.
inline int AddWeldedBody(MultibodyModel* model, Body body, const std::string& name,
                         const Vector3& p_WF = Vector3::Zero(), const std::string& joint_name = "") {
  Joint weld;
  weld.type = JointType::kFixed;
  body.name = name;
  weld.name = joint_name.empty() ? name : joint_name;
  weld.X_PF.p = p_WF;
  return model->AddBody(body, weld);
}

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

/// A joint's range [lower, upper]; unlimited by default.
struct JointRange {
  double lower = -kNoLimit, upper = kNoLimit;
};

/// One link of AddRevoluteChain: `body` renamed `name` on a revolute joint
/// about axis_F whose frame sits at p_PF on the previous link (the world for
/// the first); the joint named `joint_name` or, if empty, `name`.
struct RevoluteLink {
  std::string name;
  Vector3 axis_F;
  Vector3 p_PF;
  JointRange range = {};
  std::string joint_name = "";
};

/// Adds a chain of revolute links, all with `body`'s inertia, hanging from
/// the world (one tree). Returns the body indices, base first.
/// Three revolute links on non-parallel axes (z, y, and x+z), for families
/// whose Jacobians must be checked on a chain that is not planar.
inline const std::vector<RevoluteLink> kThreeSkewedLinks = {
    {"link0", Vector3::UnitZ(), Vector3(1, 0, 0)},
    {"link1", Vector3::UnitY(), Vector3(0, 0.1, 0.4)},
    {"link2", Vector3(1, 0, 1).normalized(), Vector3(0, 0.1, 0.4)}};

inline std::vector<int> AddRevoluteChain(MultibodyModel* model, Body body, const std::vector<RevoluteLink>& links) {
  std::vector<int> bodies;
  int parent = 0;
  for (const RevoluteLink& link : links) {
    Joint hinge;
    hinge.type = JointType::kRevolute;
    body.name = link.name;
    hinge.name = link.joint_name.empty() ? link.name : link.joint_name;
    hinge.parent = parent;
    hinge.axis_F = link.axis_F;
    hinge.X_PF.p = link.p_PF;
    hinge.lower_limit = link.range.lower;
    hinge.upper_limit = link.range.upper;
    parent = model->AddBody(body, hinge);
    bodies.push_back(parent);
  }
  return bodies;
}

/// Body indices of AddSliderElbow's pair.
struct SliderElbow {
  int slider = 0, forearm = 0;
};

/// Adds one 2-DOF tree with `body`'s inertia: "slider" on a prismatic joint
/// along x from the world, and "forearm" on a revolute elbow about y whose
/// frame sits 0.3 m up the slider (so the elbow is the tree's column 1).
/// Joints are named like their bodies.
inline SliderElbow AddSliderElbow(MultibodyModel* model, Body body, const JointRange& slide_range = {},
                                  const JointRange& elbow_range = {}) {
  SliderElbow out;
  Joint slide;
  slide.type = JointType::kPrismatic;
  slide.name = body.name = "slider";
  slide.axis_F = Vector3::UnitX();
  slide.lower_limit = slide_range.lower;
  slide.upper_limit = slide_range.upper;
  out.slider = model->AddBody(body, slide);
  Joint elbow;
  elbow.type = JointType::kRevolute;
  elbow.name = body.name = "forearm";
  elbow.parent = out.slider;
  elbow.axis_F = Vector3::UnitY();
  elbow.X_PF.p = Vector3(0, 0, 0.3);
  elbow.lower_limit = elbow_range.lower;
  elbow.upper_limit = elbow_range.upper;
  out.forearm = model->AddBody(body, elbow);
  return out;
}

/// The tree that joint `j` moves.
inline int TreeOfJoint(const MultibodyModel& model, int j) { return model.body(model.joint(j).child).tree; }

/// Joint `j`'s (first) velocity column within its tree's velocities.
inline int ColumnInTree(const MultibodyModel& model, int j) {
  return model.joint(j).v_start - model.tree(TreeOfJoint(model, j)).v_start;
}

/// A random SPD matrix B Bᵀ + n 𝟙 (entries of B in [−1, 1]): eigenvalues in
/// [n, 2n], condition number ≤ 2, so inverses are accurate to ~1e-15.
inline MatrixX RandomSpd(int n, std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const MatrixX B = MatrixX::NullaryExpr(n, n, [&] { return u(*rng); });
  return B * B.transpose() + n * MatrixX::Identity(n, n);
}

/// A problem for `model` as the stepper prepares it for the families: δt,
/// each tree's velocity slice, A_t = make_A(t) for the trees in order, and
/// v* = 0 (callers that need another v* set it after).
template <typename MakeA>
ContactProblem TreeProblem(const MultibodyModel& model, double dt, MakeA&& make_A) {
  ContactProblem p;
  p.dt = dt;
  for (int t = 0; t < model.num_trees(); ++t) {
    p.tree_v_start.push_back(model.tree(t).v_start);
    p.tree_nv.push_back(model.tree(t).nv);
    p.A.push_back(make_A(t));
  }
  p.v_star = VectorX::Zero(model.num_velocities());
  return p;
}

/// TreeProblem with a RandomSpd A per tree, drawn from *rng in tree order.
inline ContactProblem RandomSpdProblem(const MultibodyModel& model, double dt, std::mt19937* rng) {
  return TreeProblem(model, dt, [&](int t) { return RandomSpd(model.tree(t).nv, rng); });
}

/// The problem's A as one block-diagonal nv × nv matrix.
inline MatrixX BlockDiagonalA(const ContactProblem& p) {
  const int nv = p.num_velocities();
  MatrixX A = MatrixX::Zero(nv, nv);
  for (int t = 0; t < p.num_trees(); ++t) {
    A.block(p.tree_v_start[t], p.tree_v_start[t], p.tree_nv[t], p.tree_nv[t]) = p.A[t];
  }
  return A;
}

/// Constraint c's Jacobian blocks as one rows × nv matrix.
inline MatrixX DenseJacobian(const Constraint& c, const ContactProblem& p, int rows) {
  MatrixX J = MatrixX::Zero(rows, p.num_velocities());
  for (const ConstraintJacobianBlock& b : c.blocks) {
    J.middleCols(p.tree_v_start[b.tree], p.tree_nv[b.tree]) += b.J;
  }
  return J;
}

}  // namespace stiction::test
