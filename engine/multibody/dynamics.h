#pragma once
// Rigid-body dynamics over a forest: mass matrix (composite rigid body
// algorithm), inverse dynamics and bias terms (recursive Newton–Euler), joint
// springs and dampers, energies. All per tree: the mass matrix of a forest is
// block diagonal, one dense block per tree ([SAP] Sec. IV-D).
#include "engine/common/eigen_types.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"

namespace stiction {

/// Mass matrix block of tree t (nv_t × nv_t, indices relative to the tree's
/// v_start) by the composite rigid body algorithm (Featherstone, RBDA §6.2),
/// including rotor inertias on the diagonal. Needs CalcKinematics on the tree.
void CalcTreeMassMatrix(const MultibodyModel& model, const KinematicsCache& cache,
                        int tree, MatrixX* M_t);

/// The whole model's mass matrix (nv × nv, block diagonal over the trees),
/// dense; for tests and tools, not the stepping loop. Needs CalcKinematics.
void CalcMassMatrix(const MultibodyModel& model, const KinematicsCache& cache, MatrixX* M);

/// Inverse dynamics of tree t by recursive Newton–Euler (RBDA §5.3):
/// τ = M(q) v̇ + C(q, v) v − τ_g(q), written into the tree's slice of tau
/// (full size). Gravity enters as a base acceleration −g. Rotor inertias add
/// J v̇. Needs CalcKinematics on the tree. Joint springs/dampers excluded.
void CalcTreeInverseDynamics(const MultibodyModel& model, const KinematicsCache& cache,
                             int tree, const VectorX& vdot, VectorX* tau);

/// The non-contact generalized forces k(q, v) of [SAP] Eq. (7) for tree t:
/// k = −(C v − τ_g) + τ_spring + τ_damper + τ_ext, written into the tree's
/// slice of k (full size). tau_ext may be null.
void CalcTreeGeneralizedForces(const MultibodyModel& model, const KinematicsCache& cache,
                               int tree, const VectorX& q, const VectorX& v,
                               const VectorX* tau_ext, VectorX* k);

/// Adds scale · (−K (q − q_ref) − D v), the joint springs' and dampers'
/// generalized forces, into tree t's slice of tau (full size).
void AddTreeJointSpringDamperForces(const MultibodyModel& model, int tree, const VectorX& q, const VectorX& v,
                                    double scale, VectorX* tau);

/// Joint stiffness K and damping D diagonals ([SAP] Eqs. 16–17) for the
/// joint springs and dampers: constant, so computed once.
void CalcJointStiffnessAndDamping(const MultibodyModel& model, VectorX* K, VectorX* D);

/// Kinetic energy ½ vᵀ M v [J] (bodies and rotors). Needs CalcKinematics.
double CalcKineticEnergy(const MultibodyModel& model, const KinematicsCache& cache,
                         const VectorX& v);
/// Gravity and joint-spring potential energy [J], zero at z = 0 and at the
/// spring reference. Needs CalcKinematics (positions).
double CalcPotentialEnergy(const MultibodyModel& model, const KinematicsCache& cache,
                           const VectorX& q);

}  // namespace stiction
