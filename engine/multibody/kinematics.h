#pragma once
// Forward kinematics: body poses, spatial velocities, motion subspaces and
// Jacobians, for the whole forest or one tree at a time.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/multibody/multibody_model.h"

namespace stiction {

/// Position- and velocity-dependent quantities of every body, computed by
/// CalcKinematics. Spatial quantities follow spatial_algebra.h (world frame,
/// about the world origin). Entry 0 is the world (identity, at rest).
struct KinematicsCache {
  std::vector<RigidTransform> X_WB;  ///< Body frame poses.
  std::vector<RigidTransform> X_WF;  ///< Inboard joint frame F (on the parent).
  std::vector<RigidTransform> X_WM;  ///< Inboard joint frame M (on the body).
  std::vector<Vector3> p_WBcm;       ///< Centres of mass [m].
  std::vector<Matrix6> I_Wo;         ///< Spatial inertias about Wo.
  std::vector<Vector6> V_WB;         ///< Spatial velocities (at Wo).
  std::vector<Vector6> Sdot_v;       ///< Bias accelerations Ṡ v of each joint.
  Matrix6X S;                        ///< Motion subspaces, 6 × nv (columns at v_start).

  explicit KinematicsCache(const MultibodyModel& model);
};

/// A half-open range of bodies [begin, end) processed in topological order.
/// The parents of these bodies must be in the range or already up to date.
struct BodyRange {
  int begin = 1, end = 1;
  static BodyRange All(const MultibodyModel& model) { return {1, model.num_bodies()}; }
  static BodyRange OfTree(const MultibodyModel& model, int t) {
    return {model.tree(t).body_begin, model.tree(t).body_end};
  }
};

/// Forward kinematics for positions q and velocities v (full-size vectors;
/// only the entries of the bodies in `range` are read). Quaternions in q need
/// not be unit: rotations use the normalized quaternion.
void CalcKinematics(const MultibodyModel& model, const VectorX& q, const VectorX& v,
                    BodyRange range, KinematicsCache* cache);

/// Translational Jacobian (3 × nv) of a point P fixed on body b, located at
/// p_WP [m]: v_WP = Jv · v. Uses the cached motion subspaces.
Matrix3X CalcPointJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                           int body, const Vector3& p_WP);
/// Spatial Jacobian (6 × nv) of a frame on body b with origin at p_WP:
/// [ω_WB; v_WP] = J · v.
Matrix6X CalcFrameJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                           int body, const Vector3& p_WP);

/// Translational Jacobian of a point P fixed on body b restricted to the
/// columns of b's tree (3 × nv_tree); empty (3 × 0) for the world.
Matrix3X CalcTreePointJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                               int body, const Vector3& p_WP);

/// Spatial Jacobian of a frame on body b with origin at p_WP restricted to
/// the columns of b's tree (6 × nv_tree, rows [ω_WB; v_WP]); empty (6 × 0)
/// for the world.
Matrix6X CalcTreeFrameJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                               int body, const Vector3& p_WP);
/// The same into *J (resized to 6 × nv_tree, so no allocation when a caller
/// reuses J for trees of one size).
void CalcTreeFrameJacobian(const MultibodyModel& model, const KinematicsCache& cache, int body,
                           const Vector3& p_WP, Matrix6X* J);

/// Rotation matrix of a quaternion stored (w, x, y, z) at q[start], normalized.
Matrix3 RotationFromQuaternion(const VectorX& q, int start);

}  // namespace stiction
