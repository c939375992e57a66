#include "app/ui/gripper_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

#include "engine/scene/scene_description.h"

namespace stiction::app {
namespace {

void PlotLine(const char* label, const RollingPlot& plot, const char* format, float lo, float hi) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, format, static_cast<double>(plot.last()));
  const auto& v = plot.values();
  ImGui::PlotLines(label, v.empty() ? nullptr : v.data(), static_cast<int>(v.size()), 0, overlay, lo,
                   std::max(hi, lo + 1e-6f), ImVec2(260, 40));
}

}  // namespace

void PushGraspPlots(const GraspReadout& readout, GripperUi* plots) {
  for (int f = 0; f < 2; ++f) {
    const FingerReadout& r = readout.fingers[f];
    plots->normal_force[f].Push(static_cast<float>(r.normal_force));
    plots->utilisation[f].Push(static_cast<float>(r.friction_utilisation));
    plots->slip_speed[f].Push(static_cast<float>(r.slip_speed * 1e6));
  }
}

void DrawGripperPanel(const GripperView& view, UiState* ui, GripperCommands* commands) {
  if (!view.present) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 10, vp->WorkPos.y + vp->WorkSize.y - 10), ImGuiCond_FirstUseEver,
                          ImVec2(0, 1));
  if (!ImGui::Begin("Gripper", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  // Teleop focus.
  bool teleop = view.teleop;
  if (ImGui::Checkbox("Teleop focus (T, Esc leaves)", &teleop)) commands->SetTeleop(teleop);
  if (view.teleop) {
    ImGui::TextDisabled("drag: move in x-y   Shift+drag or scroll: height");
    ImGui::TextDisabled("Ctrl+drag: yaw   G: open/close   right drag: camera");
  }
  ImGui::Text("target  x %.3f  y %.3f  z %.3f m  yaw %.1f deg", view.target.x, view.target.y, view.target.z,
              view.target.yaw * 57.29577951308232);
  ImGui::Text("actual  x %.3f  y %.3f  z %.3f m  yaw %.1f deg", view.actual.x, view.actual.y, view.actual.z,
              view.actual.yaw * 57.29577951308232);

  // Grip.
  const bool closed = view.grip == GripState::kClosed;
  if (ImGui::Button(closed ? "Open (G)" : "Close (G)")) commands->SetGripClosed(!closed);
  ImGui::SameLine();
  float force = static_cast<float>(view.grip_force);
  ImGui::SetNextItemWidth(160);
  if (ImGui::SliderFloat("grip force [N]", &force, static_cast<float>(kMinGripForce),
                         static_cast<float>(kMaxGripForce), "%.1f")) {
    commands->SetGripForce(force);
  }

  // Record and replay.
  ImGui::Separator();
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
  ImGui::SetNextItemWidth(200);
  ImGui::InputText("##record_path", &ui->gripper.record_path);
  ImGui::SameLine();
  if (ImGui::Button("Save")) commands->SaveCommandRecording(ui->gripper.record_path);
  ImGui::SetNextItemWidth(200);
  ImGui::InputText("##replay_path", &ui->gripper.replay_path);
  ImGui::SameLine();
  if (ImGui::Button("Replay")) commands->ReplayCommands(ui->gripper.replay_path);
  if (!view.replay_file.empty()) {
    ImGui::TextDisabled("playing %s%s", view.replay_file.c_str(), view.replay_finished ? " (done)" : "");
  }

  // Grasp readout.
  ImGui::Separator();
  const GraspReadout& g = view.readout;
  ImGui::Text("holding: %s", g.holding() ? g.held_name.c_str() : "nothing");
  if (ImGui::BeginTable("fingers", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    for (const char* h : {"finger", "normal [N]", "|gt|/(mu gn)", "slip [um/s]", "state"}) {
      ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    for (int f = 0; f < 2; ++f) {
      const FingerReadout& r = g.fingers[f];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(f == 0 ? "left" : "right");
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
  const GripperUi& p = ui->gripper;
  PlotLine("normal L [N]", p.normal_force[0], "%.2f N", 0.0f, std::max(p.normal_force[0].max(), 1.0f) * 1.1f);
  PlotLine("normal R [N]", p.normal_force[1], "%.2f N", 0.0f, std::max(p.normal_force[1].max(), 1.0f) * 1.1f);
  PlotLine("utilisation L", p.utilisation[0], "%.3f", 0.0f, 1.05f);
  PlotLine("utilisation R", p.utilisation[1], "%.3f", 0.0f, 1.05f);
  PlotLine("slip L [um/s]", p.slip_speed[0], "%.2f um/s", 0.0f, p.slip_speed[0].max() * 1.1f);
  PlotLine("slip R [um/s]", p.slip_speed[1], "%.2f um/s", 0.0f, p.slip_speed[1].max() * 1.1f);
  if (ImGui::SmallButton("clear plots")) ui->gripper.Clear();
  ImGui::End();
}

}  // namespace stiction::app
