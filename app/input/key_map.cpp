#include "app/input/key_map.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "app/render/gl.h"

namespace stiction::app {
namespace {

const std::vector<KeyActionInfo>& Table() {
  static const std::vector<KeyActionInfo> table = {
      {KeyAction::kPause, "pause", false, {GLFW_KEY_SPACE}},
      {KeyAction::kStep, "step", false, {GLFW_KEY_RIGHT}},
      {KeyAction::kStepBack, "step_back", false, {GLFW_KEY_LEFT}},
      {KeyAction::kReset, "reset", false, {GLFW_KEY_BACKSPACE}},
      {KeyAction::kFaster, "faster", false, {GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD}},
      {KeyAction::kSlower, "slower", false, {GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT}},
      {KeyAction::kRecordVideo, "record_video", false, {GLFW_KEY_V}},
      {KeyAction::kDeselect, "deselect", false, {GLFW_KEY_ESCAPE}},
      {KeyAction::kTeleop, "teleop", false, {GLFW_KEY_T}},
      {KeyAction::kHelp, "help", false, {GLFW_KEY_F1}},
      {KeyAction::kInfo, "info", false, {GLFW_KEY_F2}},
      {KeyAction::kTeleopXPlus, "teleop.x+", true, {GLFW_KEY_W}},
      {KeyAction::kTeleopXMinus, "teleop.x-", true, {GLFW_KEY_S}},
      {KeyAction::kTeleopYPlus, "teleop.y+", true, {GLFW_KEY_A}},
      {KeyAction::kTeleopYMinus, "teleop.y-", true, {GLFW_KEY_D}},
      {KeyAction::kTeleopZPlus, "teleop.z+", true, {GLFW_KEY_R}},
      {KeyAction::kTeleopZMinus, "teleop.z-", true, {GLFW_KEY_F}},
      {KeyAction::kTeleopYawPlus, "teleop.yaw+", true, {GLFW_KEY_Q}},
      {KeyAction::kTeleopYawMinus, "teleop.yaw-", true, {GLFW_KEY_E}},
      {KeyAction::kTeleopTiltPlus, "teleop.tilt+", true, {GLFW_KEY_Z}},
      {KeyAction::kTeleopTiltMinus, "teleop.tilt-", true, {GLFW_KEY_X}},
      {KeyAction::kTeleopGrasp, "teleop.grasp", true, {GLFW_KEY_G}},
      {KeyAction::kTeleopRecord, "teleop.record_video", true, {GLFW_KEY_V}},
      {KeyAction::kTeleopNext, "teleop.next", true, {GLFW_KEY_T}},
      {KeyAction::kTeleopTake, "teleop.take", true, {GLFW_KEY_ENTER, GLFW_KEY_KP_ENTER}},
      {KeyAction::kTeleopKeepSuccess, "teleop.keep_success", true, {GLFW_KEY_Y}},
      {KeyAction::kTeleopKeepFailure, "teleop.keep_failure", true, {GLFW_KEY_N}},
      {KeyAction::kTeleopDiscard, "teleop.discard", true, {GLFW_KEY_BACKSPACE}},
      {KeyAction::kTeleopLeave, "teleop.leave", true, {GLFW_KEY_ESCAPE}},
  };
  return table;
}

struct NamedKey {
  const char* name;
  int key;
};

// Named keys besides the letters, digits and F1..F25 (built in KeyName).
constexpr NamedKey kNamedKeys[] = {
    {"Space", GLFW_KEY_SPACE},         {"Esc", GLFW_KEY_ESCAPE},
    {"Enter", GLFW_KEY_ENTER},         {"Tab", GLFW_KEY_TAB},
    {"Backspace", GLFW_KEY_BACKSPACE}, {"Insert", GLFW_KEY_INSERT},
    {"Delete", GLFW_KEY_DELETE},       {"Right", GLFW_KEY_RIGHT},
    {"Left", GLFW_KEY_LEFT},           {"Down", GLFW_KEY_DOWN},
    {"Up", GLFW_KEY_UP},               {"PageUp", GLFW_KEY_PAGE_UP},
    {"PageDown", GLFW_KEY_PAGE_DOWN},  {"Home", GLFW_KEY_HOME},
    {"End", GLFW_KEY_END},             {"Apostrophe", GLFW_KEY_APOSTROPHE},
    {"Comma", GLFW_KEY_COMMA},         {"Minus", GLFW_KEY_MINUS},
    {"Period", GLFW_KEY_PERIOD},       {"Slash", GLFW_KEY_SLASH},
    {"Semicolon", GLFW_KEY_SEMICOLON}, {"Equal", GLFW_KEY_EQUAL},
    {"LeftBracket", GLFW_KEY_LEFT_BRACKET}, {"Backslash", GLFW_KEY_BACKSLASH},
    {"RightBracket", GLFW_KEY_RIGHT_BRACKET}, {"GraveAccent", GLFW_KEY_GRAVE_ACCENT},
    {"KP_0", GLFW_KEY_KP_0},           {"KP_1", GLFW_KEY_KP_1},
    {"KP_2", GLFW_KEY_KP_2},           {"KP_3", GLFW_KEY_KP_3},
    {"KP_4", GLFW_KEY_KP_4},           {"KP_5", GLFW_KEY_KP_5},
    {"KP_6", GLFW_KEY_KP_6},           {"KP_7", GLFW_KEY_KP_7},
    {"KP_8", GLFW_KEY_KP_8},           {"KP_9", GLFW_KEY_KP_9},
    {"KP_Decimal", GLFW_KEY_KP_DECIMAL}, {"KP_Divide", GLFW_KEY_KP_DIVIDE},
    {"KP_Multiply", GLFW_KEY_KP_MULTIPLY}, {"KP_Subtract", GLFW_KEY_KP_SUBTRACT},
    {"KP_Add", GLFW_KEY_KP_ADD},       {"KP_Enter", GLFW_KEY_KP_ENTER},
};

bool EqualNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::span<const KeyActionInfo> KeyActions() { return Table(); }

const KeyActionInfo& Info(KeyAction action) { return Table()[static_cast<std::size_t>(action)]; }

std::optional<KeyAction> ParseKeyAction(std::string_view name) {
  for (const KeyActionInfo& info : Table()) {
    if (name == info.name) return info.action;
  }
  return std::nullopt;
}

std::optional<int> ParseKeyName(std::string_view name) {
  if (name.size() == 1) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    if (c >= 'A' && c <= 'Z') return GLFW_KEY_A + (c - 'A');
    if (c >= '0' && c <= '9') return GLFW_KEY_0 + (c - '0');
  }
  if (name.size() >= 2 && (name[0] == 'F' || name[0] == 'f')) {
    int n = 0;
    for (char c : name.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    if (n >= 1 && n <= 25) return GLFW_KEY_F1 + n - 1;
    return std::nullopt;
  }
  if (EqualNoCase(name, "Escape")) return GLFW_KEY_ESCAPE;
  for (const NamedKey& k : kNamedKeys) {
    if (EqualNoCase(name, k.name)) return k.key;
  }
  return std::nullopt;
}

std::string KeyName(int key) {
  if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return std::string(1, static_cast<char>('A' + key - GLFW_KEY_A));
  if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return std::string(1, static_cast<char>('0' + key - GLFW_KEY_0));
  // (Appending, not "F" + to_string: gcc 12's -Wstringop-overflow misfires on that.)
  std::string name = key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25 ? "F" : "key ";
  name += std::to_string(key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25 ? key - GLFW_KEY_F1 + 1 : key);
  for (const NamedKey& k : kNamedKeys) {
    if (k.key == key) return k.name;
  }
  return name;
}

KeyMap::KeyMap() {
  for (const KeyActionInfo& info : Table()) keys_.push_back(info.defaults);
}

std::optional<KeyAction> KeyMap::Find(int key, bool teleop) const {
  for (const KeyActionInfo& info : Table()) {
    if (info.teleop == teleop && Is(info.action, key)) return info.action;
  }
  return std::nullopt;
}

bool KeyMap::Is(KeyAction action, int key) const {
  const std::vector<int>& k = keys(action);
  return std::find(k.begin(), k.end(), key) != k.end();
}

std::string KeyMap::Text(KeyAction action) const {
  std::string text;
  for (int key : keys(action)) text += (text.empty() ? "" : " / ") + KeyName(key);
  return text.empty() ? "(none)" : text;
}

bool IsReservedKey(int key, bool teleop) { return !teleop && key == GLFW_KEY_TAB; }

}  // namespace stiction::app
