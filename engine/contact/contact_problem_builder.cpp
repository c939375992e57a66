#include "engine/contact/contact_problem_builder.h"

#include <cmath>

#include <Eigen/Cholesky>

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

double SeriesCombination(double a, double b) {
  if (a <= 0 || b <= 0) return 0;
  if (std::isinf(a)) return b;
  if (std::isinf(b)) return a;
  return a * b / (a + b);
}

}  // namespace

ContactMaterial CombineMaterials(const ContactMaterial& a, const ContactMaterial& b) {
  ContactMaterial m;
  m.stiffness = SeriesCombination(a.stiffness, b.stiffness);
  const double c = SeriesCombination(a.dissipation * a.stiffness, b.dissipation * b.stiffness);
  m.dissipation = m.stiffness > 0 ? c / m.stiffness : 0;
  m.friction = a.friction + b.friction > 0
                   ? 2 * a.friction * b.friction / (a.friction + b.friction)
                   : 0;
  return m;
}

ContactProblemBuilder::ContactProblemBuilder(const MultibodyModel& model,
                                             std::vector<ContactMaterial> materials)
    : model_(model), materials_(std::move(materials)) {}

const MatrixX& ContactProblemBuilder::InverseA(const ContactProblem& problem, int tree) {
  if (!A_inverse_valid_[tree]) {
    const MatrixX& A = problem.A[tree];
    A_inverse_[tree] = A.llt().solve(MatrixX::Identity(A.rows(), A.cols()));
    A_inverse_valid_[tree] = true;
  }
  return A_inverse_[tree];
}

void ContactProblemBuilder::Build(const KinematicsCache& cache, const VectorX& q0,
                                  const std::vector<ContactPoint>& contacts,
                                  const ContactModelParameters& params, double margin,
                                  ContactProblem* problem, std::vector<ContactReport>* reports) {
  const double dt = problem->dt;
  const double beta = params.near_rigid_threshold;
  const double sigma = params.stiction_tolerance;
  A_inverse_.resize(model_.num_trees());
  A_inverse_valid_.assign(model_.num_trees(), false);
  reports->clear();

  for (const ContactPoint& cp : contacts) {
    const int tree_a = cp.body_a == 0 ? -1 : model_.body(cp.body_a).tree;
    const int tree_b = cp.body_b == 0 ? -1 : model_.body(cp.body_b).tree;
    const bool moves_a = tree_a >= 0 && model_.tree(tree_a).nv > 0;
    const bool moves_b = tree_b >= 0 && model_.tree(tree_b).nv > 0;
    if (!moves_a && !moves_b) continue;  // Two welded bodies: nothing to solve.

    const Matrix3 R_WC = ContactFrame(cp.nhat_AB_W);
    Constraint c;
    c.kind = ConstraintKind::kFrictionCone;
    c.num_rows = 3;
    // v_c = R_WCᵀ (v_B − v_A) at the contact point: blocks per tree.
    if (moves_b) {
      c.blocks.push_back({tree_b, R_WC.transpose() * CalcTreePointJacobian(model_, cache, cp.body_b, cp.p_W)});
    }
    if (moves_a) {
      MatrixX Ja = -(R_WC.transpose() * CalcTreePointJacobian(model_, cache, cp.body_a, cp.p_W));
      if (moves_b && tree_a == tree_b) {
        c.blocks[0].J += Ja;  // Self-contact within one tree.
      } else {
        c.blocks.push_back({tree_a, std::move(Ja)});
      }
    }
    // Delassus diagonal block estimate W_ii ≈ Σ_t J_it A_t⁻¹ J_itᵀ (Sec. V-B).
    Matrix3 W = Matrix3::Zero();
    for (const ConstraintJacobianBlock& b : c.blocks) W += b.J * InverseA(*problem, b.tree) * b.J.transpose();
    const double w = W.norm() / 3.0;  // ‖W_ii‖_rms.

    const ContactMaterial m = CombineMaterials(materials_[cp.geometry_a], materials_[cp.geometry_b]);
    const double k = m.stiffness, tau_d = m.dissipation;
    // Eq. (29): near-rigid regularization or the physical compliance.
    c.cone.Rn = std::max(beta * beta / (4 * kPi * kPi) * w, 1.0 / (dt * k * (dt + tau_d)));
    c.cone.Rt = sigma * w;  // Eq. (30).
    c.cone.mu = m.friction;
    c.cone.vn_hat = -cp.phi / (dt + tau_d);  // Sec. V-A, v̂_n = −φ0/(δt + τd).
    problem->constraints.push_back(std::move(c));

    ContactReport report;
    report.body_a = cp.body_a;
    report.body_b = cp.body_b;
    report.p_W = cp.p_W;
    report.R_WC = R_WC;
    report.phi = cp.phi;
    report.mu = m.friction;
    reports->push_back(report);
  }

  // Joint limits as near-rigid unilateral constraints (SAP paper Sec. VII):
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
      Constraint c;
      c.kind = ConstraintKind::kClamped;
      c.num_rows = 1;
      MatrixX J = MatrixX::Zero(1, t.nv);
      J(0, col) = sign;
      c.blocks.push_back({tree, std::move(J)});
      c.clamped.R = std::max(beta * beta / (4 * kPi * kPi), 1e-12) * w;
      c.clamped.v_hat = -phi / (dt + tau_d);
      c.clamped.lower = 0;
      problem->constraints.push_back(std::move(c));
    }
  }
}

}  // namespace stiction
