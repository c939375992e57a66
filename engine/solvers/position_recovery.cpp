#include "engine/solvers/position_recovery.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/solvers/ncp_constraints.h"

namespace stiction {

namespace {

// The correction's solve: exact (frictionless) PGS, cold, to 1e-12 m/s of
// constraint velocity, near round-off, so that contacts placed
// symmetrically get symmetric corrections (to 1e-6 m/s, the Gauss–Seidel
// order tilted a box resting on four corners by 1e-11 rad in 50 steps, and
// friction then held it with 4e-9 N sideways). A solve that reaches the
// sweep cap is not used: Gauss–Seidel converges slowly across mass ratios,
// and its iterate pushed a 5 g box sideways out from under a 5 kg one
// (tests/scenarios/sap_heavy_load_test.cpp). The step then goes on
// uncorrected, and the next step corrects what is left.
PgsSolverParameters CorrectionParameters() {
  PgsSolverParameters p;
  p.regularized = false;
  p.tolerance = 1e-12;
  p.max_iterations = 200;
  p.warm_start = false;
  p.penetration_recovery = 1;  // Each row's gap is measured from its target.
  return p;
}

// J_n v over a constraint's blocks for its normal row (a contact's third
// row, a limit's only row).
double NormalVelocity(const ContactProblem& problem, const Constraint& c, const VectorX& v) {
  return problem.RowVelocity(c, c.num_rows - 1, v);
}

}  // namespace

PositionRecovery::PositionRecovery() : pgs_(CorrectionParameters()) {}

PositionRecoveryResult PositionRecovery::Solve(const ContactProblem& problem, const VectorX& v0, const VectorX& v,
                                               double theta_vq, const PositionTargets& targets, VectorX* dv) {
  PositionRecoveryResult result;
  dv->setZero(problem.num_velocities());
  v_vq_ = theta_vq * v + (1 - theta_vq) * v0;
  // The frictionless problem: contacts and joint limits only (the soft rows,
  // actuators and welds, are no part of a position correction), each with
  // the gap the step's velocities leave measured from its target b, and
  // r = 1: J_n Δv + (φ − b)/δt ≥ 0 ends it at b or above.
  // A target missed by less than the exact solvers' default tolerance,
  // 1e-6 m/s, over the step is not corrected (a contact at rest misses its
  // prediction by round-off).
  const double slack = 1e-6 * problem.dt;
  // First each row's gap from its target, so that a step that meets every
  // target copies nothing.
  gaps_.clear();
  bool missed = false;
  for (const Constraint& c : problem.constraints) {
    if (NcpTypeOf(c) == NcpConstraintType::kSoft) continue;
    const double phi = c.phi0 + problem.dt * NormalVelocity(problem, c, v_vq_);
    double target = -std::numeric_limits<double>::infinity();
    if (targets.recovery > 0) target = (1 - targets.recovery) * std::min(phi, 0.0);
    if (targets.arrival) target = std::max(target, std::min(c.phi0 + problem.dt * NormalVelocity(problem, c, v), 0.0));
    gaps_.push_back(phi - target);
    missed = missed || gaps_.back() < -slack;
  }
  if (!missed) return result;  // Every target met: Δv = 0.
  split_.dt = problem.dt;
  split_.tree_v_start = problem.tree_v_start;
  split_.tree_nv = problem.tree_nv;
  split_.A = problem.A;
  split_.v_star.setZero(problem.num_velocities());
  split_.constraints.clear();
  for (const Constraint& c : problem.constraints) {
    if (NcpTypeOf(c) == NcpConstraintType::kSoft) continue;
    Constraint& s = split_.constraints.emplace_back();
    s.kind = c.kind;
    s.num_rows = c.num_rows;
    s.blocks = c.blocks;
    s.origin = c.origin;
    s.key = c.key;
    s.mu = s.cone.mu = s.hc.mu = 0;
    s.phi0 = gaps_[split_.constraints.size() - 1];
  }
  SolverResult solved;
  const SolverStatus status = pgs_.Solve(split_, split_.v_star, &solved);
  result.sweeps = solved.iterations;
  result.converged = status == SolverStatus::kConverged;
  if (!result.converged || !solved.v.allFinite()) return result;  // Δv = 0: the step goes on uncorrected.
  *dv = solved.v;
  for (const Constraint& s : split_.constraints) {
    result.max_correction_m = std::max(result.max_correction_m, problem.dt * std::abs(NormalVelocity(split_, s, *dv)));
  }
  return result;
}

}  // namespace stiction
