#include "engine/stepping/nmdp_stepper.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <sstream>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "engine/common/error.h"
#include "engine/contact/wrench_polytope.h"
#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "engine/solvers/simplex_qp.h"
#include "engine/stepping/nmdp_manifold_projection.h"

namespace stiction {

namespace {

// F_v with a smaller reciprocal condition number is near singular (A V.2;
// docs/nmdp.md Sec. 4).
constexpr double kMinRcond = 1e-12;
// Armijo constant of the line search on α (docs/nmdp.md, Alg. 1).
constexpr double kArmijo = 1e-4;
// A point is in reach when its plane is nearer than this many activation
// lengths plus twice its travel over the step: beyond, its polytope is
// below e^-20 of the force at contact (s(p) ≈ ℓ e^{p/ℓ} for p ≪ −ℓ).
constexpr double kReachLengths = 20;
// NMDP's F_v is dense and computed by 2 nv difference quotients, and its QP
// is dense in the weights: sized for a robot, not a pile (the paper's
// quadruped has 18 velocities and four feet). Larger problems are refused
// with a message rather than stalling an interactive session.
constexpr int kMaxVelocities = 120;
constexpr int kMaxPointsInReach = 256;

std::string Milliseconds(double dt) {
  std::ostringstream s;
  s << dt * 1e3 << " ms";
  return s.str();
}

// One PGM solve over one (sub)step: its result, or why it diverged.
struct PgmResult {
  bool diverged = false;
  std::string why;
  VectorX v_next, w;
  int outer = 0, qp = 0, newton = 0;
};

// Alg. 1 over one (sub)step: the projected gradient method on the weights
// w, every iterate projected onto the manifold F(v₊, w) = 0 (Eq. 9).
class PgmSolve {
 public:
  PgmSolve(NmdpResidual& R, bool zeroth, const NmdpParameters& p)
      : R_(R), zeroth_(zeroth), p_(p), equality_(!p.free_normal_force), groups_(R.group_sizes()) {
    mp_.tolerance = p.projection_tolerance;
    mp_.max_iterations = p.projection_max_iterations;
    mp_.min_rcond = kMinRcond;
  }

  PgmResult Run(const VectorX& v0, const VectorX& w_warm) {
    if (!Start(v0, w_warm)) return out_;
    if (R_.num_weights() > 0) {
      for (int l = 0; l < p_.max_outer_iterations; ++l) {
        ++out_.outer;
        if (!Iterate()) break;
      }
      if (out_.diverged) return out_;
    }
    out_.v_next = v_plus_;
    out_.w = w_;
    return out_;
  }

 private:
  enum class LineSearchOutcome { kAccepted, kStationary, kNoDescent, kDiverged };

  ManifoldProjectionResult Project(const VectorX& w, const VectorX& start) {
    ManifoldProjectionResult r = ProjectOntoManifold(R_, w, start, zeroth_, mp_);
    out_.newton += r.iterations;
    return r;
  }

  bool Diverged(std::string why) {
    out_.diverged = true;
    out_.why = std::move(why);
    return false;
  }

  // Alg. 1's start: whichever of the neutral weights (no force, or with
  // Σ w = 1 the uniform weights: the penalty's normal force without
  // friction) and the previous weights has the lower kinetic energy on the
  // manifold (docs/nmdp.md Sec. 3). False if the projection diverged.
  bool Start(const VectorX& v0, const VectorX& w_warm) {
    const int nw = R_.num_weights();
    w_ = VectorX::Zero(nw);
    if (equality_ && nw > 0) w_.setConstant(1.0 / groups_.front());
    ManifoldProjectionResult start = Project(w_, v0);
    if (start.status != ManifoldProjectionStatus::kConverged) return Diverged(start.message);
    v_plus_ = start.v;
    E_ = R_.KineticEnergy(v_plus_);
    if (w_warm.size() == nw && (w_warm - w_).lpNorm<Eigen::Infinity>() > 0) {
      ManifoldProjectionResult warm = Project(w_warm, v_plus_);
      if (warm.status == ManifoldProjectionStatus::kConverged) {
        const double E_warm = R_.KineticEnergy(warm.v);
        if (E_warm < E_) {
          w_ = w_warm;
          v_plus_ = warm.v;
          E_ = E_warm;
        }
      }
    }
    return true;
  }

  // One outer iteration: the QP of Eq. (8) about (w, v₊), a line search on
  // α, the step. False when the solve ends: at a stationary point, with too
  // small a decrease of the kinetic energy, or diverged.
  bool Iterate() {
    const MatrixX Fv = R_.VelocityJacobian(v_plus_, w_, zeroth_);
    const Eigen::FullPivLU<MatrixX> lu(Fv);
    if (!(lu.rcond() >= kMinRcond)) {
      return Diverged("F_v is near singular (reciprocal condition " + std::to_string(lu.rcond()) + ")");
    }
    const MatrixX P = -lu.solve(R_.WeightJacobian(v_plus_));
    const MatrixX MP = R_.MassMatrix(v_plus_) * P;
    MatrixX PMP = P.transpose() * MP;
    PMP = 0.5 * (PMP + PMP.transpose());
    const VectorX g = MP.transpose() * v_plus_;  // ∇_w E (Eq. 8's linear term at w).
    // Stationary, or no descent left at the smallest α: a stationary point.
    // (An accepted step moved the weights by at least weight_tolerance.)
    if (LineSearch(PMP, g) != LineSearchOutcome::kAccepted) return false;
    const double decrease = E_ - E_new_;
    w_ = w_new_;
    v_plus_ = v_new_;
    E_ = E_new_;
    return !(decrease <= p_.energy_tolerance * std::max(E_, 1e-12));
  }

  // Armijo's rule on α, halving it from 1/(proximal_ratio · max diag PMP):
  // each trial solves the QP over the capped simplices and projects its
  // weights onto the manifold.
  LineSearchOutcome LineSearch(const MatrixX& PMP, const VectorX& g) {
    double inv_alpha = p_.proximal_ratio * std::max(PMP.diagonal().maxCoeff(), 1e-300);
    for (int k = 0; k <= p_.max_line_search_halvings; ++k, inv_alpha *= 2) {
      SimplexQpProblem qp;
      qp.H = PMP;
      qp.H.diagonal().array() += inv_alpha;
      qp.h = g - PMP * w_ - inv_alpha * w_;
      qp.group_sizes = groups_;
      qp.equality = equality_;
      SimplexQpResult r = SolveSimplexQp(qp, &w_, have_working_set_ ? &working_set_ : nullptr);
      out_.qp += r.iterations;
      working_set_ = r.working_set;
      have_working_set_ = true;
      w_new_ = r.w;
      if ((w_new_ - w_).lpNorm<Eigen::Infinity>() < p_.weight_tolerance) return LineSearchOutcome::kStationary;
      ManifoldProjectionResult pr = Project(w_new_, v_plus_);
      if (pr.status != ManifoldProjectionStatus::kConverged) {
        // "The divergence behaviour of PGM can only happen in the manifold
        // projection substep" ([NMDP] Sec. V): Alg. 2 answers it.
        Diverged(pr.message);
        return LineSearchOutcome::kDiverged;
      }
      E_new_ = R_.KineticEnergy(pr.v);
      if (E_new_ <= E_ + kArmijo * g.dot(w_new_ - w_)) {
        v_new_ = pr.v;
        return LineSearchOutcome::kAccepted;
      }
    }
    return LineSearchOutcome::kNoDescent;
  }

  NmdpResidual& R_;
  const bool zeroth_;
  const NmdpParameters& p_;
  const bool equality_;
  const std::vector<int> groups_;
  ManifoldProjectionParameters mp_;
  PgmResult out_;
  VectorX w_, v_plus_;  // The iterate, on the manifold.
  double E_ = 0;        // Its kinetic energy.
  VectorX w_new_, v_new_;  // The line search's trial.
  double E_new_ = 0;
  SimplexQpWorkingSet working_set_;
  bool have_working_set_ = false;
};

}  // namespace

NmdpStepper::NmdpStepper(const MultibodyModel& model, const CollisionWorld* collision,
                         const ConstraintSources* sources)
    : model_(model), collision_(collision), sources_(sources != nullptr ? *sources : no_sources_) {}

StepStatus NmdpStepper::Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                             const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                             std::string* message) {
  std::vector<NmdpCandidatePoint> candidates;
  if (!ListCandidates(params, &candidates, message)) return StepStatus::kSolverFailed;
  const std::vector<NmdpJointPd> pd = JointControllers();
  VectorX q_next, v_next;
  const StepStatus status =
      StepPoints(params.scheme, params.nmdp, params.dt, candidates, pd, q0, v0, tau_ext, &q_next, &v_next, stats,
                 message);
  if (status != StepStatus::kSuccess) return status;
  problem_.dt = params.dt;  // No contact problem: no constraints, no solver result.
  ReportContacts(params.dt);
  ReportEfforts(pd, q_next, v_next);
  *q = std::move(q_next);
  *v = std::move(v_next);
  return StepStatus::kSuccess;
}

bool NmdpStepper::ListCandidates(const StepperParameters& params, std::vector<NmdpCandidatePoint>* candidates,
                                 std::string* message) const {
  if (!sources_.body_constraints.empty() || !sources_.joint_couplers.empty() || !sources_.tendons.empty() || !sources_.tendon_servos.empty() ||
      !sources_.cartesian_impedances.empty()) {
    *message = std::string(GetSteppingSchemeInfo(params.scheme).title) +
               ": weld and ball constraints, joint couplers, tendon limits, equalities and servos and Cartesian impedance "
               "controllers are not supported (stepping: theta_method supports them)";
    return false;
  }
  if (collision_ == nullptr) return true;
  try {
    *candidates = ListNmdpContactPoints(*collision_, sources_.materials);
  } catch (const InputError& e) {
    *message = e.what();
    return false;
  }
  return true;
}

std::vector<NmdpJointPd> NmdpStepper::JointControllers() const {
  // The PD actuators as the stable PD inside F ([StablePD]), targets at t + δt.
  std::vector<NmdpJointPd> pd;
  for (const JointActuator& a : sources_.actuators) {
    const Joint& j = model_.joint(a.joint);
    if (j.nv != 1) continue;
    pd.push_back({j.q_start, j.v_start, a.kp, a.kd, a.effort_limit, a.target_position, a.target_velocity});
  }
  return pd;
}

void NmdpStepper::ReportContacts(double dt) {
  // Each point that touches or pushes: its impulse over the step (world A,
  // body B, contact frame z = the plane's normal).
  reports_.clear();
  for (const NmdpPointForce& f : forces_) {
    if (f.phi > 0 && f.f_W.norm() < 1e-9) continue;
    ContactReport r;
    r.body_a = 0;
    r.body_b = f.candidate.point.body;
    r.p_W = f.p_W;
    r.R_WC = f.candidate.point.Frame();
    r.phi = f.phi;
    r.mu = f.candidate.point.friction;
    r.gamma_C = r.R_WC.transpose() * f.f_W * dt;
    const double fn = r.gamma_C.z(), ft = r.gamma_C.head<2>().norm();
    r.region = fn <= 0 ? ConeRegion::kNoContact
                       : (ft >= 0.999 * r.mu * fn ? ConeRegion::kSliding : ConeRegion::kStiction);
    reports_.push_back(r);
  }
}

void NmdpStepper::ReportEfforts(const std::vector<NmdpJointPd>& pd, const VectorX& q, const VectorX& v) {
  // The actuators' efforts at the new state; a joint that is not a hinge or
  // slide has no controller here.
  actuator_efforts_.clear();
  std::size_t i = 0;
  for (const JointActuator& a : sources_.actuators) {
    const Joint& j = model_.joint(a.joint);
    if (j.nv != 1) {
      actuator_efforts_.push_back(0);
      continue;
    }
    const NmdpJointPd& c = pd[i++];
    actuator_efforts_.push_back(c.Torque(q[c.q_index], v[c.v_index]));
  }
  cartesian_efforts_.clear();
}

struct NmdpStepper::Substep {
  SteppingScheme scheme;
  const NmdpParameters& params;
  WrenchPolytopeParameters polytope;
  const std::vector<NmdpCandidatePoint>& candidates;
  const std::vector<NmdpJointPd>& pd;
  const VectorX* tau_ext;
};

std::vector<NmdpCandidatePoint> NmdpStepper::PointsInReach(const Substep& base, const VectorX& q,
                                                           const VectorX& v, double dt) const {
  KinematicsCache cache(model_);
  CalcKinematics(model_, q, v, BodyRange::All(model_), &cache);
  std::vector<NmdpCandidatePoint> out;
  for (const NmdpCandidatePoint& c : base.candidates) {
    const Vector3 p_WP = cache.X_WB[c.point.body] * c.point.p_BP;
    const Vector6& V = cache.V_WB[c.point.body];
    const Vector3 v_WP = V.tail<3>() + V.head<3>().cross(p_WP);
    const double phi = c.point.SignedDistance(p_WP);
    if (phi < kReachLengths * base.polytope.activation_length + 2 * dt * v_WP.norm()) out.push_back(c);
  }
  return out;
}

bool NmdpStepper::TooManyPoints(const Substep& base, const std::vector<NmdpCandidatePoint>& points,
                                std::string* message) {
  if (static_cast<int>(points.size()) <= kMaxPointsInReach) return false;
  *message = std::string(GetSteppingSchemeInfo(base.scheme).title) + ": " + std::to_string(points.size()) +
             " contact points within reach, more than the " + std::to_string(kMaxPointsInReach) +
             " its dense QP is sized for (use stepping: theta_method)";
  return true;
}

void NmdpStepper::Record(const Substep& base, const std::vector<NmdpCandidatePoint>& points, const VectorX& w,
                         const VectorX& q_next, const VectorX& v_next) {
  const int K = base.polytope.edges;
  KinematicsCache cache(model_);
  CalcKinematics(model_, q_next, v_next, BodyRange::All(model_), &cache);
  forces_.clear();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const NmdpContactPoint& c = points[i].point;
    const VectorX wi = w.segment(static_cast<Eigen::Index>(i) * K, K);
    warm_weights_[points[i].key] = wi;
    NmdpPointForce f;
    f.candidate = points[i];
    const Vector3 p_WP = cache.X_WB[c.body] * c.p_BP;
    f.phi = c.SignedDistance(p_WP);
    f.p_W = p_WP - c.radius * c.normal;
    f.f_W = c.Vertices(base.polytope, f.phi) * wi;
    forces_.push_back(f);
  }
}

StepStatus NmdpStepper::Subdivide(const Substep& base, const VectorX& q0, const VectorX& v0, double dt, int depth,
                                  VectorX* q, VectorX* v, StepStats* stats, std::string* message) {
  const std::vector<NmdpCandidatePoint> points = PointsInReach(base, q0, v0, dt);
  if (TooManyPoints(base, points, message)) return StepStatus::kSolverFailed;
  std::vector<NmdpContactPoint> contact;
  VectorX w_warm(static_cast<Eigen::Index>(points.size()) * base.polytope.edges);
  for (std::size_t i = 0; i < points.size(); ++i) {
    contact.push_back(points[i].point);
    const auto it = warm_weights_.find(points[i].key);
    w_warm.segment(static_cast<Eigen::Index>(i) * base.polytope.edges, base.polytope.edges) =
        it != warm_weights_.end() && it->second.size() == base.polytope.edges
            ? it->second
            : VectorX::Constant(base.polytope.edges, base.params.free_normal_force ? 0.0 : 1.0 / base.polytope.edges);
  }
  NmdpResidual R(model_, contact, base.polytope, q0, v0, dt, base.tau_ext, base.pd);
  const PgmResult r = PgmSolve(R, base.scheme == SteppingScheme::kNmdpZopgm, base.params).Run(v0, w_warm);
  stats->outer_iterations += r.outer;
  stats->qp_iterations += r.qp;
  stats->iterations += r.newton;
  if (!r.diverged) {
    *q = R.NextPositions(r.v_next);
    *v = r.v_next;
    stats->smallest_dt_s = stats->smallest_dt_s > 0 ? std::min(stats->smallest_dt_s, dt) : dt;
    Record(base, points, r.w, *q, *v);
    return StepStatus::kSuccess;
  }
  if (depth >= base.params.max_subdivisions) {
    *message = std::string(GetSteppingSchemeInfo(base.scheme).title) + ": the manifold projection diverged at dt = " +
               Milliseconds(dt) + " after " + std::to_string(depth) + " halvings (" + r.why +
               "); raise nmdp.max_subdivisions or lower the time step";
    return StepStatus::kSolverFailed;
  }
  ++stats->subdivisions;
  VectorX q_half, v_half;
  const StepStatus first = Subdivide(base, q0, v0, 0.5 * dt, depth + 1, &q_half, &v_half, stats, message);
  if (first != StepStatus::kSuccess) return first;
  return Subdivide(base, q_half, v_half, 0.5 * dt, depth + 1, q, v, stats, message);
}

StepStatus NmdpStepper::StepLinearized(const Substep& base, const VectorX& q0, const VectorX& v0, double dt,
                                       VectorX* q, VectorX* v, StepStats* stats, std::string* message) {
  // Eq. (3) with one QP (docs/nmdp.md Sec. 7): everything at q0, so
  // v₊(w) = v̂ + δt Â⁻¹ G w, and min_w ½ v₊ᵀ M v₊ over the simplices.
  const std::vector<NmdpCandidatePoint> points = PointsInReach(base, q0, v0, dt);
  if (TooManyPoints(base, points, message)) return StepStatus::kSolverFailed;
  std::vector<NmdpContactPoint> contact;
  for (const NmdpCandidatePoint& c : points) contact.push_back(c.point);
  NmdpResidual R(model_, contact, base.polytope, q0, v0, dt, nullptr, {});
  const VectorX zero = VectorX::Zero(v0.size());  // q₊ = q0 in R: its M and G are at q0.
  const MatrixX M = R.MassMatrix(zero);
  const MatrixX G = -R.WeightJacobian(zero);
  KinematicsCache cache(model_);
  CalcKinematics(model_, q0, v0, BodyRange::All(model_), &cache);
  VectorX k = VectorX::Zero(v0.size());
  for (int t = 0; t < model_.num_trees(); ++t) CalcTreeGeneralizedForces(model_, cache, t, q0, v0, base.tau_ext, &k);
  // The stable PD, linear in v₊ through q₊ = q0 + δt v₊ ([StablePD]); its
  // saturation linearized at v₊ = v0.
  MatrixX A = M;
  VectorX rhs = M * v0 + dt * k;
  for (const NmdpJointPd& c : base.pd) {
    const double a = -c.kp * (q0[c.q_index] - c.target_position) + c.kd * c.target_velocity;
    const double b = dt * c.kp + c.kd;
    const double u0 = a - b * v0[c.v_index];
    const double th = std::isfinite(c.effort_limit) ? std::tanh(u0 / c.effort_limit) : 0.0;
    const double slope = 1 - th * th;
    A(c.v_index, c.v_index) += dt * slope * b;
    rhs[c.v_index] += dt * (c.Saturate(u0) + slope * b * v0[c.v_index]);
  }
  const Eigen::LDLT<MatrixX> ldlt(A);
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive()) {
    *message = "NE-MDP: the linearized dynamics matrix is not positive definite";
    return StepStatus::kSolverFailed;
  }
  const VectorX v_hat = ldlt.solve(rhs);
  VectorX w = VectorX::Zero(G.cols());
  if (G.cols() > 0) {  // (With Σ w = 1 the QP's start, 0, is made uniform.)
    const MatrixX B = dt * ldlt.solve(G);
    SimplexQpProblem qp;
    qp.H = B.transpose() * M * B;
    qp.H = 0.5 * (qp.H + qp.H.transpose());
    // The proximal term of Eq. (8) at its initial weight keeps H strictly
    // convex where B has a null space (weights that give the same force).
    qp.H.diagonal().array() += base.params.proximal_ratio * std::max(qp.H.diagonal().maxCoeff(), 1e-300);
    qp.h = B.transpose() * (M * v_hat);
    qp.group_sizes = R.group_sizes();
    qp.equality = !base.params.free_normal_force;
    const SimplexQpResult r = SolveSimplexQp(qp);
    stats->qp_iterations += r.iterations;
    if (!r.converged) {
      *message = "NE-MDP: the QP did not converge (" + r.message + ")";
      return StepStatus::kSolverFailed;
    }
    w = r.w;
    *v = v_hat + B * w;
  } else {
    *v = v_hat;
  }
  stats->outer_iterations += 1;
  *q = R.NextPositions(*v);
  stats->smallest_dt_s = dt;
  Record(base, points, w, *q, *v);
  return StepStatus::kSuccess;
}

StepStatus NmdpStepper::StepPoints(SteppingScheme scheme, const NmdpParameters& params, double dt,
                                   const std::vector<NmdpCandidatePoint>& candidates,
                                   const std::vector<NmdpJointPd>& pd, const VectorX& q0, const VectorX& v0,
                                   const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                                   std::string* message) {
  *stats = StepStats{};
  stats->scheme = scheme;
  if (v0.size() > kMaxVelocities) {
    *message = std::string(GetSteppingSchemeInfo(scheme).title) + ": " + std::to_string(v0.size()) +
               " velocities, more than the " + std::to_string(kMaxVelocities) +
               " its dense F_v is sized for (use stepping: theta_method)";
    return StepStatus::kSolverFailed;
  }
  WrenchPolytopeParameters polytope;
  polytope.stiffness = params.stiffness;
  polytope.activation_length = params.activation_length;
  polytope.edges = params.pyramid_edges;
  const Substep base{scheme, params, polytope, candidates, pd, tau_ext};
  VectorX q_next, v_next;
  StepStatus status = StepStatus::kSuccess;
  try {
    if (scheme == SteppingScheme::kNeMdp) {
      status = StepLinearized(base, q0, v0, dt, &q_next, &v_next, stats, message);
    } else if (scheme == SteppingScheme::kNmdpPgm || scheme == SteppingScheme::kNmdpZopgm) {
      status = Subdivide(base, q0, v0, dt, 0, &q_next, &v_next, stats, message);
    } else {
      *message = "nmdp: the theta-method is not an NMDP scheme";
      return StepStatus::kSolverFailed;
    }
  } catch (const std::exception& e) {
    *message = std::string(GetSteppingSchemeInfo(scheme).title) + ": " + e.what();
    return StepStatus::kSolverFailed;
  }
  if (status != StepStatus::kSuccess) return status;
  if (!q_next.allFinite() || !v_next.allFinite()) {
    *message = std::string(GetSteppingSchemeInfo(scheme).title) + ": the step produced a non-finite state";
    return StepStatus::kNonFinite;
  }
  for (const NmdpPointForce& f : forces_) {
    if (f.phi < 0) ++stats->num_contacts;
    stats->max_penetration_m = std::max(stats->max_penetration_m, -f.phi);
  }
  *q = std::move(q_next);
  *v = std::move(v_next);
  return StepStatus::kSuccess;
}

}  // namespace stiction
