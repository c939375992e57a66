#include "engine/contact/tendon_constraints.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <set>
#include <span>

#include "engine/contact/clamped_constraint.h"
#include "engine/contact/near_rigid.h"

namespace stiction {
namespace {

// ℓ [m] of the carried-load estimate (near_rigid.h, Eq. L1) for a tendon
// row with Delassus value w: 1 when every joint slides (the impulse is a
// force), else the radius of gyration ℓ² = 1/(w m) of what the row moves,
// m the mass of the joints' subtrees (as a joint coupler's).
double TendonLoadLength(const MultibodyModel& model, const TendonConstraint& tendon, double w) {
  bool revolute = false;
  std::set<int> moved;
  for (const auto& [joint, c] : tendon.joints) {
    revolute = revolute || model.joint(joint).type == JointType::kRevolute;
    for (int b : model.Subtree(model.joint(joint).child)) moved.insert(b);
  }
  if (!revolute) return 1.0;
  double mass = 0;
  for (int b : moved) mass += model.body(b).mass;
  return mass > 0 ? 1 / std::sqrt(w * mass) : 1.0;
}

// Appends the row's constraint with J = sign · Σ c_i e_i, one block per tree
// (at most two, the compiler's check), and returns it.
Constraint& AppendTendonRow(const MultibodyModel& model, const std::vector<std::pair<int, double>>& joints,
                            double sign, ConstraintAssembly* assembly) {
  std::vector<int> trees;
  for (const auto& [joint, c] : joints) {
    const int tree = model.body(model.joint(joint).child).tree;
    if (std::find(trees.begin(), trees.end(), tree) == trees.end()) trees.push_back(tree);
  }
  assert(!trees.empty() && trees.size() <= 2);
  Constraint& constraint = assembly->Append(static_cast<int>(trees.size()));
  constraint.num_rows = 1;
  for (std::size_t k = 0; k < trees.size(); ++k) {
    constraint.blocks[k].tree = trees[k];
    constraint.blocks[k].J.setZero(1, model.tree(trees[k]).nv);
  }
  for (const auto& [joint, c] : joints) {
    const Joint& j = model.joint(joint);
    const int tree = model.body(j.child).tree;
    const std::size_t k = tree == trees[0] ? 0 : 1;
    constraint.blocks[k].J(0, j.v_start - model.tree(tree).v_start) += sign * c;
  }
  return constraint;
}

}  // namespace

double CalcTendonLength(const MultibodyModel& model, const std::vector<std::pair<int, double>>& joints,
                        const VectorX& q) {
  double length = 0;
  for (const auto& [joint, c] : joints) length += c * q[model.joint(joint).q_start];
  return length;
}

void AddTendonServoConstraints(const std::vector<TendonServo>& servos, ConstraintAssembly* assembly) {
  const MultibodyModel& model = assembly->model();
  for (const TendonServo& servo : servos) {
    const double length = CalcTendonLength(model, servo.joints, assembly->q0());
    Constraint& c = AppendTendonRow(model, servo.joints, 1.0, assembly);
    c.kind = ConstraintKind::kClamped;
    c.origin = ConstraintOrigin::kActuator;
    c.key = MakeConstraintKey(ConstraintOrigin::kActuator,
                              static_cast<std::uint64_t>(&servo - servos.data()), 1, 0);
    c.clamped = ImplicitPdRow(assembly->dt(), servo.kp, servo.kd, length - servo.target_length,
                              servo.target_velocity, servo.effort_limit);
  }
}

void AddTendonConstraints(const std::vector<TendonConstraint>& tendons, const ContactModelParameters& params,
                          ConstraintAssembly* assembly) {
  const MultibodyModel& model = assembly->model();
  const ContactProblem& problem = assembly->problem();
  const double beta = params.near_rigid_threshold;
  const double dt = assembly->dt();
  const double tau_d = NearRigidDissipationTime(beta, dt);
  for (const TendonConstraint& tendon : tendons) {
    const std::uint64_t index = static_cast<std::uint64_t>(&tendon - tendons.data());
    const double length = CalcTendonLength(model, tendon.joints, assembly->q0());
    if (tendon.lower == tendon.upper) {
      Constraint& c = AppendTendonRow(model, tendon.joints, 1.0, assembly);
      const double w = assembly->RowDelassus(c);
      c.kind = ConstraintKind::kBilateral;
      c.origin = ConstraintOrigin::kTendon;
      c.key = MakeConstraintKey(ConstraintOrigin::kTendon, index, 2, 0);
      const std::span<const double> previous = assembly->PreviousImpulse(c.key, 1);
      const double load = previous.empty() ? 0.0 : std::abs(previous[0]);
      const double lambda = assembly->LoadFactor(w, load, TendonLoadLength(model, tendon, w), params);
      c.bilateral.R.resize(1);
      c.bilateral.R[0] = RigidConstraintRegularization(beta, w / lambda);
      c.bilateral.v_hat.resize(1);
      c.bilateral.v_hat[0] = -(length - tendon.lower) / (dt + tau_d);
      continue;
    }
    double speed = 0;  // |L̇| in the free motion.
    for (const auto& [joint, c] : tendon.joints) speed += c * problem.v_star[model.joint(joint).v_start];
    const double reach = assembly->margin() + 2 * dt * std::abs(speed);
    for (int side = 0; side < 2; ++side) {
      const double limit = side == 0 ? tendon.lower : tendon.upper;
      if (!std::isfinite(limit)) continue;
      const double phi = side == 0 ? length - limit : limit - length;
      if (phi > reach) continue;
      Constraint& c = AppendTendonRow(model, tendon.joints, side == 0 ? 1.0 : -1.0, assembly);
      const double w = assembly->RowDelassus(c);
      c.kind = ConstraintKind::kClamped;
      c.origin = ConstraintOrigin::kTendon;
      c.key = MakeConstraintKey(ConstraintOrigin::kTendon, index, static_cast<std::uint64_t>(side), 0);
      const std::span<const double> previous = assembly->PreviousImpulse(c.key, 1);
      const double lambda = previous.empty() || !(previous[0] > 0)
                                ? 1.0
                                : assembly->LoadFactor(w, previous[0], TendonLoadLength(model, tendon, w), params);
      c.clamped.R = RigidConstraintRegularization(beta, w / lambda);
      c.clamped.v_hat = -phi / (dt + tau_d);
      c.clamped.lower = 0;
      c.phi0 = phi;
    }
  }
}

}  // namespace stiction
