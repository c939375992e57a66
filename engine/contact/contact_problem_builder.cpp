#include "engine/contact/contact_problem_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

namespace stiction {

namespace {

constexpr double kPi = 3.14159265358979323846;

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

// Constraint identity for warm starts (see Constraint::key): the top byte
// is the origin, the rest the geometry pair and point index (contacts) or
// the index of the limit, actuator or body constraint.
std::uint64_t MakeKey(ConstraintOrigin origin, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return (static_cast<std::uint64_t>(origin) << 56) | ((a & 0xFFFFFu) << 36) | ((b & 0xFFFFFu) << 16) |
         (c & 0xFFFFu);
}

double SeriesCombination(double a, double b) {
  if (a <= 0 || b <= 0) return 0;
  if (std::isinf(a)) return b;
  if (std::isinf(b)) return a;
  return a * b / (a + b);
}

}  // namespace

const char* ContactModelName(ContactModel model) {
  switch (model) {
    case ContactModel::kSap:
      return "sap";
    case ContactModel::kLagged:
      return "lagged";
    case ContactModel::kSimilar:
      return "similar";
    case ContactModel::kRegularizedLagged:
      return "regularized_lagged";
  }
  return "sap";
}

std::optional<ContactModel> ParseContactModel(const std::string& name) {
  for (ContactModel m : {ContactModel::kSap, ContactModel::kLagged, ContactModel::kSimilar,
                         ContactModel::kRegularizedLagged}) {
    if (name == ContactModelName(m)) return m;
  }
  return std::nullopt;
}

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

ContactProblemBuilder::ContactProblemBuilder(const MultibodyModel& model,
                                             std::vector<ContactMaterial> materials)
    : model_(model), materials_(std::move(materials)) {}

const MatrixX& ContactProblemBuilder::InverseA(const ContactProblem& problem, int tree) {
  if (!A_inverse_valid_[tree]) {
    const MatrixX& A = problem.A[tree];
    MatrixX& A_inv = A_inverse_[tree];
    if (A.rows() == 6 && A.cols() == 6) {
      const Eigen::LLT<Matrix6> llt(Eigen::Map<const Matrix6>(A.data()));
      A_inv.resize(6, 6);
      Eigen::Map<Matrix6>(A_inv.data()) = llt.solve(Matrix6::Identity());
    } else {
      llt_.compute(A);
      A_inv = llt_.solve(MatrixX::Identity(A.rows(), A.cols()));
    }
    A_inverse_valid_[tree] = true;
  }
  return A_inverse_[tree];
}

void ContactProblemBuilder::Recycle(std::vector<Constraint>* constraints) {
  // Last first, so that AppendConstraint (which pops the back) hands the
  // storage of constraint i to the next step's constraint i: consecutive
  // steps mostly have the same constraints, with blocks of the same shapes.
  for (auto it = constraints->rbegin(); it != constraints->rend(); ++it) {
    pool_.push_back(std::move(*it));
  }
  constraints->clear();
}

Constraint& ContactProblemBuilder::AppendConstraint(ContactProblem* problem, int num_blocks) {
  Constraint c;
  if (!pool_.empty()) {
    c.blocks = std::move(pool_.back().blocks);
    pool_.pop_back();
  }
  c.blocks.resize(num_blocks);
  problem->constraints.push_back(std::move(c));
  return problem->constraints.back();
}

void ContactProblemBuilder::AddDelassusBlock(const ContactProblem& problem,
                                             const ConstraintJacobianBlock& b, Matrix3* W) {
  const MatrixX& A_inv = InverseA(problem, b.tree);
  if (b.J.cols() == 6) {
    const Eigen::Map<const Eigen::Matrix<double, 3, 6>> J(b.J.data());
    const Eigen::Matrix<double, 3, 6> JA = J * Eigen::Map<const Matrix6>(A_inv.data());
    W->noalias() += JA * J.transpose();
  } else {
    JA_.noalias() = b.J * A_inv;
    W->noalias() += JA_ * b.J.transpose();
  }
}

void ContactProblemBuilder::Build(const KinematicsCache& cache, const VectorX& q0, const VectorX& v0,
                                  const std::vector<ContactPoint>& contacts,
                                  const ContactModelParameters& params, double margin,
                                  ContactProblem* problem, std::vector<ContactReport>* reports) {
  const double dt = problem->dt;
  const double beta = params.near_rigid_threshold;
  const double sigma = params.stiction_tolerance;
  A_inverse_.resize(model_.num_trees());
  A_inverse_valid_.assign(model_.num_trees(), false);
  reports->clear();

  int previous_ga = -1, previous_gb = -1, point_index = 0;
  for (const ContactPoint& cp : contacts) {
    // Points of one manifold arrive consecutively: number them per pair.
    point_index = (cp.geometry_a == previous_ga && cp.geometry_b == previous_gb) ? point_index + 1 : 0;
    previous_ga = cp.geometry_a;
    previous_gb = cp.geometry_b;
    const int tree_a = cp.body_a == 0 ? -1 : model_.body(cp.body_a).tree;
    const int tree_b = cp.body_b == 0 ? -1 : model_.body(cp.body_b).tree;
    const bool moves_a = tree_a >= 0 && model_.tree(tree_a).nv > 0;
    const bool moves_b = tree_b >= 0 && model_.tree(tree_b).nv > 0;
    if (!moves_a && !moves_b) continue;  // Two welded bodies: nothing to solve.

    const Matrix3 R_WC = ContactFrame(cp.nhat_AB_W);
    const bool self_contact = moves_a && moves_b && tree_a == tree_b;
    const int num_blocks = self_contact ? 1 : static_cast<int>(moves_a) + static_cast<int>(moves_b);
    Constraint& c = AppendConstraint(problem, num_blocks);
    c.kind = ConstraintKind::kFrictionCone;
    c.num_rows = 3;
    // v_c = R_WCᵀ (v_B − v_A) at the contact point: blocks per tree, each
    // R_WCᵀ times the rows of the tree's point Jacobian (3 × nv_tree).
    auto contact_jacobian = [&](int body, double sign, MatrixX* J) {
      CalcTreeFrameJacobian(model_, cache, body, cp.p_W, &jacobian_);
      const Matrix3 R = sign * R_WC.transpose();
      J->resize(3, jacobian_.cols());
      if (jacobian_.cols() == 6) {
        Eigen::Map<Eigen::Matrix<double, 3, 6>>(J->data()).noalias() =
            R * Eigen::Map<const Matrix6>(jacobian_.data()).bottomRows<3>();
      } else {
        J->noalias() = R * jacobian_.bottomRows<3>();
      }
    };
    int block = 0;
    if (moves_b) {
      c.blocks[block].tree = tree_b;
      contact_jacobian(cp.body_b, 1.0, &c.blocks[block].J);
      ++block;
    }
    if (moves_a) {
      if (self_contact) {  // Self-contact within one tree (rare): one block J_B − J_A.
        contact_jacobian(cp.body_a, -1.0, &self_jacobian_);
        c.blocks[0].J += self_jacobian_;
      } else {
        c.blocks[block].tree = tree_a;
        contact_jacobian(cp.body_a, -1.0, &c.blocks[block].J);
      }
    }
    // Delassus diagonal block estimate W_ii ≈ Σ_t J_it A_t⁻¹ J_itᵀ (Sec. V-B).
    Matrix3 W = Matrix3::Zero();
    for (const ConstraintJacobianBlock& b : c.blocks) AddDelassusBlock(*problem, b, &W);
    const double w = W.norm() / 3.0;  // ‖W_ii‖_rms.

    const ContactMaterial m = CombineMaterials(materials_[cp.geometry_a], materials_[cp.geometry_b]);
    const ContactModel model = m.model.value_or(params.model);
    const double k = m.stiffness;
    if (model == ContactModel::kSap) {
      const double tau_d = m.dissipation;
      // Eq. (29): near-rigid regularization or the physical compliance.
      c.cone.Rn = std::max(beta * beta / (4 * kPi * kPi) * w, 1.0 / (dt * k * (dt + tau_d)));
      c.cone.Rt = sigma * w;  // Eq. (30).
      c.cone.mu = m.friction;
      c.cone.vn_hat = -cp.phi / (dt + tau_d);  // Sec. V-A, v̂_n = −φ0/(δt + τd).
    } else {
      // Hunt & Crossley models ([ICF] Sec. VI). k is used as given: the
      // near-rigid threshold β is a SAP regularization and does not apply.
      c.kind = ConstraintKind::kHuntCrossley;
      HuntCrossleyParameters& hc = c.hc;
      hc.model = model == ContactModel::kSimilar ? HuntCrossleyModel::kSimilar : HuntCrossleyModel::kLagged;
      hc.dt = dt;
      hc.k = k;
      hc.d = m.hc_dissipation;
      hc.f0 = -k * cp.phi;  // k x0, x0 = −φ0 (Eq. 15).
      hc.mu = m.friction;
      // Normal velocity at the step start, for the lagged impulse (Eq. 29).
      double vn0 = 0;
      for (const ConstraintJacobianBlock& b : c.blocks) {
        vn0 += b.J.row(2).dot(v0.segment(problem->tree_v_start[b.tree], problem->tree_nv[b.tree]));
      }
      hc.gamma_n0 = HuntCrossleyLaggedImpulse(dt, hc.d, hc.f0, vn0);
      hc.eps_s = m.stiction_velocity;
      if (model == ContactModel::kRegularizedLagged) {
        // Eq. (44): ε_s = max(v_s, σ w μ γ_n0), SAP's effective stiction
        // tolerance during impacts, v_s in sustained contact.
        hc.eps_s = std::max(hc.eps_s, sigma * w * hc.mu * hc.gamma_n0);
      }
    }
    c.origin = ConstraintOrigin::kContact;
    c.phi0 = cp.phi;
    c.mu = m.friction;
    c.key = MakeKey(ConstraintOrigin::kContact, static_cast<std::uint64_t>(cp.geometry_a),
                    static_cast<std::uint64_t>(cp.geometry_b), static_cast<std::uint64_t>(point_index));

    ContactReport report;
    report.body_a = cp.body_a;
    report.body_b = cp.body_b;
    report.p_W = cp.p_W;
    report.R_WC = R_WC;
    report.phi = cp.phi;
    report.mu = m.friction;
    report.model = model;
    reports->push_back(report);
  }

  // Joint limits as near-rigid unilateral constraints ([SAP] Sec. VII):
  // φ = q − q_lower (or q_upper − q) ≥ 0 with the near-rigid regularization
  // of Sec. V-B (τd = β δt/π, R = β²/(4π²) w). Added only when the limit can
  // be reached within the step.
  for (const Joint& j : model_.joints()) {
    if (j.type != JointType::kRevolute && j.type != JointType::kPrismatic) continue;
    const int tree = model_.body(j.child).tree;
    const Tree& t = model_.tree(tree);
    const int col = j.v_start - t.v_start;
    const double q = q0[j.q_start];
    const double speed = std::abs(problem->v_star[j.v_start]);
    const double reach = margin + 2 * dt * speed;
    for (int side = 0; side < 2; ++side) {
      const double limit = side == 0 ? j.lower_limit : j.upper_limit;
      if (!std::isfinite(limit)) continue;
      const double phi = side == 0 ? q - limit : limit - q;
      if (phi > reach) continue;
      const double sign = side == 0 ? 1.0 : -1.0;
      const double w = InverseA(*problem, tree)(col, col);
      const double tau_d = beta / kPi * dt;
      Constraint& c = AppendConstraint(problem, 1);
      c.kind = ConstraintKind::kClamped;
      c.num_rows = 1;
      c.blocks[0].tree = tree;
      c.blocks[0].J.setZero(1, t.nv);
      c.blocks[0].J(0, col) = sign;
      c.clamped.R = std::max(beta * beta / (4 * kPi * kPi), 1e-12) * w;
      c.clamped.v_hat = -phi / (dt + tau_d);
      c.clamped.lower = 0;
      c.origin = ConstraintOrigin::kJointLimit;
      c.phi0 = phi;
      c.key = MakeKey(ConstraintOrigin::kJointLimit, static_cast<std::uint64_t>(&j - model_.joints().data()),
                      static_cast<std::uint64_t>(side), 0);
    }
  }

  // PD controllers with effort limits ([SAP] Sec. VII), implicit in v.
  // With q = q0 + δt v (the end-of-step position SAP linearizes about) the
  // PD impulse over the step is
  //   γ = −δt (Kp (q0 + δt v − q_d) + Kd (v − v_d)) = −(v − v̂) / R,
  //   R = 1 / (δt (δt Kp + Kd)),  v̂ = (Kd v_d − Kp (q0 − q_d)) / (δt Kp + Kd),
  // a clamped row on the joint velocity with bounds ±δt·effort_limit: the
  // Huber cost of EvaluateClamped. Gains enter R (a convex cost), never an
  // explicit force, so arbitrarily stiff gains stay stable.
  actuator_constraints_.assign(actuators_.size(), -1);
  for (size_t i = 0; i < actuators_.size(); ++i) {
    const JointActuator& a = actuators_[i];
    const Joint& j = model_.joint(a.joint);
    const int tree = model_.body(j.child).tree;
    const Tree& t = model_.tree(tree);
    if (t.nv == 0) continue;
    const double gain = dt * a.kp + a.kd;  // δt Kp + Kd > 0 (validated).
    actuator_constraints_[i] = static_cast<int>(problem->constraints.size());
    Constraint& c = AppendConstraint(problem, 1);
    c.kind = ConstraintKind::kClamped;
    c.num_rows = 1;
    c.blocks[0].tree = tree;
    c.blocks[0].J.setZero(1, t.nv);
    c.blocks[0].J(0, j.v_start - t.v_start) = 1.0;  // v_c = joint velocity.
    c.clamped.R = 1.0 / (dt * gain);
    c.clamped.v_hat = (a.kd * a.target_velocity - a.kp * (q0[j.q_start] - a.target_position)) / gain;
    c.clamped.lower = -dt * a.effort_limit;
    c.clamped.upper = dt * a.effort_limit;
    c.origin = ConstraintOrigin::kActuator;
    c.key = MakeKey(ConstraintOrigin::kActuator, i, 0, 0);
  }

  // Weld and ball constraints ([SAP] Sec. VII) as bilateral rows with the
  // near-rigid regularization of Sec. V-B, per row as for limits:
  //   R = β²/(4π²) w,  τd = β δt/π,  v̂ = −e/(δt + τd).
  // Sign conventions (all in world): rows are the velocity of B relative to
  // A, v_c = [ω_WB − ω_WA; v_WFb − v_WFa] (weld) or v_WFb − v_WFa (ball), with
  // the frame origins' velocities as points of B and A; the errors are
  // e_p = p_WFb − p_WFa and e_R = R_WFa log(R_FaFb) (the rotation vector that
  // takes Fa to Fb, expressed in world), so ė ≈ v_c and γ (the impulse on B,
  // −γ on A) pushes e to zero. Each 3 × 3 block k (rotation, translation) of
  // the Delassus estimate W ≈ Σ_t J_t A_t⁻¹ J_tᵀ is then rotated into its
  // principal axes, each axis with w = λ_i (below); the rows solved are these
  // rotated ones, a change of basis that leaves the constraint unchanged.
  const double tau_d = beta / kPi * dt;
  for (const BodyConstraint& bc : body_constraints_) {
    const std::uint64_t index = static_cast<std::uint64_t>(&bc - body_constraints_.data());
    const int tree_a = bc.body_a == 0 ? -1 : model_.body(bc.body_a).tree;
    const int tree_b = bc.body_b == 0 ? -1 : model_.body(bc.body_b).tree;
    const bool moves_a = tree_a >= 0 && model_.tree(tree_a).nv > 0;
    const bool moves_b = tree_b >= 0 && model_.tree(tree_b).nv > 0;
    if (!moves_a && !moves_b) continue;
    const bool weld = bc.kind == BodyConstraintKind::kWeld;
    const int rows = weld ? 6 : 3;
    const RigidTransform X_WFa = cache.X_WB[bc.body_a] * bc.X_AFa;
    const RigidTransform X_WFb = cache.X_WB[bc.body_b] * bc.X_BFb;
    auto jacobian = [&](int body, const Vector3& p_W) -> MatrixX {
      const Matrix6X J = CalcTreeFrameJacobian(model_, cache, body, p_W);
      return weld ? MatrixX(J) : MatrixX(J.bottomRows<3>());
    };
    Constraint c;
    c.kind = ConstraintKind::kBilateral;
    c.num_rows = rows;
    if (moves_b) c.blocks.push_back({tree_b, jacobian(bc.body_b, X_WFb.p)});
    if (moves_a) {
      MatrixX Ja = -jacobian(bc.body_a, X_WFa.p);
      if (moves_b && tree_a == tree_b) {
        c.blocks[0].J += Ja;
      } else {
        c.blocks.push_back({tree_a, std::move(Ja)});
      }
    }
    MatrixX W = MatrixX::Zero(rows, rows);
    for (const ConstraintJacobianBlock& b : c.blocks) W += b.J * InverseA(*problem, b.tree) * b.J.transpose();
    VectorX e(rows);
    if (weld) {
      const Eigen::AngleAxisd aa(X_WFa.R.transpose() * X_WFb.R);
      e.head<3>() = X_WFa.R * (aa.angle() * aa.axis());
    }
    e.tail<3>() = X_WFb.p - X_WFa.p;
    c.bilateral_R.resize(rows);
    for (int k = 0; k < rows / 3; ++k) {
      // Each 3-row block (rotation, translation) is expressed in the principal
      // axes of its Delassus block W_kk = Q Λ Qᵀ and regularized per axis with
      // w = λ_i. A single scalar ‖W_kk‖_F/3 (as for contacts) is far too soft
      // along stiff directions of an anisotropic block: a ball constraint 1 m
      // from a small bob has λ ≈ 1/m along the rod but ≈ L²/I across it, and
      // the scalar let the rod stretch by 1 mm at δt = 1 ms.
      const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(W.block<3, 3>(3 * k, 3 * k));
      const Matrix3 Q = eigen.eigenvectors();
      for (ConstraintJacobianBlock& b : c.blocks) b.J.middleRows(3 * k, 3) = Q.transpose() * b.J.middleRows(3 * k, 3);
      e.segment<3>(3 * k) = Q.transpose() * e.segment<3>(3 * k);
      for (int i = 0; i < 3; ++i) {
        // Floor: a direction with no mobility (λ = 0) must still give R > 0.
        c.bilateral_R[3 * k + i] =
            std::max(std::max(beta * beta / (4 * kPi * kPi), 1e-12) * eigen.eigenvalues()[i], 1e-12);
      }
    }
    c.bilateral_v_hat = -e / (dt + tau_d);
    c.origin = ConstraintOrigin::kWeld;
    c.key = MakeKey(ConstraintOrigin::kWeld, index, 0, 0);
    problem->constraints.push_back(std::move(c));
  }
}

}  // namespace stiction
