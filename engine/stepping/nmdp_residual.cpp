#include "engine/stepping/nmdp_residual.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/common/error.h"
#include "engine/multibody/dynamics.h"

namespace stiction {

NmdpResidual::NmdpResidual(const MultibodyModel& model, std::vector<NmdpContactPoint> points,
                           WrenchPolytopeParameters polytope, VectorX q, VectorX v, double dt,
                           const VectorX* tau_ext, std::vector<NmdpJointPd> pd)
    : model_(model),
      points_(std::move(points)),
      polytope_(polytope),
      pd_(std::move(pd)),
      q_(std::move(q)),
      v_(std::move(v)),
      dt_(dt),
      cache_(model) {
  ValidateWrenchPolytopeParameters(polytope_);
  if (!(dt_ > 0) || !std::isfinite(dt_)) throw InputError("nmdp: the time step must be > 0 [s]");
  if (q_.size() != model_.num_positions() || v_.size() != model_.num_velocities()) {
    throw InputError("nmdp: q or v does not match the model");
  }
  for (const NmdpContactPoint& p : points_) {
    if (p.body < 1 || p.body >= model_.num_bodies()) throw InputError("nmdp: a contact point names no movable body");
    if (!(p.radius >= 0) || !(p.friction >= 0) || std::abs(p.normal.norm() - 1) > 1e-9) {
      throw InputError("nmdp: a contact point needs radius >= 0 [m], friction >= 0 and a unit normal");
    }
  }
  for (const NmdpJointPd& c : pd_) {
    if (c.q_index < 0 || c.q_index >= q_.size() || c.v_index < 0 || c.v_index >= v_.size() || !(c.kp >= 0) ||
        !(c.kd >= 0) || !(c.effort_limit > 0) || !std::isfinite(c.kp) || !std::isfinite(c.kd) ||
        !std::isfinite(c.target_position) || !std::isfinite(c.target_velocity)) {
      throw InputError("nmdp: a joint PD controller has an index outside the model or a gain that is not >= 0");
    }
  }
  if (tau_ext != nullptr) {
    if (tau_ext->size() != v_.size()) throw InputError("nmdp: tau_ext does not match the model");
    tau_ext_ = *tau_ext;
    has_tau_ext_ = true;
  }
}

Matrix3 NmdpContactPoint::Frame() const {
  Matrix3 R;
  R.col(0) = normal.unitOrthogonal();
  R.col(1) = normal.cross(R.col(0));
  R.col(2) = normal;
  return R;
}

Matrix3X NmdpContactPoint::Vertices(const WrenchPolytopeParameters& polytope, double phi) const {
  const Matrix3 R = Frame();
  return PolytopeVertices(polytope, friction, phi, normal, R.col(0), R.col(1));
}

double NmdpJointPd::Saturate(double u) const {
  return std::isfinite(effort_limit) ? effort_limit * std::tanh(u / effort_limit) : u;
}

std::vector<int> NmdpResidual::group_sizes() const {
  return std::vector<int>(points_.size(), polytope_.edges);
}

VectorX NmdpResidual::NextPositions(const VectorX& v_next) const {
  VectorX qdot;
  model_.MapVelocityToQDot(q_, v_next, &qdot);
  VectorX q_next = q_ + dt_ * qdot;
  model_.NormalizeQuaternions(&q_next);
  return q_next;
}

void NmdpResidual::Prepare(const VectorX& v_next) {
  if (prepared_ && v_next.size() == prepared_v_.size() && v_next == prepared_v_) return;
  prepared_v_ = v_next;
  prepared_ = true;
  q_next_ = NextPositions(v_next);
  CalcKinematics(model_, q_next_, v_next, BodyRange::All(model_), &cache_);
  CalcMassMatrix(model_, cache_, &M_);
  k_.setZero(v_.size());
  for (int t = 0; t < model_.num_trees(); ++t) {
    CalcTreeGeneralizedForces(model_, cache_, t, q_next_, v_next, has_tau_ext_ ? &tau_ext_ : nullptr, &k_);
  }
  for (const NmdpJointPd& c : pd_) k_[c.v_index] += c.Torque(q_next_[c.q_index], v_next[c.v_index]);
}

VectorX NmdpResidual::ContactForce(const VectorX& w, const std::vector<Matrix3X>* vertices,
                                   std::vector<Matrix3X>* used) {
  VectorX f = VectorX::Zero(v_.size());
  const int K = polytope_.edges;
  if (used != nullptr) used->clear();
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const NmdpContactPoint& c = points_[i];
    const Vector3 p_WP = cache_.X_WB[c.body] * c.p_BP;
    const Matrix3X D = vertices != nullptr ? (*vertices)[i] : c.Vertices(polytope_, c.SignedDistance(p_WP));
    // The force acts at the sphere's lowest point; for a point on a body
    // its Jacobian is the one of the material point there.
    const Vector3 p_WC = p_WP - c.radius * c.normal;
    f += CalcPointJacobian(model_, cache_, c.body, p_WC).transpose() *
         (D * w.segment(static_cast<Eigen::Index>(i) * K, K));
    if (used != nullptr) used->push_back(D);
  }
  return f;
}

VectorX NmdpResidual::EvaluatePrepared(const VectorX& v_next, const VectorX& w,
                                       const std::vector<Matrix3X>* vertices) {
  return M_ * (v_next - v_) / dt_ - k_ - ContactForce(w, vertices, nullptr);
}

VectorX NmdpResidual::Evaluate(const VectorX& v_next, const VectorX& w) {
  if (w.size() != num_weights()) throw InputError("nmdp: w has the wrong size");
  Prepare(v_next);
  return EvaluatePrepared(v_next, w, nullptr);
}

MatrixX NmdpResidual::VelocityJacobian(const VectorX& v_next, const VectorX& w, bool zeroth_order) {
  std::vector<Matrix3X> frozen;
  if (zeroth_order) {
    Prepare(v_next);
    ContactForce(w, nullptr, &frozen);
  }
  const int nv = num_velocities();
  MatrixX J(nv, nv);
  const double h = 1e-7 * std::max(1.0, v_next.cwiseAbs().maxCoeff());
  VectorX vp = v_next, vm = v_next;
  for (int j = 0; j < nv; ++j) {
    vp[j] = v_next[j] + h;
    vm[j] = v_next[j] - h;
    Prepare(vp);
    const VectorX fp = EvaluatePrepared(vp, w, zeroth_order ? &frozen : nullptr);
    Prepare(vm);
    const VectorX fm = EvaluatePrepared(vm, w, zeroth_order ? &frozen : nullptr);
    J.col(j) = (fp - fm) / (2 * h);
    vp[j] = vm[j] = v_next[j];
  }
  return J;
}

MatrixX NmdpResidual::WeightJacobian(const VectorX& v_next) {
  Prepare(v_next);
  // F is affine in w: the block of contact point x is −J_xᵀ D_x.
  const int K = polytope_.edges;
  MatrixX Fw(num_velocities(), num_weights());
  std::vector<Matrix3X> vertices;
  ContactForce(VectorX::Zero(num_weights()), nullptr, &vertices);
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const NmdpContactPoint& c = points_[i];
    const Vector3 p_WC = cache_.X_WB[c.body] * c.p_BP - c.radius * c.normal;
    Fw.middleCols(static_cast<Eigen::Index>(i) * K, K) =
        -CalcPointJacobian(model_, cache_, c.body, p_WC).transpose() * vertices[i];
  }
  return Fw;
}

const MatrixX& NmdpResidual::MassMatrix(const VectorX& v_next) {
  Prepare(v_next);
  return M_;
}

double NmdpResidual::KineticEnergy(const VectorX& v_next) {
  Prepare(v_next);
  return 0.5 * v_next.dot(M_ * v_next);
}

}  // namespace stiction
