#include "engine/stepping/theta_method_stepper.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <sstream>

#include "engine/common/error.h"
#include "engine/common/stopwatch.h"
#include "engine/multibody/dynamics.h"
#include "engine/multibody/spatial_algebra.h"
#include "engine/solvers/solver_factory.h"

namespace stiction {

namespace {
// Folds a substep's statistics into the step's: work summed, the deepest
// penetration and the smallest δt kept, the rest (contacts, errors, the
// solver's state at exit) the last substep's. `subdivisions` is the caller's.
void AddSubstepStats(const StepStats& s, StepStats* total) {
  const StepStats sum = *total;
  *total = s;
  total->iterations += sum.iterations;
  total->line_search_iterations += sum.line_search_iterations;
  total->outer_iterations += sum.outer_iterations;
  total->qp_iterations += sum.qp_iterations;
  total->load_resolves += sum.load_resolves;
  total->budget_hit = s.budget_hit || sum.budget_hit;
  total->solver_fallback = s.solver_fallback || sum.solver_fallback;
  total->work_external_J += sum.work_external_J;
  total->work_actuators_J += sum.work_actuators_J;
  total->work_cartesian_J += sum.work_cartesian_J;
  total->solver_converged = s.solver_converged && sum.solver_converged;
  total->max_penetration_m = std::max(s.max_penetration_m, sum.max_penetration_m);
  total->position_correction_m = std::max(s.position_correction_m, sum.position_correction_m);
  total->position_correction_sweeps += sum.position_correction_sweeps;
  if (sum.smallest_dt_s > 0) total->smallest_dt_s = std::min(s.smallest_dt_s, sum.smallest_dt_s);
  total->time.free_motion += sum.time.free_motion;
  total->time.collision += sum.time.collision;
  total->time.contact_surfaces += sum.time.contact_surfaces;
  total->time.assembly += sum.time.assembly;
  total->time.factorization += sum.time.factorization;
  total->time.line_search += sum.time.line_search;
}

// The work of constraint c's impulses γ (its rows) over a step from v0 to v:
// γᵀ J (v0 + v)/2 [J] (an iterate's: v0 = v*).
double RowWork(const ContactProblem& problem, const Constraint& c, const double* gamma, const VectorX& v0,
               const VectorX& v) {
  double work = 0;
  for (const ConstraintJacobianBlock& b : c.blocks) {
    const int start = problem.tree_v_start[b.tree], nv = problem.tree_nv[b.tree];
    for (int i = 0; i < c.num_rows; ++i) {
      work += 0.5 * gamma[i] * b.J.row(i).dot(v0.segment(start, nv) + v.segment(start, nv));
    }
  }
  return work;
}

// Energy a step's impulses created beyond what dissipative contact may
// give, in J (≤ 0: none), for an iterate short of convergence. In the
// metric of A, ½vᵀAv − ½v*ᵀAv* = Σ_rows γᵀ J (v + v*)/2 + ½ eᵀ(v + v*),
// with e = A (v − v*) − Jᵀ γ the momentum the impulses do not explain
// (zero at convergence; SubADMM's dual residual at its cap). Contact and
// joint-limit rows do no work beyond pushing overlaps out, at most
// Σ γ_n r max(0, −φ0)/δt (r: the solver's penetration recovery, the
// fraction of an overlap removed per step); the unexplained
// momentum is no physical force and may do none. Actuator and controller
// rows do work, which the impulses account for. Allowed on top: 0.1% of
// the free motion's ½v*ᵀAv* and `tolerance` (the stepper's: lifting every
// body by 0.1 mm), for a solver's tolerance and a soft model's stored
// energy (CANAL at its cap returns ~1 mJ per step to the arm holding a box).
double CreatedEnergy(const ContactProblem& problem, const VectorX& gamma, const VectorX& v, double recovery_fraction,
                     double tolerance, VectorX* jt) {
  double work = 0, recovery = 0;
  jt->setZero(v.size());
  int row = 0;
  for (const Constraint& c : problem.constraints) {
    const bool dissipative = c.origin == ConstraintOrigin::kContact || c.origin == ConstraintOrigin::kJointLimit;
    for (const ConstraintJacobianBlock& b : c.blocks) {
      const int start = problem.tree_v_start[b.tree];
      jt->segment(start, problem.tree_nv[b.tree]).noalias() += b.J.transpose() * gamma.segment(row, c.num_rows);
    }
    if (dissipative) work += RowWork(problem, c, gamma.data() + row, problem.v_star, v);
    const double gn = gamma[row + c.num_rows - 1];
    if (dissipative && c.phi0 < 0 && gn > 0) recovery += gn * recovery_fraction * (-c.phi0) / problem.dt;
    row += c.num_rows;
  }
  double unexplained = 0, free_energy = 0;
  for (int t = 0; t < problem.num_trees(); ++t) {
    const int start = problem.tree_v_start[t], nv = problem.tree_nv[t];
    const auto vs = problem.v_star.segment(start, nv);
    const auto vt = v.segment(start, nv);
    free_energy += 0.5 * vs.dot(problem.A[t] * vs);
    unexplained += 0.5 * (problem.A[t] * (vt - vs) - jt->segment(start, nv)).dot(vt + vs);
  }
  return std::max(work - recovery, 0.0) + std::max(unexplained, 0.0) - (1e-3 * free_energy + tolerance);
}

}  // namespace

ThetaMethodStepper::ThetaMethodStepper(const MultibodyModel& model, CollisionWorld* collision,
                                       const ConstraintSources* sources)
    : model_(model),
      collision_(collision),
      sources_(sources != nullptr ? *sources : no_sources_),
      theta_method_(model),
      builder_(model),
      sleep_(model, sources_),
      cache_(model),
      cache_q0_(model) {
  CalcJointStiffnessAndDamping(model, &K_, &D_);
  problem_.A.resize(model.num_trees());
  problem_.v_star = VectorX::Zero(model.num_velocities());
  for (int t = 0; t < model.num_trees(); ++t) {
    problem_.tree_v_start.push_back(model.tree(t).v_start);
    problem_.tree_nv.push_back(model.tree(t).nv);
  }
  q_theta_ = VectorX::Zero(model.num_positions());
  free_motion_history_.Resize(model.num_velocities(), model.num_trees());
  // What a capped iterate may create per step (CreatedEnergy): the work of
  // lifting every body by 0.1 mm, and 1 µJ.
  double mass = 0;
  for (int b = 1; b < model.num_bodies(); ++b) mass += model.body(b).mass;
  energy_tolerance_ = mass * model.gravity().norm() * 1e-4 + 1e-6;
  // Each body's extent for the speculative margin (solver.speculative_body_extents).
  body_extent_.assign(model.num_bodies(), -1.0);
  if (collision_ != nullptr) {
    for (int i = 0; i < collision_->num_geometries(); ++i) {
      const CollisionGeometry& g = collision_->geometry(i);
      if (!g.is_collision() || g.body() <= 0) continue;
      const double reach = (g.X_BG().p - model.body(g.body()).com_B).norm() + g.bounding_radius();
      body_extent_[g.body()] = std::max(body_extent_[g.body()], reach);
    }
  }
}

ThetaMethodStepper::~ThetaMethodStepper() = default;

void ThetaMethodStepper::ClearHistory() {
  history_.Clear();
  free_motion_history_.Clear();
  sleep_.WakeAll();
}

void ThetaMethodStepper::SaveMemory(StepperMemory* m) const {
  Stepper::SaveMemory(m);
  m->history = history_;
  m->history_solver = history_solver_;
  m->sleep = sleep_.state();
  m->free_motion = free_motion_history_;
}

void ThetaMethodStepper::RestoreMemory(const StepperMemory& m) {
  Stepper::RestoreMemory(m);
  history_ = m.history;
  history_solver_ = m.history_solver;
  sleep_.Restore(m.sleep);
  free_motion_history_ = m.free_motion;
  if (!free_motion_history_.Fits(model_.num_velocities(), model_.num_trees())) {
    free_motion_history_.Resize(model_.num_velocities(), model_.num_trees());
  }
}

StepStatus ThetaMethodStepper::Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                                    const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                                    std::string* message) {
  // Every attempt below starts from the sleep state and the stage-1
  // history the step started with (an attempt that fails may have put
  // islands to sleep or woken them, and recorded its own stage 1).
  const SleepState sleep_before = sleep_.state();
  free_motion_before_ = free_motion_history_;
  const auto restart = [&] {
    sleep_.Restore(sleep_before);
    free_motion_history_ = free_motion_before_;
  };
  const StepStatus status = StepOnce(params, q0, v0, tau_ext, q, v, stats, message);
  if (status == StepStatus::kSuccess) {
    AddSleepingContacts();
    return status;
  }
  if (params.solver.budget.max_step_halvings == 0) {
    restart();
    return status;
  }
  // The fallbacks. When the chosen contact solver failed (or its iterate
  // was refused for creating energy, below) and it is not SAP, the last
  // usable solver takes the step: SAP, whose convex problem has one
  // solution it reaches with a certificate, first at δt. Then the same
  // interval as two half steps, each halved again where it fails: a step
  // the solvers cannot take at δt (a fast, light link whose stage-1 Newton
  // has no nearby solution at ω δt ~ 3 rad, a contact problem SAP cannot
  // converge) is usually an easy one at δt/2. Each retry costs a solve, so
  // a failed step costs at most 2^(n+1) of them (n = max_step_halvings).
  const std::string first_message = *message;
  StepperParameters fallback = params;
  StepStats taken;
  std::string fallback_message;
  StepStatus retried = status;
  if (!stage1_failed_ && params.solver.type != SolverType::kSap) {
    fallback.solver.type = SolverType::kSap;
    restart();
    retried = StepOnce(fallback, q0, v0, tau_ext, q, v, &taken, &fallback_message);
  }
  if (retried != StepStatus::kSuccess) {
    taken = StepStats();
    restart();
    retried = StepInHalves(fallback, q0, v0, tau_ext, 1, q, v, &taken, &fallback_message);
  }
  if (retried != StepStatus::kSuccess) {
    restart();
    std::ostringstream os;
    os << first_message << "; " << (fallback.solver.type != params.solver.type ? "SAP, then " : "")
       << "in halves down to dt/" << (1 << params.solver.budget.max_step_halvings) << ": " << fallback_message;
    *message = os.str();
    return retried;
  }
  taken.solver_fallback = fallback.solver.type != params.solver.type;
  message->clear();
  *stats = taken;
  AddSleepingContacts();
  return StepStatus::kSuccess;
}

void ThetaMethodStepper::AddSleepingContacts() {
  // After every use of reports_ as the problem's (they are index-aligned
  // with its contact constraints until here).
  const std::vector<ContactReport>& frozen = sleep_.reports();
  reports_.insert(reports_.end(), frozen.begin(), frozen.end());
}

StepStatus ThetaMethodStepper::StepInHalves(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                                            const VectorX* tau_ext, int depth, VectorX* q, VectorX* v,
                                            StepStats* total, std::string* message) {
  StepperParameters half = params;
  half.dt = params.dt / 2;
  VectorX q_mid, v_mid;
  int leaves = 0;  // Steps taken at their own δt.
  for (int i = 0; i < 2; ++i) {
    const VectorX& qa = i == 0 ? q0 : q_mid;
    const VectorX& va = i == 0 ? v0 : v_mid;
    VectorX& qb = i == 0 ? q_mid : *q;
    VectorX& vb = i == 0 ? v_mid : *v;
    StepStats s;
    StepStatus status = StepOnce(half, qa, va, tau_ext, &qb, &vb, &s, message);
    if (status == StepStatus::kSuccess) {
      s.smallest_dt_s = half.dt;
      ++leaves;
    } else if (depth < params.solver.budget.max_step_halvings) {
      s = StepStats();
      status = StepInHalves(half, qa, va, tau_ext, depth + 1, &qb, &vb, &s, message);
      leaves += s.subdivisions + 1;
    }
    if (status != StepStatus::kSuccess) return status;
    AddSubstepStats(s, total);
  }
  total->subdivisions = leaves - 1;
  if (depth == 1) {
    // The reports are the last substep's: scale its impulses to the whole
    // step, so that γ/δt is still their average force (consumers divide by δt).
    const double scale = params.dt / problem_.dt;
    for (ContactReport& r : reports_) r.gamma_C *= scale;
  }
  return StepStatus::kSuccess;
}

StepStatus ThetaMethodStepper::StepOnce(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                                        const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                                        std::string* message) {
  const ThetaParameters theta{params.integrator.theta, params.integrator.theta_vq};
  problem_.dt = params.dt;
  *q = q0;
  *v = v0;
  {
    ScopedTimer timer(&stats->time.free_motion);
    // Kinematics at (q0, v0): the explicit guess of stage 1 and, below, the
    // contact query and the constraint Jacobians (J = J(q0), Eq. 7).
    CalcKinematics(model_, q0, v0, BodyRange::All(model_), &cache_q0_);
  }
  // Which islands sleep in this step: from the start-of-step velocities,
  // the forces and the last step's contacts; then the query, which wakes
  // the islands a moving body touches, before stage 1 (which needs neither).
  sleep_.BeginStep(params.solver.sleep, params.dt, cache_q0_, tau_ext, reports_);
  {
    ScopedTimer timer(&stats->time.collision);
    QueryContacts(params.solver.margin);
  }
  if (collision_ != nullptr) stats->time.contact_surfaces = collision_->surface_seconds();
  {
    ScopedTimer timer(&stats->time.free_motion);
    const StepStatus status = SolveFreeMotion(theta, q0, v0, tau_ext, stats, message);
    stage1_failed_ = status != StepStatus::kSuccess;
    if (stage1_failed_) return status;
    CalcLinearization(theta);
  }
  {
    ScopedTimer timer(&stats->time.assembly);
    BuildContactProblem(params, q0, v0, stats);
  }
  StepStatus status = SolveContactProblem(params, v0, v, stats, message);
  // Sudden loads: the carried-load estimate takes λ from the previous step,
  // so a load that arrives within this one (a heavy body landing on a light
  // one, a grasp closing on a light object) meets contacts sized for the
  // old load, which give way by millimetres. When the solved impulses say
  // so, build the problem again with them as the load (history_ now holds
  // them) and solve again: each solve stays convex with R fixed before it.
  // Solvers of the exact NCP do not use R (SolverTypeInfo::exact_contact).
  const bool uses_regularization = !GetSolverTypeInfo(params.solver.type).exact_contact(params.solver);
  while (status == StepStatus::kSuccess && uses_regularization &&
         stats->load_resolves < params.contact.max_load_resolves &&
         CarriedLoadJumped(problem_, solver_result_.gamma, *v, model_.gravity().norm(), params.contact)) {
    const StepStats previous = *stats;
    {
      ScopedTimer timer(&stats->time.assembly);
      BuildContactProblem(params, q0, v0, stats);
    }
    // From the solution just found: only the loaded manifolds' R changed.
    resolve_guess_ = *v;
    status = SolveContactProblem(params, resolve_guess_, v, stats, message);
    stats->load_resolves = previous.load_resolves + 1;
    stats->iterations += previous.iterations;
    stats->outer_iterations += previous.outer_iterations;
    stats->line_search_iterations += previous.line_search_iterations;
    stats->time.factorization += previous.time.factorization;
    stats->time.line_search += previous.time.line_search;
  }
  if (status != StepStatus::kSuccess) return status;
  if (!problem_.constraints.empty()) history_.SaveContactEnds(problem_, solver_result_.gamma, *v, !uses_regularization);
  FreezeSleepers(q0, nullptr, v);
  ReportResults(params, *v, stats);
  MeterWork(v0, *v, tau_ext, stats);
  const bool corrected = CalcPositionRecovery(params, theta, v0, *v, stats);
  const StepStatus updated = UpdatePositions(theta, q0, v0, *v, corrected ? &pseudo_v_ : nullptr, q, message);
  if (updated != StepStatus::kSuccess) return updated;
  FreezeSleepers(q0, q, v);
  if (params.solver.sleep.enabled) sleep_.NoteContacts(contact_points_);
  stats->sleeping_bodies = sleep_.num_asleep_bodies();
  return StepStatus::kSuccess;
}

void ThetaMethodStepper::FreezeSleepers(const VectorX& q0, VectorX* q, VectorX* v) const {
  if (!sleep_.any_asleep()) return;
  for (int t = 0; t < model_.num_trees(); ++t) {
    if (!sleep_.asleep(t)) continue;
    const Tree& tree = model_.tree(t);
    v->segment(tree.v_start, tree.nv).setZero();
    if (q != nullptr) q->segment(tree.q_start, tree.nq) = q0.segment(tree.q_start, tree.nq);
  }
}

StepStatus ThetaMethodStepper::SolveFreeMotion(const ThetaParameters& theta, const VectorX& q0, const VectorX& v0,
                                               const VectorX* tau_ext, StepStats* stats, std::string* message) {
  // Stage 1, Eq. (13), tree by tree (trees do not interact without
  // constraints); each tree's mass matrix M(q^θ(v*)) goes into A.
  VectorX& v_star = problem_.v_star;
  v_star = v0;
  int iterations = 0;
  for (int t = 0; t < model_.num_trees(); ++t) {
    if (sleep_.asleep(t)) {  // Frozen: v* = 0, and A = M(q0) for a solver that still sees the tree.
      const Tree& tree = model_.tree(t);
      v_star.segment(tree.v_start, tree.nv).setZero();
      CalcTreeMassMatrix(model_, cache_q0_, t, &problem_.A[t]);
      free_motion_history_.Forget(t);
      continue;
    }
    const FreeMotionStatus s =
        theta_method_.SolveFreeMotion(t, q0, v0, problem_.dt, theta, tau_ext, &v_star, &cache_, &problem_.A[t],
                                      &cache_q0_, &free_motion_history_);
    iterations = std::max(iterations, s.newton_iterations);
    if (!s.converged) {
      std::ostringstream os;
      os << "free-motion Newton (stage 1) did not converge for the tree of body '"
         << model_.body(model_.tree(t).body_begin).name << "' (residual " << s.residual_norm << " N s)";
      *message = os.str();
      return StepStatus::kSolverFailed;
    }
  }
  stats->iterations = iterations;
  if (!v_star.allFinite()) {
    *message = "the free motion (stage 1) produced a non-finite velocity";
    return StepStatus::kNonFinite;
  }
  return StepStatus::kSuccess;
}

void ThetaMethodStepper::CalcLinearization(const ThetaParameters& theta) {
  // Eq. (15): the SPD approximation A = M + δt² θ θ_vq K + δt θ D of ∂m/∂v
  // about v*, per tree (M from stage 1).
  const double dt = problem_.dt;
  const double kscale = dt * dt * theta.theta * theta.theta_vq;
  const double dscale = dt * theta.theta;
  for (int t = 0; t < model_.num_trees(); ++t) {
    const Tree& tr = model_.tree(t);
    problem_.A[t].diagonal() += kscale * K_.segment(tr.v_start, tr.nv) + dscale * D_.segment(tr.v_start, tr.nv);
  }
}

double ThetaMethodStepper::CalcSpeculativeMargin(double dt, bool body_extents) const {
  // Pairs that can touch within the step must be in the problem with φ > 0
  // ([SAP] Sec. V-A's v̂_n handles them). Bound the approach speed by the
  // fastest body point within 0.1 m of a COM, twice, for two bodies closing in;
  // with solver.speculative_body_extents, within each body's own extent (a
  // body without collision geometry never touches and is skipped). The
  // fixed 0.1 m counts a 12 mm marble rolling at 2 m/s as 17 m/s.
  // Capped at 0.5 m (2 δt v for 16 m/s at δt = 15.6 ms): at the earlier cap,
  // 5 cm, a box pushed to 17 m/s passed 16 cm into the ground in one step
  // with no contact in its problem (FastImpactTest).
  double v_max = 0;
  for (int b = 1; b < model_.num_bodies(); ++b) {
    const Vector6& V = cache_q0_.V_WB[b];
    const Vector3 w = V.head<3>();
    const double v_cm = PointVelocity(V, cache_q0_.p_WBcm[b]).norm();
    double reach = 0.1;
    if (body_extents) {
      if (body_extent_[b] < 0) continue;
      reach = body_extent_[b];
    }
    v_max = std::max(v_max, v_cm + reach * w.norm());
  }
  return std::clamp(1e-3 + 2 * dt * v_max, 1e-3, 0.5);
}

void ThetaMethodStepper::QueryContacts(const SpeculativeMarginParameters& margin) {
  // Constraints are evaluated at q0 (J = J(q0), Eq. 7): cache_q0_ holds
  // the kinematics there (Step computed them before stage 1).
  margin_ = CalcSpeculativeMargin(problem_.dt, margin.body_extents);
  contact_points_.clear();
  if (collision_ != nullptr) {
    static const std::vector<char> kNoneAsleep;
    collision_->SetSleepingBodies(sleep_.any_asleep() ? sleep_.asleep_bodies() : kNoneAsleep);
    collision_->UpdatePoses(cache_q0_.X_WB);
    collision_->ComputeContacts(margin_, &contact_points_);
    if (sleep_.WakeTouched(contact_points_)) {
      // The woken islands' pairs with each other and the world were skipped.
      collision_->SetSleepingBodies(sleep_.any_asleep() ? sleep_.asleep_bodies() : kNoneAsleep);
      collision_->ComputeContacts(margin_, &contact_points_);
    }
  }
}

void ThetaMethodStepper::BuildContactProblem(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                                             StepStats* stats) {
  builder_.Build(cache_q0_, q0, v0, contact_points_, sources_, params.contact, margin_, &history_, &problem_,
                 &reports_);
  stats->num_contacts = static_cast<int>(reports_.size());
  stats->solver = params.solver.type;
}

StepStatus ThetaMethodStepper::SolveContactProblem(const StepperParameters& params, const VectorX& v0, VectorX* v,
                                                   StepStats* stats, std::string* message) {
  if (problem_.constraints.empty()) {
    *v = problem_.v_star;  // Eq. (18) with γ = 0.
    history_.Clear();      // Nothing was carried: no stale loads or warm starts later.
    return StepStatus::kSuccess;
  }
  ConfigureContactSolver(params.solver, &solver_);
  // A new solver type starts without the previous one's warm starts (its
  // impulses still gave this step's loads, which are physical).
  if (solver_->UsesWarmStart() && history_solver_ == params.solver.type) history_.ApplyWarmStart(&problem_);
  // The time budget counts from here: the contact solve alone.
  const double budget_ms = params.solver.budget.time_ms;
  solver_->SetDeadline(budget_ms > 0 ? SolveDeadline(std::chrono::steady_clock::now() +
                                                     std::chrono::nanoseconds(static_cast<std::int64_t>(budget_ms * 1e6)))
                                     : std::nullopt);
  const SolverStatus status = solver_->Solve(problem_, v0, &solver_result_);
  const SolverResult& r = solver_result_;
  stats->budget_hit = r.budget_hit;
  stats->iterations = r.iterations;
  stats->outer_iterations = r.outer_iterations;
  stats->constraint_residual = r.constraint_residual;
  stats->penalty = r.penalty;
  stats->solver_converged = status == SolverStatus::kConverged;
  stats->line_search_iterations = r.line_search_iterations;
  stats->momentum_error = r.momentum_error;
  stats->complementarity_error = r.complementarity_error;
  stats->time.assembly += r.assembly_time_s;
  stats->time.factorization = r.factorization_time_s;
  stats->time.line_search = r.line_search_time_s;
  // The solver says whether its result may advance the step (an AL solver
  // at its iteration cap returns a usable soft-contact answer; SAP at its
  // cap does not); stats->solver_converged tells the two apart.
  if (!r.usable) {
    *message = r.message;
    return status == SolverStatus::kNonFinite ? StepStatus::kNonFinite : StepStatus::kSolverFailed;
  }
  // An iterate short of convergence (an AL solver's cap, a time budget) is
  // usable only if it did not create energy: contact work beyond pushing
  // overlaps out, or momentum its impulses do not explain, means it is not a
  // contact answer at all (SubADMM at its cap gave a held box 11.8 kJ in one
  // step, the soft ball pile 24.5 J on its 10.6 J). Such a step fails, and
  // the fallbacks of Step take over, instead of going on.
  if (status != SolverStatus::kConverged) {
    const double created = CreatedEnergy(
        problem_, r.gamma, r.v, GetSolverTypeInfo(params.solver.type).penetration_recovery(params.solver),
        energy_tolerance_, &energy_scratch_);
    if (created > 0) {
      std::ostringstream os;
      os << GetSolverTypeInfo(params.solver.type).title << " stopped short of its tolerance with an iterate whose "
         << "impulses create " << created << " J";
      *message = os.str();
      return StepStatus::kSolverFailed;
    }
  }
  // The common accuracy figure of every solver ([CANAL] Sec. VII-A), with
  // the penetration recovery of the exact solver that runs, CANAL's for the
  // others (engine/solvers/ncp_residual.h).
  stats->ncp_residual = ncp_residual_.Calc(
      problem_, r.gamma, GetSolverTypeInfo(params.solver.type).penetration_recovery(params.solver),
      [this](int t, Eigen::Ref<VectorX> x) { builder_.SolveA(t, x); });
  history_.Save(problem_, r.gamma, r.slack);
  history_solver_ = params.solver.type;
  *v = r.v;
  return StepStatus::kSuccess;
}

void ThetaMethodStepper::ReportResults(const StepperParameters& params, const VectorX& v, StepStats* stats) {
  ReportContacts(params, v);
  ReportEfforts();
  double max_penetration = 0;
  for (const ContactReport& report : reports_) max_penetration = std::max(max_penetration, -report.phi);
  stats->max_penetration_m = max_penetration;
}

void ThetaMethodStepper::ReportContacts(const StepperParameters& params, const VectorX& v) {
  // Per-contact results: impulse, relative velocity, cone region.
  const bool exact_contact = GetSolverTypeInfo(params.solver.type).exact_contact(params.solver);
  int row = 0;
  for (size_t i = 0; i < reports_.size(); ++i) {
    const Constraint& c = problem_.constraints[i];
    Vector3 vc = Vector3::Zero();
    for (const ConstraintJacobianBlock& b : c.blocks) {
      const int start = problem_.tree_v_start[b.tree];
      if (b.J.cols() == 6) {  // No dynamic temporary for 6-DOF trees.
        vc.noalias() += Eigen::Map<const Eigen::Matrix<double, 3, 6>>(b.J.data()) * v.segment<6>(start);
      } else {
        vc.noalias() += b.J * v.segment(start, problem_.tree_nv[b.tree]);
      }
    }
    ContactReport& report = reports_[i];
    report.vc = vc;
    report.gamma_C = solver_result_.gamma.segment<3>(row);
    if (exact_contact) {
      // Exact solvers: the region of the impulse in the friction cone.
      const double gn = report.gamma_C.z(), gt = report.gamma_C.head<2>().norm();
      report.region = gn <= 0                             ? ConeRegion::kNoContact
                      : gt >= (1 - 1e-9) * c.mu * gn ? ConeRegion::kSliding
                                                      : ConeRegion::kStiction;
    } else if (c.kind == ConstraintKind::kHuntCrossley) {
      report.region = ClassifyHuntCrossley(c.hc, vc);
    } else {
      CalcFrictionConeImpulse(c.cone, vc, &report.region);
    }
    row += c.num_rows;
  }
}

void ThetaMethodStepper::ReportEfforts() {
  // Actuator efforts: the impulse of each PD row divided by δt.
  actuator_efforts_.assign(sources_.actuators.size(), 0.0);
  cartesian_efforts_.assign(sources_.cartesian_impedances.size(), CartesianImpedanceEffort());
  if (!problem_.constraints.empty()) {
    std::vector<int> first_row(problem_.constraints.size());
    int next_row = 0;
    for (size_t i = 0; i < problem_.constraints.size(); ++i) {
      first_row[i] = next_row;
      next_row += problem_.constraints[i].num_rows;
    }
    const std::vector<int>& index = builder_.actuator_constraints();
    for (size_t i = 0; i < actuator_efforts_.size() && i < index.size(); ++i) {
      if (index[i] >= 0) actuator_efforts_[i] = solver_result_.gamma[first_row[index[i]]] / problem_.dt;
    }
    // Cartesian impedance: each controller's rows, one per constraint.
    const std::vector<CartesianImpedanceRows>& cartesian = builder_.cartesian_rows();
    for (size_t i = 0; i < cartesian_efforts_.size() && i < cartesian.size(); ++i) {
      if (cartesian[i].first_constraint < 0) continue;
      cartesian_efforts_[i] = CalcCartesianImpedanceEffort(
          cartesian[i], solver_result_.gamma.data() + first_row[cartesian[i].first_constraint], problem_.dt);
    }
  }
}

void ThetaMethodStepper::MeterWork(const VectorX& v0, const VectorX& v, const VectorX* tau_ext, StepStats* stats) {
  stats->work_metered = true;
  stats->work_external_J = tau_ext != nullptr ? 0.5 * problem_.dt * (tau_ext->dot(v0) + tau_ext->dot(v)) : 0.0;
  stats->work_actuators_J = stats->work_cartesian_J = 0;
  if (problem_.constraints.empty()) return;
  int row = 0;
  for (const Constraint& c : problem_.constraints) {
    if (c.origin == ConstraintOrigin::kActuator) {
      stats->work_actuators_J += RowWork(problem_, c, solver_result_.gamma.data() + row, v0, v);
    } else if (c.origin == ConstraintOrigin::kCartesian) {
      stats->work_cartesian_J += RowWork(problem_, c, solver_result_.gamma.data() + row, v0, v);
    }
    row += c.num_rows;
  }
}

bool ThetaMethodStepper::CalcPositionRecovery(const StepperParameters& params, const ThetaParameters& theta,
                                              const VectorX& v0, const VectorX& v, StepStats* stats) {
  const PositionTargets targets{.recovery = GetSolverTypeInfo(params.solver.type).position_recovery(params.solver),
                                .arrival = params.contact.arrival_correction && theta.theta_vq < 1};
  if (!targets.any() || problem_.constraints.empty()) return false;
  const PositionRecoveryResult result = position_recovery_.Solve(problem_, v0, v, theta.theta_vq, targets, &pseudo_v_);
  stats->position_correction_m = result.max_correction_m;
  stats->position_correction_sweeps = result.sweeps;
  return result.max_correction_m > 0;
}

StepStatus ThetaMethodStepper::UpdatePositions(const ThetaParameters& theta, const VectorX& q0, const VectorX& v0,
                                               const VectorX& v, const VectorX* pseudo_v, VectorX* q,
                                               std::string* message) {
  // Eqs. (11)–(12), tree by tree; then quaternions back to unit length.
  for (int t = 0; t < model_.num_trees(); ++t) {
    theta_method_.CalcPositions(t, q0, v0, v, problem_.dt, theta, &q_theta_, q, pseudo_v);
  }
  model_.NormalizeQuaternions(q);
  if (!q->allFinite() || !v.allFinite()) {
    *message = "the step produced a non-finite state (NaN or Inf)";
    return StepStatus::kNonFinite;
  }
  return StepStatus::kSuccess;
}

}  // namespace stiction
