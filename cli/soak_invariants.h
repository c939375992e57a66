#pragma once
// The soak's per-step invariants (docs/soak.md): a finite state, kinetic
// energy bounded by the energy put in, bounded penetration. The work the
// soak can measure is metered here: perturbation wrenches, PD actuators
// (oscillators and grippers drive them too) and Cartesian impedance
// controllers. The resident-memory invariant is in soak_memory.h.
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/simulation.h"

namespace stiction::cli {

/// True when every generalized position and velocity is finite.
bool StateIsFinite(const VectorX& q, const VectorX& v);
bool StateIsFinite(const Simulation& sim);

/// The deepest overlap max(0, −φ) over the last step's contacts [m]; NaN
/// when some φ is NaN (so that a bad value is never hidden).
double DeepestPenetration(const std::vector<ContactReport>& contacts);
/// The largest speed of a body origin [m/s], for messages.
double MaxBodySpeed(const Simulation& sim);
/// "body_a/body_b" of the deepest contact ("" without contacts), for messages.
std::string DeepestContactBodies(const Simulation& sim);

/// Work done on the system over one step by the sources the soak measures
/// [J].
struct StepWork {
  /// External wrenches (SetExternalWrenches); under the θ-method all of
  /// τ_ext (motors and gravity compensation too).
  double perturbation = 0;
  double actuators = 0;     ///< PD actuators (scene `actuators:`).
  double cartesian = 0;     ///< Cartesian impedance controllers, posture rows included.
  double total() const { return perturbation + actuators + cartesian; }
};

/// Meters the work of one step. Discretization: every source acts as an
/// impulse p over the step (the wrenches' generalized force J(q_n)ᵀ F is
/// fixed at the step start, exactly as Simulation::Step computes it; the
/// actuators' and controllers' efforts are their impulses / δt), and the
/// work of an impulse is pᵀ (v_n + v_{n+1}) / 2. For a constant mass matrix
/// (a free body in its own velocity coordinates) that is exactly the change
/// of kinetic energy the impulse causes: ½ v₁ᵀMv₁ − ½ v₀ᵀMv₀ =
/// (v₁ − v₀)ᵀ M (v₁ + v₀)/2 = pᵀ v̄. Where M depends on q the identity holds
/// to O(δt²) per step; the energy invariant's slack covers that.
class WorkMeter {
 public:
  /// Before Step(): remembers δt, v_n and the generalized forces of
  /// `wrenches` and the Jacobians of the Cartesian controllers' frames at
  /// q_n.
  void BeginStep(const Simulation& sim, const std::vector<ExternalWrench>& wrenches);
  /// After a successful Step(): the work over that step. The θ-method
  /// meters it itself, substep by substep (StepStats::work_metered), and
  /// that is what is returned; otherwise (NMDP) the forces' impulses over
  /// the step times the mean of v_n and v_{n+1}.
  StepWork EndStep(const Simulation& sim, const StepStats& stats) const;

 private:
  double dt_ = 0;
  VectorX v0_;
  VectorX tau_wrenches_;               // J(q_n)ᵀ F summed over the wrenches [N, N m].
  std::vector<Matrix6X> cartesian_J_;  // Per controller: [ω_WB; v_WE] = J v at q_n.
};

/// E_in(t) = KE(t0) + PE(t0) + U(t0) − PE(t) + W(t0, t): the kinetic
/// energy the system could have at t if nothing dissipated, with t0 the
/// last restart (start, reset, solver or contact-model switch), W the
/// metered work and U(t0) the energy the contacts held at t0
/// (Simulation::CalcContactStoredEnergy): a switch hands over compressed
/// contacts, which the next model may release. Between restarts U is not
/// metered: its force is a step's, impacts included, so U(t) swings with
/// every impact (metered every step, with overlaps then counted as F x, it
/// failed the clutter's CI soak in 6 of 12 runs; docs/soak.md).
class EnergyBudget {
 public:
  /// `potential_J`: PE(t0) + U(t0).
  void Restart(double kinetic_J, double potential_J) {
    initial_ = kinetic_J + potential_J;
    work_ = 0;
  }
  void AddWork(double work_J) { work_ += work_J; }
  /// E_in at potential energy `potential_J` [J].
  double Input(double potential_J) const { return initial_ - potential_J + work_; }
  double work() const { return work_; }

 private:
  double initial_ = 0;
  double work_ = 0;
};

/// The energy invariant: KE ≤ ratio_max E_in + E_floor.
struct EnergyLimit {
  double ratio_max = 1.05;  ///< Slack for the O(δt²) discretization of the work and integrator.
  double floor_J = 0;       ///< Energy contact models may inject on penetration recovery [J].
  bool Holds(double kinetic_J, double input_J) const {
    return kinetic_J <= ratio_max * input_J + floor_J;
  }
};

/// E_floor for a scene: the energy of dropping every body's mass by
/// `height_m` under |g| (9.81 m/s² when the scene has no gravity) [J].
double EnergyFloor(const MultibodyModel& model, double height_m);

/// The default penetration limit: the smallest radius of gyration
/// sqrt(tr(I_cm) / 2m) over the free bodies [m] (3.9 cm for a 5 cm sphere,
/// 3 cm for a 6 cm cube): a body that sinks in deeper than that is passing
/// through, not overshooting an impact. `fallback_m` without free bodies.
double SmallestRadiusOfGyration(const MultibodyModel& model, double fallback_m);

}  // namespace stiction::cli
