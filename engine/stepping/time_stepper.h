#pragma once
// One time step of SAP paper Alg. 1, top to bottom:
//   stage 1: free-motion velocities v* from m(v*) = 0 (Eq. 13), per tree;
//   stage 2: the linearized balance of momentum A (v − v*) = Jᵀ γ (Eq. 18)
//            with A = M + δt² θ θ_vq K + δt θ D (Eq. 15). Contact and other
//            constraints plug in here; without them v = v*;
//   update:  q = q0 + δt N(q^θ) v^θvq (Eqs. 11–12), quaternions normalized.
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/simulation.h"
#include "engine/stepping/theta_method.h"

namespace stiction {

struct StepperParameters {
  double dt = 0.01;  ///< δt [s].
  ThetaParameters theta;
};

/// Stage 2's data (SAP paper Eq. 18), one block per tree: what a contact
/// solver receives besides the constraints.
struct FreeMotionProblem {
  std::vector<MatrixX> A;  ///< Per-tree SPD blocks of Eq. (15).
  VectorX v_star;          ///< Free-motion velocities (Eq. 13).
};

class TimeStepper {
 public:
  explicit TimeStepper(const MultibodyModel& model);

  /// Advances (q0, v0) by one step into (q, v) under the generalized forces
  /// tau_ext (may be null). Returns kSuccess or a failure status with a
  /// one-line message; never throws.
  StepStatus Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                  const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                  std::string* message);

  /// Stage 2 data of the last step (for contact solvers and tests).
  const FreeMotionProblem& free_motion() const { return free_motion_; }

 private:
  const MultibodyModel& model_;
  ThetaMethod theta_method_;
  KinematicsCache cache_;
  VectorX K_, D_;  // Joint stiffness and damping diagonals (constant).
  FreeMotionProblem free_motion_;
  MatrixX M_t_;
  VectorX q_theta_;
};

}  // namespace stiction
