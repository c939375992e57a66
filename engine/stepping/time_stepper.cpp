#include "engine/stepping/time_stepper.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "engine/multibody/dynamics.h"
#include "engine/multibody/spatial_algebra.h"

namespace stiction {

namespace {
double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

TimeStepper::TimeStepper(const MultibodyModel& model, CollisionWorld* collision,
                         std::vector<ContactMaterial> materials)
    : model_(model),
      collision_(collision),
      theta_method_(model),
      builder_(model, std::move(materials)),
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
}

double TimeStepper::CalcSpeculativeMargin(double dt) const {
  // Pairs that can touch within the step must be in the problem with φ > 0
  // (Sec. V-A's v̂_n handles them). Bound the approach speed by the fastest
  // body point within 0.1 m of a COM, twice, for two bodies closing in.
  double v_max = 0;
  for (int b = 1; b < model_.num_bodies(); ++b) {
    const Vector6& V = cache_q0_.V_WB[b];
    const Vector3 w = V.head<3>();
    const double v_cm = PointVelocity(V, cache_q0_.p_WBcm[b]).norm();
    v_max = std::max(v_max, v_cm + 0.1 * w.norm());
  }
  return std::clamp(1e-3 + 2 * dt * v_max, 1e-3, 0.05);
}

StepStatus TimeStepper::Step(const StepperParameters& params, const VectorX& q0,
                             const VectorX& v0, const VectorX* tau_ext, VectorX* q,
                             VectorX* v, StepStats* stats, std::string* message) {
  const double dt = params.dt;
  const ThetaParameters& p = params.theta;
  *q = q0;
  *v = v0;
  problem_.dt = dt;
  VectorX& v_star = problem_.v_star;
  v_star = v0;
  int iterations = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < model_.num_trees(); ++t) {
    // Stage 1, Eq. (13).
    const FreeMotionStatus s =
        theta_method_.SolveFreeMotion(t, q0, v0, dt, p, tau_ext, &v_star, &cache_, &M_t_);
    iterations = std::max(iterations, s.newton_iterations);
    if (!s.converged) {
      std::ostringstream os;
      os << "free-motion Newton (stage 1) did not converge for the tree of body '"
         << model_.body(model_.tree(t).body_begin).name << "' (residual "
         << s.residual_norm << " N s)";
      *message = os.str();
      return StepStatus::kSolverFailed;
    }
    // Stage 2, Eq. (15): the SPD approximation of ∂m/∂v about v*.
    const Tree& tr = model_.tree(t);
    MatrixX& A = problem_.A[t];
    A = M_t_;
    const double kscale = dt * dt * p.theta * p.theta_vq;
    const double dscale = dt * p.theta;
    A.diagonal() += kscale * K_.segment(tr.v_start, tr.nv) + dscale * D_.segment(tr.v_start, tr.nv);
  }
  stats->time.free_motion = SecondsSince(t0);
  if (!v_star.allFinite()) {
    *message = "the free motion (stage 1) produced a non-finite velocity";
    return StepStatus::kNonFinite;
  }

  // Stage 2: constraints at q0 (J = J(q0), Eq. 7), then the convex solve.
  builder_.Recycle(&problem_.constraints);
  reports_.clear();
  CalcKinematics(model_, q0, v0, BodyRange::All(model_), &cache_q0_);
  const double margin = CalcSpeculativeMargin(dt);
  contact_points_.clear();
  t0 = std::chrono::steady_clock::now();
  if (collision_ != nullptr) {
    collision_->UpdatePoses(cache_q0_.X_WB);
    collision_->ComputeContacts(margin, &contact_points_);
  }
  stats->time.collision = SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  builder_.Build(cache_q0_, q0, v0, contact_points_, params.contact, margin, &problem_, &reports_);
  stats->time.assembly = SecondsSince(t0);
  stats->num_contacts = static_cast<int>(reports_.size());
  stats->iterations = iterations;
  stats->solver = params.solver.type;
  if (problem_.constraints.empty()) {
    *v = v_star;  // Eq. (18) with γ = 0.
  } else {
    ConfigureContactSolver(params.solver, &solver_);
    const SolverStatus status = solver_->Solve(problem_, v0, &solver_result_);
    stats->iterations = solver_result_.iterations;
    stats->outer_iterations = solver_result_.outer_iterations;
    stats->constraint_residual = solver_result_.constraint_residual;
    stats->penalty = solver_result_.penalty;
    stats->solver_converged = status == SolverStatus::kConverged;
    stats->line_search_iterations = solver_result_.line_search_iterations;
    stats->momentum_error = solver_result_.momentum_error;
    stats->complementarity_error = solver_result_.complementarity_error;
    stats->time.assembly += solver_result_.assembly_time_s;
    stats->time.factorization = solver_result_.factorization_time_s;
    stats->time.line_search = solver_result_.line_search_time_s;
    // An AL solver (CANAL, SubADMM) at its iteration cap returns its last
    // iterate, a usable soft-contact answer ([CANAL] Sec. V: one
    // iteration already is a convex soft model); the step goes on and
    // stats->solver_converged says so. SAP at its cap fails the step.
    const bool usable = status == SolverStatus::kMaxIterations && solver_result_.outer_iterations > 0;
    if (status != SolverStatus::kConverged && !usable) {
      *message = solver_result_.message;
      return status == SolverStatus::kNonFinite ? StepStatus::kNonFinite
                                                : StepStatus::kSolverFailed;
    }
    *v = solver_result_.v;
    // Per-contact results: impulse, relative velocity, cone region.
    int row = 0;
    for (size_t i = 0; i < reports_.size(); ++i) {
      const Constraint& c = problem_.constraints[i];
      Vector3 vc = Vector3::Zero();
      for (const ConstraintJacobianBlock& b : c.blocks) {
        const int start = problem_.tree_v_start[b.tree];
        if (b.J.cols() == 6) {  // No dynamic temporary for 6-DOF trees.
          vc.noalias() += Eigen::Map<const Eigen::Matrix<double, 3, 6>>(b.J.data()) * v->segment<6>(start);
        } else {
          vc.noalias() += b.J * v->segment(start, problem_.tree_nv[b.tree]);
        }
      }
      ContactReport& r = reports_[i];
      r.vc = vc;
      r.gamma_C = solver_result_.gamma.segment<3>(row);
      if (params.solver.type != "sap") {
        // Exact solvers: the region of the impulse in the friction cone.
        const double gn = r.gamma_C.z(), gt = r.gamma_C.head<2>().norm();
        r.region = gn <= 0 ? ConeRegion::kNoContact
                   : gt >= (1 - 1e-9) * c.mu * gn ? ConeRegion::kSliding
                                                  : ConeRegion::kStiction;
      } else if (c.kind == ConstraintKind::kHuntCrossley) {
        r.region = ClassifyHuntCrossley(c.hc, vc);
      } else {
        CalcFrictionConeImpulse(c.cone, vc, &r.region);
      }
      row += c.num_rows;
    }
  }
  // Actuator efforts: the impulse of each PD row divided by δt.
  actuator_efforts_.assign(builder_.actuators().size(), 0.0);
  if (!problem_.constraints.empty()) {
    std::vector<int> first_row(problem_.constraints.size());
    int row = 0;
    for (size_t i = 0; i < problem_.constraints.size(); ++i) {
      first_row[i] = row;
      row += problem_.constraints[i].num_rows;
    }
    const std::vector<int>& index = builder_.actuator_constraints();
    for (size_t i = 0; i < actuator_efforts_.size() && i < index.size(); ++i) {
      if (index[i] >= 0) actuator_efforts_[i] = solver_result_.gamma[first_row[index[i]]] / dt;
    }
  }
  double max_penetration = 0;
  for (const ContactReport& r : reports_) max_penetration = std::max(max_penetration, -r.phi);
  stats->max_penetration_m = max_penetration;

  // Position update, Eqs. (11)–(12).
  for (int t = 0; t < model_.num_trees(); ++t) {
    theta_method_.CalcPositions(t, q0, v0, *v, dt, p, &q_theta_, q);
  }
  model_.NormalizeQuaternions(q);
  if (!q->allFinite() || !v->allFinite()) {
    *message = "the step produced a non-finite state (NaN or Inf)";
    return StepStatus::kNonFinite;
  }
  return StepStatus::kSuccess;
}

}  // namespace stiction
