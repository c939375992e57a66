#pragma once
// Plain description structs produced by the scene loader (YAML) and consumed by
// the model builder. They hold what the file said, validated, in SI units.
// No behaviour lives here. docs/scene-format.md documents every field.
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/common/source_location.h"
#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/solver_settings.h"

namespace stiction {

struct MaterialDescription {
  std::string name;
  /// k, τd, μ, d, v_s and the material's model (nullopt: the scene's).
  ContactMaterial material;
  SourceLocation where;
};

enum class ShapeType { kSphere, kBox, kCapsule, kCylinder, kHalfSpace, kMesh };

/// A triangle mesh held in memory instead of a file: what an importer that
/// compiles meshes itself (MJCF, through MuJoCo) hands over. Immutable once
/// made and shared (ShapeDescription::mesh_data) by every geometry using it.
struct MeshData {
  /// Names the mesh in messages (as they stand: "mesh 'wedge' of robot.xml")
  /// and, with a hash of the content, keys the viewer's mesh cache.
  std::string name;
  std::vector<Vector3> vertices_G;  ///< In the geometry frame G [m].
  /// Indices into vertices_G, counter-clockwise seen from outside.
  std::vector<std::array<int, 3>> triangles;
};

struct ShapeDescription {
  ShapeType type = ShapeType::kSphere;
  double radius = 0;        ///< Sphere, capsule, cylinder [m].
  double length = 0;        ///< Capsule, cylinder: along the local z axis [m].
  Vector3 size = Vector3::Zero();  ///< Box: full side lengths [m].
  std::string mesh_file;    ///< Mesh: path resolved relative to the scene file.
  /// Mesh: when set, the mesh itself, used instead of loading `mesh_file`
  /// (which is then empty) by collision and drawing alike.
  std::shared_ptr<const MeshData> mesh_data;
  Vector3 mesh_scale = Vector3::Ones();  ///< Mesh: per axis, of the file or the data.
};

/// A compliant (pressure-field, "hydroelastic") geometry: its volume is a
/// tetrahedral mesh carrying the pressure p = E e(x), E its material's
/// hydroelastic_modulus (docs/contact-model.md "Pressure-field patches").
struct CompliantDescription {
  /// Mesh resolution hint [m]: the longest edge of the surface
  /// triangulation; 0 = automatic (a fixed count per shape,
  /// docs/scene-format.md).
  double resolution = 0;
};

struct GeometryDescription {
  std::string name;
  ShapeDescription shape;
  RigidTransform X_BG;              ///< Pose of the geometry in its body frame.
  std::string material;             ///< "" = the scene's default material.
  Vector4 color = Vector4(0.7, 0.7, 0.7, 1.0);  ///< RGBA in [0, 1].
  bool collision = true;            ///< Takes part in contact.
  bool visual = true;               ///< Drawn by the viewer.
  std::vector<std::string> groups;  ///< Collision groups; "" = default group.
  /// MuJoCo's contact bitmasks (MJCF `contype`, `conaffinity`): two
  /// geometries may touch only when (a.contype & b.conaffinity) |
  /// (b.contype & a.conaffinity) is non-zero. All bits (the default, and
  /// every scene geometry's) touch every geometry that has a bit set, so
  /// the masks only choose among an MJCF file's own geoms, as in MuJoCo.
  std::uint32_t contype = ~std::uint32_t{0};
  std::uint32_t conaffinity = ~std::uint32_t{0};
  /// Set: a pressure-field geometry (scene key `compliant`); else rigid.
  std::optional<CompliantDescription> compliant;
  SourceLocation where;
};

struct BodyDescription {
  std::string name;
  double mass = 0;                    ///< [kg] > 0; 0 for a joint frame.
  Vector3 com_B = Vector3::Zero();    ///< Centre of mass in the body frame [m].
  Matrix3 I_Bcm_B = Matrix3::Zero();  ///< Rotational inertia about the COM, body axes [kg m²].
  std::vector<GeometryDescription> geometries;
  Vector4 color = Vector4(0.7, 0.7, 0.7, 1.0);
  SourceLocation where;
  /// A joint frame: not a body of the file but the frame between two joints
  /// of one MJCF body with several joints (mjcf_importer.cpp chains them
  /// through such frames). It moves but has no mass, inertia or geometry;
  /// the collision filter looks through it. Only importers set it.
  bool joint_frame = false;
};

enum class JointType { kFree, kRevolute, kPrismatic, kBall, kFixed };

struct JointDescription {
  std::string name;
  JointType type = JointType::kFree;
  std::string parent;  ///< Body name or "world".
  std::string child;   ///< Body name.
  /// Pose of the joint frame F in the parent frame P, and of the joint frame M
  /// in the child frame C. At zero joint coordinates F and M coincide.
  RigidTransform X_PF;
  RigidTransform X_CM;
  Vector3 axis = Vector3::UnitZ();  ///< Revolute/prismatic axis, in F (unit).
  double lower_limit = -std::numeric_limits<double>::infinity();  ///< [rad] or [m].
  double upper_limit = std::numeric_limits<double>::infinity();
  double spring_stiffness = 0;  ///< K [N m/rad] or [N/m], ≥ 0.
  double spring_reference = 0;  ///< Rest position [rad] or [m].
  double damping = 0;           ///< D [N m s/rad] or [N s/m], ≥ 0.
  double rotor_inertia = 0;     ///< Reflected inertia [kg m²] or [kg], ≥ 0.
  /// Initial joint coordinates and velocities. Sizes: free 7/6 (quaternion
  /// w,x,y,z then position; angular velocity in M then linear velocity in F),
  /// ball 4/3, revolute and prismatic 1/1, fixed 0/0. Empty = zero (identity).
  std::vector<double> initial_q;
  std::vector<double> initial_v;
  SourceLocation where;
};

/// A PD controller with an effort limit on a revolute or prismatic joint,
/// solved implicitly inside the convex SAP problem ([SAP] Sec. VII):
/// τ = clamp(−kp (q − q_d) − kd (v − v_d), −effort_limit, effort_limit).
struct ActuatorDescription {
  std::string name;
  std::string joint;              ///< Name of a revolute or prismatic joint.
  double kp = 0;                  ///< [N m/rad] or [N/m], ≥ 0.
  double kd = 0;                  ///< [N m s/rad] or [N s/m], ≥ 0; kp + kd > 0.
  double effort_limit = 1e9;      ///< [N m] or [N], > 0 (default: effectively unlimited).
  double target_position = 0;     ///< q_d [rad] or [m].
  double target_velocity = 0;     ///< v_d [rad/s] or [m/s].
  SourceLocation where;
};

/// One joint of a motor or a tendon and its coefficient: a motor applies
/// c · u to it, a tendon's length sums c · q.
struct JointTerm {
  std::string joint;       ///< A revolute or prismatic joint.
  double coefficient = 1;  ///< c [1; for an MJCF fixed tendon its coef], finite, ≠ 0.
};

/// A torque (force) actuator without feedback (scene key `motors:`, MJCF
/// `<motor>` and `<general>` without bias): its effort
///   u = clamp(gain · clamp(ctrl, ctrl_min, ctrl_max), −effort_limit, effort_limit)
/// is applied to each of its joints as the generalized force c · u, an
/// explicit force of the step (nothing to solve). An MJCF fixed tendon's
/// actuator drives the tendon's joints with their coefficients.
struct MotorDescription {
  std::string name;
  std::vector<JointTerm> joints;  ///< At least one, each joint once.
  double gain = 1;                 ///< [N m or N per unit of ctrl], finite, ≠ 0.
  double ctrl_min = -std::numeric_limits<double>::infinity();  ///< ctrl range, ctrl_min < ctrl_max.
  double ctrl_max = std::numeric_limits<double>::infinity();
  double ctrl = 0;                                              ///< Initial control [1], in the range.
  double effort_limit = std::numeric_limits<double>::infinity();  ///< [N m or N], > 0.
  SourceLocation where;
};

/// A periodic target for a PD actuator (scene key `oscillators:`), e.g. a
/// gait: from `start` on, q_d(t) = c + e(t) A sin(2π ((t − start)/T + φ)),
/// where c is the actuator's own target and the envelope e rises linearly
/// from 0 to 1 over the first period, so the motion starts smoothly; v_d is
/// the derivative of that. docs/scene-format.md ("Oscillators").
struct OscillatorDescription {
  std::string actuator;    ///< An actuator's name (the scene's or a robot's).
  double amplitude = 0;    ///< A [rad] or [m].
  double period = 1;       ///< T [s], > 0.
  double phase = 0;        ///< φ [periods], in [0, 1).
  double start = 0;        ///< [s], ≥ 0.
  SourceLocation where;
};

enum class BodyConstraintType { kWeld, kBall };

/// A bilateral constraint between a frame Fa on body A and a frame Fb on
/// body B ([SAP] Sec. VII): weld (Fa and Fb coincide, 6 rows) or ball
/// (their origins coincide, 3 rows).
struct ConstraintDescription {
  std::string name;
  BodyConstraintType type = BodyConstraintType::kWeld;
  std::string body_a = "world";  ///< Body name or "world".
  std::string body_b;            ///< Body name or "world" (≠ body_a).
  RigidTransform X_AFa;          ///< Frame Fa in body A's frame.
  RigidTransform X_BFb;          ///< Frame Fb in body B's frame.
  SourceLocation where;
};

/// A holonomic coupling of two revolute or prismatic joints (scene key
/// `couplers:`, URDF <mimic>, MJCF linear <equality><joint>):
///   q_joint = ratio · q_to + offset,
/// held by a near-rigid bilateral constraint
/// (engine/contact/joint_coupler_constraints.h). A follower whose initial
/// position is not given (its JointDescription::initial_q is left empty,
/// scene joints included) starts on its coupling (CompileScene).
struct JointCouplerDescription {
  std::string joint;  ///< The follower b: a revolute or prismatic joint.
  std::string to;     ///< The leader a: a revolute or prismatic joint, ≠ joint.
  double ratio = 1;   ///< ρ [b's unit per a's unit: rad/rad, m/m, m/rad or rad/m], finite.
  double offset = 0;  ///< Δ [rad or m, b's unit], finite.
  SourceLocation where;
};

/// Limits or an equality on a fixed tendon's length L(q) = Σ c_i q_i (MJCF
/// <fixed> tendons with a range, <equality><tendon>; our hinge and slide
/// coordinates are measured from qpos0, so the bounds are MuJoCo's minus the
/// tendon's length at qpos0): lower ≤ L ≤ upper, held by near-rigid rows
/// (engine/contact/tendon_constraints.h); lower = upper is an equality.
struct TendonDescription {
  std::string name;
  std::vector<JointTerm> joints;  ///< Revolute or prismatic joints on at most two trees.
  double lower = -std::numeric_limits<double>::infinity();  ///< [rad or m, weighted by c].
  double upper = std::numeric_limits<double>::infinity();
  SourceLocation where;
};

/// A PD servo on a fixed tendon's length L = Σ c_i q_i (MJCF position
/// servos on tendons, engine/contact/tendon_constraints.h): the generalized
/// force Jᵀ clamp(−kp (L − target) − kd L̇, ±effort_limit).
struct TendonServoDescription {
  std::string name;
  std::vector<JointTerm> joints;  ///< Revolute or prismatic joints on at most two trees.
  double kp = 0;                  ///< [N m or N per unit of L], ≥ 0.
  double kd = 0;                  ///< [N m s or N s per unit of L], ≥ 0; kp + kd > 0.
  double effort_limit = std::numeric_limits<double>::infinity();  ///< > 0.
  double target_length = 0;       ///< [rad or m, weighted by c].
  double target_velocity = 0;
  SourceLocation where;
};

/// One finger of a gripper or hand: its actuators (joint PD) with their
/// open and closed targets (joint coordinates, [m] or [rad]).
struct FingerDescription {
  std::string name;                    ///< "left", "right", or the scene's name ("index", ...).
  std::vector<std::string> actuators;
  std::vector<double> open, closed;    ///< One per actuator.
  /// true (the `left_finger`/`right_finger` shorthand): while closed the
  /// actuators' effort limit is the grip force. false (`fingers:`): each
  /// actuator keeps its own effort limit (e.g. the robot file's).
  bool grip_force_limited = false;
};

/// A teleoperated or scripted gripper (scene key `gripper:`, or one entry
/// of `grippers:`): what moves the palm (a gantry's PD actuators on
/// prismatic x, y, z and revolute yaw joints from the world, or an arm's
/// end-effector frame under a Cartesian impedance) and which actuators close
/// its fingers (two prismatic jaws, or a hand's fingers).
/// engine/control/gripper_controller.h drives them; docs/scene-format.md
/// ("Gripper") documents the keys.
struct GripperDescription {
  /// Unique in the scene: "gripper" for the `gripper:` key, the entry's
  /// `name:` in `grippers:`. Command files address a gripper by it.
  std::string name = "gripper";
  /// Gantry gripper: actuator names (prismatic, prismatic, prismatic,
  /// revolute). Empty for an arm gripper.
  std::string x, y, z, yaw;
  /// Arm gripper (key `end_effector:`): a Cartesian impedance drives the
  /// frame E on this body (its offset X_BE) to the target; "" = gantry.
  std::string end_effector_body;
  RigidTransform X_BE;
  double translational_stiffness = 3000;  ///< K_t [N/m].
  double translational_damping = 300;     ///< D_t [N s/m].
  double rotational_stiffness = 300;      ///< K_r [N m/rad].
  double rotational_damping = 30;         ///< D_r [N m s/rad].
  double max_force = 200;                 ///< F_max [N].
  double max_torque = 50;                 ///< T_max [N m].
  /// Posture term on the arm's joints (those between the world and the
  /// end-effector body), holding their initial values.
  double posture_stiffness = 20;  ///< [N m/rad].
  double posture_damping = 5;     ///< [N m s/rad].
  /// The fingers G opens and closes, each one or more actuators (keys
  /// `fingers:`, or the two-finger shorthand `left_finger`/`right_finger`
  /// with `finger_open`/`finger_closed`). Closing drives every actuator
  /// towards its `closed` value, chosen beyond any object, so the actuator
  /// saturates at its effort limit and presses with it (force control).
  std::vector<FingerDescription> fingers;
  double grip_force = 20;        ///< Initial grip force [N], in [kMinGripForce, kMaxGripForce].
  SourceLocation where;
};

/// Range of the grip force the viewer and command files accept [N].
inline constexpr double kMinGripForce = 1.0;
inline constexpr double kMaxGripForce = 50.0;

/// A robot the scene imported (scene key `robots:`), for the viewer and the
/// CLI to report; its bodies, joints and actuators are in the lists above.
struct RobotSummary {
  std::string name;    ///< The placement's name (the prefix), or the file's robot name.
  std::string file;    ///< Resolved path.
  std::string format;  ///< "URDF" or "MJCF".
  /// One line per element the importer skipped (robot_description.h).
  std::vector<std::string> notes;
  /// The robot's bodies and its joints to the world (prefixed names, as in
  /// `bodies` and `joints`), for what the scene compiler does per robot:
  /// resting it on the ground, and letting links that overlap at the start
  /// ignore each other.
  std::vector<std::string> bodies;
  std::vector<std::string> world_joints;
  /// Scene key `rest_on_ground`: the compiler moves the robot up or down so
  /// that its lowest collision geometry, posed at the initial
  /// configuration, touches z = 0 (a robot mounted on the world only).
  bool rest_on_ground = false;
  /// Scene key `gravity_compensation`: every revolute and prismatic joint of
  /// the robot gets the torque or force that holds what is outboard of it
  /// against gravity (engine/multibody/gravity_compensation.h).
  bool gravity_compensation = false;
};

/// Ranges of the camera keys (scene key `camera:`, command files' camera
/// keyframes): the viewer's orbit camera (app/render/camera.h) holds its
/// elevation within ±89° and draws with a perspective of this fovy.
inline constexpr double kDefaultCameraAzimuthDeg = 120.0;
inline constexpr double kDefaultCameraElevationDeg = -25.0;
inline constexpr double kDefaultCameraFovyDeg = 45.0;
inline constexpr double kMaxCameraElevationDeg = 90.0;  ///< |elevation| < this [deg].
inline constexpr double kMinCameraFovyDeg = 5.0;
inline constexpr double kMaxCameraFovyDeg = 150.0;

/// The scene's initial camera, also the camera headless recordings start
/// from (scene key `camera:`; docs/scene-format.md, "Camera"). The viewer's
/// orbit camera: the eye sits at lookat − distance · f, with the view
/// direction f = (cos el cos az, cos el sin az, sin el) and world z up.
struct CameraDescription {
  /// The point looked at, world [m]; nullopt: the centre of the bodies'
  /// bounds when the scene loads (fitted by the viewer).
  std::optional<Vector3> lookat;
  /// Eye to lookat [m], > 0; nullopt: fitted so the bodies fill the view.
  std::optional<double> distance;
  double azimuth_deg = kDefaultCameraAzimuthDeg;      ///< Heading of f about world z [deg], any finite value.
  double elevation_deg = kDefaultCameraElevationDeg;  ///< Pitch of f [deg], in (−90, 90); < 0 looks down.
  double fovy_deg = kDefaultCameraFovyDeg;            ///< Vertical field of view [deg], in [5, 150].
  /// A body the camera follows, keeping the offset of lookat to the body's
  /// origin it had at t = 0; "" = a fixed camera.
  std::string track;
  SourceLocation where;
};

struct SceneDescription {
  std::string file;         ///< The top-level scene file.
  std::string description;  ///< One paragraph shown by the viewer.
  Vector3 gravity = Vector3(0, 0, -9.81);  ///< [m/s²].
  double time_step = 0.01;                 ///< δt [s] > 0.
  double duration = 5.0;                   ///< Default run length [s] > 0.
  /// `stepping:`: the θ-method with `integrator` and `solver`, or an NMDP
  /// scheme with `nmdp` (docs/nmdp.md).
  SteppingScheme scheme = SteppingScheme::kThetaMethod;
  IntegratorSettings integrator;
  /// `solver:`: the solver type and every solver's parameters.
  SolverSettings solver;
  /// `nmdp:`: the parameters of the NMDP schemes (kept whatever `stepping` is).
  NmdpParameters nmdp;
  /// β, σ (keys `solver.near_rigid_threshold`, `solver.stiction_tolerance`)
  /// and the scene's contact model (`contact_model:`).
  ContactModelParameters contact;
  std::string default_material = "default";
  std::vector<MaterialDescription> materials;  ///< Always holds "default".
  std::vector<BodyDescription> bodies;
  std::vector<JointDescription> joints;
  /// Geometry welded to the world (ground, walls).
  std::vector<GeometryDescription> world_geometries;
  std::vector<ActuatorDescription> actuators;
  std::vector<MotorDescription> motors;  ///< Names shared with `actuators`.
  std::vector<OscillatorDescription> oscillators;  ///< At most one per actuator.
  std::vector<ConstraintDescription> constraints;
  /// Body pairs that never touch (MJCF `<contact><exclude>`), by body name
  /// ("world" for the world).
  std::vector<std::pair<std::string, std::string>> excluded_body_pairs;
  /// At most one per follower joint, in scene order (robots' first).
  std::vector<JointCouplerDescription> couplers;
  /// Tendon limits and equalities (robots' MJCF files only), in robot order.
  std::vector<TendonDescription> tendons;
  /// Servos on tendon lengths (robots' MJCF files only), in robot order.
  std::vector<TendonServoDescription> tendon_servos;
  /// The grippers (scene key `gripper:` for one, `grippers:` for several),
  /// in scene order; the first is the one teleop takes first. An arm
  /// gripper's Cartesian impedance is the simulation's controller k for the
  /// k-th arm gripper in this list.
  std::vector<GripperDescription> grippers;
  /// Robots imported from URDF or MJCF files, in scene order.
  std::vector<RobotSummary> robots;
  /// The scene's own command file (scene key `commands:`), resolved
  /// to an absolute path; "" = none (idle). Played when no --replay is given.
  std::string commands_file;
  /// The scene's camera (scene key `camera:`); nullopt: the viewer's
  /// default view, fitted to the bodies.
  std::optional<CameraDescription> camera;
};

}  // namespace stiction
