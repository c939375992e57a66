#pragma once
// Mouse perturbation as in MuJoCo's simulate: Ctrl+right drag moves a target
// point that pulls the selected body's grab point, Ctrl+left drag turns a
// target orientation that turns the body (holding its centre of mass where it
// was). Both act through springs with critical damping scaled by the body's
// own mass and inertia, so every body answers the mouse alike:
//   f = m (ω² d − 2ω v_P),   τ = I_W (ω² e − 2ω ω_WB),
// with d the (capped) displacement of the grab point from the target, e the
// (capped) rotation vector from the body to the target orientation, and ω the
// spring's natural frequency. m ẍ = f then has the characteristic equation
// s² + 2ωs + ω² = 0: a double root, critically damped.
#include "engine/multibody/multibody_model.h"
#include "engine/simulation.h"

namespace stiction::app {

enum class PerturbMode { kNone, kRotate, kTranslate };

struct PerturbSpring {
  double omega = 10.0;              ///< Natural frequency ω [rad/s].
  double max_displacement = 0.3;    ///< Cap on |d| [m].
  double max_angle = 1.0;           ///< Cap on |e| [rad].
};

struct Perturbation {
  PerturbMode mode = PerturbMode::kNone;
  int body = 0;                      ///< Model body (≥ 1).
  Vector3 p_BP = Vector3::Zero();    ///< Grab point in the body frame [m].
  Vector3 target_W = Vector3::Zero();  ///< Where the grab point is pulled to [m].
  Quaternion target_R_WB = Quaternion::Identity();  ///< Rotate mode target.
  Vector3 p_WBcm_hold = Vector3::Zero();  ///< Rotate mode: COM held here [m].
  bool active() const { return mode != PerturbMode::kNone; }
};

/// Starts a perturbation of `body` grabbed at world point p_WP given its pose.
Perturbation BeginPerturbation(PerturbMode mode, int body, const RigidTransform& X_WB,
                               const Vector3& com_B, const Vector3& p_WP);

/// The spring-damper wrench on the body, given the body's state (world pose,
/// origin velocity, angular velocity) and its mass properties. `p_WP` returns
/// the world point where the force acts (for drawing).
ExternalWrench CalcPerturbationWrench(const Perturbation& perturbation, const Body& body,
                                      const RigidTransform& X_WB, const Vector3& v_WB,
                                      const Vector3& w_WB, const PerturbSpring& spring,
                                      Vector3* p_WP = nullptr);

}  // namespace stiction::app
