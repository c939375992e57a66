// Robots (docs/scene-format.md, "Robots"; docs/robots.md): `package_path:`
// and each `robots:` entry, a URDF or MJCF file imported
// (urdf_importer.h, mjcf_importer.h) and placed into the scene
// (robot_placement.h) with its name prefix, pose, mount, initial joint
// values, PD controllers and collision groups.
#include <array>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <vector>

#include "engine/common/error.h"
#include "engine/scene/mjcf_importer.h"
#include "engine/scene/package_path.h"
#include "engine/scene/robot_file_scene.h"
#include "engine/scene/robot_placement.h"
#include "engine/scene/scene_parser.h"
#include "engine/scene/urdf_importer.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 14> kRobotKeys = {
    "file", "name", "pose", "parent", "fixed_base", "initial", "joint_pd", "groups", "self_collision",
    "material", "use_file_options", "rest_on_ground", "keyframe", "gravity_compensation"};
constexpr std::array<std::string_view, 3> kJointPdKeys = {"kp", "kd", "joints"};

JointPdGains ReadPdGains(const YamlReader& reader, const MapView& map) {
  JointPdGains gains;
  if (map.Has("kp")) gains.kp = reader.ReadNonNegative(map.CtxOf("kp"), map.Get("kp"));
  if (map.Has("kd")) gains.kd = reader.ReadNonNegative(map.CtxOf("kd"), map.Get("kd"));
  if (!(gains.kp + gains.kd > 0)) {
    Fail(map.ctx(), map.node(),
         "a PD controller needs kp > 0 or kd > 0 (kp [N m/rad or N/m], kd [N m s/rad or N s/m])");
  }
  return gains;
}

/// `joint_pd`: gains for every joint, and per joint.
void ParseJointPd(const YamlReader& reader, const MapView& map, RobotPlacement* placement) {
  const MapView pd(reader, map.CtxOf("joint_pd"), map.Get("joint_pd"));
  pd.AllowOnly(kJointPdKeys, "for joint_pd");
  if (pd.Has("kp") || pd.Has("kd")) placement->joint_pd = ReadPdGains(reader, pd);
  if (!pd.Has("joints")) return;
  const MapView joints(reader, pd.CtxOf("joints"), pd.Get("joints"));
  for (const std::string& key : joints.keys()) {
    const MapView gains(reader, joints.CtxOf(key), joints.Get(key));
    gains.AllowOnly(std::array<std::string_view, 2>{"kp", "kd"}, "for a joint's PD gains");
    placement->joint_pd_overrides[key] = ReadPdGains(reader, gains);
  }
}

/// Everything of a `robots:` entry but the file and how it is imported.
RobotPlacement ReadPlacement(const YamlReader& reader, const MapView& map) {
  RobotPlacement placement;
  placement.where = WhereOf(map.ctx(), map.node());
  if (map.Has("name")) placement.name = reader.ReadName(map.CtxOf("name"), map.Get("name"));
  if (map.Has("parent")) placement.parent = reader.ReadName(map.CtxOf("parent"), map.Get("parent"));
  if (map.Has("pose")) placement.X_PR = reader.ReadPose(map.CtxOf("pose"), map.Get("pose")).X;
  return placement;
}

/// The entry's collision, material, initial-state and PD keys.
void ReadPlacementOptions(const YamlReader& reader, const MapView& map, RobotPlacement* placement) {
  if (map.Has("self_collision")) {
    placement->self_collision = reader.ReadBool(map.CtxOf("self_collision"), map.Get("self_collision"));
  }
  if (map.Has("material")) placement->material = reader.ReadName(map.CtxOf("material"), map.Get("material"));
  if (map.Has("groups")) {
    placement->groups = reader.ReadNameList(map.CtxOf("groups"), map.Get("groups"), "group names");
  }
  if (map.Has("initial")) {
    const MapView initial(reader, map.CtxOf("initial"), map.Get("initial"));
    for (const std::string& key : initial.keys()) {
      placement->initial[key] = reader.ReadNumber(initial.CtxOf(key), initial.Get(key));
    }
  }
  if (map.Has("joint_pd")) ParseJointPd(reader, map, placement);
}

/// The robot file through its importer. `fixed_base` is URDF's; an MJCF
/// file says itself whether a body floats.
RobotDescription ImportRobot(const YamlReader& reader, const MapView& map, const std::string& path, bool urdf,
                             bool fixed_base,
                             const std::vector<std::string>& package_path) {
  if (urdf && map.Has("keyframe")) {
    Fail(map.CtxOf("keyframe"), map.Get("keyframe"), "a URDF file has no keyframes (use `initial` for joint positions)");
  }
  if (urdf) {
    UrdfImportOptions options;
    options.fixed_base = fixed_base;
    options.package_path = package_path;
    return ImportUrdf(path, options);
  }
  if (map.Has("fixed_base")) {
    Fail(map.CtxOf("fixed_base"), map.Get("fixed_base"),
         "an MJCF model says itself whether a body floats (a <freejoint>); fixed_base is for URDF");
  }
  MjcfImportOptions options;
  if (map.Has("keyframe")) options.keyframe = reader.ReadName(map.CtxOf("keyframe"), map.Get("keyframe"));
  try {
    return ImportMjcf(path, options);
  } catch (const InputError& e) {
    // An unknown keyframe is the entry's mistake: point at its key.
    const std::string what = e.what();
    if (map.Has("keyframe") && what.find(": no keyframe '") != std::string::npos) {
      Fail(map.CtxOf("keyframe"), map.Get("keyframe"), what.substr(what.find("no keyframe '")));
    }
    throw;
  }
}

/// `use_file_options` (MJCF only): the file's <option gravity timestep>
/// become the scene's.
void UseFileOptions(const YamlReader& reader, const MapView& map, bool urdf, const RobotDescription& robot,
                    SceneDescription* scene) {
  if (!map.Has("use_file_options") || !reader.ReadBool(map.CtxOf("use_file_options"), map.Get("use_file_options"))) {
    return;
  }
  if (urdf) {
    Fail(map.CtxOf("use_file_options"), map.Get("use_file_options"), "a URDF file has no simulation options");
  }
  scene->gravity = robot.gravity;
  if (robot.time_step > 0) scene->time_step = robot.time_step;
}

/// `rest_on_ground`: whether the compiler raises (or lowers) the robot so
/// that its lowest collision geometry, posed, touches z = 0 (it alone has
/// every mesh's hull: RobotSummary::rest_on_ground).
bool ReadRestOnGround(const YamlReader& reader, const MapView& map, const RobotPlacement& placement) {
  if (!map.Has("rest_on_ground") || !reader.ReadBool(map.CtxOf("rest_on_ground"), map.Get("rest_on_ground"))) {
    return false;
  }
  if (placement.parent != "world") {
    Fail(map.CtxOf("rest_on_ground"), map.Get("rest_on_ground"), "a robot mounted on a body cannot rest on the ground");
  }
  return true;
}

/// What the compiler needs of a placed robot (RobotSummary).
RobotSummary SummarizeRobot(const RobotDescription& robot, const RobotPlacement& placement, const std::string& path,
                            bool rest_on_ground) {
  RobotSummary summary;
  summary.name = placement.name.empty() ? robot.name : placement.name;
  summary.file = path;
  summary.format = robot.format;
  summary.notes = robot.notes;
  for (const BodyDescription& b : robot.bodies) summary.bodies.push_back(RobotElementName(placement, b.name));
  for (const JointDescription& j : robot.joints) {
    if (j.parent == "world") summary.world_joints.push_back(RobotElementName(placement, j.name));
  }
  summary.rest_on_ground = rest_on_ground;
  return summary;
}

}  // namespace

std::vector<std::string> SceneParser::ReadPackagePath() const {
  std::vector<std::string> package_path;
  if (Has("package_path")) {
    const Ctx ctx = KeyCtx("package_path");
    for (const std::string& dir : reader_.ReadNameList(ctx, Get("package_path"), "directories")) {
      package_path.push_back(fs::path(dir).is_absolute() ? dir : (fs::path(ctx.dir) / dir).string());
    }
  }
  for (const std::string& dir : PackagePathFromEnvironment()) package_path.push_back(dir);
  return package_path;
}

void SceneParser::ParseRobot(const Ctx& ctx, const YAML::Node& node, const std::vector<std::string>& package_path) {
  const MapView map(reader_, ctx, node);
  map.AllowOnly(kRobotKeys, "for a robot");
  map.Require("file", "for a robot");
  const std::string path = reader_.ReadExistingFile(map.CtxOf("file"), map.Get("file"), "robot file");
  RobotPlacement placement = ReadPlacement(reader_, map);
  bool fixed_base = true;
  if (map.Has("fixed_base")) fixed_base = reader_.ReadBool(map.CtxOf("fixed_base"), map.Get("fixed_base"));
  ReadPlacementOptions(reader_, map, &placement);
  const bool urdf = LooksLikeUrdf(path);
  RobotDescription robot = ImportRobot(reader_, map, path, urdf, fixed_base, package_path);
  // A URDF has no initial configuration of its own, an MJCF model has qpos0;
  // either starts inside every joint's limits (dm_control's hopper has
  // qpos0 = 0 and a knee range of [5, 150] degrees, which kicked it with
  // 20 J on the first step; its tasks reset inside the limits).
  StartInsideLimits(placement.initial, &robot);
  UseFileOptions(reader_, map, urdf, robot, &scene_);
  const bool rest_on_ground = ReadRestOnGround(reader_, map, placement);
  PlaceRobot(robot, placement, &scene_);
  scene_.robots.push_back(SummarizeRobot(robot, placement, path, rest_on_ground));
  if (map.Has("gravity_compensation")) {
    scene_.robots.back().gravity_compensation =
        reader_.ReadBool(map.CtxOf("gravity_compensation"), map.Get("gravity_compensation"));
  }
}

void SceneParser::ParseRobots() {
  // After the scene's own bodies, so that a robot can be mounted on one;
  // before actuators, constraints and the gripper, so that those can name
  // the robot's joints and bodies.
  const std::vector<std::string> package_path = ReadPackagePath();
  for (const auto& [node, ctx] : merged_.ListElements("robots")) ParseRobot(ctx, node, package_path);
  for (const BodyDescription& b : scene_.bodies) {
    if (!body_names_.Has(b.name)) AddNames(&body_names_, b.name, b.where);
  }
}

}  // namespace stiction
