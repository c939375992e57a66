#include "engine/scene/mjcf_importer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/ellipsoid_mesh.h"

namespace stiction {

namespace {

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};

/// MuJoCo's compiler keeps global state (its error and warning handlers).
std::mutex& CompilerMutex() {
  static std::mutex mutex;
  return mutex;
}

RigidTransform PoseOf(const mjtNum* pos, const mjtNum* quat_wxyz) {
  RigidTransform X;
  X.R = Quaternion(quat_wxyz[0], quat_wxyz[1], quat_wxyz[2], quat_wxyz[3]).normalized().toRotationMatrix();
  X.p = Vector3(pos[0], pos[1], pos[2]);
  return X;
}

RigidTransform Translation(const mjtNum* pos) {
  RigidTransform X;
  X.p = Vector3(pos[0], pos[1], pos[2]);
  return X;
}

class MjcfConverter {
 public:
  MjcfConverter(const mjModel& m, std::string label, const MjcfImportOptions& options)
      : m_(m), label_(std::move(label)) {
    SelectKeyframe(options.keyframe);
  }

  RobotDescription Convert() {
    out_.file = label_;
    out_.format = "MJCF";
    out_.name = Name(mjOBJ_BODY, 0, "model");
    // <flag gravity="disable"> (dm_control's finger) leaves opt.gravity as
    // written but takes gravity out of MuJoCo's dynamics (mj_rne).
    out_.gravity = (m_.opt.disableflags & mjDSBL_GRAVITY)
                       ? Vector3::Zero()
                       : Vector3(m_.opt.gravity[0], m_.opt.gravity[1], m_.opt.gravity[2]);
    out_.time_step = m_.opt.timestep;
    for (int b = 0; b < m_.nbody; ++b) body_names_.push_back(b == 0 ? "world" : Name(mjOBJ_BODY, b, "body"));
    taken_names_.insert(body_names_.begin(), body_names_.end());
    body_index_.assign(m_.nbody, 0);
    for (int b = 1; b < m_.nbody; ++b) AddBody(b);
    for (int g = 0; g < m_.ngeom; ++g) AddGeom(g);
    for (const BodyDescription& body : out_.bodies) {
      const bool collides = std::any_of(body.geometries.begin(), body.geometries.end(),
                                        [](const GeometryDescription& g) { return g.collision; });
      if (!collides && !body.joint_frame && body.mass > 0) {
        NoteInGroup("body(ies) without collision geometry, which pass through everything", "'" + body.name + "'");
      }
    }
    for (int e = 0; e < m_.nexclude; ++e) {
      // signature = (body1 + 1) << 16 + body2 + 1 (mjmodel.h, 2.2.2).
      const int signature = m_.exclude_signature[e];
      out_.excluded_body_pairs.emplace_back(body_names_[(signature >> 16) - 1], body_names_[(signature & 0xFFFF) - 1]);
    }
    if (m_.npair > 0) {
      Note(std::to_string(m_.npair) + " explicit contact pair(s) skipped: their geoms collide by the usual rules");
    }
    for (int e = 0; e < m_.neq; ++e) AddEquality(e);
    for (int u = 0; u < m_.nu; ++u) AddActuator(u);
    if (out_.actuators.empty() && out_.motors.empty() && out_.tendon_servos.empty()) {
      Note(m_.nu == 0 ? "no actuators: nothing drives the joints (the viewer's Joints section poses them while paused)"
                      : "none of the " + std::to_string(m_.nu) + " actuators maps to Stiction's: nothing drives the joints");
    }
    for (int t = 0; t < m_.ntendon; ++t) AddTendonLimits(t);
    if (m_.nsensor > 0) Note(std::to_string(m_.nsensor) + " sensor(s) skipped: Stiction has no sensors");
    if (m_.nskin > 0) Note(std::to_string(m_.nskin) + " skin(s) skipped");
    if (m_.nkey > 0 && key_ < 0) {
      Note(std::to_string(m_.nkey) + " keyframe(s) (" + KeyframeNames() +
           ") not used: the initial state is qpos0; the robot key `keyframe: NAME` starts from one");
    }
    ApplyKeyframe();
    NoteGroups();
    LumpWeldedMasses(&out_, "inertial (mass > 0)");
    return std::move(out_);
  }

 private:
  std::string Name(int type, int id, const char* prefix) const {
    const char* name = mj_id2name(&m_, type, id);
    if (name != nullptr && name[0] != '\0') return name;
    return std::string(prefix) + std::to_string(id);
  }
  void Note(const std::string& what) { out_.notes.push_back(label_ + ": " + what); }
  /// One note for many elements of one kind (a dog's 38 filtered actuators,
  /// its 60 ellipsoid teeth): "N <kind>: first, second, ... and M more",
  /// written by NoteGroups.
  void NoteInGroup(const std::string& kind, const std::string& element) {
    auto it = std::find_if(groups_.begin(), groups_.end(), [&](const auto& g) { return g.first == kind; });
    if (it == groups_.end()) it = groups_.insert(groups_.end(), {kind, {}});
    it->second.push_back(element);
  }
  void NoteGroups() {
    constexpr std::size_t kShown = 4;
    for (const auto& [kind, elements] : groups_) {
      std::string list;
      for (std::size_t i = 0; i < std::min(elements.size(), kShown); ++i) list += (i > 0 ? ", " : "") + elements[i];
      if (elements.size() > kShown) list += " and " + std::to_string(elements.size() - kShown) + " more";
      Note(std::to_string(elements.size()) + " " + kind + ": " + list);
    }
    groups_.clear();
  }
  [[noreturn]] void Fail(const std::string& what) const { throw InputError(label_ + ": " + what); }

  /// The keyframes' names (or "#i" for an unnamed one), comma-separated.
  std::string KeyframeNames() const {
    std::string names;
    for (int k = 0; k < m_.nkey; ++k) {
      const char* name = mj_id2name(&m_, mjOBJ_KEY, k);
      names += (k > 0 ? ", " : "") + (name != nullptr && name[0] != '\0' ? "'" + std::string(name) + "'"
                                                                          : "#" + std::to_string(k));
    }
    return names;
  }

  /// `keyframe`: a keyframe's name, or its index in the file (0-based);
  /// "" = none (qpos0).
  void SelectKeyframe(const std::string& keyframe) {
    if (keyframe.empty()) return;
    key_ = mj_name2id(&m_, mjOBJ_KEY, keyframe.c_str());
    if (key_ < 0 && !keyframe.empty() && keyframe.find_first_not_of("0123456789") == std::string::npos &&
        keyframe.size() < 6) {
      const int index = std::stoi(keyframe);
      if (index < m_.nkey) key_ = index;
    }
    if (key_ < 0) {
      Fail("no keyframe '" + keyframe + "' (" +
           (m_.nkey == 0 ? std::string("the file has none") : "keyframes: " + KeyframeNames() + ", or an index") + ")");
    }
  }

  /// The selected keyframe's state as the initial one: qpos (hinge and
  /// slide from qpos0, ball and free as they are), qvel, and ctrl as the
  /// motors' controls and the servos' targets.
  void ApplyKeyframe() {
    if (key_ < 0) return;
    const mjtNum* qpos = m_.key_qpos + m_.nq * key_;
    const mjtNum* qvel = m_.key_qvel + m_.nv * key_;
    for (JointDescription& joint : out_.joints) {
      const auto id = mj_joint_of_.find(joint.name);
      if (id == mj_joint_of_.end()) continue;  // A weld of the importer's own.
      const int j = id->second;
      const int qadr = m_.jnt_qposadr[j], dadr = m_.jnt_dofadr[j];
      switch (m_.jnt_type[j]) {
        case mjJNT_FREE:  // Ours [q_WB; p], [ω_B; v_W]; MuJoCo [p; q_WB], [v_W; ω_B].
          joint.initial_q = {qpos[qadr + 3], qpos[qadr + 4], qpos[qadr + 5], qpos[qadr + 6],
                             qpos[qadr], qpos[qadr + 1], qpos[qadr + 2]};
          joint.initial_v = {qvel[dadr + 3], qvel[dadr + 4], qvel[dadr + 5], qvel[dadr], qvel[dadr + 1], qvel[dadr + 2]};
          break;
        case mjJNT_BALL:
          joint.initial_q = {qpos[qadr], qpos[qadr + 1], qpos[qadr + 2], qpos[qadr + 3]};
          joint.initial_v = {qvel[dadr], qvel[dadr + 1], qvel[dadr + 2]};
          break;
        default:
          joint.initial_q = {qpos[qadr] - m_.qpos0[qadr]};
          joint.initial_v = {qvel[dadr]};
      }
    }
    const mjtNum* ctrl = m_.key_ctrl + m_.nu * key_;
    for (MotorDescription& motor : out_.motors) {
      motor.ctrl = std::clamp(ctrl[mj_actuator_of_.at(motor.name)], motor.ctrl_min, motor.ctrl_max);
    }
    for (ActuatorDescription& a : out_.actuators) {
      const int u = mj_actuator_of_.at(a.name);
      SetServoTarget(u, ctrl[u], &a);
    }
    for (TendonServoDescription& servo : out_.tendon_servos) {
      const int u = mj_actuator_of_.at(servo.name);
      SetTendonServoTarget(u, ctrl[u], &servo);
    }
    const char* name = mj_id2name(&m_, mjOBJ_KEY, key_);
    Note("initial state from keyframe " +
         (name != nullptr && name[0] != '\0' ? "'" + std::string(name) + "'" : "#" + std::to_string(key_)) +
         " (qpos, qvel, ctrl)");
  }

  /// A servo's target at control `ctrl`, in MuJoCo's coordinate x of its
  /// transmission (q_mj of a joint, L_mj of a tendon): the force gain·ctrl +
  /// b0 + b1·gear·x + b2·gear·ẋ vanishes at x = (gain·ctrl + b0)/(−b1·gear)
  /// for a position servo (b1 < 0; a <position>'s gain is −b1, so
  /// ctrl/gear), with ẋ = 0; a velocity servo (b1 = 0) drives ẋ to
  /// (gain·ctrl + b0)/(−b2·gear), x = 0 unused. A limited ctrl is clamped
  /// into its range first, as MuJoCo does. Returns {x, ẋ}.
  std::pair<double, double> ServoTarget(int u, double ctrl) const {
    if (m_.actuator_ctrllimited[u]) ctrl = std::clamp(ctrl, m_.actuator_ctrlrange[2 * u], m_.actuator_ctrlrange[2 * u + 1]);
    const double gear = m_.actuator_gear[6 * u];
    const mjtNum* bias = m_.actuator_biasprm + mjNBIAS * u;
    const double drive = m_.actuator_gainprm[mjNGAIN * u] * ctrl + bias[0];
    if (bias[1] < 0) return {drive / (-bias[1] * gear), 0.0};
    return {0.0, drive / (-bias[2] * gear)};
  }

  /// A joint servo's targets: ServoTarget's, from qpos0 in our coordinates.
  void SetServoTarget(int u, double ctrl, ActuatorDescription* a) const {
    const auto [x, xdot] = ServoTarget(u, ctrl);
    a->target_position = x - m_.qpos0[m_.jnt_qposadr[m_.actuator_trnid[2 * u]]];
    a->target_velocity = xdot;
  }

  /// A tendon servo's targets: ServoTarget's, less the tendon's length at
  /// qpos0 in our coordinates.
  void SetTendonServoTarget(int u, double ctrl, TendonServoDescription* servo) const {
    const auto [x, xdot] = ServoTarget(u, ctrl);
    servo->target_length = x - m_.tendon_length0[m_.actuator_trnid[2 * u]];
    servo->target_velocity = xdot;
  }

  /// Body b and its joints. A body with n > 1 joints becomes a chain of n
  /// bodies, one joint each: n − 1 massless joint frames, then the body.
  /// MuJoCo (mj_kinematics) places a body by body_pos/body_quat in its
  /// parent, then applies its joints in order, each about or along its axis
  /// through its jnt_pos, both in the body frame as moved by the joints
  /// before it:
  ///   X_PB(q) = X_PB0 · T(p₁) J₁(q₁) T(p₁)⁻¹ · T(p₂) J₂(q₂) T(p₂)⁻¹ ⋯
  /// (a slide's T(p) cancels). Joint frame k is the body frame after joints
  /// 1..k, so joint k joins frame k − 1 (the parent, at X_PB0, for k = 1)
  /// to frame k with X_PF = [X_PB0 ·] T(p_k) and X_CM = T(p_k), F and M
  /// coinciding at zero coordinates.
  void AddBody(int b) {
    const std::string& name = body_names_[b];
    const RigidTransform X_PB = PoseOf(m_.body_pos + 3 * b, m_.body_quat + 4 * b);
    const int njnt = m_.body_jntnum[b];
    std::string parent = body_names_[m_.body_parentid[b]];
    if (njnt == 0) {
      JointDescription weld = NewJoint(parent, name);
      weld.name = name + "_weld";
      weld.type = JointType::kFixed;
      weld.X_PF = X_PB;
      body_index_[b] = out_.bodies.size();
      AddLink(BodyOf(b), std::move(weld));
      return;
    }
    const int adr = m_.body_jntadr[b];
    for (int k = 0; k < njnt; ++k) {
      const int j = adr + k;
      if (njnt > 1 && m_.jnt_type[j] == mjJNT_FREE) {  // MuJoCo refuses it too ("more than 6 dofs").
        Fail("body '" + name + "': a free joint must be its body's only joint");
      }
      const bool last = k + 1 == njnt;
      const std::string child = last ? name : JointFrameName(b, k);
      JointDescription joint = JointOf(j, NewJoint(parent, child), k == 0 ? X_PB : RigidTransform::Identity());
      if (last) {
        body_index_[b] = out_.bodies.size();
        AddLink(BodyOf(b), std::move(joint));
      } else {
        BodyDescription frame;
        frame.name = child;
        frame.where = SourceLocation{label_, 0};
        frame.joint_frame = true;
        AddLink(std::move(frame), std::move(joint));
      }
      parent = child;
    }
  }

  /// "B [j]": the frame of body B after its joint j. Names in MJCF are free
  /// text, so no pattern is safe from a body named so; one is refused here
  /// rather than merged with it.
  std::string JointFrameName(int b, int k) {
    const int j = m_.body_jntadr[b] + k;
    const std::string name = body_names_[b] + " [" + Name(mjOBJ_JOINT, j, "joint") + "]";
    if (!taken_names_.insert(name).second) {
      Fail("body '" + body_names_[b] + "' has " + std::to_string(m_.body_jntnum[b]) + " joints, and the name '" +
           name + "' for the frame between joints '" + Name(mjOBJ_JOINT, j, "joint") + "' and '" +
           Name(mjOBJ_JOINT, j + 1, "joint") + "' is taken by another body");
    }
    return name;
  }

  JointDescription NewJoint(const std::string& parent, const std::string& child) const {
    JointDescription joint;
    joint.parent = parent;
    joint.child = child;
    joint.where = SourceLocation{label_, 0};
    return joint;
  }

  /// Appends a body and its inboard joint (parents before children).
  void AddLink(BodyDescription body, JointDescription joint) {
    out_.bodies.push_back(std::move(body));
    out_.joints.push_back(std::move(joint));
  }

  /// Body b's mass properties; a massless body is welded to its parent.
  BodyDescription BodyOf(int b) const {
    BodyDescription body;
    body.name = body_names_[b];
    body.where = SourceLocation{label_, 0};
    body.mass = m_.body_mass[b];
    const RigidTransform X_BI = PoseOf(m_.body_ipos + 3 * b, m_.body_iquat + 4 * b);
    const Matrix3 I_diag = Vector3(m_.body_inertia[3 * b], m_.body_inertia[3 * b + 1], m_.body_inertia[3 * b + 2]).asDiagonal();
    body.com_B = X_BI.p;
    body.I_Bcm_B = X_BI.R * I_diag * X_BI.R.transpose();
    if (body.mass <= 0) {  // A massless body welded to its parent.
      body.mass = 0;
      body.I_Bcm_B.setZero();
    }
    return body;
  }

  /// MuJoCo joint j as `joint` (parent and child set), its frame F at
  /// X_PF = X_P0 · T(jnt_pos) in the parent: X_P0 is the body pose for a
  /// body's first joint and the identity for a later one (its parent is the
  /// joint frame before it).
  JointDescription JointOf(int j, JointDescription joint, const RigidTransform& X_P0) {
    joint.name = Name(mjOBJ_JOINT, j, "joint");
    mj_joint_of_[joint.name] = j;
    switch (m_.jnt_type[j]) {
      case mjJNT_FREE:
        SetFreeJoint(j, &joint);
        return joint;
      case mjJNT_BALL:
        joint.type = JointType::kBall;
        break;
      case mjJNT_SLIDE:
        joint.type = JointType::kPrismatic;
        break;
      case mjJNT_HINGE:
        joint.type = JointType::kRevolute;
        break;
      default:
        Fail("joint '" + joint.name + "': unknown joint type");
    }
    // The joint frame sits at jnt_pos with the body's orientation; at zero
    // coordinates it coincides in parent and child (MuJoCo rotates about the
    // body-frame axis through jnt_pos).
    const mjtNum* jpos = m_.jnt_pos + 3 * j;
    joint.X_PF = X_P0 * Translation(jpos);
    joint.X_CM = Translation(jpos);
    joint.axis = Vector3(m_.jnt_axis[3 * j], m_.jnt_axis[3 * j + 1], m_.jnt_axis[3 * j + 2]);
    if (joint.type == JointType::kBall) {
      SetBallJoint(j, &joint);
    } else {
      SetAxialJoint(j, &joint);
    }
    return joint;
  }

  void SetFreeJoint(int j, JointDescription* joint) {
    // MuJoCo: qpos = [p_WB; q_WB], qvel = [v_WB (world); ω (body)].
    const int dadr = m_.jnt_dofadr[j];
    joint->type = JointType::kFree;
    const mjtNum* q0 = m_.qpos0 + m_.jnt_qposadr[j];
    joint->initial_q = {q0[3], q0[4], q0[5], q0[6], q0[0], q0[1], q0[2]};
    if (m_.dof_armature[dadr] != 0) Note("joint '" + joint->name + "': armature on a free joint skipped");
    if (m_.dof_damping[dadr] != 0) Note("joint '" + joint->name + "': damping on a free joint skipped");
  }

  void SetBallJoint(int j, JointDescription* joint) {
    const int dadr = m_.jnt_dofadr[j];
    const mjtNum* q0 = m_.qpos0 + m_.jnt_qposadr[j];
    joint->initial_q = {q0[0], q0[1], q0[2], q0[3]};
    joint->rotor_inertia = m_.dof_armature[dadr];  // Same on its three dofs.
    joint->damping = m_.dof_damping[dadr];
    if (m_.jnt_limited[j]) Note("joint '" + joint->name + "': ball-joint cone limit skipped");
    if (m_.jnt_stiffness[j] != 0) Note("joint '" + joint->name + "': ball-joint spring skipped");
  }

  /// Hinge and slide: limits, spring and coordinates measured from qpos0
  /// (MuJoCo's `ref`).
  void SetAxialJoint(int j, JointDescription* joint) {
    const int qadr = m_.jnt_qposadr[j];
    const int dadr = m_.jnt_dofadr[j];
    const double ref = m_.qpos0[qadr];
    if (m_.jnt_limited[j]) {
      joint->lower_limit = m_.jnt_range[2 * j] - ref;
      joint->upper_limit = m_.jnt_range[2 * j + 1] - ref;
    }
    joint->spring_stiffness = m_.jnt_stiffness[j];
    joint->spring_reference = m_.qpos_spring[qadr] - ref;
    joint->damping = m_.dof_damping[dadr];
    joint->rotor_inertia = m_.dof_armature[dadr];
    if (m_.dof_frictionloss[dadr] != 0) Note("joint '" + joint->name + "': frictionloss skipped");
    out_.joint_limits[joint->name] = RobotJointLimits{};
  }

  void AddGeom(int g) {
    const int b = m_.geom_bodyid[g];
    const std::string name = Name(mjOBJ_GEOM, g, "geom");
    const std::string owner = body_names_[b];
    const mjtNum* size = m_.geom_size + 3 * g;
    GeometryDescription geometry;
    geometry.name = mj_id2name(&m_, mjOBJ_GEOM, g) ? name : owner + "/" + name;
    geometry.where = SourceLocation{label_, 0};
    geometry.X_BG = PoseOf(m_.geom_pos + 3 * g, m_.geom_quat + 4 * g);
    const float* rgba = m_.geom_rgba + 4 * g;
    geometry.color = Vector4(rgba[0], rgba[1], rgba[2], rgba[3]);
    geometry.collision = m_.geom_contype[g] != 0 || m_.geom_conaffinity[g] != 0;
    // MuJoCo's viewer shows geom groups 0–2 by default; 3 and up are
    // conventionally collision-only.
    geometry.visual = m_.geom_group[g] < 3;
    ShapeDescription& shape = geometry.shape;
    const std::string what = "geom '" + name + "' (body '" + owner + "')";
    switch (m_.geom_type[g]) {
      case mjGEOM_PLANE:
        if (b != 0) {
          Note(what + " skipped: a plane must belong to the world");
          return;
        }
        shape.type = ShapeType::kHalfSpace;
        break;
      case mjGEOM_SPHERE:
        shape.type = ShapeType::kSphere;
        shape.radius = size[0];
        break;
      case mjGEOM_CAPSULE:
        shape.type = ShapeType::kCapsule;  // Both along the local z axis.
        shape.radius = size[0];
        shape.length = 2 * size[1];
        break;
      case mjGEOM_CYLINDER:
        shape.type = ShapeType::kCylinder;
        shape.radius = size[0];
        shape.length = 2 * size[1];
        break;
      case mjGEOM_BOX:
        shape.type = ShapeType::kBox;
        shape.size = 2 * Vector3(size[0], size[1], size[2]);
        break;
      case mjGEOM_MESH:
        // MuJoCo's compiler moves a mesh's vertices into the mesh's inertial
        // frame (centroid, principal axes) and folds that frame into
        // geom_pos/geom_quat, so the compiled vertices belong with the compiled
        // geom pose (the file's vertices would not). Mass needs nothing here:
        // the body's compiled mass and inertia already hold the mesh's.
        shape.type = ShapeType::kMesh;
        shape.mesh_data = Mesh(m_.geom_dataid[g], what);
        break;
      case mjGEOM_ELLIPSOID:
        // Through an inscribed polytope of 642 vertices (ellipsoid_mesh.h):
        // Stiction's shapes have no ellipsoid; contact uses the hull.
        shape.type = ShapeType::kMesh;
        shape.mesh_data = MakeEllipsoidMesh(Vector3(size[0], size[1], size[2]), what + " of " + label_);
        NoteInGroup("ellipsoid geom(s) used as inscribed polytopes of " +
                        std::to_string(shape.mesh_data->vertices_G.size()) + " vertices (within 0.5 % of their radii)",
                    what);
        break;
      case mjGEOM_HFIELD:
        Note(what + " skipped: Stiction has no height fields");
        return;
      default:
        Note(what + " skipped: unsupported geom type");
        return;
    }
    if (geometry.collision) {
      out_.geometry_friction[geometry.name] = m_.geom_friction[3 * g];
      geometry.contype = static_cast<std::uint32_t>(m_.geom_contype[g]);
      geometry.conaffinity = static_cast<std::uint32_t>(m_.geom_conaffinity[g]);
    }
    if (b == 0) {
      out_.world_geometries.push_back(std::move(geometry));
    } else {
      out_.bodies[body_index_[b]].geometries.push_back(std::move(geometry));
    }
  }

  // The compiled mesh `id` as MeshData, made once and shared by every geom
  // that uses it. MuJoCo refuses most bad meshes itself (with the line), but
  // not all: vertices whose inertia overflows single precision compile to
  // NaN, so the arrays are checked before anything downstream reads them.
  // `what` names the first geom using the mesh; MuJoCo 2.2's compiled model
  // keeps no source lines, so messages name the file and the elements.
  std::shared_ptr<const MeshData> Mesh(int id, const std::string& what) {
    if (id < 0 || id >= m_.nmesh) Fail(what + ": refers to no compiled mesh");
    if (meshes_.empty()) meshes_.resize(m_.nmesh);
    if (meshes_[id]) return meshes_[id];
    const std::string mesh = "mesh '" + Name(mjOBJ_MESH, id, "mesh") + "'";
    auto data = std::make_shared<MeshData>();
    data->name = mesh + " of " + label_;
    const int nvert = m_.mesh_vertnum[id];
    const int nface = m_.mesh_facenum[id];
    if (nface <= 0) Fail(what + ": " + mesh + " has no faces");
    const float* vert = m_.mesh_vert + 3 * m_.mesh_vertadr[id];
    data->vertices_G.reserve(nvert);
    for (int v = 0; v < nvert; ++v) {
      const Vector3 p(vert[3 * v], vert[3 * v + 1], vert[3 * v + 2]);
      if (!p.allFinite()) {
        Fail(what + ": " + mesh + ": vertex " + std::to_string(v) +
             " is not finite after MuJoCo's compiler moved it into the mesh's inertial frame "
             "(coordinates too large for single precision?)");
      }
      data->vertices_G.push_back(p);
    }
    const int* face = m_.mesh_face + 3 * m_.mesh_faceadr[id];
    data->triangles.reserve(nface);
    for (int f = 0; f < nface; ++f) {
      const std::array<int, 3> tri{face[3 * f], face[3 * f + 1], face[3 * f + 2]};
      for (int k : tri) {
        if (k < 0 || k >= nvert) {
          Fail(what + ": " + mesh + ": face " + std::to_string(f) + " refers to vertex " + std::to_string(k) +
               " of " + std::to_string(nvert));
        }
      }
      data->triangles.push_back(tri);
    }
    meshes_[id] = std::move(data);
    return meshes_[id];
  }

  void AddEquality(int e) {
    const std::string name = Name(mjOBJ_EQUALITY, e, "equality");
    if (m_.eq_type[e] == mjEQ_JOINT) {
      AddJointEquality(e, name);
      return;
    }
    if (m_.eq_type[e] == mjEQ_TENDON) {
      AddTendonEquality(e, name);
      return;
    }
    // obj1id/obj2id are bodies only for connect and weld (tendons for a
    // tendon equality, whose obj2id may be −1): they are read after the type.
    if (m_.eq_type[e] != mjEQ_CONNECT && m_.eq_type[e] != mjEQ_WELD) {
      Note("equality '" + name + "' skipped: only connect, weld, joint and tendon are supported");
      return;
    }
    const int b1 = m_.eq_obj1id[e];
    const int b2 = m_.eq_obj2id[e];
    const mjtNum* data = m_.eq_data + mjNEQDATA * e;
    ConstraintDescription c;
    c.name = name;
    c.where = SourceLocation{label_, 0};
    c.body_a = body_names_[b1];
    c.body_b = body_names_[b2];
    if (m_.eq_type[e] == mjEQ_CONNECT) {
      // The compiler stores the anchor in each body's frame.
      c.type = BodyConstraintType::kBall;
      c.X_AFa = Translation(data);
      c.X_BFb = Translation(data + 3);
    } else {
      // A weld holds the bodies' relative pose at qpos0.
      c.type = BodyConstraintType::kWeld;
      c.X_AFa = RigidTransform::Identity();
      c.X_BFb = PoseAtQpos0(b2).inverse() * PoseAtQpos0(b1);
    }
    if (!m_.eq_active[e]) {
      Note("equality '" + name + "' skipped: inactive in the file");
      return;
    }
    out_.constraints.push_back(c);
  }

  /// Fixed tendon t's joints and coefficients, or empty when it is a
  /// spatial tendon (sites, geoms, pulleys).
  std::vector<JointTerm> FixedTendonJoints(int t) const {
    std::vector<JointTerm> out;
    for (int w = m_.tendon_adr[t]; w < m_.tendon_adr[t] + m_.tendon_num[t]; ++w) {
      if (m_.wrap_type[w] != mjWRAP_JOINT) return {};
      out.push_back(JointTerm{Name(mjOBJ_JOINT, m_.wrap_objid[w], "joint"), m_.wrap_prm[w]});
    }
    return out;
  }

  /// Tendon t's range, for a fixed tendon, as limits on Σ c q in our
  /// coordinates: MuJoCo's range minus the length at qpos0. Its own spring
  /// and damper, and anything of a spatial tendon, are noted.
  void AddTendonLimits(int t) {
    const std::string what = "tendon '" + Name(mjOBJ_TENDON, t, "tendon") + "'";
    if (m_.tendon_stiffness[t] != 0 || m_.tendon_damping[t] != 0) {
      NoteInGroup("tendon spring(s) or damper(s) skipped (no counterpart)", what);
    }
    if (!m_.tendon_limited[t]) return;
    std::vector<JointTerm> joints = FixedTendonJoints(t);
    if (joints.empty()) {
      Note(what + ": limits skipped: only a fixed tendon's (a sum of joint positions) are supported");
      return;
    }
    TendonDescription tendon;
    tendon.name = Name(mjOBJ_TENDON, t, "tendon");
    tendon.joints = std::move(joints);
    tendon.lower = m_.tendon_range[2 * t] - m_.tendon_length0[t];
    tendon.upper = m_.tendon_range[2 * t + 1] - m_.tendon_length0[t];
    tendon.where = SourceLocation{label_, 0};
    out_.tendons.push_back(std::move(tendon));
  }

  /// <equality><tendon tendon1 tendon2 polycoef>: MuJoCo holds
  /// L1 − L1₀ = c0 + c1 (L2 − L2₀) + ..., L₀ the lengths at qpos0; with our
  /// coordinates from qpos0 a fixed tendon's L − L₀ is Σ c q, so the linear
  /// case is Σ c q(t1) − c1 Σ c q(t2) = c0, an equality row.
  void AddTendonEquality(int e, const std::string& name) {
    const std::string what = "equality '" + name + "'";
    const mjtNum* poly = m_.eq_data + mjNEQDATA * e;
    const int t1 = m_.eq_obj1id[e], t2 = m_.eq_obj2id[e];
    if (!m_.eq_active[e]) {
      Note(what + " skipped: inactive in the file");
      return;
    }
    if (poly[2] != 0 || poly[3] != 0 || poly[4] != 0) {
      Note(what + " skipped: polycoef has terms above the linear one; Stiction holds tendons linearly");
      return;
    }
    std::vector<JointTerm> joints = FixedTendonJoints(t1);
    const std::vector<JointTerm> second = t2 >= 0 ? FixedTendonJoints(t2) : std::vector<JointTerm>{};
    if (joints.empty() || (t2 >= 0 && second.empty())) {
      Note(what + " skipped: only fixed tendons (sums of joint positions) are supported");
      return;
    }
    for (const JointTerm& j : t2 >= 0 ? second : std::vector<JointTerm>{}) {
      const auto it = std::find_if(joints.begin(), joints.end(), [&](const JointTerm& k) { return k.joint == j.joint; });
      if (it != joints.end()) {
        it->coefficient -= poly[1] * j.coefficient;
      } else {
        joints.push_back(JointTerm{j.joint, -poly[1] * j.coefficient});
      }
    }
    std::erase_if(joints, [](const JointTerm& j) { return j.coefficient == 0; });
    if (joints.empty()) {
      Note(what + " skipped: its two sides cancel");
      return;
    }
    TendonDescription tendon;
    tendon.name = name;
    tendon.joints = std::move(joints);
    tendon.lower = tendon.upper = poly[0];
    tendon.where = SourceLocation{label_, 0};
    out_.tendons.push_back(std::move(tendon));
  }

  /// <equality><joint joint1="b" joint2="a" polycoef="c0 c1 c2 c3 c4"/>:
  /// MuJoCo holds q_b − q_b0 = Σ c_k (q_a − q_a0)^k, qpos0 the reference.
  /// Our hinge and slide coordinates are measured from qpos0
  /// (SetAxialJoint), so the linear part is the coupler q_b = c1 q_a + c0
  /// exactly. A quadratic or higher term, a missing joint2 (joint1 held
  /// at a constant) or a second equality on one joint1 is noted and skipped.
  void AddJointEquality(int e, const std::string& name) {
    const std::string what = "equality '" + name + "' (joint)";
    const int j1 = m_.eq_obj1id[e];
    const int j2 = m_.eq_obj2id[e];
    const mjtNum* poly = m_.eq_data + mjNEQDATA * e;
    if (!m_.eq_active[e]) {
      Note(what + " skipped: inactive in the file");
      return;
    }
    if (j2 < 0) {
      Note(what + " skipped: without joint2 it holds joint1 at a constant, which Stiction does not model");
      return;
    }
    if (poly[2] != 0 || poly[3] != 0 || poly[4] != 0) {
      Note(what + " skipped: polycoef has terms above the linear one (c2..c4 = " + FormatNumber(poly[2]) + " " +
           FormatNumber(poly[3]) + " " + FormatNumber(poly[4]) + "); Stiction couples joints linearly");
      return;
    }
    const auto scalar = [&](int j) { return m_.jnt_type[j] == mjJNT_HINGE || m_.jnt_type[j] == mjJNT_SLIDE; };
    JointCouplerDescription c;
    c.joint = Name(mjOBJ_JOINT, j1, "joint");
    c.to = Name(mjOBJ_JOINT, j2, "joint");
    c.ratio = poly[1];
    c.offset = poly[0];
    c.where = SourceLocation{label_, 0};
    if (!scalar(j1) || !scalar(j2) || j1 == j2) {
      Note(what + " skipped: it needs two different hinge or slide joints");
      return;
    }
    for (const JointCouplerDescription& other : out_.couplers) {
      if (other.joint == c.joint) {
        Note(what + " skipped: joint '" + c.joint + "' already follows '" + other.to + "'");
        return;
      }
    }
    out_.couplers.push_back(std::move(c));
  }

  RigidTransform PoseAtQpos0(int b) {
    if (!data_) {
      data_.reset(mj_makeData(&m_));
      mju_copy(data_->qpos, m_.qpos0, m_.nq);
      mj_kinematics(&m_, data_.get());
    }
    RigidTransform X;
    const mjtNum* R = data_->xmat + 9 * b;
    X.R << R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8];
    X.p = Vector3(data_->xpos[3 * b], data_->xpos[3 * b + 1], data_->xpos[3 * b + 2]);
    return X;
  }

  /// The joints an actuator drives, with their coefficients: its joint
  /// (hinge or slide), or a fixed tendon's joints (wrap coefficients).
  /// Empty, with the reason in *why, when it drives anything else.
  std::vector<JointTerm> Transmission(int u, std::string* why) const {
    const int id = m_.actuator_trnid[2 * u];
    if (m_.actuator_trntype[u] == mjTRN_JOINT) {
      const int type = m_.jnt_type[id];
      if (type != mjJNT_HINGE && type != mjJNT_SLIDE) {
        *why = "they drive a ball or free joint";
        return {};
      }
      return {JointTerm{Name(mjOBJ_JOINT, id, "joint"), 1.0}};
    }
    if (m_.actuator_trntype[u] == mjTRN_TENDON) {
      std::vector<JointTerm> out = FixedTendonJoints(id);
      if (out.empty()) *why = "they drive a spatial tendon (only fixed tendons, sums of joint positions, are supported)";
      return out;
    }
    *why = "only joint and fixed-tendon transmissions are supported";
    return {};
  }

  /// A MuJoCo actuator: force = gain·ctrl + b0 + b1·length + b2·velocity,
  /// with length = gear·q, and τ = gear·force. Without bias it is a motor
  /// (gain·gear per unit of ctrl); an affine bias is a position or velocity
  /// servo: PD with kp = −b1·gear², kd = −b2·gear² towards the length
  /// where gain·ctrl + b0 + b1·length = 0 (SetServoTarget). A first-order
  /// activation filter is not modelled. Skipped actuators are noted in one
  /// line per reason.
  void AddActuator(int u) {
    const std::string name = Name(mjOBJ_ACTUATOR, u, "actuator");
    const auto skip = [&](const std::string& reason) { NoteInGroup("actuator(s) skipped: " + reason, "'" + name + "'"); };
    std::string why;
    std::vector<JointTerm> joints = Transmission(u, &why);
    if (joints.empty()) return skip(why);
    const mjtNum* gain = m_.actuator_gainprm + mjNGAIN * u;
    const mjtNum* bias = m_.actuator_biasprm + mjNBIAS * u;
    const double gear = m_.actuator_gear[6 * u];
    const int dyn = m_.actuator_dyntype[u];
    if ((dyn != mjDYN_NONE && dyn != mjDYN_FILTER) || m_.actuator_gaintype[u] != mjGAIN_FIXED || gear == 0) {
      return skip("only motors and position/velocity servos (fixed gain, no muscle or integrator dynamics) map to "
                  "Stiction's actuators");
    }
    const double force_limit =
        m_.actuator_forcelimited[u]
            ? std::min(std::abs(m_.actuator_forcerange[2 * u]), std::abs(m_.actuator_forcerange[2 * u + 1])) *
                  std::abs(gear)
            : std::numeric_limits<double>::infinity();
    if (m_.actuator_biastype[u] == mjBIAS_NONE) {
      if (gain[0] == 0) return skip("their gain is 0");
      AddMotor(u, name, std::move(joints), gain[0] * gear, force_limit);
    } else {
      const double kp = -bias[1] * gear * gear;
      const double kd = -bias[2] * gear * gear;
      if (m_.actuator_biastype[u] != mjBIAS_AFFINE || !(kp >= 0) || !(kd >= 0) || kp + kd <= 0) {
        return skip("their bias is not that of a position or velocity servo");
      }
      if (m_.actuator_trntype[u] == mjTRN_TENDON) {
        TendonServoDescription servo;
        servo.name = name;
        servo.joints = std::move(joints);
        servo.kp = kp;
        servo.kd = kd;
        if (force_limit > 0) servo.effort_limit = force_limit;
        servo.where = SourceLocation{label_, 0};
        SetTendonServoTarget(u, 0.0, &servo);
        mj_actuator_of_[servo.name] = u;
        out_.tendon_servos.push_back(std::move(servo));
      } else {
        AddJointServo(u, name, joints[0].joint, kp, kd, force_limit);
      }
    }
    if (dyn == mjDYN_FILTER) {
      NoteInGroup("actuator(s) with an activation filter that is not modelled (the force follows ctrl at once)",
                  "'" + name + "' (" + FormatNumber(m_.actuator_dynprm[mjNDYN * u]) + " s)");
    }
  }

  /// A position or velocity servo on a hinge or slide: a PD actuator.
  void AddJointServo(int u, const std::string& name, const std::string& joint, double kp, double kd,
                     double force_limit) {
    ActuatorDescription a;
    a.name = name;
    a.joint = joint;
    a.kp = kp;
    a.kd = kd;
    a.where = SourceLocation{label_, 0};
    if (force_limit > 0 && std::isfinite(force_limit)) {
      a.effort_limit = force_limit;
      out_.joint_limits[a.joint].effort = a.effort_limit;
    }
    // ctrl = 0 until the scene sets targets (or a keyframe does).
    SetServoTarget(u, 0.0, &a);
    mj_actuator_of_[a.name] = u;
    out_.actuators.push_back(a);
  }

  /// A motor: effort gain·ctrl at the joints (with their coefficients). A
  /// limited ctrl keeps MuJoCo's ctrlrange; it starts at 0 clamped into it.
  void AddMotor(int u, const std::string& name, std::vector<JointTerm> joints, double gain, double force_limit) {
    MotorDescription m;
    m.name = name;
    m.joints = std::move(joints);
    m.gain = gain;
    if (m_.actuator_ctrllimited[u] && m_.actuator_ctrlrange[2 * u] < m_.actuator_ctrlrange[2 * u + 1]) {
      m.ctrl_min = m_.actuator_ctrlrange[2 * u];
      m.ctrl_max = m_.actuator_ctrlrange[2 * u + 1];
    }
    m.ctrl = std::clamp(0.0, m.ctrl_min, m.ctrl_max);
    if (force_limit > 0) m.effort_limit = force_limit;
    m.where = SourceLocation{label_, 0};
    mj_actuator_of_[m.name] = u;
    out_.motors.push_back(std::move(m));
  }

  const mjModel& m_;
  std::string label_;
  std::vector<std::string> body_names_;  // By MuJoCo body id.
  std::vector<std::size_t> body_index_;   // By MuJoCo body id: its index in out_.bodies (joint frames come between).
  std::set<std::string> taken_names_;     // Body names, the joint frames' included.
  std::unique_ptr<mjData, DataDeleter> data_;
  int key_ = -1;  // The keyframe the initial state comes from; −1: qpos0.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups_;  // NoteInGroup, in first-seen order.
  std::map<std::string, int> mj_joint_of_;     // Our joint name -> MuJoCo joint id.
  std::map<std::string, int> mj_actuator_of_;  // Our actuator or motor name -> MuJoCo actuator id.
  std::vector<std::shared_ptr<const MeshData>> meshes_;  // By MuJoCo mesh id.
  RobotDescription out_;
};

// MuJoCo's default warning handler prints to stdout and appends to
// MUJOCO_LOG.TXT in the working directory, so a user's directory would get a
// file for a NaN in their XML (found by fuzzing, docs/fuzzing.md). During an
// import the warnings are collected into its notes instead.
std::vector<std::string>* g_mujoco_warnings = nullptr;  // Guarded by CompilerMutex().
void CollectMujocoWarning(const char* text) {
  if (g_mujoco_warnings) g_mujoco_warnings->push_back(OneLine(text));
}

// Installs CollectMujocoWarning for its lifetime (under CompilerMutex()).
class ScopedWarningCollector {
 public:
  explicit ScopedWarningCollector(std::vector<std::string>* warnings) : previous_(mju_user_warning) {
    g_mujoco_warnings = warnings;
    mju_user_warning = CollectMujocoWarning;
  }
  ~ScopedWarningCollector() {
    mju_user_warning = previous_;
    g_mujoco_warnings = nullptr;
  }
  ScopedWarningCollector(const ScopedWarningCollector&) = delete;
  ScopedWarningCollector& operator=(const ScopedWarningCollector&) = delete;

 private:
  void (*previous_)(const char*);
};

}  // namespace

RobotDescription ImportMjcf(const std::string& path, const MjcfImportOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InputError(path + ": cannot open the MJCF file (" +
                     (std::filesystem::exists(path, ec) ? "not a regular file" : "no such file") + ")");
  }
  std::array<char, 1000> error{};
  std::unique_ptr<mjModel, ModelDeleter> model;
  std::vector<std::string> warnings;
  {
    std::lock_guard<std::mutex> lock(CompilerMutex());
    ScopedWarningCollector collect(&warnings);
    // libmujoco 2.2.2 is C++ inside and lets some exceptions out through its
    // C API, e.g. std::out_of_range for a <mesh file> name shorter than 3
    // characters (it cuts the extension off without checking the length).
    try {
      // MuJoCo finds includes and meshes beside the path it is given: the
      // real file's, so that a link to a model (a corpus of links, a
      // workspace's symlinked package) loads as the model itself does.
      const std::string real = std::filesystem::canonical(path, ec).string();
      model.reset(mj_loadXML(ec ? path.c_str() : real.c_str(), nullptr, error.data(), static_cast<int>(error.size())));
    } catch (const std::exception& e) {
      throw InputError(path + ": MuJoCo could not compile the model: its compiler failed with " +
                       SingleQuoted(OneLine(e.what())) +
                       " (libmujoco 2.2.2 does so for an asset file name shorter than 3 characters)");
    }
  }
  if (!model) {
    // An element or attribute 2.2.2's schema does not know is, in files in
    // use today, mostly one that a later MuJoCo added (`memory`, `gravcomp`,
    // `<replicate>`, `<flexcomp>`).
    const std::string reason = OneLine(error.data());
    const bool schema = reason.find("Schema violation") != std::string::npos ||
                        reason.find("unrecognized") != std::string::npos ||
                        reason.find("unknown") != std::string::npos;
    throw InputError(path + ": MuJoCo refused the model: " + reason +
                     (schema ? " (Stiction compiles MJCF with MuJoCo 2.2.2: the file may need a newer MuJoCo)" : ""));
  }
  RobotDescription robot = MjcfConverter(*model, path, options).Convert();
  if (error[0] != '\0') robot.notes.insert(robot.notes.begin(), path + ": MuJoCo warning: " + OneLine(error.data()));
  for (const std::string& warning : warnings) robot.notes.push_back(path + ": MuJoCo warning: " + warning);
  return robot;
}

}  // namespace stiction
