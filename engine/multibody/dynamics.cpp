#include "engine/multibody/dynamics.h"

#include <vector>

#include "engine/multibody/spatial_algebra.h"

namespace stiction {

namespace {

bool HasScalarCoordinate(const Joint& j) {
  return j.type == JointType::kRevolute || j.type == JointType::kPrismatic;
}

/// Joints whose every velocity carries the rotor inertia (MuJoCo's armature
/// applies to each of a ball joint's three velocities as well).
bool HasRotorInertia(const Joint& j) {
  return j.type == JointType::kRevolute || j.type == JointType::kPrismatic || j.type == JointType::kBall;
}

}  // namespace

void CalcMassMatrix(const MultibodyModel& model, const KinematicsCache& cache, MatrixX* M) {
  M->setZero(model.num_velocities(), model.num_velocities());
  MatrixX M_t;
  for (int t = 0; t < model.num_trees(); ++t) {
    const Tree& tree = model.tree(t);
    if (tree.nv == 0) continue;
    CalcTreeMassMatrix(model, cache, t, &M_t);
    M->block(tree.v_start, tree.v_start, tree.nv, tree.nv) = M_t;
  }
}

void CalcTreeMassMatrix(const MultibodyModel& model, const KinematicsCache& cache,
                        int tree, MatrixX* M_t) {
  const Tree& t = model.tree(tree);
  M_t->setZero(t.nv, t.nv);
  // Composite inertias about Wo are plain sums in the absolute formulation.
  // Scratch kept per thread: stage 1 evaluates M several times per step.
  thread_local std::vector<Matrix6> Ic;
  Ic.resize(t.body_end - t.body_begin);
  for (int b = t.body_begin; b < t.body_end; ++b) Ic[b - t.body_begin] = cache.I_Wo[b];
  for (int b = t.body_end - 1; b >= t.body_begin; --b) {
    const int p = model.body(b).parent;
    if (p >= t.body_begin) Ic[p - t.body_begin] += Ic[b - t.body_begin];
  }
  for (int b = t.body_begin; b < t.body_end; ++b) {
    const Joint& ji = model.joint(model.body(b).joint);
    if (ji.nv == 0) continue;
    const int i0 = ji.v_start - t.v_start;
    // A joint has at most 6 velocities: fixed-capacity blocks, no heap.
    const Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6> F =
        Ic[b - t.body_begin] * cache.S.middleCols(ji.v_start, ji.nv);
    // M_ij = S_jᵀ Ic_i S_i for every ancestor j of i (and j = i).
    for (int a = b; a > 0; a = model.body(a).parent) {
      const Joint& jj = model.joint(model.body(a).joint);
      if (jj.nv == 0) continue;
      const int j0 = jj.v_start - t.v_start;
      const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> block =
          cache.S.middleCols(jj.v_start, jj.nv).transpose().lazyProduct(F);
      M_t->block(j0, i0, jj.nv, ji.nv) = block;
      if (a != b) M_t->block(i0, j0, ji.nv, jj.nv) = block.transpose();
    }
    if (HasRotorInertia(ji)) M_t->diagonal().segment(i0, ji.nv).array() += ji.rotor_inertia;
  }
}

namespace {

// RNEA of CalcTreeInverseDynamics; vdot == nullptr means v̇ = 0 (the bias
// terms k needs, without a full-size zero vector per call).
void InverseDynamics(const MultibodyModel& model, const KinematicsCache& cache, int tree,
                     const VectorX* vdot, VectorX* tau) {
  const Tree& t = model.tree(tree);
  const int n = t.body_end - t.body_begin;
  thread_local std::vector<Vector6> A, F;  // Scratch: evaluated several times per step.
  A.resize(n);
  F.resize(n);
  Vector6 A_world;
  A_world << Vector3::Zero(), -model.gravity();
  for (int b = t.body_begin; b < t.body_end; ++b) {
    const Joint& j = model.joint(model.body(b).joint);
    const int p = model.body(b).parent;
    const Vector6& A_p = p >= t.body_begin ? A[p - t.body_begin] : A_world;
    Vector6 a = A_p + cache.Sdot_v[b];
    if (j.nv > 0 && vdot != nullptr) {
      a += cache.S.middleCols(j.v_start, j.nv) * vdot->segment(j.v_start, j.nv);
    }
    A[b - t.body_begin] = a;
    const Matrix6& I = cache.I_Wo[b];
    F[b - t.body_begin] = I * a + CrossForce(cache.V_WB[b], I * cache.V_WB[b]);
  }
  for (int b = t.body_end - 1; b >= t.body_begin; --b) {
    const Joint& j = model.joint(model.body(b).joint);
    const Vector6& f = F[b - t.body_begin];
    if (j.nv > 0) {
      tau->segment(j.v_start, j.nv) = cache.S.middleCols(j.v_start, j.nv).transpose() * f;
      if (HasRotorInertia(j) && vdot != nullptr) {
        tau->segment(j.v_start, j.nv) += j.rotor_inertia * vdot->segment(j.v_start, j.nv);
      }
    }
    const int p = model.body(b).parent;
    if (p >= t.body_begin) F[p - t.body_begin] += f;
  }
}

}  // namespace

void CalcTreeInverseDynamics(const MultibodyModel& model, const KinematicsCache& cache,
                             int tree, const VectorX& vdot, VectorX* tau) {
  InverseDynamics(model, cache, tree, &vdot, tau);
}

void CalcTreeGeneralizedForces(const MultibodyModel& model, const KinematicsCache& cache,
                               int tree, const VectorX& q, const VectorX& v,
                               const VectorX* tau_ext, VectorX* k) {
  const Tree& t = model.tree(tree);
  InverseDynamics(model, cache, tree, nullptr, k);
  k->segment(t.v_start, t.nv) *= -1.0;
  AddTreeJointSpringDamperForces(model, tree, q, v, 1.0, k);
  if (tau_ext != nullptr) k->segment(t.v_start, t.nv) += tau_ext->segment(t.v_start, t.nv);
}

void AddTreeJointSpringDamperForces(const MultibodyModel& model, int tree, const VectorX& q, const VectorX& v,
                                    double scale, VectorX* tau) {
  const Tree& t = model.tree(tree);
  for (int b = t.body_begin; b < t.body_end; ++b) {
    const Joint& j = model.joint(model.body(b).joint);
    if (!HasScalarCoordinate(j)) continue;
    (*tau)[j.v_start] += scale * (-j.spring_stiffness * (q[j.q_start] - j.spring_reference) -
                                  j.damping * v[j.v_start]);
  }
}

void CalcJointStiffnessAndDamping(const MultibodyModel& model, VectorX* K, VectorX* D) {
  K->setZero(model.num_velocities());
  D->setZero(model.num_velocities());
  for (const Joint& j : model.joints()) {
    if (!HasScalarCoordinate(j)) continue;
    (*K)[j.v_start] = j.spring_stiffness;
    (*D)[j.v_start] = j.damping;
  }
}

double CalcKineticEnergy(const MultibodyModel& model, const KinematicsCache& cache,
                         const VectorX& v) {
  double ke = 0;
  for (int b = 1; b < model.num_bodies(); ++b) {
    ke += 0.5 * cache.V_WB[b].dot(cache.I_Wo[b] * cache.V_WB[b]);
    const Joint& j = model.joint(model.body(b).joint);
    if (HasRotorInertia(j)) {
      for (int k = j.v_start; k < j.v_start + j.nv; ++k) ke += 0.5 * j.rotor_inertia * v[k] * v[k];
    }
  }
  return ke;
}

double CalcPotentialEnergy(const MultibodyModel& model, const KinematicsCache& cache,
                           const VectorX& q) {
  double pe = 0;
  for (int b = 1; b < model.num_bodies(); ++b) {
    pe -= model.body(b).mass * model.gravity().dot(cache.p_WBcm[b]);
    const Joint& j = model.joint(model.body(b).joint);
    if (HasScalarCoordinate(j)) {
      const double dq = q[j.q_start] - j.spring_reference;
      pe += 0.5 * j.spring_stiffness * dq * dq;
    }
  }
  return pe;
}

}  // namespace stiction
