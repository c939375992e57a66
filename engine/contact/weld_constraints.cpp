#include "engine/contact/weld_constraints.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "engine/contact/near_rigid.h"

namespace stiction {

namespace {

// The errors e = [e_R; e_p] of a weld (e_p only for a ball): e_p = p_WFb −
// p_WFa and e_R = R_WFa log(R_FaFb), the rotation vector that takes Fa to
// Fb, expressed in world.
VectorX CalcWeldError(bool weld, const RigidTransform& X_WFa, const RigidTransform& X_WFb) {
  VectorX e(weld ? 6 : 3);
  if (weld) {
    const Eigen::AngleAxisd aa(X_WFa.R.transpose() * X_WFb.R);
    e.head<3>() = X_WFa.R * (aa.angle() * aa.axis());
  }
  e.tail<3>() = X_WFb.p - X_WFa.p;
  return e;
}

// Rotates each 3-row block k (rotation, translation) of the constraint into
// the principal axes of its Delassus block W_kk = Q Λ Qᵀ and regularizes
// each axis with w = λ_i ([SAP] Sec. V-B); *e is rotated with the rows.
void RegularizeBlocks(bool weld, const MatrixX& W, double beta, const ContactModelParameters& params,
                      const ConstraintAssembly& assembly, Constraint* c, VectorX* e) {
  const int rows = c->num_rows;
  const std::span<const double> previous = assembly.PreviousImpulse(c->key, rows);
  c->bilateral.R.resize(rows);
  for (int k = 0; k < rows / 3; ++k) {
    // The carried-load estimate (near_rigid.h, Eq. L1), per block: the
    // magnitude of the block's previous impulse (basis-free: the principal
    // axes below may differ from the previous step's). A rotation block's
    // angular impulse acts at ℓ² = tr W_translation / tr W_rotation, the
    // radius of gyration the Delassus blocks imply.
    const bool rotation = weld && k == 0;
    const double load = previous.empty() ? 0.0 : Eigen::Map<const Vector3>(previous.data() + 3 * k).norm();
    const double length = rotation ? std::sqrt(W.block<3, 3>(3, 3).trace() / W.block<3, 3>(0, 0).trace()) : 1.0;
    // Per axis, not a single scalar ‖W_kk‖_F/3 (as for contacts): that is
    // far too soft along stiff directions of an anisotropic block: a ball
    // constraint 1 m from a small bob has λ ≈ 1/m along the rod but ≈ L²/I
    // across it, and the scalar let the rod stretch by 1 mm at δt = 1 ms.
    const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(W.block<3, 3>(3 * k, 3 * k));
    const Matrix3 Q = eigen.eigenvectors();
    for (ConstraintJacobianBlock& b : c->blocks) b.J.middleRows(3 * k, 3) = Q.transpose() * b.J.middleRows(3 * k, 3);
    e->segment<3>(3 * k) = Q.transpose() * e->segment<3>(3 * k);
    for (int i = 0; i < 3; ++i) {
      // Floor: a direction with no mobility (λ = 0) must still give R > 0.
      const double w = eigen.eigenvalues()[i];
      const double lambda = assembly.LoadFactor(w, load, length, params);
      c->bilateral.R[3 * k + i] = std::max(RigidConstraintRegularization(beta, w / lambda), 1e-12);
    }
  }
}

}  // namespace

void AddWeldConstraints(const std::vector<BodyConstraint>& body_constraints, const ContactModelParameters& params,
                        ConstraintAssembly* assembly) {
  // Rows are the velocity of B relative to A, in world:
  // v_c = [ω_WB − ω_WA; v_WFb − v_WFa] (weld) or v_WFb − v_WFa (ball), with
  // the frame origins' velocities as points of B and A; the errors are
  // those of CalcWeldError, so ė ≈ v_c and γ (the impulse on B, −γ on A)
  // pushes e to zero. Each 3 × 3 block k (rotation, translation) of the
  // Delassus estimate W ≈ Σ_t J_t A_t⁻¹ J_tᵀ is then rotated into its
  // principal axes, each axis regularized with w = λ_i:
  //   R = β²/(4π²) w,  τd = β δt/π,  v̂ = −e/(δt + τd)
  // (Sec. V-B); the rows solved are the rotated ones, a change of basis that
  // leaves the constraint unchanged.
  const double beta = params.near_rigid_threshold;
  const double dt = assembly->dt();
  const double tau_d = NearRigidDissipationTime(beta, dt);
  const KinematicsCache& cache = assembly->kinematics();
  for (const BodyConstraint& bc : body_constraints) {
    const std::uint64_t index = static_cast<std::uint64_t>(&bc - body_constraints.data());
    const bool weld = bc.kind == BodyConstraintKind::kWeld;
    const RigidTransform X_WFa = cache.X_WB[bc.body_a] * bc.X_AFa;
    const RigidTransform X_WFb = cache.X_WB[bc.body_b] * bc.X_BFb;
    // The weld's 6 rows or the ball's 3 (linear) rows of the frame Jacobian.
    Constraint* c = assembly->AppendRelative(bc.body_a, bc.body_b, [&](int body, double sign, MatrixX* J) {
      const Matrix6X& J6 = assembly->TreeJacobian(body, sign > 0 ? X_WFb.p : X_WFa.p);
      if (weld) {
        *J = sign * J6;
      } else {
        *J = sign * J6.bottomRows<3>();
      }
    });
    if (c == nullptr) continue;
    c->kind = ConstraintKind::kBilateral;
    c->num_rows = weld ? 6 : 3;
    MatrixX W = MatrixX::Zero(c->num_rows, c->num_rows);
    for (const ConstraintJacobianBlock& b : c->blocks) W += b.J * assembly->InverseA(b.tree) * b.J.transpose();
    VectorX e = CalcWeldError(weld, X_WFa, X_WFb);
    c->key = MakeConstraintKey(ConstraintOrigin::kWeld, index, 0, 0);
    RegularizeBlocks(weld, W, beta, params, *assembly, c, &e);
    c->bilateral.v_hat = -e / (dt + tau_d);
    c->origin = ConstraintOrigin::kWeld;
  }
}

}  // namespace stiction
