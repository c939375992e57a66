#include "engine/control/command_log.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/scene_description.h"

namespace stiction {
namespace {

/// Throws "LABEL:LINE: KEY: reason".
[[noreturn]] void Fail(const std::string& label, const YAML::Node& node, const std::string& key,
                       const std::string& reason) {
  std::string where = label;
  if (node.IsDefined() && !node.Mark().is_null()) where += ":" + std::to_string(node.Mark().line + 1);
  throw InputError(OneLine(where + ": " + key + ": " + reason));
}

double ReadNumber(const std::string& label, const YAML::Node& node, const std::string& key) {
  if (!node.IsScalar()) Fail(label, node, key, "expected a number");
  const std::string text = node.Scalar();
  const std::optional<double> value = ParseDouble(text);
  if (!value || !std::isfinite(*value)) Fail(label, node, key, "expected a finite number, got '" + OneLine(text) + "'");
  return *value;
}

/// [A, B]: two names of bodies or grippers.
std::pair<std::string, std::string> ReadPair(const std::string& label, const YAML::Node& node, const std::string& key) {
  if (!node.IsSequence() || node.size() != 2 || !node[0].IsScalar() || !node[1].IsScalar() ||
      node[0].Scalar().empty() || node[1].Scalar().empty()) {
    Fail(label, node, key, "expected [A, B]: two names of bodies, grippers or world");
  }
  return {node[0].Scalar(), node[1].Scalar()};
}

/// The map under `wait:`.
WaitCondition ParseWait(const std::string& label, const YAML::Node& node, const std::string& key) {
  constexpr const char* kExpected = "expected one of {force: [A, B], above: N} (or below: N), {touch: [A, B]}, "
                                    "{separate: [A, B]}, {time: s}";
  if (!node.IsMap()) Fail(label, node, key, kExpected);
  for (const auto& kv : node) {
    const std::string k = kv.first.Scalar();
    if (k != "force" && k != "above" && k != "below" && k != "touch" && k != "separate" && k != "time") {
      Fail(label, kv.first, key + "." + k, std::string("unknown key (") + kExpected + ")");
    }
  }
  int kinds = 0;
  for (const char* k : {"force", "touch", "separate", "time"}) kinds += node[k].IsDefined() ? 1 : 0;
  if (kinds != 1) Fail(label, node, key, std::string("give exactly one condition: ") + kExpected);
  WaitCondition w;
  const YAML::Node above = node["above"], below = node["below"];
  if (const YAML::Node f = node["force"]; f.IsDefined()) {
    std::tie(w.a, w.b) = ReadPair(label, f, key + ".force");
    if (above.IsDefined() == below.IsDefined()) {
      Fail(label, node, key, "a force condition needs exactly one of 'above' and 'below' [N]");
    }
    const YAML::Node& limit = above.IsDefined() ? above : below;
    const std::string limit_key = key + (above.IsDefined() ? ".above" : ".below");
    w.kind = above.IsDefined() ? WaitCondition::Kind::kForceAbove : WaitCondition::Kind::kForceBelow;
    w.value = ReadNumber(label, limit, limit_key);
    if (w.value < 0) Fail(label, limit, limit_key, "must be >= 0 N, got " + limit.Scalar());
    return w;
  }
  for (const char* k : {"above", "below"}) {
    if (node[k].IsDefined()) Fail(label, node[k], key + "." + k, "belongs to a force condition {force: [A, B], ...}");
  }
  if (const YAML::Node t = node["touch"]; t.IsDefined()) {
    w.kind = WaitCondition::Kind::kTouch;
    std::tie(w.a, w.b) = ReadPair(label, t, key + ".touch");
  } else if (const YAML::Node sep = node["separate"]; sep.IsDefined()) {
    w.kind = WaitCondition::Kind::kSeparate;
    std::tie(w.a, w.b) = ReadPair(label, sep, key + ".separate");
  } else {
    const YAML::Node time = node["time"];
    w.kind = WaitCondition::Kind::kTime;
    w.value = ReadNumber(label, time, key + ".time");
    if (w.value < 0) Fail(label, time, key + ".time", "must be >= 0 s");
  }
  return w;
}

CommandEntry ParseEntry(const std::string& label, const YAML::Node& node, const std::string& key) {
  if (!node.IsMap()) {
    Fail(label, node, key,
         "expected a map {step, time or after; gripper, target, ramp, grip, grip_force, set} or {wait}");
  }
  CommandEntry e;
  e.line = node.Mark().is_null() ? 0 : node.Mark().line + 1;
  for (const auto& kv : node) {
    const std::string k = kv.first.Scalar();
    if (k != "step" && k != "time" && k != "after" && k != "gripper" && k != "target" && k != "ramp" &&
        k != "grip" && k != "grip_force" && k != "set" && k != "wait" && k != "timeout") {
      Fail(label, kv.first, key + "." + k,
           "unknown key (expected one of: step, time, after, gripper, target, ramp, grip, grip_force, set, wait, "
           "timeout)");
    }
  }
  const YAML::Node step = node["step"], time = node["time"], after = node["after"];
  if (const YAML::Node w = node["wait"]; w.IsDefined()) {
    // A wait is an entry of its own: the commands that follow it say what to do then.
    for (const char* k : {"step", "time", "after", "gripper", "target", "ramp", "grip", "grip_force", "set"}) {
      if (node[k].IsDefined()) {
        Fail(label, node[k], key + "." + k,
             "a wait entry holds only 'wait' (and 'timeout'); put the command in the entry after it");
      }
    }
    e.wait = ParseWait(label, w, key + ".wait");
    if (const YAML::Node t = node["timeout"]; t.IsDefined()) {
      e.timeout_s = ReadNumber(label, t, key + ".timeout");
      if (!(*e.timeout_s > 0)) Fail(label, t, key + ".timeout", "must be > 0 s, got " + t.Scalar());
    }
    return e;
  }
  if (const YAML::Node t = node["timeout"]; t.IsDefined()) {
    Fail(label, t, key + ".timeout", "a timeout belongs to a wait entry");
  }
  const int timings = (step.IsDefined() ? 1 : 0) + (time.IsDefined() ? 1 : 0) + (after.IsDefined() ? 1 : 0);
  if (timings != 1) {
    Fail(label, node, key,
         "give exactly one of 'step' (index), 'time' [s] and 'after' [s since the entry before], or a 'wait'");
  }
  if (step.IsDefined()) {
    const double s = ReadNumber(label, step, key + ".step");
    if (s < 0 || s != std::floor(s) || s > 9.0e15) {
      Fail(label, step, key + ".step", "expected a whole number >= 0, got '" + step.Scalar() + "'");
    }
    e.step = static_cast<std::int64_t>(s);
  } else if (time.IsDefined()) {
    e.time_s = ReadNumber(label, time, key + ".time");
    if (*e.time_s < 0) Fail(label, time, key + ".time", "must be >= 0 s");
  } else {
    e.after_s = ReadNumber(label, after, key + ".after");
    if (*e.after_s < 0) Fail(label, after, key + ".after", "must be >= 0 s");
  }
  if (const YAML::Node g = node["gripper"]; g.IsDefined()) {
    if (!g.IsScalar() || g.Scalar().empty()) Fail(label, g, key + ".gripper", "expected a gripper's name");
    e.gripper = g.Scalar();
    e.gripper_line = g.Mark().is_null() ? e.line : g.Mark().line + 1;
  }
  if (const YAML::Node t = node["target"]; t.IsDefined()) {
    if (!t.IsSequence() || (t.size() != 4 && t.size() != 5)) {
      Fail(label, t, key + ".target", "expected [x, y, z, yaw] or [x, y, z, yaw, tilt] in [m, m, m, rad, rad]");
    }
    double v[5] = {0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < t.size(); ++i) v[i] = ReadNumber(label, t[i], key + ".target[" + std::to_string(i) + "]");
    e.target = GripperPose{v[0], v[1], v[2], v[3], v[4]};
  }
  if (const YAML::Node r = node["ramp"]; r.IsDefined()) {
    if (!e.target) Fail(label, r, key + ".ramp", "a ramp needs a target");
    e.ramp_s = ReadNumber(label, r, key + ".ramp");
    if (e.ramp_s < 0) Fail(label, r, key + ".ramp", "must be >= 0 s");
  }
  if (const YAML::Node g = node["grip"]; g.IsDefined()) {
    const std::string v = g.IsScalar() ? g.Scalar() : "";
    if (v == "open") {
      e.grip = GripState::kOpen;
    } else if (v == "close" || v == "closed") {
      e.grip = GripState::kClosed;
    } else {
      Fail(label, g, key + ".grip", "expected open or close, got '" + OneLine(v) + "'");
    }
  }
  if (const YAML::Node f = node["grip_force"]; f.IsDefined()) {
    e.grip_force = ReadNumber(label, f, key + ".grip_force");
    if (*e.grip_force < kMinGripForce || *e.grip_force > kMaxGripForce) {
      Fail(label, f, key + ".grip_force", "must be in [1, 50] N, got " + f.Scalar());
    }
  }
  if (const YAML::Node set = node["set"]; set.IsDefined()) {
    // "key=value" or a list of them; the keys and values are checked
    // against the scene when the file starts playing (CommandPlayer::Bind).
    e.set_line = set.Mark().is_null() ? e.line : set.Mark().line + 1;
    const auto add = [&](const YAML::Node& item, const std::string& item_key) {
      if (!item.IsScalar() || item.Scalar().find('=') == std::string::npos) {
        Fail(label, item, item_key, "expected KEY=VALUE, e.g. materials.rubber.friction=0.4");
      }
      e.set.push_back(item.Scalar());
    };
    if (set.IsSequence()) {
      if (set.size() == 0) Fail(label, set, key + ".set", "expected at least one KEY=VALUE");
      for (std::size_t i = 0; i < set.size(); ++i) add(set[i], key + ".set[" + std::to_string(i) + "]");
    } else {
      add(set, key + ".set");
    }
  }
  return e;
}

/// One `camera:` keyframe; `previous` (nullptr for the first) gives the
/// default fovy and the time it must follow.
CameraKeyframe ParseCameraKeyframe(const std::string& label, const YAML::Node& node, const std::string& key,
                                   const CameraKeyframe* previous) {
  if (!node.IsMap()) Fail(label, node, key, "expected a map {time, lookat, distance, azimuth, elevation, fovy}");
  CameraKeyframe k;
  k.line = node.Mark().is_null() ? 0 : node.Mark().line + 1;
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    if (name == "track") {
      Fail(label, kv.first, key + ".track",
           "a scripted camera does not follow a body (track is a key of the scene's camera:); give lookat at each "
           "keyframe");
    }
    if (name != "time" && name != "lookat" && name != "distance" && name != "azimuth" && name != "elevation" &&
        name != "fovy") {
      Fail(label, kv.first, key + "." + name,
           "unknown key (expected one of: time, lookat, distance, azimuth, elevation, fovy)");
    }
  }
  for (const char* required : {"time", "lookat", "distance", "azimuth", "elevation"}) {
    if (!node[required].IsDefined()) {
      Fail(label, node, key, std::string("missing required key '") + required +
                                 "' (every keyframe gives time, lookat, distance, azimuth and elevation)");
    }
  }
  const YAML::Node time = node["time"];
  k.time_s = ReadNumber(label, time, key + ".time");
  if (k.time_s < 0) Fail(label, time, key + ".time", "must be >= 0 s");
  if (previous != nullptr && !(k.time_s > previous->time_s)) {
    Fail(label, time, key + ".time",
         "keyframe times must increase strictly, got " + FormatNumber(k.time_s, kRoundTripDigits) +
             " s after " + FormatNumber(previous->time_s, kRoundTripDigits) + " s (line " +
             std::to_string(previous->line) + ")");
  }
  const YAML::Node lookat = node["lookat"];
  if (!lookat.IsSequence() || lookat.size() != 3) Fail(label, lookat, key + ".lookat", "expected [x, y, z] in m");
  for (std::size_t i = 0; i < 3; ++i) {
    k.pose.lookat[static_cast<Eigen::Index>(i)] = ReadNumber(label, lookat[i], key + ".lookat[" + std::to_string(i) + "]");
  }
  const YAML::Node distance = node["distance"];
  k.pose.distance = ReadNumber(label, distance, key + ".distance");
  if (!(k.pose.distance > 0)) Fail(label, distance, key + ".distance", "must be > 0 m, got " + distance.Scalar());
  k.pose.azimuth_deg = ReadNumber(label, node["azimuth"], key + ".azimuth");
  const YAML::Node elevation = node["elevation"];
  k.pose.elevation_deg = ReadNumber(label, elevation, key + ".elevation");
  if (!(std::abs(k.pose.elevation_deg) < kMaxCameraElevationDeg)) {
    Fail(label, elevation, key + ".elevation", "must be in (-90, 90) degrees, got " + elevation.Scalar());
  }
  k.pose.fovy_deg = previous != nullptr ? previous->pose.fovy_deg : kDefaultCameraFovyDeg;
  if (const YAML::Node fovy = node["fovy"]; fovy.IsDefined()) {
    k.pose.fovy_deg = ReadNumber(label, fovy, key + ".fovy");
    if (k.pose.fovy_deg < kMinCameraFovyDeg || k.pose.fovy_deg > kMaxCameraFovyDeg) {
      Fail(label, fovy, key + ".fovy", "must be in [5, 150] degrees, got " + fovy.Scalar());
    }
  }
  return k;
}

/// A name as a YAML scalar (quoted if YAML needs it).
std::string YamlScalar(const std::string& name) {
  YAML::Emitter out;
  out << name;
  return out.c_str();
}

std::string FormatWait(const WaitCondition& w) {
  std::ostringstream out;
  switch (w.kind) {
    case WaitCondition::Kind::kForceAbove:
    case WaitCondition::Kind::kForceBelow:
      out << "{force: [" << YamlScalar(w.a) << ", " << YamlScalar(w.b) << "], "
          << (w.kind == WaitCondition::Kind::kForceAbove ? "above: " : "below: ")
          << FormatNumber(w.value, kRoundTripDigits) << "}";
      break;
    case WaitCondition::Kind::kTouch:
    case WaitCondition::Kind::kSeparate:
      out << (w.kind == WaitCondition::Kind::kTouch ? "{touch: [" : "{separate: [") << YamlScalar(w.a) << ", "
          << YamlScalar(w.b) << "]}";
      break;
    case WaitCondition::Kind::kTime:
      out << "{time: " << FormatNumber(w.value, kRoundTripDigits) << "}";
      break;
  }
  return out.str();
}

}  // namespace

std::string DescribeWait(const WaitCondition& w) {
  switch (w.kind) {
    case WaitCondition::Kind::kForceAbove:
      return "the contact force between " + w.a + " and " + w.b + " above " + FormatNumber(w.value, 6) + " N";
    case WaitCondition::Kind::kForceBelow:
      return "the contact force between " + w.a + " and " + w.b + " below " + FormatNumber(w.value, 6) + " N";
    case WaitCondition::Kind::kTouch:
      return w.a + " touching " + w.b;
    case WaitCondition::Kind::kSeparate:
      return w.a + " separated from " + w.b;
    case WaitCondition::Kind::kTime:
      break;
  }
  return "t = " + FormatNumber(w.value, 6) + " s";
}

CommandLog ParseCommandText(const std::string& text, const std::string& label) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    std::string where = label;
    if (!e.mark.is_null()) where += ":" + std::to_string(e.mark.line + 1);
    throw InputError(OneLine(where + ": YAML syntax error: " + e.msg));
  }
  if (!root.IsMap()) {
    throw InputError(label + ": a command file is a map with 'commands' (and format, scene, time_step)");
  }
  CommandLog log;
  log.file = label;
  try {
    for (const auto& kv : root) {
      const std::string k = kv.first.Scalar();
      if (k != "format" && k != "scene" && k != "time_step" && k != "commands" && k != "camera") {
        Fail(label, kv.first, k, "unknown key (expected one of: format, scene, time_step, commands, camera)");
      }
    }
    if (const YAML::Node f = root["format"]; f.IsDefined()) {
      if (!f.IsScalar() || f.Scalar() != kCommandFormat) {
        Fail(label, f, "format", std::string("expected ") + kCommandFormat);
      }
    }
    if (const YAML::Node s = root["scene"]; s.IsDefined()) {
      if (!s.IsScalar()) Fail(label, s, "scene", "expected a file name");
      log.scene = s.Scalar();
    }
    if (const YAML::Node dt = root["time_step"]; dt.IsDefined()) {
      log.time_step = ReadNumber(label, dt, "time_step");
      if (!(*log.time_step > 0)) Fail(label, dt, "time_step", "must be > 0 s");
      log.time_step_line = dt.Mark().is_null() ? 0 : dt.Mark().line + 1;
    }
    const YAML::Node commands = root["commands"];
    if (!commands.IsDefined()) Fail(label, root, "commands", "missing (a list of commands)");
    if (!commands.IsNull() && !commands.IsSequence()) Fail(label, commands, "commands", "expected a list");
    for (std::size_t i = 0; i < commands.size(); ++i) {
      log.entries.push_back(ParseEntry(label, commands[i], "commands[" + std::to_string(i) + "]"));
    }
    if (const YAML::Node camera = root["camera"]; camera.IsDefined() && !camera.IsNull()) {
      if (!camera.IsSequence()) Fail(label, camera, "camera", "expected a list of keyframes");
      for (std::size_t i = 0; i < camera.size(); ++i) {
        log.camera.push_back(ParseCameraKeyframe(label, camera[i], "camera[" + std::to_string(i) + "]",
                                                 log.camera.empty() ? nullptr : &log.camera.back()));
      }
    }
  } catch (const YAML::Exception& e) {
    std::string where = label;
    if (!e.mark.is_null()) where += ":" + std::to_string(e.mark.line + 1);
    throw InputError(OneLine(where + ": YAML error: " + e.msg));
  }
  return log;
}

CommandLog LoadCommandFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path + ": cannot open command file: " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  return ParseCommandText(text.str(), path);
}

std::string FormatCommandLog(const CommandLog& log) {
  std::ostringstream out;
  out << "# Stiction commands (docs/teleop.md). Each entry applies before its step.\n";
  out << "format: " << kCommandFormat << '\n';
  if (!log.scene.empty()) {
    YAML::Emitter scene;  // Quotes the path if YAML needs it.
    scene << log.scene;
    out << "scene: " << scene.c_str() << '\n';
  }
  if (log.time_step) out << "time_step: " << FormatNumber(*log.time_step, kRoundTripDigits) << '\n';
  out << "commands:\n";
  for (const CommandEntry& e : log.entries) {
    out << "  - {";
    if (e.wait) {
      out << "wait: " << FormatWait(*e.wait);
      if (e.timeout_s) out << ", timeout: " << FormatNumber(*e.timeout_s, kRoundTripDigits);
      out << "}\n";
      continue;
    }
    if (e.step) {
      out << "step: " << *e.step;
    } else if (e.after_s) {
      out << "after: " << FormatNumber(*e.after_s, kRoundTripDigits);
    } else {
      out << "time: " << FormatNumber(e.time_s.value_or(0), kRoundTripDigits);
    }
    if (!e.gripper.empty()) out << ", gripper: " << YamlScalar(e.gripper);
    if (e.target) {
      out << ", target: [" << FormatNumber(e.target->x, kRoundTripDigits) << ", "
          << FormatNumber(e.target->y, kRoundTripDigits) << ", " << FormatNumber(e.target->z, kRoundTripDigits) << ", "
          << FormatNumber(e.target->yaw, kRoundTripDigits);
      // Tilt only when used, so gantry files keep their four numbers.
      if (e.target->tilt != 0) out << ", " << FormatNumber(e.target->tilt, kRoundTripDigits);
      out << "]";
      if (e.ramp_s > 0) out << ", ramp: " << FormatNumber(e.ramp_s, kRoundTripDigits);
    }
    if (e.grip) out << ", grip: " << (*e.grip == GripState::kClosed ? "close" : "open");
    if (e.grip_force) out << ", grip_force: " << FormatNumber(*e.grip_force, kRoundTripDigits);
    if (!e.set.empty()) {
      out << ", set: [";
      for (std::size_t i = 0; i < e.set.size(); ++i) out << (i > 0 ? ", " : "") << YamlScalar(e.set[i]);
      out << "]";
    }
    out << "}\n";
  }
  if (!log.camera.empty()) {
    out << "camera:\n";
    for (const CameraKeyframe& k : log.camera) {
      const CameraPose& p = k.pose;
      out << "  - {time: " << FormatNumber(k.time_s, kRoundTripDigits)
          << ", lookat: [" << FormatNumber(p.lookat.x(), kRoundTripDigits) << ", "
          << FormatNumber(p.lookat.y(), kRoundTripDigits) << ", " << FormatNumber(p.lookat.z(), kRoundTripDigits)
          << "], distance: " << FormatNumber(p.distance, kRoundTripDigits)
          << ", azimuth: " << FormatNumber(p.azimuth_deg, kRoundTripDigits)
          << ", elevation: " << FormatNumber(p.elevation_deg, kRoundTripDigits)
          << ", fovy: " << FormatNumber(p.fovy_deg, kRoundTripDigits) << "}\n";
    }
  }
  return out.str();
}

void SaveCommandFile(const CommandLog& log, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError(path + ": cannot write command file: " + std::strerror(errno));
  file << FormatCommandLog(log);
  file.flush();
  if (!file) throw InputError(path + ": write failed: " + std::strerror(errno));
}

}  // namespace stiction
