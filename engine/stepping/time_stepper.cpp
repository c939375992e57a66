#include "engine/stepping/time_stepper.h"

#include <sstream>

#include "engine/multibody/dynamics.h"

namespace stiction {

TimeStepper::TimeStepper(const MultibodyModel& model)
    : model_(model), theta_method_(model), cache_(model) {
  CalcJointStiffnessAndDamping(model, &K_, &D_);
  free_motion_.A.resize(model.num_trees());
  free_motion_.v_star = VectorX::Zero(model.num_velocities());
  q_theta_ = VectorX::Zero(model.num_positions());
}

StepStatus TimeStepper::Step(const StepperParameters& params, const VectorX& q0,
                             const VectorX& v0, const VectorX* tau_ext, VectorX* q,
                             VectorX* v, StepStats* stats, std::string* message) {
  const double dt = params.dt;
  const ThetaParameters& p = params.theta;
  *q = q0;
  *v = v0;
  VectorX& v_star = free_motion_.v_star;
  v_star = v0;
  int iterations = 0;
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
    MatrixX& A = free_motion_.A[t];
    A = M_t_;
    const double kscale = dt * dt * p.theta * p.theta_vq;
    const double dscale = dt * p.theta;
    A.diagonal() += kscale * K_.segment(tr.v_start, tr.nv) + dscale * D_.segment(tr.v_start, tr.nv);
  }
  // Stage 2 without constraints: v = v* (Eq. 18 with γ = 0).
  *v = v_star;

  // Position update, Eqs. (11)–(12).
  for (int t = 0; t < model_.num_trees(); ++t) {
    theta_method_.CalcPositions(t, q0, v0, *v, dt, p, &q_theta_, q);
  }
  model_.NormalizeQuaternions(q);
  stats->iterations = iterations;
  if (!q->allFinite() || !v->allFinite()) {
    *message = "the step produced a non-finite state (NaN or Inf)";
    return StepStatus::kNonFinite;
  }
  return StepStatus::kSuccess;
}

}  // namespace stiction
