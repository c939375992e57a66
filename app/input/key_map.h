#pragma once
// The viewer's remappable keys: every single-key action of the F1 list, in
// two modes (the viewer's keys, and teleop focus, where the viewer's keys
// are off), each bound to one or more GLFW keys. The defaults are the keys
// docs/viewer.md lists; the user's input file (app/input/input_config.h,
// docs/teleop.md "The key map") rebinds them. Fixed, not remappable: the
// mouse, Tab / Shift+Tab (panel columns), Ctrl+L and Ctrl+P.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stiction::app {

enum class KeyAction {
  // The viewer's keys (no teleop focus).
  kPause,
  kStep,
  kStepBack,
  kReset,
  kFaster,
  kSlower,
  kRecordVideo,
  kDeselect,
  kTeleop,
  kHelp,
  kInfo,
  // Teleop focus: the motion keys held (+ and − of x, y, z, yaw, tilt, in
  // this order: the index from kTeleopXPlus is 2 * axis + (minus ? 1 : 0)).
  kTeleopXPlus,
  kTeleopXMinus,
  kTeleopYPlus,
  kTeleopYMinus,
  kTeleopZPlus,
  kTeleopZMinus,
  kTeleopYawPlus,
  kTeleopYawMinus,
  kTeleopTiltPlus,
  kTeleopTiltMinus,
  kTeleopGrasp,
  kTeleopRecord,
  kTeleopNext,
  kTeleopTake,         ///< Start / stop a take (Record / Stop).
  kTeleopKeepSuccess,  ///< Keep the stopped take in the dataset as a success.
  kTeleopKeepFailure,  ///< ... as a failure.
  kTeleopDiscard,      ///< Drop the stopped take.
  kTeleopLeave,
  kCount
};

inline constexpr int kNumKeyActions = static_cast<int>(KeyAction::kCount);
/// The teleop motion actions (kTeleopXPlus .. kTeleopTiltMinus).
inline constexpr int kNumMotionKeys = 10;

struct KeyActionInfo {
  KeyAction action;
  const char* name;         ///< In the input file: "pause", "teleop.x+", …
  bool teleop;              ///< Acts in teleop focus (else without it).
  std::vector<int> defaults;  ///< GLFW key codes.
};

/// Every action, in KeyAction order.
std::span<const KeyActionInfo> KeyActions();
const KeyActionInfo& Info(KeyAction action);
std::optional<KeyAction> ParseKeyAction(std::string_view name);

/// A GLFW key from its name in the input file ("W", "Space", "F5", "Left",
/// "KP_Add", "Equal", …; case-insensitive); nullopt for an unknown name.
std::optional<int> ParseKeyName(std::string_view name);
/// The name of a GLFW key as the input file and the F1 list write it.
std::string KeyName(int key);

class KeyMap {
 public:
  KeyMap();  ///< The default keys.

  const std::vector<int>& keys(KeyAction action) const { return keys_[static_cast<int>(action)]; }
  void Set(KeyAction action, std::vector<int> keys) { keys_[static_cast<int>(action)] = std::move(keys); }
  /// The action `key` triggers in teleop focus (teleop) or without it.
  std::optional<KeyAction> Find(int key, bool teleop) const;
  /// True when `key` is one of `action`'s keys.
  bool Is(KeyAction action, int key) const;
  /// "W", "Equal / KP_Add": the keys of `action` for the F1 list.
  std::string Text(KeyAction action) const;

 private:
  std::vector<std::vector<int>> keys_;
};

/// Keys no action may take in the viewer's mode: Tab (the panel columns).
bool IsReservedKey(int key, bool teleop);

}  // namespace stiction::app
