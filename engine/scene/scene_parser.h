#pragma once
// Pass 3 of loading a scene (scene_loader.h): the merged tree
// (merged_scene.h) read section by section into a SceneDescription, every
// value validated at its key, every name checked where it is used. One
// parser per section, each in the file named after it:
//
//   settings_section.cpp    description, gravity, time_step, duration, stepping,
//                           integrator, contact_model, solver, nmdp
//   material_section.cpp    materials, default_material
//   geometry_section.cpp    shapes and geometries: world_geometry, a body's geometry
//   body_section.cpp        bodies and their mass properties
//   joint_section.cpp       joints, the joint tree, free bodies' implicit joints
//   robot_section.cpp       package_path, robots (URDF/MJCF import, placement)
//   actuator_section.cpp    actuators
//   oscillator_section.cpp  oscillators
//   constraint_section.cpp  constraints
//   coupler_section.cpp     couplers
//   gripper_section.cpp     gripper, commands
//   camera_section.cpp      camera
//
// LoadScene (scene_loader.cpp) calls them in that order: a section may name
// what the sections before it defined.
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/scene/merged_scene.h"
#include "engine/scene/scene_description.h"
#include "engine/scene/yaml_reader.h"

namespace stiction {

/// Remembers names of one kind and rejects duplicates.
class NameRegistry {
 public:
  explicit NameRegistry(std::string kind) : kind_(std::move(kind)) {}
  /// Fails at `node` when `name` is already known.
  void Add(const std::string& name, const SourceLocation& where, const Ctx& ctx, const YAML::Node& node);
  bool Has(const std::string& name) const { return first_.count(name) > 0; }
  const SourceLocation& Where(const std::string& name) const { return first_.at(name); }

 private:
  std::string kind_;
  std::map<std::string, SourceLocation> first_;
};

/// The names of a list of descriptions, in order.
template <typename Description>
std::vector<std::string> NamesOf(const std::vector<Description>& items) {
  std::vector<std::string> names;
  for (const Description& item : items) names.push_back(item.name);
  return names;
}

/// `name`, under `key` of `map`, must be a revolute or prismatic joint of
/// `joints`; else fails at that key ("unknown joint 'x' (joints: ...)", or
/// "joint 'x' is not revolute or prismatic; <why>", e.g. "a coupler
/// relates two joint coordinates").
void CheckAxialJoint(const MapView& map, const char* key, const std::string& name,
                     const std::vector<JointDescription>& joints, const std::string& why);

/// A named list element's map: only `keys` allowed, `required` present;
/// its location and `name` read into *out.
template <typename Description, typename Keys>
MapView OpenElement(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node, const Keys& keys,
                    std::initializer_list<const char*> required, Description* out) {
  MapView map(reader, ctx, node);
  map.AllowOnly(keys);
  for (const char* key : required) map.Require(key);
  out->where = WhereOf(ctx, node);
  out->name = reader.ReadName(map.CtxOf("name"), map.Get("name"));
  return map;
}

class SceneParser {
 public:
  /// `merged` must outlive the parser.
  explicit SceneParser(const MergedScene& merged);

  void ParseSettings();       ///< settings_section.cpp
  void ParseMaterials();      ///< material_section.cpp
  void ParseWorldGeometry();  ///< geometry_section.cpp
  void ParseBodies();         ///< body_section.cpp
  void ParseJoints();         ///< joint_section.cpp
  /// Every body's parent chain must reach the world.
  void CheckJointLoops();     ///< joint_section.cpp
  /// A free joint for every body without a parent joint, from its
  /// pose and velocity keys.
  void AddFreeJoints();       ///< joint_section.cpp
  void ParseRobots();         ///< robot_section.cpp
  void ParseActuators();      ///< actuator_section.cpp
  void ParseMotors();         ///< motor_section.cpp
  void ParseOscillators();    ///< oscillator_section.cpp
  void ParseConstraints();    ///< constraint_section.cpp
  void ParseCouplers();       ///< coupler_section.cpp
  void ParseGripper();        ///< gripper_section.cpp
  void ParseCommands();       ///< gripper_section.cpp
  void ParseCamera();         ///< camera_section.cpp

  SceneDescription TakeScene() { return std::move(scene_); }

 private:
  /// A body's pose/velocity keys, checked once the joints are known.
  struct PendingFreeState {
    std::optional<std::pair<YAML::Node, Ctx>> pose;
    std::optional<std::pair<YAML::Node, Ctx>> velocity;
  };

  // Top-level keys of the merged scene.
  bool Has(std::string_view key) const { return merged_.top().Has(key); }
  const YAML::Node& Get(std::string_view key) const { return merged_.top().Get(key); }
  Ctx KeyCtx(std::string_view key) const { return merged_.KeyCtx(key); }
  /// Adds what an imported robot defined to `names` (their messages point
  /// at the scene's top level).
  void AddNames(NameRegistry* names, const std::string& name, const SourceLocation& where) const;

  /// Adds a parsed list element's name to `names` (a duplicate fails at the
  /// element's `name` key) and returns the element's map.
  MapView Register(NameRegistry* names, const Ctx& ctx, const YAML::Node& node, const std::string& name,
                   const SourceLocation& where) const;

  // geometry_section.cpp
  /// One geometry, or the convex pieces of a compound entry (a `revolved`
  /// shape, a mesh with `pieces: true`), named "<name>_<k>".
  std::vector<GeometryDescription> ParseGeometry(const Ctx& ctx, const YAML::Node& node,
                                                 const std::string& default_name, bool in_world,
                                                 const Vector4& default_color) const;
  /// Adds a geometry's name (a duplicate fails at the entry's `name`, or at
  /// the entry when it has none).
  void RegisterGeometryName(const GeometryDescription& geometry, const Ctx& ctx, const YAML::Node& node);
  // body_section.cpp
  /// `entry_of_geometry[i]`: the index of the `geometry` entry that made
  /// the body's geometry i.
  BodyDescription ParseBody(const Ctx& ctx, const YAML::Node& node, PendingFreeState* free_state,
                            std::vector<std::size_t>* entry_of_geometry) const;
  void RegisterBodyGeometryNames(const BodyDescription& body, const Ctx& ctx, const YAML::Node& node,
                                 const std::vector<std::size_t>& entry_of_geometry);
  // joint_section.cpp
  void CheckJointBodies(const MapView& map, const JointDescription& joint);
  void RefuseFreeState(const BodyDescription& body, const JointDescription& joint,
                       const PendingFreeState& state) const;
  JointDescription MakeFreeJoint(const BodyDescription& body, const PendingFreeState& state) const;
  // coupler_section.cpp
  /// Clears the initial position of a scene joint that follows a coupler
  /// when its entry gives none (the compiler then starts it on its coupling).
  void LeaveFollowerToItsCoupling(const std::string& follower);
  // robot_section.cpp
  std::vector<std::string> ReadPackagePath() const;
  void ParseRobot(const Ctx& ctx, const YAML::Node& node, const std::vector<std::string>& package_path);

  const MergedScene& merged_;
  const YamlReader& reader_;
  SceneDescription scene_;
  NameRegistry geometry_names_{"geometry"};
  NameRegistry body_names_{"body"};
  NameRegistry joint_names_{"joint"};
  NameRegistry actuator_names_{"actuator"};
  // From the bodies to the free joints: the entries and their pose/velocity.
  std::vector<std::pair<YAML::Node, Ctx>> body_nodes_;
  std::vector<PendingFreeState> free_states_;
  // From the joints to the loop check and the free joints.
  std::vector<std::pair<YAML::Node, Ctx>> joint_nodes_;
  std::map<std::string, std::size_t> parent_joint_of_;  ///< Child body -> index in scene_.joints.
};

}  // namespace stiction
