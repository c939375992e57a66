#pragma once
// Immutable topology and inertias of a forest of articulated trees in
// generalized coordinates. Built once (by ModelBuilder or by hand in tests);
// never changed by stepping.
//
// Conventions (see docs/architecture.md):
//  - Body 0 is the world. Bodies are stored in topological order; every body
//    b ≥ 1 has exactly one inboard joint connecting it to parent(b) < b.
//  - The bodies of one tree are contiguous, and so are its q and v entries.
//  - Spatial vectors are [angular; linear], expressed in the world frame W and
//    measured at the world origin (Featherstone's absolute formulation), which
//    makes composite inertias simple sums.
//  - Quaternions are stored w, x, y, z.
#include <limits>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction {

struct Joint {
  std::string name;
  JointType type = JointType::kFixed;
  int parent = 0;  ///< Parent body index (0 = world).
  int child = 0;   ///< Child body index.
  RigidTransform X_PF;  ///< Joint frame F on the parent.
  RigidTransform X_CM;  ///< Joint frame M on the child.
  Vector3 axis_F = Vector3::UnitZ();  ///< Unit axis for revolute/prismatic, in F.
  int q_start = 0, nq = 0;  ///< Slice of the generalized positions.
  int v_start = 0, nv = 0;  ///< Slice of the generalized velocities.
  double lower_limit = -std::numeric_limits<double>::infinity();  ///< [rad] or [m].
  double upper_limit = std::numeric_limits<double>::infinity();   ///< [rad] or [m].
  double spring_stiffness = 0;  ///< [N m/rad] or [N/m].
  double spring_reference = 0;  ///< [rad] or [m].
  double damping = 0;           ///< [N m s/rad] or [N s/m].
  double rotor_inertia = 0;     ///< [kg m²] or [kg], on each velocity (revolute, prismatic, ball).
};

struct Body {
  std::string name;
  double mass = 0;                    ///< [kg]; 0 only for bodies on fixed joints and joint frames.
  Vector3 com_B = Vector3::Zero();    ///< [m], body frame.
  Matrix3 I_Bcm_B = Matrix3::Zero();  ///< [kg m²] about the COM, body axes.
  int parent = -1;   ///< Parent body; -1 for the world.
  int joint = -1;    ///< Inboard joint index; -1 for the world.
  int tree = -1;     ///< Tree index; -1 for the world.
  /// A massless frame between two joints of one imported body
  /// (BodyDescription::joint_frame): it moves, its joint's motion getting
  /// its inertia from the bodies outboard of it.
  bool joint_frame = false;
};

/// A tree: a subtree hanging from the world. Bodies, q and v are contiguous.
struct Tree {
  int body_begin = 0, body_end = 0;  ///< [begin, end) body indices.
  int q_start = 0, nq = 0;
  int v_start = 0, nv = 0;
};

class MultibodyModel {
 public:
  MultibodyModel();

  /// Adds a body and its inboard joint. The parent must already exist (index
  /// < new index). A body on a fixed joint may be massless (mass 0 and zero
  /// inertia); a joint frame must be. Throws InputError on bad input
  /// (non-positive mass, inertia not symmetric positive definite, non-unit
  /// axis, unknown parent).
  int AddBody(const Body& body, const Joint& joint);
  /// Must be called once after the last AddBody; computes trees and slices.
  /// Throws InputError for a joint frame with no mass outboard of it (M(q)
  /// would be singular).
  void Finalize();

  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  int num_joints() const { return static_cast<int>(joints_.size()); }
  int num_trees() const { return static_cast<int>(trees_.size()); }
  int num_positions() const { return nq_; }
  int num_velocities() const { return nv_; }
  const Body& body(int b) const { return bodies_[b]; }
  const Joint& joint(int j) const { return joints_[j]; }
  const Tree& tree(int t) const { return trees_[t]; }
  const std::vector<Body>& bodies() const { return bodies_; }
  const std::vector<Joint>& joints() const { return joints_; }
  const Vector3& gravity() const { return gravity_W_; }
  void set_gravity(const Vector3& g_W) { gravity_W_ = g_W; }
  /// Index of a body by name, -1 when absent.
  int FindBody(const std::string& name) const;
  /// Index of a joint by name, -1 when absent.
  int FindJoint(const std::string& name) const;
  /// Body `root` and every body outboard of it, in index order (root first).
  std::vector<int> Subtree(int root) const;

  /// Zero configuration: identity quaternions, zero joint coordinates.
  VectorX DefaultPositions() const;
  /// Normalizes every quaternion in q in place (free and ball joints).
  void NormalizeQuaternions(VectorX* q) const;

  /// The kinematic map q̇ = N(q) v ([SAP] Eq. 11). For free and ball
  /// joints the angular velocity ω_M (in the child joint frame M) maps to
  /// the quaternion rate q̇ = ½ q ⊗ [0, ω_M]; everything else is the identity.
  /// Writes into qdot (resized to num_positions()). With tree ≥ 0 only that
  /// tree's entries are written.
  void MapVelocityToQDot(const VectorX& q, const VectorX& v, VectorX* qdot,
                         int tree = -1) const;

 private:
  std::vector<Body> bodies_;
  std::vector<Joint> joints_;
  std::vector<Tree> trees_;
  Vector3 gravity_W_ = Vector3(0, 0, -9.81);
  int nq_ = 0, nv_ = 0;
  bool finalized_ = false;
};

/// Joint coordinate counts per type: {nq, nv}.
int JointNumPositions(JointType type);
int JointNumVelocities(JointType type);

}  // namespace stiction
