#include "engine/contact/cartesian_impedance_constraints.h"

#include <cmath>
#include <cstdint>
#include <string>

#include <Eigen/Geometry>

#include "engine/common/error.h"
#include "engine/contact/pd_actuator_constraints.h"

namespace stiction {
namespace {

[[noreturn]] void Fail(const std::string& key, const std::string& reason) {
  throw InputError("cartesian impedance: " + key + ": " + reason);
}

void CheckGain(const char* key, double x) {
  if (!std::isfinite(x) || x < 0) Fail(key, "must be finite and >= 0, got " + std::to_string(x));
}

void CheckLimit(const char* key, double x) {
  if (std::isnan(x) || !(x > 0)) Fail(key, "must be > 0 (inf: unlimited), got " + std::to_string(x));
}

void CheckPose(const char* key, const RigidTransform& X) {
  if (!X.R.allFinite() || !X.p.allFinite()) Fail(key, "must be finite");
  // A rotation: orthonormal and right-handed, to round-off of what a user
  // builds from angles or quaternions.
  if ((X.R.transpose() * X.R - Matrix3::Identity()).norm() > 1e-9 || X.R.determinant() < 0) {
    Fail(key, "rotation is not orthonormal and right-handed");
  }
}

// Appends one clamped row J v_tree with the implicit PD law of [SAP]
// Sec. VII (ImplicitPdRow, clamped_constraint.h). δt K + D > 0: a block
// with K = D = 0 has no rows.
template <typename Row>
void AppendRow(ConstraintAssembly* assembly, int tree, const Row& J, double K, double D, double e0, double v_d,
               double limit, std::uint64_t key) {
  Constraint& c = assembly->Append(1);
  c.kind = ConstraintKind::kClamped;
  c.num_rows = 1;
  c.blocks[0].tree = tree;
  c.blocks[0].J = J;
  c.clamped = ImplicitPdRow(assembly->dt(), K, D, e0, v_d, limit);
  c.origin = ConstraintOrigin::kCartesian;
  c.key = key;
}

}  // namespace

void ValidateCartesianImpedance(const CartesianImpedance& c, const MultibodyModel& model) {
  if (c.body < 1 || c.body >= model.num_bodies()) {
    Fail("body", "must be a body of the model other than the world, got index " + std::to_string(c.body));
  }
  CheckPose("X_BE", c.X_BE);
  CheckPose("X_WT", c.X_WT);
  if (!c.v_WT.allFinite()) Fail("v_WT", "must be finite");
  if (!c.w_WT.allFinite()) Fail("w_WT", "must be finite");
  CheckGain("translational_stiffness", c.translational_stiffness);
  CheckGain("translational_damping", c.translational_damping);
  CheckGain("rotational_stiffness", c.rotational_stiffness);
  CheckGain("rotational_damping", c.rotational_damping);
  CheckLimit("max_force", c.max_force);
  CheckLimit("max_torque", c.max_torque);
  CheckGain("posture_stiffness", c.posture_stiffness);
  CheckGain("posture_damping", c.posture_damping);
  CheckLimit("posture_effort_limit", c.posture_effort_limit);
  for (std::size_t i = 0; i < c.posture.size(); ++i) {
    const CartesianPostureTerm& p = c.posture[i];
    const std::string key = "posture[" + std::to_string(i) + "]";
    if (p.joint < 0 || p.joint >= model.num_joints() ||
        (model.joint(p.joint).type != JointType::kRevolute && model.joint(p.joint).type != JointType::kPrismatic)) {
      Fail(key + ".joint", "must be a revolute or prismatic joint, got index " + std::to_string(p.joint));
    }
    if (!std::isfinite(p.q_nominal)) Fail(key + ".q_nominal", "must be finite");
  }
  if (!c.posture.empty() && !(c.posture_stiffness + c.posture_damping > 0)) {
    Fail("posture_stiffness", "posture_stiffness + posture_damping must be > 0 when there are posture joints");
  }
}

Vector3 RotationVector(const Matrix3& R) {
  const Eigen::AngleAxisd aa(R);  // Angle in [0, π].
  return aa.angle() * aa.axis();
}

CartesianImpedanceErrors CalcCartesianImpedanceErrors(const CartesianImpedance& c, const RigidTransform& X_WB) {
  const RigidTransform X_WE = X_WB * c.X_BE;
  CartesianImpedanceErrors e;
  e.translation = X_WE.p - c.X_WT.p;
  e.rotation = RotationVector(X_WE.R * c.X_WT.R.transpose());
  return e;
}

Matrix3 CartesianRowFrame(const Vector3& e) {
  const double norm = e.norm();
  if (!(norm > 1e-12)) return Matrix3::Identity();
  const Vector3 u1 = e / norm;
  // Complete with the world axis least aligned with u1 (never parallel).
  int k = 0;
  u1.cwiseAbs().minCoeff(&k);
  const Vector3 u2 = u1.cross(Vector3::Unit(k)).normalized();
  Matrix3 Q;
  Q << u1, u2, u1.cross(u2);
  return Q;
}

CartesianImpedanceEffort CalcCartesianImpedanceEffort(const CartesianImpedanceRows& rows, const double* gamma,
                                                      double dt) {
  CartesianImpedanceEffort out;
  if (rows.first_constraint < 0) return out;
  int r = 0;
  if (rows.num_translation == 3) {
    out.force_rows = Vector3(gamma[0], gamma[1], gamma[2]) / dt;
    out.force_W = rows.R_WRt * out.force_rows;
    r += 3;
  }
  if (rows.num_rotation == 3) {
    out.torque_rows = Vector3(gamma[r], gamma[r + 1], gamma[r + 2]) / dt;
    out.torque_W = rows.R_WRr * out.torque_rows;
    r += 3;
  }
  for (int p = 0; p < rows.num_posture; ++p) out.posture.push_back(gamma[r + p] / dt);
  return out;
}

void AddCartesianImpedanceConstraints(const std::vector<CartesianImpedance>& controllers,
                                      ConstraintAssembly* assembly,
                                      std::vector<int>* first_constraint_of_controller,
                                      std::vector<CartesianImpedanceRows>* rows) {
  // Per block (translation, rotation) with the end-of-step error the SAP
  // step linearizes about, e(v) ≈ e0 + δt J_E v, each axis u of the block's
  // row frame gets the implicit PD row of [SAP] Sec. VII on v_c = uᵀ J_E v:
  //   γ = −δt (K (uᵀe0 + δt v_c) + D (v_c − uᵀv_T)),
  //   R = 1/(δt (δt K + D)),  v̂ = (D uᵀv_T − K uᵀe0)/(δt K + D),
  // clamped to ±δt F_max (±δt T_max). The frame's first axis is e0/|e0|, so
  // the bound on that row caps the spring force along the error; K and D
  // are isotropic, so without the bounds the rotation changes nothing.
  const MultibodyModel& model = assembly->model();
  const KinematicsCache& cache = assembly->kinematics();
  first_constraint_of_controller->assign(controllers.size(), -1);
  if (rows != nullptr) rows->assign(controllers.size(), CartesianImpedanceRows());
  Matrix3X J_block;  // Scratch: a block's 3 rows of J_E in world.
  for (std::size_t i = 0; i < controllers.size(); ++i) {
    const CartesianImpedance& ci = controllers[i];
    CartesianImpedanceRows layout;
    layout.first_constraint = assembly->num_constraints();
    const int tree = assembly->MovingTree(ci.body);
    if (tree >= 0) {
      const RigidTransform& X_WB = cache.X_WB[ci.body];
      const CartesianImpedanceErrors e = CalcCartesianImpedanceErrors(ci, X_WB);
      const Vector3 p_WE = X_WB * ci.X_BE.p;
      // [ω_WB; v_WE] (angular rows first) of the tree's frame Jacobian at E.
      const Matrix6X& J_E = assembly->TreeJacobian(ci.body, p_WE);
      struct Block {
        double K, D, limit;
        Vector3 e0, v_d;
        int first_row;  // In J_E.
        Matrix3* frame;
        int* count;
      };
      const Block blocks[2] = {
          {ci.translational_stiffness, ci.translational_damping, ci.max_force, e.translation, ci.v_WT, 3,
           &layout.R_WRt, &layout.num_translation},
          {ci.rotational_stiffness, ci.rotational_damping, ci.max_torque, e.rotation, ci.w_WT, 0, &layout.R_WRr,
           &layout.num_rotation},
      };
      for (int k = 0; k < 2; ++k) {
        const Block& b = blocks[k];
        if (!(b.K + b.D > 0)) continue;
        const Matrix3 Q = CartesianRowFrame(b.e0);
        *b.frame = Q;
        *b.count = 3;
        J_block.noalias() = Q.transpose() * J_E.middleRows<3>(b.first_row);
        const Vector3 e_rows = Q.transpose() * b.e0;
        const Vector3 v_rows = Q.transpose() * b.v_d;
        for (int r = 0; r < 3; ++r) {
          AppendRow(assembly, tree, J_block.row(r), b.K, b.D, e_rows[r], v_rows[r], b.limit,
                    MakeConstraintKey(ConstraintOrigin::kCartesian, i, 3 * k + r, 0));
        }
      }
    }
    // Posture rows: the PD actuators' joint-velocity rows.
    for (std::size_t p = 0; p < ci.posture.size(); ++p) {
      const CartesianPostureTerm& term = ci.posture[p];
      const int added = AppendJointPdRow(assembly, term.joint, ci.posture_stiffness, ci.posture_damping,
                                         assembly->q0()[model.joint(term.joint).q_start] - term.q_nominal, 0.0,
                                         ci.posture_effort_limit, ConstraintOrigin::kCartesian,
                                         MakeConstraintKey(ConstraintOrigin::kCartesian, i, 6 + p, 0));
      if (added >= 0) ++layout.num_posture;
    }
    if (layout.num_translation + layout.num_rotation + layout.num_posture == 0) layout.first_constraint = -1;
    (*first_constraint_of_controller)[i] = layout.first_constraint;
    if (rows != nullptr) (*rows)[i] = layout;
  }
}

}  // namespace stiction
