#include "engine/multibody/kinematics.h"

#include "engine/multibody/spatial_algebra.h"

namespace stiction {

KinematicsCache::KinematicsCache(const MultibodyModel& model) {
  const int n = model.num_bodies();
  X_WB.assign(n, RigidTransform::Identity());
  X_WF.assign(n, RigidTransform::Identity());
  X_WM.assign(n, RigidTransform::Identity());
  p_WBcm.assign(n, Vector3::Zero());
  I_Wo.assign(n, Matrix6::Zero());
  V_WB.assign(n, Vector6::Zero());
  Sdot_v.assign(n, Vector6::Zero());
  S = Matrix6X::Zero(6, model.num_velocities());
}

Matrix3 RotationFromQuaternion(const VectorX& q, int start) {
  Quaternion quat(q[start], q[start + 1], q[start + 2], q[start + 3]);
  quat.normalize();
  return quat.toRotationMatrix();
}

namespace {

// Pose of the child joint frame M in the parent joint frame F for coordinates q.
RigidTransform CalcJointTransform(const Joint& joint, const VectorX& q) {
  RigidTransform X_FM;
  switch (joint.type) {
    case JointType::kRevolute:
      X_FM.R = Eigen::AngleAxisd(q[joint.q_start], joint.axis_F).toRotationMatrix();
      break;
    case JointType::kPrismatic:
      X_FM.p = q[joint.q_start] * joint.axis_F;
      break;
    case JointType::kBall:
      X_FM.R = RotationFromQuaternion(q, joint.q_start);
      break;
    case JointType::kFree:
      X_FM.R = RotationFromQuaternion(q, joint.q_start);
      X_FM.p = q.segment<3>(joint.q_start + 4);
      break;
    case JointType::kFixed:
      break;
  }
  return X_FM;
}

}  // namespace

void CalcKinematics(const MultibodyModel& model, const VectorX& q, const VectorX& v,
                    BodyRange range, KinematicsCache* cache) {
  KinematicsCache& c = *cache;
  for (int b = range.begin; b < range.end; ++b) {
    const Body& body = model.body(b);
    const Joint& joint = model.joint(body.joint);
    const int p = body.parent;
    c.X_WF[b] = c.X_WB[p] * joint.X_PF;
    c.X_WM[b] = c.X_WF[b] * CalcJointTransform(joint, q);
    c.X_WB[b] = c.X_WM[b] * joint.X_CM.inverse();
    c.p_WBcm[b] = c.X_WB[b] * body.com_B;
    const Matrix3& R_WB = c.X_WB[b].R;
    if (body.mass == 0 && (body.I_Bcm_B.array() == 0).all()) {
      c.I_Wo[b].setZero();  // A joint frame or a massless welded body: nothing to rotate.
    } else {
      c.I_Wo[b] = SpatialInertiaAboutWorldOrigin(body.mass, c.p_WBcm[b], R_WB * body.I_Bcm_B * R_WB.transpose());
    }

    // Motion subspace S (columns at the joint's v slice), about Wo. A body
    // point at p has velocity v_Wo + ω × p, so a rotation ω about a line
    // through p contributes v_Wo = p × ω.
    const Vector3& p_WM = c.X_WM[b].p;
    auto S = c.S.middleCols(joint.v_start, joint.nv);
    switch (joint.type) {
      case JointType::kRevolute: {
        const Vector3 a_W = c.X_WF[b].R * joint.axis_F;
        S.col(0) << a_W, p_WM.cross(a_W);
        break;
      }
      case JointType::kPrismatic:
        S.col(0) << Vector3::Zero(), c.X_WF[b].R * joint.axis_F;
        break;
      case JointType::kBall:
        S.topRows<3>() = c.X_WM[b].R;
        S.bottomRows<3>() = Skew(p_WM) * c.X_WM[b].R;
        break;
      case JointType::kFree:
        // v = [ω_M (child frame); ṗ_FM (parent joint frame)].
        S.topLeftCorner<3, 3>() = c.X_WM[b].R;
        S.bottomLeftCorner<3, 3>() = Skew(p_WM) * c.X_WM[b].R;
        S.topRightCorner<3, 3>().setZero();
        S.bottomRightCorner<3, 3>() = c.X_WF[b].R;
        break;
      case JointType::kFixed:
        break;
    }

    // Velocities and the bias acceleration Ṡv. The columns of S are fixed in
    // the parent (or, for the angular columns of ball/free joints, in the
    // child, which gives the same product), so Ṡv = V_parent ×ₘ (S v); the
    // free joint's moving reference point p_WM adds [0; u × ω] with u, ω the
    // relative linear and angular velocity (derivation in docs/architecture.md).
    Vector6 Sv = Vector6::Zero();
    if (joint.nv > 0) Sv = S * v.segment(joint.v_start, joint.nv);
    c.V_WB[b] = c.V_WB[p] + Sv;
    c.Sdot_v[b] = CrossMotion(c.V_WB[p], Sv);
    if (joint.type == JointType::kFree) {
      const Vector3 omega_rel = Sv.head<3>();
      const Vector3 u_rel = c.X_WF[b].R * v.segment<3>(joint.v_start + 3);
      c.Sdot_v[b].tail<3>() += u_rel.cross(omega_rel);
    }
  }
}

Matrix6X CalcFrameJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                           int body, const Vector3& p_WP) {
  Matrix6X J = Matrix6X::Zero(6, model.num_velocities());
  for (int b = body; b > 0; b = model.body(b).parent) {
    const Joint& joint = model.joint(model.body(b).joint);
    for (int k = 0; k < joint.nv; ++k) {
      const int col = joint.v_start + k;
      const Vector6 s = cache.S.col(col);
      J.col(col).head<3>() = s.head<3>();
      J.col(col).tail<3>() = PointVelocity(s, p_WP);
    }
  }
  return J;
}

Matrix3X CalcTreePointJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                               int body, const Vector3& p_WP) {
  return CalcTreeFrameJacobian(model, cache, body, p_WP).bottomRows<3>();
}

Matrix6X CalcTreeFrameJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                               int body, const Vector3& p_WP) {
  Matrix6X J;
  CalcTreeFrameJacobian(model, cache, body, p_WP, &J);
  return J;
}

void CalcTreeFrameJacobian(const MultibodyModel& model, const KinematicsCache& cache, int body,
                           const Vector3& p_WP, Matrix6X* J) {
  if (body == 0) {
    J->resize(6, 0);
    return;
  }
  const Tree& t = model.tree(model.body(body).tree);
  J->setZero(6, t.nv);
  for (int b = body; b > 0; b = model.body(b).parent) {
    const Joint& joint = model.joint(model.body(b).joint);
    for (int k = 0; k < joint.nv; ++k) {
      const int col = joint.v_start + k;
      const Vector6 s = cache.S.col(col);
      J->col(col - t.v_start).head<3>() = s.head<3>();
      J->col(col - t.v_start).tail<3>() = PointVelocity(s, p_WP);
    }
  }
}

Matrix3X CalcPointJacobian(const MultibodyModel& model, const KinematicsCache& cache,
                           int body, const Vector3& p_WP) {
  return CalcFrameJacobian(model, cache, body, p_WP).bottomRows<3>();
}

}  // namespace stiction
