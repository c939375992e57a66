#pragma once
// What stage 1's Newton iterations added to its first guess in the last
// steps, per tree, so that the next step starts nearer its solution.
//
// Stage 1 (ThetaMethod::SolveFreeMotion) starts from the linearly implicit
// guess v_lin = v0 + δt A0⁻¹ k(q0, v0) and iterates to m(v*) = 0 with
// quasi-Newton steps on A0, which contract the residual by ~1e-3 per
// iteration on a robot (A0 lacks δt² θ θ_vq ∂(M a − τ)/∂q). The part of v*
// those iterations add, d = v* − v_lin, changes slowly from step to step
// (it is what the nonlinear terms of m contribute, O(δt²)), so the next
// guess is v_lin + 2 d₁ − d₂ (d₁, d₂ of the last two steps; d₁ alone after
// one step): a linear extrapolation in time. It changes only where Newton
// starts, not what it converges to or its tolerance (docs/architecture.md,
// "Stage 1's first guess"; docs/benchmarks.md).
//
// Carried in StepperMemory so that a restored state steps exactly as it did.
#include <vector>

#include "engine/common/eigen_types.h"

namespace stiction {

class FreeMotionHistory {
 public:
  /// Sizes the history for a model of nv velocities and num_trees trees
  /// and forgets everything.
  void Resize(int nv, int num_trees) {
    last_ = VectorX::Zero(nv);
    before_ = VectorX::Zero(nv);
    trees_.assign(static_cast<std::size_t>(num_trees), TreeRecord{});
  }
  /// Whether the history is sized for this model (a memory saved before
  /// the model's first step, or default-constructed, is not).
  bool Fits(int nv, int num_trees) const {
    return last_.size() == nv && trees_.size() == static_cast<std::size_t>(num_trees);
  }
  /// Forgets every tree's corrections (a reset, a jump of the state).
  void Clear() {
    for (TreeRecord& t : trees_) t.steps = 0;
  }
  /// Forgets one tree's corrections (the tree slept through the step).
  void Forget(int tree) { trees_[static_cast<std::size_t>(tree)].steps = 0; }

  /// Adds the predicted correction of tree `tree` (velocities
  /// [v_start, v_start + nv)) to *v: nothing unless the last steps of this
  /// tree were taken with the same δt, θ and θ_vq and converged.
  template <typename Segment>
  void AddPrediction(int tree, int v_start, int nv, double dt, double theta, double theta_vq, Segment v) const {
    const TreeRecord& t = trees_[static_cast<std::size_t>(tree)];
    if (t.steps == 0 || t.dt != dt || t.theta != theta || t.theta_vq != theta_vq) return;
    if (t.steps == 1) {
      v += last_.segment(v_start, nv);
    } else {
      v += 2 * last_.segment(v_start, nv) - before_.segment(v_start, nv);
    }
  }

  /// Records this step's correction d = v* − v_lin of a tree; a solve that
  /// did not converge (or is not finite) starts the tree's history over.
  template <typename Segment>
  void Record(int tree, int v_start, int nv, double dt, double theta, double theta_vq, bool converged,
              const Segment& correction) {
    TreeRecord& t = trees_[static_cast<std::size_t>(tree)];
    if (t.dt != dt || t.theta != theta || t.theta_vq != theta_vq) t.steps = 0;
    t.dt = dt;
    t.theta = theta;
    t.theta_vq = theta_vq;
    if (!converged || !correction.allFinite()) {
      t.steps = 0;
      return;
    }
    before_.segment(v_start, nv) = last_.segment(v_start, nv);
    last_.segment(v_start, nv) = correction;
    t.steps = t.steps >= 2 ? 2 : t.steps + 1;
  }

  /// Bytes held (SimulationState::Bytes).
  std::size_t Bytes() const {
    return sizeof(double) * static_cast<std::size_t>(last_.size() + before_.size()) +
           trees_.capacity() * sizeof(TreeRecord);
  }

 private:
  struct TreeRecord {
    int steps = 0;  ///< Corrections held for this tree: 0, 1 or 2.
    double dt = 0, theta = 0, theta_vq = 0;
  };
  VectorX last_, before_;  ///< d₁ and d₂, all velocities.
  std::vector<TreeRecord> trees_;
};

}  // namespace stiction
