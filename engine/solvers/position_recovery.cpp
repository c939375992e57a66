#include "engine/solvers/position_recovery.h"

#include <algorithm>
#include <cmath>

#include "engine/solvers/ncp_constraints.h"

namespace stiction {

namespace {

// The correction's solve: exact (frictionless) PGS, cold, to 1e-6 m/s of
// constraint velocity (1e-8 m of position per 10 ms step). At the sweep cap
// the last iterate is used: it is a position correction, not an impulse
// anyone reads, and the next step corrects what is left.
PgsSolverParameters CorrectionParameters() {
  PgsSolverParameters p;
  p.regularized = false;
  p.tolerance = 1e-6;
  p.max_iterations = 50;
  p.warm_start = false;
  return p;
}

// J_n v over a constraint's blocks for its normal row (a contact's third
// row, a limit's only row).
double NormalVelocity(const ContactProblem& problem, const Constraint& c, const VectorX& v) {
  const int row = c.num_rows - 1;
  double vn = 0;
  for (const ConstraintJacobianBlock& b : c.blocks) {
    vn += b.J.row(row).dot(v.segment(problem.tree_v_start[b.tree], problem.tree_nv[b.tree]));
  }
  return vn;
}

}  // namespace

PositionRecoveryResult PositionRecovery::Solve(const ContactProblem& problem, const VectorX& v0, const VectorX& v,
                                               double theta_vq, double recovery, VectorX* dv) {
  PositionRecoveryResult result;
  dv->setZero(problem.num_velocities());
  v_vq_ = theta_vq * v + (1 - theta_vq) * v0;
  // The frictionless problem: contacts and joint limits only (the soft rows,
  // actuators and welds, are no part of a position correction), each with
  // the gap the step's velocities leave.
  split_.dt = problem.dt;
  split_.tree_v_start = problem.tree_v_start;
  split_.tree_nv = problem.tree_nv;
  split_.A = problem.A;
  split_.v_star.setZero(problem.num_velocities());
  split_.constraints.clear();
  bool overlap = false;
  for (const Constraint& c : problem.constraints) {
    const NcpConstraintType type = NcpTypeOf(c);
    if (type == NcpConstraintType::kSoft) continue;
    Constraint& s = split_.constraints.emplace_back();
    s.kind = c.kind;
    s.num_rows = c.num_rows;
    s.blocks = c.blocks;
    s.origin = c.origin;
    s.key = c.key;
    s.mu = s.cone.mu = s.hc.mu = 0;
    s.phi0 = c.phi0 + problem.dt * NormalVelocity(problem, c, v_vq_);
    overlap = overlap || s.phi0 < 0;
  }
  if (!overlap) return result;  // Nothing to remove: Δv = 0.
  PgsSolverParameters params = CorrectionParameters();
  params.penetration_recovery = recovery;
  SolverSettings settings;
  settings.pgs = params;
  pgs_.SetParameters(settings);
  SolverResult solved;
  const SolverStatus status = pgs_.Solve(split_, split_.v_star, &solved);
  result.sweeps = solved.iterations;
  result.converged = status == SolverStatus::kConverged;
  if (!solved.usable || !solved.v.allFinite()) return result;  // Δv = 0: the step goes on uncorrected.
  *dv = solved.v;
  for (const Constraint& s : split_.constraints) {
    result.max_correction_m = std::max(result.max_correction_m, problem.dt * std::abs(NormalVelocity(split_, s, *dv)));
  }
  return result;
}

}  // namespace stiction
