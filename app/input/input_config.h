#pragma once
// The user's input file: the key map and the devices' mappings
// (docs/teleop.md "The key map" and "Input devices"). A small
// "key = value" text file ('#' starts a comment) beside the viewer settings,
// $XDG_CONFIG_HOME/stiction/input.ini (else ~/.config/stiction/input.ini).
// It is the user's: the viewer reads it at start and never writes it (the
// viewer settings file is rewritten at every close, which would lose the
// user's comments and layout). A missing file means the defaults; a bad
// entry is named "FILE:LINE: KEY: reason" and that entry keeps its default.
#include <string>
#include <vector>

#include "app/input/devices/device_mapping.h"
#include "app/input/key_map.h"

namespace stiction::app {

struct InputConfig {
  KeyMap keys;
  DeviceMapping spacemouse = DefaultSpaceMouseMapping();
  DeviceMapping gamepad = DefaultGamepadMapping();
};

/// input.ini beside the viewer settings file `viewer_settings_path` ("" if
/// that is "").
std::string InputConfigPathBeside(const std::string& viewer_settings_path);

/// Reads `path` ("" or a missing file: the defaults, no problems). Each bad
/// entry is one line of *problems, "FILE:LINE: KEY: reason; the default is
/// kept".
InputConfig LoadInputConfig(const std::string& path, std::vector<std::string>* problems);

/// The input file's lines for `mapping`'s settings (sensitivity, dead zone,
/// locks), e.g. "spacemouse.sensitivity = 1.5\n…": what the Device rows copy
/// to the clipboard so that a tuning made in the viewer can be kept.
std::string FormatDeviceSettings(const DeviceMapping& mapping);

/// Parses `text` as if read from a file named `path` (the tests).
InputConfig ParseInputConfig(const std::string& text, const std::string& path, std::vector<std::string>* problems);

}  // namespace stiction::app
