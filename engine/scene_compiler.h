#pragma once
// Compiling a scene: the one step that turns a loaded SceneDescription into
// what a Simulation runs, as MuJoCo's compiler turns its mjCModel into an
// mjModel (src/user/user_model.cc). The model and its initial state
// (multibody/model_builder.h), the collision world with its filter and each
// geometry's material, the welds and balls, the joint couplers (with the
// coupled joints started on their coupling), the PD actuators on their
// joints, and the arm gripper's Cartesian impedance at its start pose.
//
// Where the checks live. A scene file's mistakes are refused by the loader
// (engine/scene/scene_loader.h), which alone knows the file's lines: unknown
// or duplicate names, joint loops, actuators on joints that are not
// revolute or prismatic, constraints on unknown or equal bodies, an unknown
// end-effector body. Robots arrive through their importers and
// PlaceRobot, which hold the same invariants (trees, hinge and slide
// actuators, equalities on two bodies, unique joint names). This step
// asserts them (debug builds) and checks only what the assembled scene
// shows: a robot file's own body names (BuildModel: a URDF link 'world', an
// MJCF name equal to a generated one), what the model refuses (inertia,
// axes), initial states, geometry the collision world refuses, materials
// by name, and the controllers' gains (Simulation's setters, at
// construction as later).
//
// Two things need the collision world's hulls and the posed model, so they
// happen here rather than in the loader: a robot with `rest_on_ground` is
// moved so that its lowest collision geometry, posed at the initial
// configuration, touches z = 0 (a mesh by its hull, every shape exactly);
// and the links of one robot whose collision geometry overlaps at the
// initial configuration never collide with each other (MoveIt's "Default"
// rule: their hulls overlap by design, as a concave elbow's hull holds the
// next link; colliding would kick the robot on the first step), with a
// note per pair.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <cstddef>
#include <utility>
#include <vector>

#include "engine/contact/cartesian_impedance_constraints.h"
#include "engine/contact/contact_constraints.h"
#include "engine/contact/joint_coupler_constraints.h"
#include "engine/contact/pd_actuator_constraints.h"
#include "engine/contact/tendon_constraints.h"
#include "engine/contact/weld_constraints.h"
#include "engine/geometry/collision_world.h"
#include "engine/multibody/gravity_compensation.h"
#include "engine/multibody/joint_motors.h"
#include "engine/multibody/model_builder.h"
#include "engine/scene/scene_description.h"

namespace stiction {

struct CompiledScene {
  /// The model and its initial state.
  BuiltModel multibody;
  /// The world's geometry (body 0), then every body's, in scene order.
  /// Bodies joined by a joint or a constraint do not collide.
  std::unique_ptr<CollisionWorld> collision;
  /// The scene's materials in scene order, and each geometry's.
  GeometryMaterials materials;
  /// The scene's weld and ball constraints, in scene order.
  std::vector<BodyConstraint> body_constraints;
  /// The scene's joint couplers (robots' and its own), in scene order.
  std::vector<JointCoupler> joint_couplers;
  /// Tendon limits and equalities (robots' MJCF files), in scene order.
  std::vector<TendonConstraint> tendons;
  /// PD servos on tendon lengths (robots' MJCF files), in scene order.
  std::vector<TendonServo> tendon_servos;
  /// One per scene actuator, in scene order, on its model joint. Gains and
  /// targets are left to Simulation::SetActuatorGains/SetActuatorTarget,
  /// which check them (and an oscillator's centre is its target).
  std::vector<JointActuator> actuators;
  /// One per scene motor, in scene order, with its initial control.
  std::vector<JointMotor> motors;
  /// The joints of the robots with `gravity_compensation`.
  GravityCompensation gravity_compensation;
  /// The arm grippers' controllers (docs/teleop.md), one per arm gripper in
  /// scene order as (index in scene.grippers, impedance): the end-effector
  /// frame held where it starts (q0), with a posture term on the revolute
  /// and prismatic joints between it and the world at their initial values.
  /// Gantry grippers have none.
  std::vector<std::pair<std::ptrdiff_t, CartesianImpedance>> gripper_impedances;
  /// What compiling changed that a user should know, one line each:
  /// coupled joints started on their coupling (or off it), robot links that
  /// overlap at the start and therefore ignore each other.
  std::vector<std::string> notes;
};

/// Compiles `scene` (as LoadSceneFile returns it). Throws InputError
/// "FILE:LINE: KEY: reason" for what only the assembled scene shows (see
/// above).
CompiledScene CompileScene(const SceneDescription& scene);

/// The index of the material `name` in scene.materials. Throws InputError
/// "unknown material 'NAME'".
std::size_t FindMaterialIndex(const SceneDescription& scene, const std::string& name);

}  // namespace stiction
