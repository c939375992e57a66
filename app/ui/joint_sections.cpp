#include "app/ui/joint_sections.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "app/ui/joint_control.h"
#include "app/ui/ui_metrics.h"
#include "engine/common/text.h"
#include "engine/simulation.h"

namespace stiction::app {
namespace {

// Rows shown before the table scrolls: a 60-joint robot keeps the column
// (and the sections below) in reach.
constexpr int kMaxVisibleRows = 12;

// Records where a live field wholly visible in its scrolling table was
// drawn, so that the tests can drive it with the pointer
// (UiState::field_rects). Read-only sliders are not live fields: a click
// there does nothing.
void RecordRect(UiState* ui, const std::string& id) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  if (ImGui::GetCurrentWindow()->ClipRect.Contains(ImRect(lo, hi))) {
    ui->field_rects[id] = Rect{lo.x, lo.y, hi.x - lo.x, hi.y - lo.y};
  }
}

std::string Shown(bool revolute, double value) {
  return StringPrintf(revolute ? "%.1f %s" : "%.3f %s", ToShown(revolute, value), ShownUnit(revolute));
}

// The slider's span in words: the joint's limits, or the default where it
// has none (so a user knows the end of the slider is not a real stop).
std::string RangeText(bool revolute, const SliderRange& r) {
  const std::string lower = Shown(revolute, r.lower), upper = Shown(revolute, r.upper);
  if (r.lower_is_limit && r.upper_is_limit) return StringPrintf("limits [%s, %s]", lower.c_str(), upper.c_str());
  if (!r.lower_is_limit && !r.upper_is_limit) {
    return StringPrintf("no limits: the slider spans [%s, %s] (+-%s)", lower.c_str(), upper.c_str(),
                        revolute ? "180 deg" : "1 m");
  }
  return StringPrintf("no %s limit: the slider spans [%s, %s]", r.lower_is_limit ? "upper" : "lower", lower.c_str(),
                      upper.c_str());
}

// The header of a slider table and its scrolling body, at most
// kMaxVisibleRows rows tall.
bool BeginSliderTable(const char* id, const char* first_column, int rows, const char* value_column = "target",
                      const char* last_column = "now") {
  const float row_height = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().CellPadding.y;
  const float height = static_cast<float>(std::min(rows, kMaxVisibleRows) + 1) * row_height + Scaled(4);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable(id, 3, flags, ImVec2(0, height))) return false;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(first_column, ImGuiTableColumnFlags_WidthStretch, 0.42f);
  ImGui::TableSetupColumn(value_column, ImGuiTableColumnFlags_WidthStretch, 0.58f);
  ImGui::TableSetupColumn(last_column, ImGuiTableColumnFlags_WidthFixed, Scaled(62));
  ImGui::TableHeadersRow();
  return true;
}

// One slider cell over `range` [rad or m], shown in deg or m; returns true
// with *out [rad or m] when the user moved it. A non-finite value (never
// expected: the engine refuses them) shows as the range's middle.
bool SliderCell(UiState* ui, const std::string& id, bool revolute, const SliderRange& range, double value,
                bool editable, double* out) {
  const double lo = ToShown(revolute, range.lower), hi = ToShown(revolute, range.upper);
  double shown = std::isfinite(value) ? ToShown(revolute, value) : 0.5 * (lo + hi);
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::BeginDisabled(!editable);
  const bool changed = ImGui::SliderScalar(("##" + id).c_str(), ImGuiDataType_Double, &shown, &lo, &hi,
                                           revolute ? "%.1f deg" : "%.3f m", ImGuiSliderFlags_AlwaysClamp);
  ImGui::EndDisabled();
  if (editable) RecordRect(ui, id);
  if (changed) *out = FromShown(revolute, shown);
  return changed;
}

// The current position, in the row's unit ("nan" is printed as such).
void NowCell(bool revolute, double q) {
  ImGui::Text(revolute ? "%.1f" : "%.3f", ToShown(revolute, q));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("current position q [%s]", ShownUnit(revolute));
}

// What one row of a slider table shows (the Joints and Control tables
// differ only in this, their tooltips and what moving a slider does).
struct SliderRowView {
  const std::string* name;
  std::string id;  ///< The slider's id, for RecordRect.
  bool revolute = true;
  SliderRange range;
  double value = 0;  ///< [rad or m]
  bool editable = true;
  int joint = -1;  ///< Whose current position the last column shows.
};

// A slider table's rows, only those on screen (a clipper): the name, the
// slider, the current position. `view(i)` says what row i (an index of
// `rows`' elements) shows, `tooltip(i)` its tooltip (name or slider
// hovered), `apply(i, moved)` what moving its slider does.
template <typename View, typename Tooltip, typename Apply>
void DrawSliderRows(const char* table, const char* first_column, const std::vector<int>& rows, UiState* ui,
                    const Simulation& sim, View view, Tooltip tooltip, Apply apply) {
  if (!BeginSliderTable(table, first_column, static_cast<int>(rows.size()))) return;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()));
  while (clipper.Step()) {
    for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
      const int i = rows[k];
      const SliderRowView row = view(i);
      ImGui::PushID(i);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(row.name->c_str());
      const bool hovered_name = ImGui::IsItemHovered();
      ImGui::TableSetColumnIndex(1);
      double moved = 0;
      const bool changed = SliderCell(ui, row.id, row.revolute, row.range, row.value, row.editable, &moved);
      if (hovered_name || ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::SetTooltip("%s", tooltip(i).c_str());
      }
      if (changed) apply(i, moved);
      ImGui::TableSetColumnIndex(2);
      NowCell(row.revolute, JointPosition(row.joint, sim));
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

// A filter box with a count of the rows it leaves ("12 of 64").
void FilterBox(UiState* ui, const char* id, std::string* filter, const char* hint, size_t shown, size_t total) {
  ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - Scaled(70), Scaled(80)));
  ImGui::InputTextWithHint(id, hint, filter);
  RecordRect(ui, id + 2);  // Without the "##".
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Shows the rows whose name contains this text (any case)");
  ImGui::SameLine();
  ImGui::TextDisabled("%zu of %zu", shown, total);
}

std::string JointTooltip(const JointControls& c, const JointRow& row, const Simulation& sim) {
  std::string text = std::string(row.revolute ? "revolute" : "prismatic") + " joint '" + row.name + "', " +
                     (row.revolute ? "shown in deg (stored in rad)" : "in m") + "\n" +
                     RangeText(row.revolute, row.range) + "\n";
  if (row.actuator >= 0) {
    const ActuatorRow& a = c.actuators[row.actuator];
    const JointActuator& pd = sim.actuator(a.name);
    text += StringPrintf("PD actuator '%s' (kp %.4g, kd %.4g)", a.name.c_str(), pd.kp, pd.kd);
    text += a.gripper_driven ? "\ndriven by the gripper: use the Gripper section (running)"
                             : "\nrunning: the slider moves its target and the joint follows under physics";
  } else {
    text += "no actuator: read-only while running";
  }
  return text + "\npaused: the slider poses the joint (all velocities set to zero" +
         (row.actuator >= 0 ? ", its targets moved with it)" : ")");
}

std::string ActuatorTooltip(const ActuatorRow& a, const Simulation& sim) {
  const JointActuator& pd = sim.actuator(a.name);
  const char* stiffness = a.revolute ? "N m/rad" : "N/m";
  const char* damping = a.revolute ? "N m s/rad" : "N s/m";
  const char* effort = a.revolute ? "N m" : "N";
  std::string text = StringPrintf("PD actuator '%s' on %s joint '%s'\ntarget q_d in %s%s\n", a.name.c_str(),
                                  a.revolute ? "revolute" : "prismatic", a.joint_name.c_str(), ShownUnit(a.revolute),
                                  a.revolute ? " (stored in rad)" : "");
  text += StringPrintf("kp %.4g %s, kd %.4g %s, effort limit %.4g %s\n", pd.kp, stiffness, pd.kd, damping,
                       pd.effort_limit, effort);
  text += RangeText(a.revolute, a.range) + "\nscene's target " + Shown(a.revolute, a.scene_position);
  if (a.gripper_driven) text += "\ndriven by the gripper before every step: use the Gripper section";
  return text;
}

std::string MotorTooltip(const MotorRow& m, const Simulation& sim) {
  const JointMotor& motor = sim.motor(m.name);
  std::string text = StringPrintf("motor '%s' on %s\neffort = gain x ctrl, gain %.4g (N m or N per unit of ctrl)",
                                  m.name.c_str(), m.joints.c_str(), motor.gain);
  if (std::isfinite(motor.effort_limit)) text += StringPrintf(", limited to +-%.4g", motor.effort_limit);
  text += m.range.lower_is_limit || m.range.upper_is_limit
              ? StringPrintf("\nctrl range [%.4g, %.4g]", m.range.lower, m.range.upper)
              : std::string("\nctrl not limited: the slider spans [-1, 1]");
  return text + StringPrintf("\nscene's ctrl %.4g; no feedback: the joints move under this effort", m.scene_ctrl);
}

// The Control section's motors: a slider over each one's control range and
// the effort it applies now (only the rows on screen).
void DrawMotorRows(const std::vector<int>& rows, const JointControls& c, UiState* ui, const Simulation& sim,
                   AppCommands* commands) {
  if (!BeginSliderTable("##motors", "motor", static_cast<int>(rows.size()), "ctrl", "effort")) return;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()));
  while (clipper.Step()) {
    for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
      const MotorRow& row = c.motors[rows[k]];
      const JointMotor& motor = sim.motor(row.name);
      ImGui::PushID(rows[k]);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(row.name.c_str());
      const bool hovered_name = ImGui::IsItemHovered();
      ImGui::TableSetColumnIndex(1);
      double ctrl = motor.ctrl;
      ImGui::SetNextItemWidth(-FLT_MIN);
      const bool changed = ImGui::SliderScalar("##ctrl", ImGuiDataType_Double, &ctrl, &row.range.lower,
                                               &row.range.upper, "%.3f", ImGuiSliderFlags_AlwaysClamp);
      RecordRect(ui, "motor." + row.name);
      if (hovered_name || ImGui::IsItemHovered()) ImGui::SetTooltip("%s", MotorTooltip(row, sim).c_str());
      if (changed) ApplyMotorSlider(row, ctrl, ui, commands);
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%.3g", MotorEffort(motor));
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("effort applied [N m or N at each joint, times its coefficient]");
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

}  // namespace

void DrawJointsSection(const AppView& view, UiState* ui, AppCommands* commands) {
  JointControls& c = ui->joint_controls;
  const Simulation& sim = *view.sim;
  const std::vector<int> rows = FilteredJoints(c);
  FilterBox(ui, "##filter.joints", &c.joint_filter, "filter joints", rows.size(), c.joints.size());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled(view.paused ? "paused: a slider poses its joint (velocities zeroed)"
                                  : "running: a slider moves its joint's PD target; pause to pose");
  if (c.other_joints > 0) ImGui::TextDisabled("%d free or ball joint(s): no slider", c.other_joints);
  ImGui::PopTextWrapPos();
  if (rows.empty()) {
    ImGui::TextDisabled("no joint name contains '%s'", c.joint_filter.c_str());
    return;
  }
  DrawSliderRows(
      "##joints", "joint", rows, ui, sim,
      [&](int i) {
        const JointRow& row = c.joints[i];
        return SliderRowView{&row.name, "joint." + row.name, row.revolute, row.range, JointSliderValue(c, row, sim),
                             JointSliderEditable(c, row, view.paused), row.joint};
      },
      [&](int i) { return JointTooltip(c, c.joints[i], sim); },
      [&](int i, double moved) { ApplyJointSlider(c, c.joints[i], moved, view.paused, ui, commands); });
}

void DrawControlSection(const AppView& view, UiState* ui, AppCommands* commands) {
  JointControls& c = ui->joint_controls;
  const Simulation& sim = *view.sim;
  if (ImGui::Button("Reset targets")) ResetActuatorTargets(c, ui, commands);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every actuator's target back to the scene's value");
  const std::vector<int> rows = FilteredActuators(c);
  const std::vector<int> motor_rows = FilteredMotors(c);
  FilterBox(ui, "##filter.control", &c.actuator_filter, "filter actuators", rows.size() + motor_rows.size(),
            c.actuators.size() + c.motors.size());
  if (rows.empty() && motor_rows.empty()) {
    ImGui::TextDisabled("no actuator or joint name contains '%s'", c.actuator_filter.c_str());
    return;
  }
  if (!motor_rows.empty()) DrawMotorRows(motor_rows, c, ui, sim, commands);
  if (rows.empty()) return;
  DrawSliderRows(
      "##actuators", "actuator", rows, ui, sim,
      [&](int i) {
        const ActuatorRow& row = c.actuators[i];
        return SliderRowView{&row.name, "control." + row.name, row.revolute, row.range,
                             sim.actuator_commanded_position(row.name), !row.gripper_driven, row.joint};
      },
      [&](int i) { return ActuatorTooltip(c.actuators[i], sim); },
      [&](int i, double moved) { ApplyActuatorSlider(c.actuators[i], moved, ui, commands); });
}

}  // namespace stiction::app
