#include "app/input/input_config.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/common/text.h"

namespace stiction::app {
namespace {

std::string TrimLine(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> SplitList(const std::string& value) {
  std::vector<std::string> items;
  std::stringstream in(value);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = TrimLine(item);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

bool ParseInRange(const std::string& text, double lo, double hi, double* out) {
  const std::optional<double> v = ParseDouble(text);
  if (!v || !(*v >= lo && *v <= hi)) return false;
  *out = *v;
  return true;
}

// `key.ACTION = KEY, KEY…` (or none); returns why not ("" when set).
std::string ApplyKey(const std::string& action_name, const std::string& value, KeyMap* keys, KeyAction* action) {
  const std::optional<KeyAction> a = ParseKeyAction(action_name);
  if (!a) {
    std::string known;
    for (const KeyActionInfo& info : KeyActions()) known += (known.empty() ? "" : ", ") + std::string(info.name);
    return "unknown action '" + action_name + "' (known: " + known + ")";
  }
  std::vector<int> bound;
  if (value != "none") {
    const std::vector<std::string> names = SplitList(value);
    if (names.empty()) return "expected a key name, a list of them or 'none'";
    for (const std::string& name : names) {
      const std::optional<int> key = ParseKeyName(name);
      if (!key) {
        return "unknown key '" + name + "' (A..Z, 0..9, F1..F25, Space, Escape, Left, KP_Add, …: docs/teleop.md \"The key map\")";
      }
      if (IsReservedKey(*key, Info(*a).teleop)) return name + " is reserved (Tab shows and hides the panel columns)";
      bound.push_back(*key);
    }
  }
  keys->Set(*a, bound);
  *action = *a;
  return "";
}

// `spacemouse.…` / `gamepad.…` after the prefix; returns why not.
std::string ApplyDevice(const std::string& key, const std::string& value, DeviceMapping* m) {
  const DeviceKind kind = m->kind;
  double v = 0;
  if (key == "sensitivity") {
    if (!ParseInRange(value, kMinSensitivity, kMaxSensitivity, &v)) {
      return StringPrintf("expected a factor in [%g, %g] (x the keyboard's 0.15 m/s, 0.8 rad/s), got '",
                          kMinSensitivity, kMaxSensitivity) + value + "'";
    }
    m->settings.sensitivity = v;
  } else if (key == "dead_zone") {
    if (!ParseInRange(value, 0, kMaxDeadZone, &v)) {
      return StringPrintf("expected a fraction of full deflection in [0, %g], got '", kMaxDeadZone) + value + "'";
    }
    m->settings.dead_zone = v;
  } else if (key == "lock") {
    std::array<bool, kNumTeleopAxes> locked{};
    if (value != "none") {
      for (const std::string& name : SplitList(value)) {
        int a = 0;
        while (a < kNumTeleopAxes && name != TeleopAxisName(a)) ++a;
        if (a == kNumTeleopAxes) return "unknown axis '" + name + "' (x, y, z, yaw, tilt or none)";
        locked[static_cast<std::size_t>(a)] = true;
      }
    }
    m->settings.locked = locked;
  } else if (key.rfind("axis.", 0) == 0) {
    const std::string axis_name = key.substr(5);
    int a = 0;
    while (a < kNumTeleopAxes && axis_name != TeleopAxisName(a)) ++a;
    if (a == kNumTeleopAxes) return "unknown teleop axis '" + axis_name + "' (x, y, z, yaw, tilt)";
    AxisSource source;
    if (value != "none") {
      std::string name = value;
      if (!name.empty() && (name[0] == '-' || name[0] == '+')) {
        source.sign = name[0] == '-' ? -1 : 1;
        name = name.substr(1);
      }
      const std::optional<int> device_axis = ParseDeviceAxis(kind, name);
      if (!device_axis) {
        std::string known;
        for (int d = 0; d < kNumDeviceAxes; ++d) known += (d ? ", " : "") + std::string(DeviceAxisName(kind, d));
        return "unknown " + std::string(DeviceKindName(kind)) + " axis '" + value + "' (" + known +
               ", with an optional leading -, or none)";
      }
      source.axis = *device_axis;
    }
    m->axes[static_cast<std::size_t>(a)] = source;
  } else if (key.rfind("button.", 0) == 0) {
    const std::optional<int> button = ParseDeviceButton(kind, key.substr(7));
    if (!button) {
      return kind == DeviceKind::kGamepad
                 ? "unknown gamepad button '" + key.substr(7) +
                       "' (a, b, x, y, left_bumper, right_bumper, back, start, guide, left_thumb, right_thumb, "
                       "dpad_up, dpad_right, dpad_down, dpad_left)"
                 : "unknown SpaceMouse button '" + key.substr(7) + "' (a number from 0 to 31)";
    }
    const std::optional<DeviceAction> action = ParseDeviceAction(value);
    if (!action) return "unknown action '" + value + "' (grasp, next_gripper, record, teleop, keep_success, keep_failure, discard or none)";
    m->buttons[static_cast<std::size_t>(*button)] = *action;
  } else {
    return "unknown key (sensitivity, dead_zone, lock, axis.AXIS, button.BUTTON)";
  }
  return "";
}

// Two actions of one mode on one key: the one the file set last goes back
// to its default keys (and is reported), until no key is shared.
void ResolveKeyClashes(const std::string& path, const std::array<int, kNumKeyActions>& line_of,
                       std::array<int, kNumKeyActions>* set_at, KeyMap* keys, std::vector<std::string>* problems) {
  for (int round = 0; round < kNumKeyActions; ++round) {
    int revert = -1, other = -1, shared = 0;
    for (int a = 0; a < kNumKeyActions; ++a) {
      for (int b = a + 1; b < kNumKeyActions; ++b) {
        const KeyActionInfo& ia = KeyActions()[static_cast<std::size_t>(a)];
        const KeyActionInfo& ib = KeyActions()[static_cast<std::size_t>(b)];
        if (ia.teleop != ib.teleop) continue;
        for (int key : keys->keys(ia.action)) {
          if (!keys->Is(ib.action, key)) continue;
          // The later of the two set by the file (one of them is).
          const int pick = (*set_at)[static_cast<std::size_t>(a)] > (*set_at)[static_cast<std::size_t>(b)] ? a : b;
          if (revert < 0 || (*set_at)[static_cast<std::size_t>(pick)] > (*set_at)[static_cast<std::size_t>(revert)]) {
            revert = pick;
            other = pick == a ? b : a;
            shared = key;
          }
        }
      }
    }
    if (revert < 0) return;
    const KeyActionInfo& info = KeyActions()[static_cast<std::size_t>(revert)];
    keys->Set(info.action, info.defaults);
    problems->push_back(path + ":" + std::to_string(line_of[static_cast<std::size_t>(revert)]) + ": key." +
                        info.name + ": " + KeyName(shared) + " is already the key of " +
                        KeyActions()[static_cast<std::size_t>(other)].name + "; the default (" +
                        keys->Text(info.action) + ") is kept");
    (*set_at)[static_cast<std::size_t>(revert)] = 0;
  }
}

}  // namespace

std::string InputConfigPathBeside(const std::string& viewer_settings_path) {
  if (viewer_settings_path.empty()) return "";
  return (std::filesystem::path(viewer_settings_path).parent_path() / "input.ini").string();
}

InputConfig ParseInputConfig(const std::string& text, const std::string& path, std::vector<std::string>* problems) {
  InputConfig config;
  problems->clear();
  std::array<int, kNumKeyActions> set_at{};   // The line that set each action (0: its default).
  std::array<int, kNumKeyActions> line_of{};  // The same, kept for the report.
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    // A comment: the whole line, or from a '#' after a blank (no key name has one).
    const auto hash = line.find_first_of('#');
    if (hash != std::string::npos && (hash == 0 || line[hash - 1] == ' ' || line[hash - 1] == '\t')) {
      line.erase(hash);
    }
    line = TrimLine(line);
    if (line.empty()) continue;
    const auto eq = line.find('=');
    const std::string key = TrimLine(line.substr(0, eq));
    std::string reason;
    if (eq == std::string::npos) {
      reason = "expected KEY = VALUE";
    } else {
      const std::string value = TrimLine(line.substr(eq + 1));
      if (key.rfind("key.", 0) == 0) {
        const KeyMap before = config.keys;
        KeyAction action = KeyAction::kCount;
        reason = ApplyKey(key.substr(4), value, &config.keys, &action);
        if (reason.empty()) {
          set_at[static_cast<std::size_t>(action)] = number;
          line_of[static_cast<std::size_t>(action)] = number;
        } else {
          config.keys = before;
        }
      } else if (key.rfind("spacemouse.", 0) == 0) {
        reason = ApplyDevice(key.substr(11), value, &config.spacemouse);
      } else if (key.rfind("gamepad.", 0) == 0) {
        reason = ApplyDevice(key.substr(8), value, &config.gamepad);
      } else {
        reason = "unknown key (key.ACTION, spacemouse.…, gamepad.…)";
      }
    }
    if (!reason.empty()) {
      problems->push_back(path + ":" + std::to_string(number) + ": " + (key.empty() ? line : key) + ": " + reason +
                          "; the default is kept");
    }
  }
  ResolveKeyClashes(path, line_of, &set_at, &config.keys, problems);
  return config;
}

std::string FormatDeviceSettings(const DeviceMapping& m) {
  const std::string prefix = std::string(DeviceKindName(m.kind)) + ".";
  std::string locks;
  for (int a = 0; a < kNumTeleopAxes; ++a) {
    if (m.settings.locked[static_cast<std::size_t>(a)]) locks += (locks.empty() ? "" : ", ") + std::string(TeleopAxisName(a));
  }
  return prefix + StringPrintf("sensitivity = %.3g\n", m.settings.sensitivity) + prefix +
         StringPrintf("dead_zone = %.3g\n", m.settings.dead_zone) + prefix + "lock = " +
         (locks.empty() ? "none" : locks) + "\n";
}

InputConfig LoadInputConfig(const std::string& path, std::vector<std::string>* problems) {
  problems->clear();
  if (path.empty()) return InputConfig();
  std::ifstream in(path);
  if (!in) return InputConfig();  // No file: the defaults.
  std::stringstream text;
  text << in.rdbuf();
  return ParseInputConfig(text.str(), path, problems);
}

}  // namespace stiction::app
