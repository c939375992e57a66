#pragma once
// The Stiction -> MuJoCo mapping of the side-by-side benchmark (issue 8):
// SceneDescription -> MJCF (MuJoCo's XML), and the scene's initial joint
// state and actuator set points in MuJoCo's coordinates. Pure text and
// arithmetic: no MuJoCo dependency, so it is unit-tested everywhere.
//
// Mapping (docs/benchmarks.md lists where it differs from Stiction):
// - <option timestep, gravity, solver="Newton", cone per MujocoConfig,
//   noslip_iterations="10" for kEllipticNoslip>; all other options at
//   MuJoCo's defaults (Euler integrator, iterations, tolerance, solref,
//   solimp, margin, condim 3). <size nconmax njmax> is sized from the scene
//   (memory only, see MujocoContactCapacity).
// - World geometries -> geoms of <worldbody>; half_space -> plane.
// - Every body -> <body> at its pose with an explicit <inertial>; free
//   joints -> <freejoint/>, revolute -> hinge, prismatic -> slide,
//   ball -> ball, fixed -> a nested body without joint.
// - Geometry friction = the material's μ (MuJoCo combines a pair by max).
// - PD actuators -> <general> with an affine bias (same control law).
// - Massless bodies (URDF links on fixed joints) -> jointless bodies without
//   <inertial>.
// - Contact filtering -> <contact><exclude>: every body pair Stiction never
//   tests (StictionExcludedBodyPairs), so both engines skip the same pairs.
// Refused (WriteMjcf returns "" and a one-line reason naming the element):
// meshes, collision groups that split a body pair, half-spaces on bodies,
// equality constraints, the gripper, free joints below a body, actuators on
// non-axial joints, massless bodies on moving joints.
#include <string>
#include <vector>

#include "bench/side_by_side/peer_engine.h"
#include "engine/scene/scene_description.h"

namespace stiction::bench {

/// The configuration as printed after "MuJoCo <version> " in the table:
/// "pyramidal Newton", "elliptic Newton" or "elliptic Newton + noslip".
std::string MujocoConfigName(MujocoConfig config);

/// Returns the MJCF of `scene` in `config`, or "" with `why_not` set to a
/// one-line reason ("geometry 'bunny' (scene.yaml:12): meshes are not mapped
/// to MuJoCo") when the scene holds something the mapping does not support.
/// Numbers are written with 17 significant digits (round-trip exact).
std::string WriteMjcf(const SceneDescription& scene, MujocoConfig config, std::string* why_not);

/// Two scene bodies ("world" for the world's geometry) whose geometries
/// never touch.
struct ExcludedBodyPair {
  std::string body1, body2;
};

/// The body pairs, both with colliding geometry, that Stiction's contact
/// query never tests (docs/contact-geometry.md, "Filtering"), in scene order:
/// - Simulation's joint filter: bodies welded together by fixed joints (not
///   to the world) count as one rigid group; a group does not collide with
///   itself, nor with the group its topmost body hangs from (unless that is
///   the world);
/// - collision groups: a pair whose colliding geometry pairs all share a
///   group (world geometry included).
/// MuJoCo filters by default only same-weld-group and parent-weld-group
/// pairs whose groups are not welded to the world (its weld groups are
/// Stiction's rigid groups, with world-welded bodies merged into the world);
/// emitting every pair above as <exclude> makes both engines skip the same
/// moving pairs (the only remaining difference: MuJoCo also skips pairs of
/// two world-welded bodies, which cannot move either way). Returns false
/// and sets `why_not` when collision groups exclude only some geometry
/// pairs of two bodies (<exclude> works on whole bodies).
bool StictionExcludedBodyPairs(const SceneDescription& scene, std::vector<ExcludedBodyPair>* pairs,
                               std::string* why_not);

/// Memory sizes written to <size>: MuJoCo 2.2 has fixed-size contact and
/// constraint buffers (defaults 100 contacts, 500 rows) and silently drops
/// what does not fit (warnings mjWARN_CONTACTFULL / mjWARN_CNSTRFULL, which
/// the engine turns into a failed step).
struct MujocoContactCapacity {
  int nconmax = 100;  ///< Contacts [count].
  int njmax = 500;    ///< Constraint rows [count].
};

/// The <size> of `scene`: nconmax = max(100, 6 per colliding geometry on a
/// body); njmax = max(500, rows per contact (4 pyramidal, 3 elliptic, at
/// condim 3) * nconmax + one row per limited joint).
MujocoContactCapacity MujocoCapacity(const SceneDescription& scene, MujocoConfig config);

/// A scene joint's initial state in MuJoCo's coordinates of the joint that
/// WriteMjcf emits for it (empty for fixed joints, which have none):
/// - free (parent "world"): qpos = [p_WC (3) [m], quaternion of R_WC (w, x,
///   y, z)], qvel = [velocity of C's origin in the world (3) [m/s], angular
///   velocity in C (3) [rad/s]], C = the child body frame;
/// - ball: qpos = q_CM ⊗ q_FM ⊗ q_CM⁻¹ (the rotation in the child frame),
///   qvel = R_CM ω_M [rad/s];
/// - revolute, prismatic: qpos = q [rad | m], qvel = v [rad/s | m/s].
struct MujocoJointState {
  std::vector<double> qpos;
  std::vector<double> qvel;
};

/// Converts `joint`'s initial_q / initial_v (docs/scene-format.md; empty =
/// zero / identity) to MuJoCo's coordinates. Expects a joint WriteMjcf
/// accepted (sizes as documented, free joints hanging from the world).
MujocoJointState ToMujocoJointState(const JointDescription& joint);

/// The constant control input of `actuator`'s <general> element:
/// ctrl = kp q_d + kd v_d [N m | N], so that with gain 1 and bias
/// (0, −kp, −kd) MuJoCo applies clamp(−kp (q − q_d) − kd (v − v_d), ±limit).
double MujocoControl(const ActuatorDescription& actuator);

}  // namespace stiction::bench
