#include "app/ui/device_panel.h"

#include <imgui.h>

#include <string>

#include "app/input/input_config.h"
#include "app/teleop/gripper_session.h"
#include "app/ui/ui_metrics.h"

namespace stiction::app {

std::string AxisMapText(const DeviceMapping& m) {
  std::string text;
  for (int a = 0; a < kNumTeleopAxes; ++a) {
    const AxisSource& s = m.axes[static_cast<std::size_t>(a)];
    text += (a == 0 ? "" : ", ") + std::string(TeleopAxisName(a)) + " <- " +
            (s.axis < 0 ? "none" : std::string(s.sign < 0 ? "-" : "") + DeviceAxisName(m.kind, s.axis));
  }
  return text;
}

void DrawDeviceRows(UiState* ui) {
  DeviceUi& d = ui->devices;
  const char* labels[2] = {"SpaceMouse", "gamepad"};
  // A header that says what is connected, so the rows can stay folded.
  std::string header = "Device:";
  for (int k = 0; k < 2; ++k) {
    if (d.devices[static_cast<std::size_t>(k)].status.connected) header += std::string(" ") + labels[k];
  }
  if (header == "Device:") {
    header += " none connected";
  } else {
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);  // A device at hand: its rows open the first time.
  }
  if (!ImGui::TreeNode("device", "%s", header.c_str())) return;
  for (int k = 0; k < 2; ++k) {
    const DeviceStatus& s = d.devices[static_cast<std::size_t>(k)].status;
    ImGui::RadioButton(labels[k], &d.shown, k);
    ImGui::SameLine();
    if (s.connected) {
      ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1.0f), "%s connected%s", s.name.c_str(),
                         d.last_used == k ? " (in use)" : "");
    } else {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", s.note.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  DeviceMapping& m = d.devices[static_cast<std::size_t>(d.shown == 1 ? 1 : 0)].mapping;
  DeviceSettings& s = m.settings;
  // Short labels (the column is narrow); the units in the values and the
  // line under them.
  float sensitivity = static_cast<float>(s.sensitivity);
  ImGui::SetNextItemWidth(Scaled(120));
  if (ImGui::SliderFloat("sensitivity", &sensitivity, static_cast<float>(kMinSensitivity),
                         static_cast<float>(kMaxSensitivity), "x %.2f")) {
    s.sensitivity = sensitivity;
  }
  float dead_zone = static_cast<float>(s.dead_zone);
  ImGui::SetNextItemWidth(Scaled(120));
  if (ImGui::SliderFloat("dead zone", &dead_zone, 0.0f, static_cast<float>(kMaxDeadZone), "%.2f of full")) {
    s.dead_zone = dead_zone;
  }
  ImGui::TextDisabled("full deflection: %.3f m/s, %.2f rad/s", kKeyboardSpeed * s.sensitivity,
                      kKeyboardTurnRate * s.sensitivity);
  ImGui::TextUnformatted("lock");
  for (int a = 0; a < kNumTeleopAxes; ++a) {
    ImGui::SameLine();
    bool locked = s.locked[static_cast<std::size_t>(a)];
    if (ImGui::Checkbox(TeleopAxisName(a), &locked)) s.locked[static_cast<std::size_t>(a)] = locked;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("axes: %s", AxisMapText(m).c_str());
  std::string buttons;
  for (int b = 0; b < kMaxDeviceButtons; ++b) {
    const DeviceAction action = m.buttons[static_cast<std::size_t>(b)];
    if (action != DeviceAction::kNone) {
      buttons += (buttons.empty() ? "" : ", ") + DeviceButtonName(m.kind, b) + ": " + DeviceActionName(action);
    }
  }
  ImGui::TextDisabled("buttons: %s", buttons.empty() ? "none" : buttons.c_str());
  ImGui::TextDisabled("motion in teleop focus only; remap in input.ini (docs/teleop.md)");
  if (ImGui::SmallButton("copy as input.ini lines")) {
    ImGui::SetClipboardText(FormatDeviceSettings(m).c_str());
    ui->Info("copied the " + std::string(labels[d.shown == 1 ? 1 : 0]) +
             "'s settings as input.ini lines: paste them into the input file to keep them");
  }
  ImGui::PopTextWrapPos();
  ImGui::TreePop();
}

}  // namespace stiction::app
