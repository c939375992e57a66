#include "engine/contact/constraint_assembly.h"

#include "engine/contact/near_rigid.h"

namespace stiction {

ConstraintAssembly::ConstraintAssembly(const MultibodyModel& model) : model_(model) {
  A_factor_.reserve(model.num_trees());
  for (int t = 0; t < model.num_trees(); ++t) A_factor_.emplace_back(TreeCholesky::VelocityParents(model, t));
}

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
  A_factor_valid_.assign(model_.num_trees(), false);
  // Last first, so that Append (which pops the back) hands the storage of
  // constraint i to the next step's constraint i: consecutive steps mostly
  // have the same constraints, with blocks of the same shapes.
  std::vector<Constraint>& constraints = problem->constraints;
  for (auto it = constraints.rbegin(); it != constraints.rend(); ++it) pool_.push_back(std::move(*it));
  constraints.clear();
}

double ConstraintAssembly::LoadReferenceAcceleration() const {
  return stiction::LoadReferenceAcceleration(model_.gravity().norm());
}

double ConstraintAssembly::RawLoadFactor(double w, double impulse, double length) const {
  return stiction::RawLoadFactor(w, impulse, length, LoadReferenceAcceleration(), previous_dt());
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
      FactorA(tree).Inverse(&A_inv);
    }
    A_inverse_valid_[tree] = true;
  }
  return A_inverse_[tree];
}

const TreeCholesky& ConstraintAssembly::FactorA(int tree) {
  if (!A_factor_valid_[tree]) {
    // A is M(q) plus non-negative diagonal terms, positive definite for a
    // model Finalize accepts; a non-finite A gives a NaN factor, and the
    // step reports the non-finite velocities that follow.
    A_factor_[tree].Factor(problem_->A[tree]);
    A_factor_valid_[tree] = true;
  }
  return A_factor_[tree];
}

void ConstraintAssembly::SolveA(int tree, Eigen::Ref<VectorX> x) {
  if (model_.tree(tree).nv == 6) {
    const Vector6 b = x;
    x = Eigen::Map<const Matrix6>(InverseA(tree).data()) * b;
    return;
  }
  FactorA(tree).Solve(x);
}

double ConstraintAssembly::InverseDiagonal(int tree, int k) {
  if (model_.tree(tree).nv == 6) return InverseA(tree)(k, k);
  return FactorA(tree).InverseDiagonal(k);
}

void ConstraintAssembly::AddDelassusBlock(const ConstraintJacobianBlock& b, Matrix3* W) {
  if (b.J.cols() == 6) {
    const MatrixX& A_inv = InverseA(b.tree);
    const Eigen::Map<const Eigen::Matrix<double, 3, 6>> J(b.J.data());
    const Eigen::Matrix<double, 3, 6> JA = J * Eigen::Map<const Matrix6>(A_inv.data());
    W->noalias() += JA * J.transpose();
    return;
  }
  // J A⁻¹ Jᵀ = YᵀY with Y = L⁻ᵀ Jᵀ (A = LᵀL with the tree's sparsity): a
  // solve along the branch the contact's body hangs from, instead of A⁻¹
  // per tree.
  FactorA(b.tree).AddDelassus(b.J, W);
}

double ConstraintAssembly::RowDelassus(const Constraint& c) {
  double w = 0;
  for (const ConstraintJacobianBlock& b : c.blocks) {
    if (b.J.cols() == 6) {
      w += (b.J * InverseA(b.tree) * b.J.transpose())(0, 0);
    } else {
      Eigen::Matrix<double, 1, 1> w_b = Eigen::Matrix<double, 1, 1>::Zero();
      FactorA(b.tree).AddDelassus(b.J, &w_b);
      w += w_b(0, 0);
    }
  }
  return w;
}

const Matrix6X& ConstraintAssembly::TreeJacobian(int body, const Vector3& p_W) {
  CalcTreeFrameJacobian(model_, *cache_, body, p_W, &jacobian_);
  return jacobian_;
}

}  // namespace stiction
