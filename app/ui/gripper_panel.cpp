#include "app/ui/gripper_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "app/input/key_bindings.h"
#include "app/ui/device_panel.h"
#include "app/ui/timeline_plots.h"
#include "app/ui/ui_metrics.h"
#include "engine/common/text.h"
#include "engine/scene/scene_description.h"

namespace stiction::app {
namespace {

void PlotLine(const char* label, const RollingPlot& plot, const char* format, float lo, float hi) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, format, static_cast<double>(plot.last()));
  const auto& v = plot.values();
  ImGui::PlotLines(label, v.empty() ? nullptr : v.data(), static_cast<int>(v.size()), 0, overlay, lo,
                   std::max(hi, lo + 1e-6f), ImVec2(std::max(ImGui::GetContentRegionAvail().x - Scaled(150), 60.0f), Scaled(40)));
}

// The previous branch's colour: the ghost's orange (renderer.cpp).
constexpr ImU32 kPreviousBranchColour = IM_COL32(255, 153, 51, 255);

// A timeline plot: this branch's line as PlotLines draws it, the previous
// branch's over it in orange on the same scale.
void PlotBranch(const char* label, const BranchPlot& plot, const char* number, const char* unit, float lo, float hi) {
  // "now unit", or with a previous branch "now (before) unit".
  std::string overlay = StringPrintf(number, static_cast<double>(plot.last()));
  if (!std::isnan(plot.previous_last())) overlay += " (" + StringPrintf(number, static_cast<double>(plot.previous_last())) + ")";
  overlay += unit;
  std::vector<float> current = plot.current;
  for (float& v : current) {
    if (std::isnan(v)) v = 0;  // The state before the first step has no readout.
  }
  hi = std::max(hi, lo + 1e-6f);
  const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x - Scaled(150), 60.0f), Scaled(40));
  ImGui::PlotLines(label, current.data(), static_cast<int>(current.size()), 0, overlay.c_str(), lo, hi, size);
  if (current.size() < 2 || !plot.has_previous()) return;
  // PlotLines' inner frame: the item's top-left plus the frame size, less the padding.
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const ImVec2 top = ImGui::GetItemRectMin();
  const float x0 = top.x + pad.x, x1 = top.x + size.x - pad.x;
  const float y0 = top.y + pad.y, y1 = top.y + size.y - pad.y;
  auto point = [&](std::size_t i, float v) {
    const float t = static_cast<float>(i) / static_cast<float>(current.size() - 1);
    const float u = std::clamp((v - lo) / (hi - lo), 0.0f, 1.0f);
    return ImVec2(x0 + (x1 - x0) * t, y1 - (y1 - y0) * u);
  };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (std::size_t i = 1; i < plot.previous.size(); ++i) {
    const float a = plot.previous[i - 1], b = plot.previous[i];
    if (std::isnan(a) || std::isnan(b)) continue;
    draw->AddLine(point(i - 1, a), point(i, b), kPreviousBranchColour, Scaled(1.5f));
  }
}

// The plots from the timeline's states (they follow the cursor), with the
// previous branch's in orange.
void DrawTimelineFingerPlots(const GraspReadout& g, const std::vector<BranchPlot>& plots) {
  const bool previous = std::any_of(plots.begin(), plots.end(), [](const BranchPlot& p) { return p.has_previous(); });
  if (previous) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kPreviousBranchColour),
                       "orange: the previous branch (in brackets: its value now)");
    ImGui::PopTextWrapPos();
  }
  for (std::size_t f = 0; f < g.fingers.size() && kSamplesPerFinger * f + 2 < plots.size(); ++f) {
    const std::string& name = g.fingers[f].name;
    const BranchPlot* p = &plots[kSamplesPerFinger * f];
    PlotBranch(("normal " + name + " [N]").c_str(), p[0], "%.2f", " N", 0.0f, std::max(p[0].max(), 1.0f) * 1.1f);
    PlotBranch(("utilisation " + name).c_str(), p[1], "%.3f", "", 0.0f, 1.05f);
    PlotBranch(("slip " + name + " [um/s]").c_str(), p[2], "%.2f", " um/s", 0.0f, p[2].max() * 1.1f);
  }
}

}  // namespace

void PushGraspPlots(const GraspReadout& readout, GripperUi* plots) {
  const std::size_t n = readout.fingers.size();
  plots->normal_force.resize(n);
  plots->utilisation.resize(n);
  plots->slip_speed.resize(n);
  for (std::size_t f = 0; f < n; ++f) {
    const FingerReadout& r = readout.fingers[f];
    plots->normal_force[f].Push(static_cast<float>(r.normal_force));
    plots->utilisation[f].Push(static_cast<float>(r.friction_utilisation));
    plots->slip_speed[f].Push(static_cast<float>(r.slip_speed * 1e6));
  }
}

namespace {

// Teleop focus, its gestures while it is on, and the target and actual poses.
void DrawTeleopRows(const GripperView& view, const KeyMap& keys, GripperCommands* commands) {
  bool teleop = view.teleop;
  const std::string label = "Teleop focus (" + FirstKeyName(keys, KeyAction::kTeleop) + ", " +
                            FirstKeyName(keys, KeyAction::kTeleopLeave) + " leaves)###teleop";
  if (ImGui::Checkbox(label.c_str(), &teleop)) commands->SetTeleop(teleop);
  if (view.teleop) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("drag: move in x-y   Shift+drag or scroll: height");
    ImGui::TextDisabled("keys: %s", MotionKeysText(keys, view.can_tilt).c_str());
    const std::string grasp = FirstKeyName(keys, KeyAction::kTeleopGrasp);
    ImGui::TextDisabled(view.can_tilt ? "Ctrl+drag: yaw   Alt+drag: tilt   %s: open/close   right drag: camera"
                                      : "Ctrl+drag: yaw   %s: open/close   right drag: camera",
                        grasp.c_str());
    ImGui::PopTextWrapPos();
  }
  constexpr double kDeg = 57.29577951308232;
  for (const auto& [label, p] : {std::pair{"target", &view.target}, std::pair{"actual", &view.actual}}) {
    if (view.can_tilt) {
      ImGui::Text("%s  x %.3f  y %.3f  z %.3f m\n        yaw %.1f  tilt %.1f deg", label, p->x, p->y, p->z,
                  p->yaw * kDeg, p->tilt * kDeg);
    } else {
      ImGui::Text("%s  x %.3f  y %.3f  z %.3f m\n        yaw %.1f deg", label, p->x, p->y, p->z, p->yaw * kDeg);
    }
  }
}

// Open/close and the grip force.
void DrawGripRow(const GripperView& view, const KeyMap& keys, GripperCommands* commands) {
  const bool closed = view.grip == GripState::kClosed;
  const std::string label =
      std::string(closed ? "Open (" : "Close (") + FirstKeyName(keys, KeyAction::kTeleopGrasp) + ")###grip";
  if (ImGui::Button(label.c_str())) commands->SetGripClosed(!closed);
  ImGui::SameLine();
  if (view.grip_force_limited) {
    float force = static_cast<float>(view.grip_force);
    ImGui::SetNextItemWidth(Scaled(120));
    if (ImGui::SliderFloat("grip force [N]", &force, static_cast<float>(kMinGripForce),
                           static_cast<float>(kMaxGripForce), "%.1f")) {
      commands->SetGripForce(force);
    }
  } else {
    ImGui::TextDisabled("fingers press with their effort limits");
  }
}

// The stopped take as a demonstration: the dataset file, Keep as a success
// or a failure, Discard.
void DrawDatasetRows(const GripperView& view, UiState* ui, GripperCommands* commands) {
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - Scaled(70));
  ImGui::InputText("dataset##dataset_path", &ui->gripper.dataset_path);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("The HDF5 file kept takes are appended to as data/demo_N (robomimic's layout:\n"
                      "states, actions, obs/...; docs/datasets.md). stiction-sim --replay-dataset FILE\n"
                      "replays them and checks every state.");
  }
  ImGui::SetNextItemWidth(Scaled(90));
  ImGui::InputInt("##replay_demo", &ui->gripper.replay_demo);
  ui->gripper.replay_demo = std::max(ui->gripper.replay_demo, 0);
  ImGui::SameLine();
  if (ImGui::Button("Replay demo")) commands->ReplayDemo(ui->gripper.dataset_path, ui->gripper.replay_demo);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Resets and drives every step with data/demo_N's recorded actions, then says whether\n"
                      "every state matched the recording bit for bit. T takes over.");
  }
  if (!view.demo_playing.empty()) ImGui::TextDisabled("replaying %s", view.demo_playing.c_str());
  if (!view.take_held) {
    if (view.demos_kept > 0) {
      ImGui::TextDisabled("%d take%s kept, the last in %s", view.demos_kept, view.demos_kept == 1 ? "" : "s",
                          view.dataset_file.c_str());
    } else {
      ImGui::TextDisabled("Record, teleoperate, Stop: then keep the take here");
    }
    return;
  }
  ImGui::Text("take: %.2f s", view.take_seconds);
  ImGui::SameLine();
  if (ImGui::Button("Keep: success")) commands->KeepTake(ui->gripper.dataset_path, true);
  ImGui::SameLine();
  if (ImGui::Button("Keep: failure")) commands->KeepTake(ui->gripper.dataset_path, false);
  ImGui::SameLine();
  if (ImGui::Button("Discard")) commands->DiscardTake();
  if (!view.take_not_reproducible.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.2f, 1.0f), "not replayable from its actions alone: %s",
                       view.take_not_reproducible.c_str());
  }
}

// Record / Stop, Save and Replay with their file fields.
void DrawRecordRows(const GripperView& view, UiState* ui, GripperCommands* commands) {
  if (!view.recording) {
    if (ImGui::Button("Record")) commands->StartCommandRecording();
  } else {
    if (ImGui::Button("Stop")) commands->StopCommandRecording();
  }
  ImGui::SameLine();
  if (view.recording) {
    ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f), "REC %d commands", view.recorded_commands);
  } else {
    ImGui::Text("%d commands recorded", view.recorded_commands);
  }
  const float field = ImGui::GetContentRegionAvail().x - Scaled(70);
  ImGui::SetNextItemWidth(field);
  ImGui::InputText("##record_path", &ui->gripper.record_path);
  ImGui::SameLine();
  if (ImGui::Button("Save")) commands->SaveCommandRecording(ui->gripper.record_path);
  if (ImGui::Button("Save branch")) commands->SaveBranch(ui->gripper.record_path);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Writes the timeline's run from t = 0 to now to the file above: every gripper command\n"
                      "(yours and the script's) at its step, and the parameter edits as set: entries.\n"
                      "Replay (or stiction-sim SCENE --commands FILE) reproduces it from the scene file.");
  }
  ImGui::SetNextItemWidth(field);
  ImGui::InputText("##replay_path", &ui->gripper.replay_path);
  ImGui::SameLine();
  if (ImGui::Button("Replay")) commands->ReplayCommands(ui->gripper.replay_path);
  if (!view.replay_file.empty()) {
    ImGui::TextDisabled("playing %s%s", view.replay_file.c_str(), view.replay_finished ? " (done)" : "");
    if (!view.waiting_for.empty()) ImGui::TextDisabled("waiting for %s", view.waiting_for.c_str());
  }
  DrawDatasetRows(view, ui, commands);
}

// What is held, and per finger: normal force, friction utilisation, slip
// speed and stick/slip.
void DrawReadoutTable(const GraspReadout& g) {
  ImGui::Text("holding: %s", g.holding() ? g.held_name.c_str() : "nothing");
  if (!ImGui::BeginTable("fingers", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                           ImGuiTableFlags_SizingStretchProp)) {
    return;
  }
  for (const char* h : {"finger", "f_n [N]", "util.", "slip [um/s]", "state"}) {
    ImGui::TableSetupColumn(h);
  }
  ImGui::TableHeadersRow();
  for (const FingerReadout& r : g.fingers) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(r.name.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%.2f", r.normal_force);
    ImGui::TableSetColumnIndex(2);
    ImGui::Text("%.3f", r.friction_utilisation);
    ImGui::TableSetColumnIndex(3);
    ImGui::Text("%.2f", r.slip_speed * 1e6);
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(r.num_contacts == 0 ? "-" : r.slipping ? "slip" : "stick");
  }
  ImGui::EndTable();
}

// Per-finger plots: open by default for two fingers, folded for a hand.
void DrawFingerPlots(const GraspReadout& g, UiState* ui) {
  const GripperUi& p = ui->gripper;
  if (!ImGui::CollapsingHeader("plots per finger", g.fingers.size() <= 2 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  if (!p.timeline.empty()) {  // From the timeline's states: nothing to clear.
    DrawTimelineFingerPlots(g, p.timeline);
    return;
  }
  for (std::size_t f = 0; f < p.normal_force.size() && f < g.fingers.size(); ++f) {
    const std::string& name = g.fingers[f].name;
    PlotLine(("normal " + name + " [N]").c_str(), p.normal_force[f], "%.2f N", 0.0f,
             std::max(p.normal_force[f].max(), 1.0f) * 1.1f);
    PlotLine(("utilisation " + name).c_str(), p.utilisation[f], "%.3f", 0.0f, 1.05f);
    PlotLine(("slip " + name + " [um/s]").c_str(), p.slip_speed[f], "%.2f um/s", 0.0f, p.slip_speed[f].max() * 1.1f);
  }
  if (ImGui::SmallButton("clear plots")) ui->gripper.Clear();
}

}  // namespace

void DrawGripperSection(const GripperView& view, UiState* ui, GripperCommands* commands) {
  if (!view.present) return;
  if (!view.name.empty()) ImGui::Text("gripper '%s' (in teleop, T takes the next)", view.name.c_str());
  DrawTeleopRows(view, ui->keys, commands);
  DrawGripRow(view, ui->keys, commands);
  DrawDeviceRows(ui);
  ImGui::Separator();
  DrawRecordRows(view, ui, commands);
  ImGui::Separator();
  DrawReadoutTable(view.readout);
  DrawFingerPlots(view.readout, ui);
}

}  // namespace stiction::app
