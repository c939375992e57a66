#pragma once
// Random contact problems for the solver tests: free bodies with random SPD
// A and friction cones with SAP-like regularization, and the cost ℓ_p of
// [SAP] Eq. (24) computed independently of any solver.
#include <cmath>
#include <random>

#include "engine/contact/contact_problem.h"

namespace stiction::test {

// A random, well-posed contact problem: `trees` free bodies (6 velocities,
// random SPD A), `contacts` friction cones between random pairs of trees or
// a tree and the world, with SAP-like regularization (Rt ≪ Rn).
inline ContactProblem RandomProblem(unsigned seed, int trees = 3, int contacts = 8) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  ContactProblem p;
  p.dt = 0.01;
  int v = 0;
  for (int t = 0; t < trees; ++t) {
    MatrixX B = MatrixX::NullaryExpr(6, 6, [&] { return u(gen); });
    p.A.push_back(B * B.transpose() + 0.5 * MatrixX::Identity(6, 6));
    p.tree_v_start.push_back(v);
    p.tree_nv.push_back(6);
    v += 6;
  }
  p.v_star = VectorX::NullaryExpr(v, [&] { return u(gen); });
  for (int i = 0; i < contacts; ++i) {
    Constraint c;
    c.kind = ConstraintKind::kFrictionCone;
    c.num_rows = 3;
    const int ta = static_cast<int>(gen() % trees);
    c.blocks.push_back({ta, MatrixX::NullaryExpr(3, 6, [&] { return u(gen); })});
    if (gen() % 2 == 0) {
      const int tb = (ta + 1) % trees;
      c.blocks.push_back({tb, MatrixX::NullaryExpr(3, 6, [&] { return u(gen); })});
    }
    c.cone.mu = 0.3 + 0.7 * std::abs(u(gen));
    c.cone.Rn = 1e-3 * (1 + std::abs(u(gen)));
    c.cone.Rt = 1e-3 * c.cone.Rn;
    c.cone.vn_hat = 0.5 * u(gen);
    p.constraints.push_back(c);
  }
  return p;
}

inline double Cost(const ContactProblem& p, const VectorX& v) {
  double cost = 0;
  for (int t = 0; t < p.num_trees(); ++t) {
    const VectorX d = v.segment(p.tree_v_start[t], p.tree_nv[t]) - p.v_star.segment(p.tree_v_start[t], p.tree_nv[t]);
    cost += 0.5 * d.dot(p.A[t] * d);
  }
  ConstraintEvaluation e;
  for (const Constraint& c : p.constraints) {
    VectorX vc = VectorX::Zero(c.num_rows);
    for (const ConstraintJacobianBlock& b : c.blocks) vc += b.J * v.segment(p.tree_v_start[b.tree], p.tree_nv[b.tree]);
    c.Evaluate(vc, &e);
    cost += e.cost;
  }
  return cost;
}

// Appends `count` friction cones that couple trees only within the pairs
// {0, 1}, {2, 3}, …: constraint i acts on pair i % pairs (so the islands'
// constraints interleave in problem order), on both of its trees unless
// i % single_every == 0, then on the first alone.
inline void AddPairedCones(ContactProblem* p, unsigned seed, int count, int pairs, int single_every) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < count; ++i) {
    Constraint c;
    const int ta = 2 * (i % pairs);
    c.blocks.push_back({ta, MatrixX::NullaryExpr(3, 6, [&] { return u(gen); })});
    if (i % single_every != 0) c.blocks.push_back({ta + 1, MatrixX::NullaryExpr(3, 6, [&] { return u(gen); })});
    c.cone.mu = 0.5;
    c.cone.Rn = 1e-3;
    c.cone.Rt = 1e-6;
    c.cone.vn_hat = 0.5 * u(gen);
    p->constraints.push_back(c);
  }
}

// A point mass m [kg] (3 velocities, A = m I) touching the ground at
// φ0 = 0, its contact rows [t1, t2, n] = [x, y, z], friction μ, with
// free-motion velocity v* = (vx, 0, −g δt): gravity (9.81 m/s²) over one step
// δt [s] plus a horizontal slide vx [m/s].
inline ContactProblem PointMassOnGround(double m, double dt, double mu, double vx) {
  ContactProblem p;
  p.dt = dt;
  p.tree_v_start = {0};
  p.tree_nv = {3};
  p.A = {m * MatrixX::Identity(3, 3)};
  p.v_star = Vector3(vx, 0, -9.81 * dt);
  Constraint c;
  c.kind = ConstraintKind::kFrictionCone;
  c.num_rows = 3;
  c.origin = ConstraintOrigin::kContact;
  c.blocks.push_back({0, MatrixX::Identity(3, 3)});
  c.phi0 = 0;
  c.mu = mu;
  c.cone.mu = mu;
  p.constraints.push_back(c);
  return p;
}

// Two point masses stacked on the ground along z: m_bottom [kg] on the
// ground, m_top on it, both at rest under gravity over one step δt [s].
// Contact 0: ground–bottom, contact 1: bottom–top (velocity of top relative
// to bottom), μ = 0.5. The exact answer: γ_1 = m_top g δt,
// γ_0 = (m_bottom + m_top) g δt, v = 0.
inline ContactProblem PointMassStack(double m_bottom, double m_top, double dt) {
  ContactProblem p;
  p.dt = dt;
  p.tree_v_start = {0, 3};
  p.tree_nv = {3, 3};
  p.A = {m_bottom * MatrixX::Identity(3, 3), m_top * MatrixX::Identity(3, 3)};
  p.v_star = VectorX::Zero(6);
  p.v_star[2] = p.v_star[5] = -9.81 * dt;
  Constraint c;
  c.num_rows = 3;
  c.origin = ConstraintOrigin::kContact;
  c.mu = c.cone.mu = 0.5;
  c.blocks = {{0, MatrixX::Identity(3, 3)}};
  p.constraints.push_back(c);
  c.blocks = {{0, -MatrixX::Identity(3, 3)}, {1, MatrixX::Identity(3, 3)}};
  p.constraints.push_back(c);
  return p;
}

}  // namespace stiction::test
