#include "engine/multibody/multibody_model.h"

#include <cmath>
#include <sstream>

#include <Eigen/Eigenvalues>

#include "engine/common/error.h"

namespace stiction {

int JointNumPositions(JointType type) {
  switch (type) {
    case JointType::kFree: return 7;
    case JointType::kBall: return 4;
    case JointType::kRevolute:
    case JointType::kPrismatic: return 1;
    case JointType::kFixed: return 0;
  }
  return 0;
}

int JointNumVelocities(JointType type) {
  switch (type) {
    case JointType::kFree: return 6;
    case JointType::kBall: return 3;
    case JointType::kRevolute:
    case JointType::kPrismatic: return 1;
    case JointType::kFixed: return 0;
  }
  return 0;
}

MultibodyModel::MultibodyModel() {
  Body world;
  world.name = "world";
  bodies_.push_back(world);
}

int MultibodyModel::AddBody(const Body& body_in, const Joint& joint_in) {
  if (finalized_) throw InputError("MultibodyModel::AddBody: model already finalized");
  const int index = num_bodies();
  auto fail = [&](const std::string& what) {
    throw InputError("body '" + body_in.name + "': " + what);
  };
  // A body welded to its parent (fixed joint) may be massless: a frame that
  // carries geometry, as a URDF tool frame does. Its mass, if any, simply
  // adds to the composite inertia of the body it is welded to. A joint frame
  // moves massless: its joint's motion moves the bodies outboard of it,
  // whose inertia it gets in M(q) (checked in Finalize), as MuJoCo's joints
  // after the first on one body do.
  const bool zero_inertia = body_in.mass == 0 && body_in.I_Bcm_B.isZero(0.0);
  if (body_in.joint_frame && !zero_inertia) fail("a joint frame carries no mass or inertia");
  const bool massless = (joint_in.type == JointType::kFixed || body_in.joint_frame) && zero_inertia;
  if (!massless && (!(body_in.mass > 0) || !std::isfinite(body_in.mass))) {
    std::ostringstream os;
    os << "mass must be positive and finite, got " << body_in.mass;
    fail(os.str());
  }
  if (!body_in.com_B.allFinite() || !body_in.I_Bcm_B.allFinite()) fail("non-finite inertia");
  if ((body_in.I_Bcm_B - body_in.I_Bcm_B.transpose()).norm() >
      1e-9 * (1 + body_in.I_Bcm_B.norm())) {
    fail("rotational inertia is not symmetric");
  }
  Eigen::SelfAdjointEigenSolver<Matrix3> eig(body_in.I_Bcm_B);
  if (!massless && eig.eigenvalues().minCoeff() <= 0) fail("rotational inertia is not positive definite");
  if (joint_in.parent < 0 || joint_in.parent >= index) {
    fail("parent body index " + std::to_string(joint_in.parent) + " does not exist yet");
  }
  Joint joint = joint_in;
  joint.child = index;
  joint.nq = JointNumPositions(joint.type);
  joint.nv = JointNumVelocities(joint.type);
  joint.q_start = nq_;
  joint.v_start = nv_;
  if (joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic) {
    const double n = joint.axis_F.norm();
    if (!(n > 0) || !std::isfinite(n)) fail("joint '" + joint.name + "' has a zero axis");
    joint.axis_F /= n;
  }
  for (double x : {joint.spring_stiffness, joint.damping, joint.rotor_inertia}) {
    if (!(x >= 0) || !std::isfinite(x)) {
      fail("joint '" + joint.name + "' spring, damping and rotor inertia must be >= 0 and finite");
    }
  }
  nq_ += joint.nq;
  nv_ += joint.nv;

  Body body = body_in;
  body.parent = joint.parent;
  body.joint = static_cast<int>(joints_.size());
  body.tree = joint.parent == 0 ? -1 : bodies_[joint.parent].tree;  // Set in Finalize.
  bodies_.push_back(body);
  joints_.push_back(joint);
  return index;
}

void MultibodyModel::Finalize() {
  trees_.clear();
  for (int b = 1; b < num_bodies(); ++b) {
    Body& body = bodies_[b];
    const Joint& joint = joints_[body.joint];
    if (body.parent == 0) {
      Tree t;
      t.body_begin = b;
      t.body_end = b + 1;
      t.q_start = joint.q_start;
      t.v_start = joint.v_start;
      trees_.push_back(t);
      body.tree = num_trees() - 1;
    } else {
      body.tree = bodies_[body.parent].tree;
      Tree& t = trees_[body.tree];
      if (t.body_end != b) {
        throw InputError("body '" + body.name +
                         "': bodies of one tree must be added contiguously");
      }
      t.body_end = b + 1;
    }
    Tree& t = trees_[body.tree];
    t.nq = joint.q_start + joint.nq - t.q_start;
    t.nv = joint.v_start + joint.nv - t.v_start;
  }
  // Parents come before children, so one backward pass sums each subtree.
  std::vector<double> subtree_mass(bodies_.size(), 0.0);
  for (int b = num_bodies() - 1; b > 0; --b) {
    subtree_mass[b] += bodies_[b].mass;
    subtree_mass[bodies_[b].parent] += subtree_mass[b];
  }
  for (int b = 1; b < num_bodies(); ++b) {
    if (bodies_[b].joint_frame && !(subtree_mass[b] > 0)) {
      throw InputError("body '" + bodies_[b].name + "': a joint frame needs a body with mass outboard of it (its joint '" +
                       joints_[bodies_[b].joint].name + "' would move no inertia)");
    }
  }
  finalized_ = true;
}

int MultibodyModel::FindBody(const std::string& name) const {
  for (int b = 0; b < num_bodies(); ++b) {
    if (bodies_[b].name == name) return b;
  }
  return -1;
}

int MultibodyModel::FindJoint(const std::string& name) const {
  for (int j = 0; j < num_joints(); ++j) {
    if (joints_[j].name == name) return j;
  }
  return -1;
}

std::vector<int> MultibodyModel::Subtree(int root) const {
  // Bodies of a tree are contiguous with parents first: a descendant comes
  // after `root`, and its parent chain reaches `root` before dropping below it.
  std::vector<int> out;
  const int end = root == 0 ? num_bodies() : tree(body(root).tree).body_end;
  for (int b = root; b < end; ++b) {
    int a = b;
    while (a > root) a = bodies_[a].parent;
    if (a == root) out.push_back(b);
  }
  return out;
}

VectorX MultibodyModel::DefaultPositions() const {
  VectorX q = VectorX::Zero(nq_);
  for (const Joint& j : joints_) {
    if (j.type == JointType::kFree || j.type == JointType::kBall) q[j.q_start] = 1.0;
  }
  return q;
}

void MultibodyModel::NormalizeQuaternions(VectorX* q) const {
  for (const Joint& j : joints_) {
    if (j.type == JointType::kFree || j.type == JointType::kBall) {
      auto quat = q->segment<4>(j.q_start);
      const double n = quat.norm();
      if (n > 0) quat /= n;
    }
  }
}

void MultibodyModel::MapVelocityToQDot(const VectorX& q, const VectorX& v,
                                       VectorX* qdot, int tree) const {
  qdot->resize(nq_);
  const int b0 = tree < 0 ? 1 : trees_[tree].body_begin;
  const int b1 = tree < 0 ? num_bodies() : trees_[tree].body_end;
  for (int b = b0; b < b1; ++b) {
    const Joint& j = joints_[bodies_[b].joint];
    switch (j.type) {
      case JointType::kFree:
      case JointType::kBall: {
        // q̇ = ½ q ⊗ [0, ω_M] with ω_M the angular velocity in the child frame.
        const double w = q[j.q_start];
        const Vector3 u = q.segment<3>(j.q_start + 1);
        const Vector3 omega = v.segment<3>(j.v_start);
        (*qdot)[j.q_start] = -0.5 * u.dot(omega);
        qdot->segment<3>(j.q_start + 1) = 0.5 * (w * omega + u.cross(omega));
        if (j.type == JointType::kFree) {
          qdot->segment<3>(j.q_start + 4) = v.segment<3>(j.v_start + 3);
        }
        break;
      }
      case JointType::kRevolute:
      case JointType::kPrismatic:
        (*qdot)[j.q_start] = v[j.v_start];
        break;
      case JointType::kFixed:
        break;
    }
  }
}

}  // namespace stiction
