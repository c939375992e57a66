#pragma once
// Reads a MuJoCo MJCF model with MuJoCo's own parser and compiler
// (libmujoco), so that defaults, includes, orientations in every notation and
// inertia inference are MuJoCo's, and converts the compiled model into a
// RobotDescription. docs/robots.md lists what maps to what and what is
// skipped.
#include <string>

#include "engine/scene/robot_description.h"

namespace stiction {

/// Imports bodies with inertials; hinge, slide, ball and free joints with
/// limits, springs, damping and armature (a body with several joints becomes
/// a chain through massless joint frames "B [j]", BodyDescription::joint_frame); plane (world only),
/// sphere, capsule, cylinder, box, ellipsoid and mesh geoms with colours and friction
/// (a mesh geom carries MuJoCo's compiled vertices and faces in memory,
/// ShapeDescription::mesh_data, shared by the geoms using one mesh);
/// connect, weld and linear joint equalities; position and velocity
/// actuators on joints (as PD actuators); motors on joints and fixed
/// tendons (MotorDescription). Skips, with one note each naming the
/// element, what has no counterpart: height-field geoms, tendons' own
/// limits and springs, sensors, other equality types and actuators. Hinge and slide coordinates
/// are measured from MuJoCo's qpos0 (the joint's `ref`). Throws InputError
/// with MuJoCo's own message (which names the file's line) when it refuses
/// the file, and "FILE: body 'x': ..." for what Stiction refuses (a joint
/// frame's name taken by a body of the file; "FILE: geom 'g' (body 'b'):
/// mesh 'm': ..." for a compiled mesh without faces or with non-finite
/// vertices).
///
/// With options.keyframe (a <key>'s name or its 0-based index) the initial
/// state is that keyframe's qpos, qvel and ctrl instead of qpos0 and zero;
/// an unknown keyframe is refused naming the file's keyframes.
struct MjcfImportOptions {
  std::string keyframe;  ///< "" = qpos0.
};
RobotDescription ImportMjcf(const std::string& path, const MjcfImportOptions& options = {});

}  // namespace stiction
