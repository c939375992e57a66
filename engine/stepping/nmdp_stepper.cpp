#include "engine/stepping/nmdp_stepper.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <sstream>

#include <Eigen/Cholesky>
#include <Eigen/LU>

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

PgmResult RunPgm(NmdpResidual& R, bool zeroth, const NmdpParameters& p, const VectorX& v0, const VectorX& w_warm) {
  PgmResult out;
  ManifoldProjectionParameters mp;
  mp.tolerance = p.projection_tolerance;
  mp.max_iterations = p.projection_max_iterations;
  mp.min_rcond = kMinRcond;
  auto project = [&](const VectorX& w, const VectorX& start) {
    ManifoldProjectionResult r = ProjectOntoManifold(R, w, start, zeroth, mp);
    out.newton += r.iterations;
    return r;
  };
  const int nw = R.num_weights();
  // Alg. 1's start: whichever of the neutral weights (no force, or with
  // Σ w = 1 the uniform weights: the penalty's normal force without
  // friction) and the previous weights has the lower kinetic energy on the
  // manifold (docs/nmdp.md Sec. 3).
  const bool equality = !p.free_normal_force;
  const std::vector<int> groups = R.group_sizes();
  VectorX w = VectorX::Zero(nw);
  if (equality && nw > 0) w.setConstant(1.0 / groups.front());
  ManifoldProjectionResult start = project(w, v0);
  if (start.status != ManifoldProjectionStatus::kConverged) {
    out.diverged = true;
    out.why = start.message;
    return out;
  }
  VectorX v_plus = start.v;
  double E = R.KineticEnergy(v_plus);
  if (w_warm.size() == nw && (w_warm - w).lpNorm<Eigen::Infinity>() > 0) {
    ManifoldProjectionResult warm = project(w_warm, v_plus);
    if (warm.status == ManifoldProjectionStatus::kConverged) {
      const double E_warm = R.KineticEnergy(warm.v);
      if (E_warm < E) {
        w = w_warm;
        v_plus = warm.v;
        E = E_warm;
      }
    }
  }
  if (nw == 0) {
    out.v_next = v_plus;
    out.w = w;
    return out;
  }
  SimplexQpWorkingSet working_set;
  bool have_working_set = false;
  for (int l = 0; l < p.max_outer_iterations; ++l) {
    ++out.outer;
    const MatrixX Fv = R.VelocityJacobian(v_plus, w, zeroth);
    const Eigen::FullPivLU<MatrixX> lu(Fv);
    if (!(lu.rcond() >= kMinRcond)) {
      out.diverged = true;
      out.why = "F_v is near singular (reciprocal condition " + std::to_string(lu.rcond()) + ")";
      return out;
    }
    const MatrixX P = -lu.solve(R.WeightJacobian(v_plus));
    const MatrixX MP = R.MassMatrix(v_plus) * P;
    MatrixX PMP = P.transpose() * MP;
    PMP = 0.5 * (PMP + PMP.transpose());
    const VectorX g = MP.transpose() * v_plus;  // ∇_w E (Eq. 8's linear term at w).
    double inv_alpha = p.proximal_ratio * std::max(PMP.diagonal().maxCoeff(), 1e-300);
    bool accepted = false, stationary = false;
    VectorX w_new, v_new;
    double E_new = E;
    for (int k = 0; k <= p.max_line_search_halvings; ++k, inv_alpha *= 2) {
      SimplexQpProblem qp;
      qp.H = PMP;
      qp.H.diagonal().array() += inv_alpha;
      qp.h = g - PMP * w - inv_alpha * w;
      qp.group_sizes = groups;
      qp.equality = equality;
      SimplexQpResult r = SolveSimplexQp(qp, &w, have_working_set ? &working_set : nullptr);
      out.qp += r.iterations;
      working_set = r.working_set;
      have_working_set = true;
      w_new = r.w;
      if ((w_new - w).lpNorm<Eigen::Infinity>() < p.weight_tolerance) {
        stationary = true;
        break;
      }
      ManifoldProjectionResult pr = project(w_new, v_plus);
      if (pr.status != ManifoldProjectionStatus::kConverged) {
        // "The divergence behaviour of PGM can only happen in the manifold
        // projection substep" ([NMDP] Sec. V): Alg. 2 answers it.
        out.diverged = true;
        out.why = pr.message;
        return out;
      }
      E_new = R.KineticEnergy(pr.v);
      if (E_new <= E + kArmijo * g.dot(w_new - w)) {
        v_new = pr.v;
        accepted = true;
        break;
      }
    }
    // Stationary, or no descent left at the smallest α: a stationary point.
    // (An accepted step moved the weights by at least weight_tolerance.)
    if (stationary || !accepted) break;
    const double decrease = E - E_new;
    w = w_new;
    v_plus = v_new;
    E = E_new;
    if (decrease <= p.energy_tolerance * std::max(E, 1e-12)) break;
  }
  out.v_next = v_plus;
  out.w = w;
  return out;
}

}  // namespace

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
  const PgmResult r = RunPgm(R, base.scheme == SteppingScheme::kNmdpZopgm, base.params, v0, w_warm);
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

StepStatus NmdpStepper::Step(SteppingScheme scheme, const NmdpParameters& params, double dt,
                             const std::vector<NmdpCandidatePoint>& candidates, const std::vector<NmdpJointPd>& pd,
                             const VectorX& q0, const VectorX& v0, const VectorX* tau_ext, VectorX* q, VectorX* v,
                             StepStats* stats, std::string* message) {
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
