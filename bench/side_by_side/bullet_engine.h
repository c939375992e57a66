#pragma once
// The Bullet peer of stiction-bench (issue 8): MakeBulletEngine (declared in
// peer_engine.h) builds a SceneDescription in a btDiscreteDynamicsWorld with
// Bullet's default sequential-impulse (SI) solver and Bullet's defaults
// everywhere else (10 SI sweeps, ERP 0.2, split impulse, collision margins,
// sleeping on): the benchmark compares engines as shipped, untuned.
//
// What the adapter maps (and how it differs from Stiction's semantics):
// - half_space -> btStaticPlaneShape (normal = G's +z, through G's origin);
//   box -> btBoxShape (half extents); sphere -> btSphereShape;
//   capsule -> btCapsuleShapeZ (Bullet's height, like Stiction's length,
//   excludes the caps); cylinder -> btCylinderShapeZ. Several collision
//   geometries on a body, or one not at the body origin -> btCompoundShape.
//   Geometries with collision: false are left out.
// - Contact is rigid: stiffness, dissipation, Hunt & Crossley and the contact
//   model of a material are ignored; restitution and rolling friction are 0.
// - Friction: Bullet combines a pair as the product of the objects'
//   frictions, so each object gets BulletObjectFriction(μ) = √μ. A pair of one
//   material gets μ; a mixed pair gets √(μ_A μ_B) where Stiction uses the
//   harmonic mean 2 μ_A μ_B / (μ_A + μ_B).
// - Free bodies -> dynamic btRigidBody (mass, diagonal inertia, initial pose
//   and velocity of the free joint). A prismatic joint from the world ->
//   btSliderConstraint to a fixed frame (any axis direction); a PD actuator
//   on it is applied explicitly as a central force along the axis before
//   each step, τ = clamp(−kp (q − q_d) − kd (v − v_d), ±effort_limit),
//   evaluated at the start of the step (Stiction solves it implicitly).
// - Sleeping (deactivation) is Bullet's default: bodies whose speeds stay
//   below 0.8 m/s and 1 rad/s for 2 s freeze until something wakes them; a
//   force applied by the adapter does not wake them.
//
// What it refuses (nullptr and a one-line why_not naming the element):
// meshes; a non-zero com or a non-diagonal inertia; geometries of different
// friction on one body; collision groups; joints other than free and
// prismatic-from-world; prismatic limits, springs, damping, rotor inertia;
// actuators on anything but a mapped prismatic joint; equality constraints
// (weld, ball); the gripper.

namespace stiction::bench {

/// The friction coefficient given to each Bullet collision object of a
/// material with Coulomb coefficient `mu` (dimensionless, ≥ 0): √μ, because
/// Bullet multiplies the frictions of the two objects of a contact pair.
double BulletObjectFriction(double mu);

}  // namespace stiction::bench
