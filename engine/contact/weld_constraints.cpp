#include "engine/contact/weld_constraints.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "engine/contact/near_rigid.h"

namespace stiction {

void AddWeldConstraints(const std::vector<BodyConstraint>& body_constraints, const ContactModelParameters& params,
                        ConstraintAssembly* assembly) {
  // Rows are the velocity of B relative to A, in world:
  // v_c = [ω_WB − ω_WA; v_WFb − v_WFa] (weld) or v_WFb − v_WFa (ball), with
  // the frame origins' velocities as points of B and A; the errors are
  // e_p = p_WFb − p_WFa and e_R = R_WFa log(R_FaFb) (the rotation vector that
  // takes Fa to Fb, expressed in world), so ė ≈ v_c and γ (the impulse on B,
  // −γ on A) pushes e to zero. Each 3 × 3 block k (rotation, translation) of
  // the Delassus estimate W ≈ Σ_t J_t A_t⁻¹ J_tᵀ is then rotated into its
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
    const int tree_a = assembly->MovingTree(bc.body_a);
    const int tree_b = assembly->MovingTree(bc.body_b);
    if (tree_a < 0 && tree_b < 0) continue;
    const bool weld = bc.kind == BodyConstraintKind::kWeld;
    const int rows = weld ? 6 : 3;
    const RigidTransform X_WFa = cache.X_WB[bc.body_a] * bc.X_AFa;
    const RigidTransform X_WFb = cache.X_WB[bc.body_b] * bc.X_BFb;
    // The weld's 6 rows or the ball's 3 (linear) rows of the frame Jacobian.
    auto jacobian = [&](int body, const Vector3& p_W, double sign, MatrixX* J) {
      const Matrix6X& J6 = assembly->TreeJacobian(body, p_W);
      if (weld) {
        *J = sign * J6;
      } else {
        *J = sign * J6.bottomRows<3>();
      }
    };
    const bool same_tree = tree_a >= 0 && tree_a == tree_b;
    Constraint& c = assembly->Append(same_tree ? 1 : static_cast<int>(tree_a >= 0) + static_cast<int>(tree_b >= 0));
    c.kind = ConstraintKind::kBilateral;
    c.num_rows = rows;
    int block = 0;
    if (tree_b >= 0) {
      c.blocks[block].tree = tree_b;
      jacobian(bc.body_b, X_WFb.p, 1.0, &c.blocks[block].J);
      ++block;
    }
    if (tree_a >= 0) {
      if (same_tree) {
        MatrixX& J_a = assembly->SameTreeScratch();
        jacobian(bc.body_a, X_WFa.p, -1.0, &J_a);
        c.blocks[0].J += J_a;
      } else {
        c.blocks[block].tree = tree_a;
        jacobian(bc.body_a, X_WFa.p, -1.0, &c.blocks[block].J);
      }
    }
    MatrixX W = MatrixX::Zero(rows, rows);
    for (const ConstraintJacobianBlock& b : c.blocks) W += b.J * assembly->InverseA(b.tree) * b.J.transpose();
    VectorX e(rows);
    if (weld) {
      const Eigen::AngleAxisd aa(X_WFa.R.transpose() * X_WFb.R);
      e.head<3>() = X_WFa.R * (aa.angle() * aa.axis());
    }
    e.tail<3>() = X_WFb.p - X_WFa.p;
    c.key = MakeConstraintKey(ConstraintOrigin::kWeld, index, 0, 0);
    const std::span<const double> previous = assembly->PreviousImpulse(c.key, rows);
    c.bilateral.R.resize(rows);
    for (int k = 0; k < rows / 3; ++k) {
      // The carried-load estimate (near_rigid.h, Eq. L1), per block: the
      // magnitude of the block's previous impulse (basis-free: the principal
      // axes below may differ from the previous step's). A rotation block's
      // angular impulse acts at ℓ² = tr W_translation / tr W_rotation, the
      // radius of gyration the Delassus blocks imply.
      const bool rotation = weld && k == 0;
      const double load = previous.empty() ? 0.0 : Eigen::Map<const Vector3>(previous.data() + 3 * k).norm();
      const double length = rotation ? std::sqrt(W.block<3, 3>(3, 3).trace() / W.block<3, 3>(0, 0).trace()) : 1.0;
      // Each 3-row block (rotation, translation) is expressed in the principal
      // axes of its Delassus block W_kk = Q Λ Qᵀ and regularized per axis with
      // w = λ_i. A single scalar ‖W_kk‖_F/3 (as for contacts) is far too soft
      // along stiff directions of an anisotropic block: a ball constraint 1 m
      // from a small bob has λ ≈ 1/m along the rod but ≈ L²/I across it, and
      // the scalar let the rod stretch by 1 mm at δt = 1 ms.
      const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(W.block<3, 3>(3 * k, 3 * k));
      const Matrix3 Q = eigen.eigenvectors();
      for (ConstraintJacobianBlock& b : c.blocks) b.J.middleRows(3 * k, 3) = Q.transpose() * b.J.middleRows(3 * k, 3);
      e.segment<3>(3 * k) = Q.transpose() * e.segment<3>(3 * k);
      for (int i = 0; i < 3; ++i) {
        // Floor: a direction with no mobility (λ = 0) must still give R > 0.
        const double w = eigen.eigenvalues()[i];
        const double lambda = assembly->LoadFactor(w, load, length, params);
        c.bilateral.R[3 * k + i] = std::max(RigidConstraintRegularization(beta, w / lambda), 1e-12);
      }
    }
    c.bilateral.v_hat = -e / (dt + tau_d);
    c.origin = ConstraintOrigin::kWeld;
  }
}

}  // namespace stiction
