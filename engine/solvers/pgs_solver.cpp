#include "engine/solvers/pgs_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "engine/common/stopwatch.h"
#include "engine/parameters/ncp_parameters.h"
#include "engine/solvers/constraint_warm_start.h"
#include "engine/solvers/one_contact_solver.h"

namespace stiction {

namespace {

// Newton iterations of a convex local problem (at most 6 rows; quadratic
// convergence, a cap only against a pathological cost).
constexpr int kLocalNewtonIterations = 30;

// Local problems stop at this fraction of the sweep tolerance, so that an
// unconverged local solve never ends a sweep early.
constexpr double kLocalTolerance = 0.1;

bool Positive(double x) { return std::isfinite(x) && x > 0; }

// The set a constraint's own model keeps its impulse in (the cone of a
// contact, the effort bounds of a clamped row); an over-relaxed step may
// leave it.
void ProjectOntoImpulseSet(const Constraint& c, VectorX* gamma) {
  switch (c.kind) {
    case ConstraintKind::kFrictionCone:
      gamma->head<3>() = ProjectCone(gamma->head<3>(), c.cone.mu);
      break;
    case ConstraintKind::kHuntCrossley:
      gamma->head<3>() = ProjectCone(gamma->head<3>(), c.hc.mu);
      break;
    case ConstraintKind::kClamped:
      (*gamma)[0] = std::clamp((*gamma)[0], c.clamped.lower, c.clamped.upper);
      break;
    case ConstraintKind::kBilateral:
      break;
  }
}

}  // namespace

void PgsSolver::Prepare(const ContactProblem& problem) {
  const SolverLayout& L = layout_;
  llt_.resize(problem.num_trees());
  for (int t : L.trees) llt_[t].compute(problem.A[t]);
  const size_t nc = problem.constraints.size();
  CalcNcpErrors(problem, L.row_start, L.rows, VelocityRecovery(params_), &types_, &e_);
  a_inv_jt_.resize(nc);
  w_.resize(nc);
  w_reg_.resize(nc);
  w_reg_inv_.resize(nc);
  for (size_t k = 0; k < nc; ++k) {
    const Constraint& c = problem.constraints[k];
    a_inv_jt_[k].resize(c.blocks.size());
    w_[k].setZero(c.num_rows, c.num_rows);
    for (size_t b = 0; b < c.blocks.size(); ++b) {
      const ConstraintJacobianBlock& blk = c.blocks[b];
      a_inv_jt_[k][b] = llt_[blk.tree].solve(blk.J.transpose());
      w_[k].noalias() += blk.J * a_inv_jt_[k][b];
    }
    // What LocalConvex needs of W, once per solve: W_reg = W + 1e-10 max
    // diag(W) I and its inverse. The relative 1e-10 keeps W⁻¹ finite for
    // rank-deficient blocks (a weld on a chain with fewer DOFs than rows)
    // without changing the answer beyond round-off. Empty when no impulse
    // moves the constraint (max diag(W) ≤ 0).
    const bool convex = params_.regularized || types_[k] == NcpConstraintType::kSoft;
    const double w_max = w_[k].diagonal().maxCoeff();
    if (convex && Positive(w_max)) {
      w_reg_[k] = w_[k];
      w_reg_[k].diagonal().array() += 1e-10 * w_max;
      w_reg_inv_[k] = w_reg_[k].ldlt().solve(MatrixX::Identity(c.num_rows, c.num_rows));
    } else {
      w_reg_[k].resize(0, 0);
      w_reg_inv_[k].resize(0, 0);
    }
  }
}

VectorX PgsSolver::ConstraintVelocity(const ContactProblem& problem, int k) const {
  const Constraint& c = problem.constraints[k];
  VectorX u = VectorX::Zero(c.num_rows);
  for (const ConstraintJacobianBlock& blk : c.blocks) {
    u.noalias() += blk.J * v_.segment(layout_.local_start[blk.tree], problem.tree_nv[blk.tree]);
  }
  return u;
}

void PgsSolver::ApplyImpulse(const ContactProblem& problem, int k, const VectorX& delta) {
  const Constraint& c = problem.constraints[k];
  for (size_t b = 0; b < c.blocks.size(); ++b) {
    const int tree = c.blocks[b].tree;
    v_.segment(layout_.local_start[tree], problem.tree_nv[tree]).noalias() += a_inv_jt_[k][b] * delta;
  }
}

VectorX PgsSolver::LocalExactContact(int k, const Constraint& c, const VectorX& u, const VectorX& gamma) const {
  // u = J_k v + e (rows [t1, t2, n]); the contact's own impulse taken out.
  const Matrix3 W = w_[k];
  if (!Positive(W(2, 2))) return VectorX::Zero(3);  // The impulse cannot move this contact.
  const Vector3 free = Vector3(u.head<3>()) - W * Vector3(gamma.head<3>());
  return SolveOneContact(W, free, c.mu).gamma;
}

VectorX PgsSolver::LocalConvex(int k, const Constraint& c, const VectorX& u, const VectorX& gamma) {
  // min φ(v_c) = ½ (v_c − c)ᵀ W⁻¹ (v_c − c) + ℓ(v_c), c = u − W γ: the
  // constraint velocity without its own impulse. ∇φ = W⁻¹(v_c − c) − γ(v_c),
  // ∇²φ = W⁻¹ + G(v_c) (strongly convex; ℓ is C¹ and piecewise C²).
  const VectorX free = u - w_[k] * gamma;
  if (w_reg_[k].size() == 0) {  // No impulse moves it: γ is the model's at c.
    c.Evaluate(free, &eval_);
    return eval_.gamma;
  }
  const MatrixX& W_reg = w_reg_[k];
  const MatrixX& W_inv = w_reg_inv_[k];
  const auto phi = [&](const VectorX& vc, double* cost) {
    c.Evaluate(vc, &eval_);
    const VectorX d = vc - free;
    *cost = 0.5 * d.dot(W_inv * d) + eval_.cost;
  };
  VectorX vc = u;
  double cost = 0;
  phi(vc, &cost);
  for (int i = 0; i < kLocalNewtonIterations; ++i) {
    const VectorX gamma_vc = eval_.gamma;
    const VectorX residual = vc - free - W_reg * gamma_vc;  // W ∇φ, a velocity.
    if (residual.norm() < kLocalTolerance * params_.tolerance) break;
    const VectorX grad = W_inv * residual;
    const VectorX dir = -(W_inv + eval_.G).ldlt().solve(grad);
    const double slope = grad.dot(dir);
    if (!(slope < 0)) break;  // Round-off: no descent left.
    double alpha = 1, trial_cost = 0;
    VectorX trial;
    for (;;) {  // Armijo backtracking.
      trial = vc + alpha * dir;
      phi(trial, &trial_cost);
      if (trial_cost <= cost + 1e-4 * alpha * slope || alpha < 1e-10) break;
      // Near the minimizer φ's decrease drowns in its round-off (it only
      // resolves v_c to √ε): a full step that halves the residual is taken.
      if (alpha == 1 && (trial - free - W_reg * eval_.gamma).norm() < 0.5 * residual.norm()) break;
      alpha *= 0.5;
    }
    vc = trial;
    cost = trial_cost;
  }
  c.Evaluate(vc, &eval_);
  return eval_.gamma;
}

SolverStatus PgsSolver::SolveStarted(const ContactProblem& problem, SolverResult* result) {
  SolverResult& r = *result;
  const auto t0 = std::chrono::steady_clock::now();
  Prepare(problem);
  StartImpulses(problem);
  r.assembly_time_s = SecondsSince(t0);

  const auto t1 = std::chrono::steady_clock::now();
  double change = 0;
  int sweep = 0;
  while (sweep < params_.max_iterations) {
    ++sweep;
    change = Sweep(problem);
    RecordHistory(change, &r.residual_history);
    if (CheckStoppingCriteria(change, &r)) break;
  }
  r.factorization_time_s = SecondsSince(t1);
  return PackPgsSolverResults(problem, sweep, change, &r);
}

void PgsSolver::StartImpulses(const ContactProblem& problem) {
  const SolverLayout& L = layout_;
  gamma_.setZero(L.rows);
  if (params_.warm_start) {
    VectorX unused = VectorX::Zero(L.rows);
    LoadWarmStart(problem, L, &gamma_, &unused);
  }
  // v = v* + A⁻¹ Jᵀ γ: the iterate is always the dynamics of its impulses.
  VectorX jt;
  L.MultiplyJTranspose(problem, gamma_, &jt);
  for (int t : L.trees) {
    const int o = L.local_start[t], nv = problem.tree_nv[t];
    v_.segment(o, nv) = v_star_.segment(o, nv) + llt_[t].solve(jt.segment(o, nv));
  }
}

double PgsSolver::Sweep(const ContactProblem& problem) {
  double change = 0;
  for (size_t k = 0; k < problem.constraints.size(); ++k) {
    const int row = layout_.row_start[k], m = problem.constraints[k].num_rows;
    const VectorX old = gamma_.segment(row, m);
    const VectorX next = CalcRelaxedImpulse(problem, static_cast<int>(k), old);
    const VectorX delta = next - old;
    if (delta.isZero(0)) continue;
    ApplyImpulse(problem, static_cast<int>(k), delta);
    gamma_.segment(row, m) = next;
    change = std::max(change, (w_[k] * delta).norm());
  }
  return change;
}

VectorX PgsSolver::CalcRelaxedImpulse(const ContactProblem& problem, int k, const VectorX& old) {
  const Constraint& c = problem.constraints[k];
  const int row = layout_.row_start[k];
  const double omega = params_.relaxation;
  VectorX u = ConstraintVelocity(problem, k);
  VectorX next;
  // The local solution, then the SOR step towards it, projected back
  // onto the constraint's impulse set when ω > 1 overshoots.
  if (!params_.regularized && types_[k] == NcpConstraintType::kContact) {
    u[2] += e_[row + 2];
    next = old + omega * (LocalExactContact(k, c, u, old) - old);
    next.head<3>() = ProjectStrict(next.head<3>(), c.mu);
  } else if (!params_.regularized && types_[k] == NcpConstraintType::kHard) {
    const double w = w_[k](0, 0);
    next = old;
    if (Positive(w)) next[0] = std::max(0.0, old[0] - omega * (u[0] + e_[row]) / w);
  } else {
    next = old + omega * (LocalConvex(k, c, u, old) - old);
    if (omega > 1) ProjectOntoImpulseSet(c, &next);
  }
  return next;
}

bool PgsSolver::CheckStoppingCriteria(double change, SolverResult* r) const {
  if (!std::isfinite(change) || change < params_.tolerance) return true;
  return StopAtDeadline(r);
}

SolverStatus PgsSolver::PackPgsSolverResults(const ContactProblem& problem, int sweeps, double change,
                                             SolverResult* r) const {
  r->iterations = sweeps;
  r->constraint_residual = change;
  if (const std::optional<SolverStatus> bad = PackFinalIterate(problem, gamma_, r)) return *bad;
  // Every PGS engine steps with its last sweep's answer at the cap.
  return FinishUsable(change < params_.tolerance, r, [&] {
    return ShortOfTolerance{.target = StreamText("a velocity change below ", params_.tolerance, " m/s"),
                            .count = sweeps,
                            .steps = "sweeps",
                            .residual = StreamText(change, " m/s")};
  });
}

}  // namespace stiction
