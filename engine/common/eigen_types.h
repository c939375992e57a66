#pragma once
// One place for the Eigen aliases the engine uses. Fixed-size types for 3- and
// 6-vectors; dynamic types for generalized coordinates and velocities.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

namespace stiction {

using Vector3 = Eigen::Vector3d;
using Vector4 = Eigen::Vector4d;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix3 = Eigen::Matrix3d;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using VectorX = Eigen::VectorXd;
using MatrixX = Eigen::MatrixXd;
using Matrix6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;
using Matrix3X = Eigen::Matrix<double, 3, Eigen::Dynamic>;
using Quaternion = Eigen::Quaterniond;

/// A rigid transform X_AB: the pose of frame B measured and expressed in
/// frame A (rotation R_AB and position p_AB of B's origin), in metres.
struct RigidTransform {
  Matrix3 R = Matrix3::Identity();
  Vector3 p = Vector3::Zero();

  static RigidTransform Identity() { return {}; }
  /// Composition X_AC = X_AB * X_BC.
  RigidTransform operator*(const RigidTransform& X_BC) const {
    return {R * X_BC.R, p + R * X_BC.p};
  }
  /// Maps a point expressed in B to A: p_AQ = X_AB * p_BQ.
  Vector3 operator*(const Vector3& p_BQ) const { return p + R * p_BQ; }
  RigidTransform inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
};

/// Scratch storage for matrices whose size changes from call to call (a
/// contact between a 9-DOF finger and a 6-DOF box, then the next): it grows
/// to the largest size asked for and never shrinks, so that a hot loop stops
/// allocating once warm (MatrixX::resize reallocates at every new size).
class ScratchMatrix {
 public:
  Eigen::Map<MatrixX> Get(Eigen::Index rows, Eigen::Index cols) {
    if (static_cast<Eigen::Index>(storage_.size()) < rows * cols) storage_.resize(rows * cols);
    return Eigen::Map<MatrixX>(storage_.data(), rows, cols);
  }

 private:
  std::vector<double> storage_;
};

/// Skew-symmetric matrix [a]x such that [a]x b = a x b.
inline Matrix3 Skew(const Vector3& a) {
  Matrix3 S;
  S << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return S;
}

}  // namespace stiction
