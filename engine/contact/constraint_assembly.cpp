#include "engine/contact/constraint_assembly.h"

#include "engine/contact/near_rigid.h"

namespace stiction {

ConstraintAssembly::ConstraintAssembly(const MultibodyModel& model) : model_(model) {}

void ConstraintAssembly::Begin(const KinematicsCache& cache_q0, const VectorX& q0, const VectorX& v0,
                               double margin, const ConstraintHistory* history, ContactProblem* problem) {
  cache_ = &cache_q0;
  history_ = history;
  q0_ = &q0;
  v0_ = &v0;
  margin_ = margin;
  problem_ = problem;
  A_inverse_.resize(model_.num_trees());
  A_inverse_valid_.assign(model_.num_trees(), false);
  A_factor_.resize(model_.num_trees());
  A_factor_valid_.assign(model_.num_trees(), false);
  // Last first, so that Append (which pops the back) hands the storage of
  // constraint i to the next step's constraint i: consecutive steps mostly
  // have the same constraints, with blocks of the same shapes.
  std::vector<Constraint>& constraints = problem->constraints;
  for (auto it = constraints.rbegin(); it != constraints.rend(); ++it) pool_.push_back(std::move(*it));
  constraints.clear();
}

double ConstraintAssembly::RawLoadFactor(double w, double impulse, double length) const {
  const double a = LoadReferenceAcceleration(model_.gravity().norm());
  return stiction::RawLoadFactor(w, impulse, length, a, previous_dt());
}

double ConstraintAssembly::LoadFactor(double w, double impulse, double length,
                                      const ContactModelParameters& params) const {
  return ClampLoadFactor(RawLoadFactor(w, impulse, length), params);
}

int ConstraintAssembly::MovingTree(int body) const {
  if (body == 0) return -1;
  const int tree = model_.body(body).tree;
  return model_.tree(tree).nv > 0 ? tree : -1;
}

Constraint& ConstraintAssembly::Append(int num_blocks) {
  Constraint c;
  if (!pool_.empty()) {
    c.blocks = std::move(pool_.back().blocks);
    pool_.pop_back();
  }
  c.blocks.resize(num_blocks);
  problem_->constraints.push_back(std::move(c));
  return problem_->constraints.back();
}

void ConstraintAssembly::DropLast() {
  pool_.push_back(std::move(problem_->constraints.back()));
  problem_->constraints.pop_back();
}

const MatrixX& ConstraintAssembly::InverseA(int tree) {
  if (!A_inverse_valid_[tree]) {
    const MatrixX& A = problem_->A[tree];
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

void ConstraintAssembly::AddDelassusBlock(const ConstraintJacobianBlock& b, Matrix3* W) {
  if (b.J.cols() == 6) {
    const MatrixX& A_inv = InverseA(b.tree);
    const Eigen::Map<const Eigen::Matrix<double, 3, 6>> J(b.J.data());
    const Eigen::Matrix<double, 3, 6> JA = J * Eigen::Map<const Matrix6>(A_inv.data());
    W->noalias() += JA * J.transpose();
    return;
  }
  // J A⁻¹ Jᵀ = YᵀY with Y = L⁻¹ Jᵀ (A = L Lᵀ): a triangular solve with
  // three right-hand sides per contact instead of A⁻¹ per tree (a quarter
  // of the work for a robot's few contacts).
  Eigen::LLT<MatrixX>& llt = A_factor_[b.tree];
  if (!A_factor_valid_[b.tree]) {
    llt.compute(problem_->A[b.tree]);
    A_factor_valid_[b.tree] = true;
  }
  Eigen::Map<MatrixX> Y = Y_.Get(b.J.cols(), b.J.rows());
  Y = b.J.transpose();
  llt.matrixL().solveInPlace(Y);
  W->noalias() += Y.transpose().lazyProduct(Y);
}

double ConstraintAssembly::RowDelassus(const Constraint& c) {
  double w = 0;
  for (const ConstraintJacobianBlock& b : c.blocks) w += (b.J * InverseA(b.tree) * b.J.transpose())(0, 0);
  return w;
}

const Matrix6X& ConstraintAssembly::TreeJacobian(int body, const Vector3& p_W) {
  CalcTreeFrameJacobian(model_, *cache_, body, p_W, &jacobian_);
  return jacobian_;
}

}  // namespace stiction
