#include "engine/contact/contact_constraints.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/contact/friction_cone_constraint.h"
#include "engine/contact/hunt_crossley_constraint.h"
#include "engine/contact/near_rigid.h"

namespace stiction {

namespace {

// A right-handed frame whose z axis is n̂.
Matrix3 ContactFrame(const Vector3& nhat_W) {
  const Vector3 helper = std::abs(nhat_W.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
  const Vector3 t1 = helper.cross(nhat_W).normalized();
  const Vector3 t2 = nhat_W.cross(t1);
  Matrix3 R;
  R.col(0) = t1;
  R.col(1) = t2;
  R.col(2) = nhat_W;
  return R;
}

double SeriesCombination(double a, double b) {
  if (a <= 0 || b <= 0) return 0;
  if (std::isinf(a)) return b;
  if (std::isinf(b)) return a;
  return a * b / (a + b);
}

// v_c = R_WCᵀ (v_B − v_A) at the contact point: per tree, `sign` R_WCᵀ times
// the linear rows of the tree's point Jacobian (3 × nv_tree).
void CalcContactJacobian(int body, const Vector3& p_W, const Matrix3& R_WC, double sign,
                         ConstraintAssembly* assembly, MatrixX* J) {
  const Matrix6X& jacobian = assembly->TreeJacobian(body, p_W);
  const Matrix3 R = sign * R_WC.transpose();
  J->resize(3, jacobian.cols());
  if (jacobian.cols() == 6) {  // No dynamic temporary for 6-DOF trees.
    Eigen::Map<Eigen::Matrix<double, 3, 6>>(J->data()).noalias() =
        R * Eigen::Map<const Matrix6>(jacobian.data()).bottomRows<3>();
  } else {
    J->noalias() = R * jacobian.bottomRows<3>();
  }
}

// ‖W_ii‖_rms of the Delassus diagonal block estimate W_ii ≈ Σ_t J_it A_t⁻¹
// J_itᵀ of a contact constraint ([SAP] Sec. V-B).
double CalcDelassusEstimate(const Constraint& c, ConstraintAssembly* assembly) {
  Matrix3 W = Matrix3::Zero();
  for (const ConstraintJacobianBlock& b : c.blocks) assembly->AddDelassusBlock(b, &W);
  return W.norm() / 3.0;
}

// The Hunt & Crossley parameters of a contact with Delassus estimate w, from
// its normal velocity at the step start, for the lagged impulse ([ICF]
// Eq. 29).
void SetHuntCrossley(ContactModel model, const ContactMaterial& m, double phi, double w,
                     const ContactModelParameters& params, const ConstraintAssembly& assembly, Constraint* c) {
  c->kind = ConstraintKind::kHuntCrossley;
  const double vn0 = assembly.problem().RowVelocity(*c, 2, assembly.v0());
  c->hc = MakeHuntCrossleyParameters(model, m, phi, vn0, w, assembly.dt(), params.stiction_tolerance);
}

ContactReport MakeContactReport(const ContactPoint& cp, const Matrix3& R_WC, double mu, ContactModel model) {
  ContactReport report;
  report.body_a = cp.body_a;
  report.body_b = cp.body_b;
  report.p_W = cp.p_W;
  report.R_WC = R_WC;
  report.phi = cp.phi;
  report.mu = mu;
  report.model = model;
  report.surface = cp.surface;
  report.polygon = cp.polygon;
  return report;
}

// Depth no solve produced. A Hunt & Crossley contact that starts a step at
// depth x0 stores ½ k x0² and may give it back within the step. That is
// physical for depth a contact solve produced at this stiffness (its work
// paid for it) and for the depth its load explains, not for the rest:
//   * depth that appeared outside a solve: a contact that arrives between
//     two steps, the midpoint rule's overshoot, a rotation the linear
//     prediction missed. At a stiffness the step cannot resolve it is worth
//     far more than any work done (k = 1e12 N/m and 0.6 mm: 1.8e5 J; the
//     soak's clutter blew up to 463 J). Beyond the depth the last solve
//     predicted, x_s, and the depth that the manifold's carried load
//     explains at k, x_l ≤ λ a/(w k), the rest x_u is held at the
//     near-rigid stiffness k_u = min(k, k_nr), as SAP holds any depth (Eq.
//     29), and recovered at its rate.
//   * depth a solve produced at a softer stiffness k_prev: a switch from
//     SAP's near-rigid contact (the grasp demo's fingers at ~1e4 N/m, 4 mm
//     deep) to a model that takes the pads' 4.4e5 N/m as given, or a
//     stiffness edited up. It stiffens by at most kStiffnessRamp per step,
//     k_s = min(k, kStiffnessRamp k_prev), so what it gives back is of the
//     order of what it held (the depth shrinks as k rises), not k/k_prev
//     times that.
// The contact gets the one stiffness that stores the parts' energies at x0,
//   k_eff x0² = k_s x_s² + k x_l² + k_u x_u²,   k_eff ≤ k.
// A contact whose depth its solves produced at k (resting, pressed,
// sliding), or that its load explains (a body set down at rest), keeps k.
constexpr double kStiffnessRamp = 2.0;

double StiffnessOfUnsolvedDepth(double k, double k_near_rigid, double depth, double load_depth,
                                const ContactEnd& previous) {
  if (!(depth > 0)) return k;
  const double solved = std::isnan(previous.gap) ? 0.0 : std::clamp(-previous.gap, 0.0, depth);
  const double loaded = std::min(depth - solved, std::max(0.0, load_depth));
  const double unsolved = depth - solved - loaded;
  const double k_solved = std::isnan(previous.stiffness) ? k : std::min(k, kStiffnessRamp * previous.stiffness);
  const double k_unsolved = std::min(k, k_near_rigid);
  if ((solved == 0 || k_solved >= k) && (unsolved == 0 || k_unsolved >= k)) return k;
  const double stored = (solved > 0 ? k_solved * solved * solved : 0.0) + (loaded > 0 ? k * loaded * loaded : 0.0) +
                        (unsolved > 0 ? k_unsolved * unsolved * unsolved : 0.0);
  return std::min(k, stored / (depth * depth));
}

// The points of the current manifold, whose parameters are set once the
// manifold is complete: the carried-load estimate (near_rigid.h, Eq. L1)
// gives every point of a manifold the mean λ of its points. SAP points get
// their cones with w/λ; Hunt & Crossley points λ times the near-rigid
// stiffness of w for depth no solve produced, and Similar points their
// stiffness capped there. Per
// point, λ would make each point's stiffness follow its own share of the
// load and leave the split of a face's load among its points undetermined
// (every point settles to the same violation whatever it carries), which
// lets a stack of off-centre boxes rock itself over; one λ per manifold
// scales the face's stiffness to the load and keeps Eq. (29)'s split.
class ManifoldLoad {
 public:
  // Points of one manifold arrive consecutively: numbers `cp` within its
  // pair's manifold, finishing the previous manifold when a new one starts.
  int Begin(const ContactPoint& cp, const ContactModelParameters& params, ConstraintAssembly* assembly) {
    const bool same_manifold = cp.geometry_a == previous_ga_ && cp.geometry_b == previous_gb_;
    if (!same_manifold) Finish(params, assembly);
    point_index_ = same_manifold ? point_index_ + 1 : 0;
    previous_ga_ = cp.geometry_a;
    previous_gb_ = cp.geometry_b;
    return point_index_;
  }

  // Adds the point just appended (constraint `c`, Delassus estimate w): its
  // previous normal impulse against the weight of its effective mass 1/w
  // votes for λ (points new to the manifold do not vote).
  void Add(const Constraint& c, double w, const ContactMaterial& m, ContactModel model,
           const ConstraintAssembly& assembly) {
    points_.push_back({assembly.num_constraints() - 1, w, m, model});
    if (const std::span<const double> previous = assembly.PreviousImpulse(c.key, 3); !previous.empty()) {
      lambda_sum_ += assembly.RawLoadFactor(w, previous[2], 1.0);
      ++lambda_count_;
    }
  }

  // Sets the parameters of the manifold's points with its λ.
  void Finish(const ContactModelParameters& params, ConstraintAssembly* assembly) {
    const double lambda = lambda_count_ > 0 ? ClampLoadFactor(lambda_sum_ / lambda_count_, params) : 1.0;
    for (const PendingPoint& p : points_) {
      Constraint& c = assembly->constraint(p.constraint);
      if (params.load_aware_regularization) {
        c.load_w = p.w;
        c.load_factor = lambda;
        c.load_group = points_.front().constraint;
      }
      if (p.model == ContactModel::kSap) {
        c.cone = MakeFrictionConeParameters(p.w / lambda, p.material.stiffness, p.material.dissipation,
                                            p.material.friction, c.phi0, assembly->dt(), params);
        continue;
      }
      // The Similar model at a stiffness the step cannot resolve: its
      // Newton problem is stiff along ∇z = (−μ t̂_s, 1), a direction that
      // turns with the slip direction within ε_s, and Newton stalls (the
      // clutter at k = 1e12 N/m, e_m ≈ 1 after 300 iterations). Capped as
      // SAP's Eq. (29) caps R_n: the stiffest spring of period β δt on the
      // manifold's loaded effective mass.
      const double k_near_rigid = lambda * NearRigidStiffness(params.near_rigid_threshold, p.w, assembly->dt());
      ContactMaterial m = p.material;
      if (p.model == ContactModel::kSimilar) m.stiffness = std::min(m.stiffness, k_near_rigid);
      // A pressure-field polygon's overlap is the field's deformation, and
      // its k = A g follows the polygon's area from step to step: left as is.
      if (!c.compliant && std::isfinite(m.stiffness) && m.stiffness > 0) {
        const double load_depth = lambda * assembly->LoadReferenceAcceleration() / (p.w * m.stiffness);
        m.stiffness = StiffnessOfUnsolvedDepth(m.stiffness, k_near_rigid, -c.phi0, load_depth,
                                               assembly->PreviousContactEnd(c.key));
      }
      SetHuntCrossley(p.model, m, c.phi0, p.w, params, *assembly, &c);
    }
    points_.clear();
    lambda_sum_ = 0;
    lambda_count_ = 0;
  }

 private:
  struct PendingPoint {
    int constraint;
    double w;
    ContactMaterial material;
    ContactModel model;
  };
  std::vector<PendingPoint> points_;
  double lambda_sum_ = 0;
  int lambda_count_ = 0;
  int previous_ga_ = -1, previous_gb_ = -1, point_index_ = 0;
};

}  // namespace

ContactMaterial CombineMaterials(const ContactMaterial& a, const ContactMaterial& b) {
  ContactMaterial m;
  m.stiffness = SeriesCombination(a.stiffness, b.stiffness);
  const double c = SeriesCombination(a.dissipation * a.stiffness, b.dissipation * b.stiffness);
  m.dissipation = m.stiffness > 0 ? c / m.stiffness : 0;
  m.friction = a.friction + b.friction > 0
                   ? 2 * a.friction * b.friction / (a.friction + b.friction)
                   : 0;
  // Two Hunt & Crossley springs in series carry the same force; to first
  // order in d the pair's dissipation is the deflection-weighted mean,
  // deflections ∝ 1/k.
  if (std::isinf(a.stiffness) && std::isinf(b.stiffness)) {
    m.hc_dissipation = 0.5 * (a.hc_dissipation + b.hc_dissipation);
  } else if (std::isinf(a.stiffness)) {
    m.hc_dissipation = b.hc_dissipation;
  } else if (std::isinf(b.stiffness)) {
    m.hc_dissipation = a.hc_dissipation;
  } else {
    m.hc_dissipation = (b.stiffness * a.hc_dissipation + a.stiffness * b.hc_dissipation) /
                       (a.stiffness + b.stiffness);
  }
  m.stiction_velocity = std::min(a.stiction_velocity, b.stiction_velocity);
  m.model = a.model ? a.model : b.model;
  return m;
}

void AddContactConstraints(const std::vector<ContactPoint>& contacts, const GeometryMaterials& materials,
                           const ContactModelParameters& params, ConstraintAssembly* assembly,
                           std::vector<ContactReport>* reports) {
  ManifoldLoad manifold;
  for (const ContactPoint& cp : contacts) {
    const int point_index = manifold.Begin(cp, params, assembly);
    const Matrix3 R_WC = ContactFrame(cp.nhat_AB_W);
    Constraint* c = assembly->AppendRelative(cp.body_a, cp.body_b, [&](int body, double sign, MatrixX* J) {
      CalcContactJacobian(body, cp.p_W, R_WC, sign, assembly, J);
    });
    if (c == nullptr) continue;
    c->kind = ConstraintKind::kFrictionCone;
    c->num_rows = 3;
    const double w = CalcDelassusEstimate(*c, assembly);
    if (!(w > 0)) {
      // J = 0 (A is positive definite): no degree of freedom moves this point
      // (e.g. it lies on the axis of the only joint that could), so an
      // impulse here acts on nothing, and Eq. (30)'s Rt = σ w would be 0
      // (a division by zero in the cone's projection; found by fuzzing,
      // docs/fuzzing.md).
      assembly->DropLast();
      continue;
    }
    c->origin = ConstraintOrigin::kContact;
    c->phi0 = cp.phi;
    c->compliant = cp.stiffness > 0;
    c->key = MakeConstraintKey(ConstraintOrigin::kContact, static_cast<std::uint64_t>(cp.geometry_a),
                               static_cast<std::uint64_t>(cp.geometry_b), static_cast<std::uint64_t>(point_index));
    ContactMaterial m = CombineMaterials(materials.of(cp.geometry_a), materials.of(cp.geometry_b));
    // A pressure-field polygon: its own stiffness k = A g replaces the
    // pair's (contact_surface.h); dissipation and friction are the pair's.
    if (cp.stiffness > 0) m.stiffness = cp.stiffness;
    c->mu = m.friction;
    const ContactModel model = m.model.value_or(params.model);
    manifold.Add(*c, w, m, model, *assembly);
    reports->push_back(MakeContactReport(cp, R_WC, m.friction, model));
  }
  manifold.Finish(params, assembly);
}

bool CarriedLoadJumped(const ContactProblem& problem, const VectorX& gamma, const VectorX& v, double gravity,
                       const ContactModelParameters& params) {
  if (!params.load_aware_regularization) return false;
  const double a = LoadReferenceAcceleration(gravity);
  int group = -1, count = 0, row = 0;
  double sum = 0, used = 1, power = 0;
  const auto jumped = [&] {
    return count > 0 && power < 0 && ClampLoadFactor(sum / count, params) > params.load_resolve_ratio * used;
  };
  for (const Constraint& c : problem.constraints) {
    if (c.load_group != group) {
      if (jumped()) return true;
      group = c.load_group;
      sum = 0;
      count = 0;
      power = 0;
      used = c.load_factor;
    }
    if (c.load_group >= 0) {
      const double gamma_n = gamma[row + 2];  // Row 2: the normal impulse.
      sum += RawLoadFactor(c.load_w, gamma_n, 1.0, a, problem.dt);
      ++count;
      power += gamma_n * problem.RowVelocity(c, 2, v);
    }
    row += c.num_rows;
  }
  return jumped();
}

}  // namespace stiction
