#include "app/ui/panels.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>
#include <cstdio>

#include "app/input/key_bindings.h"
#include "app/physics_clock.h"
#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"

namespace stiction::app {
namespace {

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_AlwaysAutoResize;

void DrawSimulationPanel(const AppView& view, UiState* ui, AppCommands* commands) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(430, 0), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Simulation")) {
    ImGui::End();
    return;
  }
  // Scene file.
  ImGui::SetNextItemWidth(230);
  const bool enter = ImGui::InputText("##scene", &ui->scene_path_field, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) ui->pending_open = ui->scene_path_field;
  ImGui::SameLine();
  if (ImGui::Button("Reload")) ui->pending_reload = true;
  if (view.sim != nullptr && !view.sim->scene().description.empty()) {
    ImGui::PushTextWrapPos(410);
    ImGui::TextDisabled("%s", view.sim->scene().description.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();

  // Run control.
  if (ImGui::Button(view.paused ? "Run  (Space)" : "Pause (Space)")) commands->TogglePause();
  ImGui::SameLine();
  if (ImGui::Button("Step (->)")) commands->StepOnce();
  ImGui::SameLine();
  if (ImGui::Button("Reset (Bksp)")) commands->ResetSimulation();

  // Real-time factor: a log slider from 1% to 100x, or unlimited.
  bool unlimited = view.unlimited;
  if (ImGui::Checkbox("As fast as possible", &unlimited)) commands->SetUnlimitedSpeed(unlimited);
  if (!unlimited) {
    float rtf = static_cast<float>(view.target_rtf);
    ImGui::SetNextItemWidth(200);
    if (ImGui::SliderFloat("real-time factor", &rtf, static_cast<float>(PhysicsClock::kMinRealTimeFactor),
                           static_cast<float>(PhysicsClock::kMaxRealTimeFactor), "%.3gx",
                           ImGuiSliderFlags_Logarithmic)) {
      commands->SetRealTimeFactor(rtf);
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("1x")) commands->SetRealTimeFactor(1.0);
  }
  float budget_ms = static_cast<float>(view.physics_budget_s * 1e3);
  ImGui::SetNextItemWidth(200);
  if (ImGui::SliderFloat("physics budget [ms/frame]", &budget_ms, 1.0f, 50.0f, "%.0f")) {
    commands->SetPhysicsBudget(budget_ms * 1e-3);
  }
  ImGui::Separator();

  // Engine parameters, applied together from the next step.
  SimulationEdits& e = ui->sim_edits;
  ImGui::SetNextItemWidth(140);
  ImGui::InputDouble("time step dt [s]", &e.time_step, 0.0, 0.0, "%.6g");
  ImGui::TextDisabled("range %.0e .. %.1f s", kMinTimeStep, kMaxTimeStep);
  ImGui::SetNextItemWidth(180);
  if (ImGui::Combo("integrator", &e.integrator, kIntegratorChoices, kNumIntegratorChoices)) {
    if (e.integrator < kNumIntegratorChoices - 1) {
      const IntegratorDescription preset = IntegratorPreset(kIntegratorChoices[e.integrator]);
      e.theta = preset.theta;
      e.theta_vq = preset.theta_vq;
    }
  }
  ImGui::SetNextItemWidth(180);
  bool raw_changed = ImGui::InputDouble("theta  [0, 1]", &e.theta, 0.05, 0.1, "%.4g");
  ImGui::SetNextItemWidth(180);
  raw_changed |= ImGui::InputDouble("theta_vq  [0, 1]", &e.theta_vq, 0.05, 0.1, "%.4g");
  if (raw_changed) e.integrator = kNumIntegratorChoices - 1;  // Raw values: custom.
  if (ImGui::Button("Apply")) ApplySimulationEdits(ui, commands);
  ImGui::SameLine();
  if (ImGui::Button("Revert") && view.sim != nullptr) ui->sim_edits = SimulationEditsFrom(*view.sim);
  if (view.sim != nullptr) {
    ImGui::TextDisabled("engine: dt = %.6g s, %s (theta = %.3g, theta_vq = %.3g), solver %s",
                        view.sim->time_step(), view.sim->integrator().name.c_str(),
                        view.sim->integrator().theta, view.sim->integrator().theta_vq,
                        view.sim->solver_name().c_str());
  }
  if (!ui->message.empty()) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(410);
    ImGui::TextColored(ui->message_is_error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f),
                       "%s", ui->message.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

void DrawVisualizationPanel(UiState* ui) {
  ImGui::SetNextWindowPos(ImVec2(10, 470), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Visualization", nullptr, kPanelFlags)) {
    ImGui::End();
    return;
  }
  RenderOptions& r = ui->viz.render;
  ImGui::Checkbox("shadows", &r.shadows);
  ImGui::SameLine();
  ImGui::Checkbox("grid", &r.grid);
  ImGui::Checkbox("wireframe", &r.wireframe);
  ImGui::SameLine();
  ImGui::Checkbox("transparent", &r.transparent);
  ImGui::Checkbox("collision-only geometry", &r.show_collision_only);
  ImGui::Checkbox("body frames", &ui->viz.body_frames);
  ImGui::SameLine();
  ImGui::Checkbox("centres of mass", &ui->viz.centers_of_mass);
  ImGui::Checkbox("perturbation force", &ui->viz.perturbation_force);
  bool msaa = r.msaa_samples > 1;
  if (ImGui::Checkbox("MSAA 4x", &msaa)) r.msaa_samples = msaa ? 4 : 0;
  ImGui::End();
}

void Plot(const char* label, const RollingPlot& plot, const char* format) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, format, static_cast<double>(plot.last()));
  const auto& v = plot.values();
  ImGui::PlotLines(label, v.empty() ? nullptr : v.data(), static_cast<int>(v.size()), 0, overlay,
                   std::min(0.0f, plot.min()), std::max(plot.max() * 1.1f, 1e-6f), ImVec2(260, 50));
}

void DrawPlotsPanel(UiState* ui) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10, vp->WorkPos.y + vp->WorkSize.y - 10),
                          ImGuiCond_FirstUseEver, ImVec2(1, 1));
  if (!ImGui::Begin("Plots", nullptr, kPanelFlags)) {
    ImGui::End();
    return;
  }
  Plot("iterations", ui->plots.iterations, "%.0f per step");
  Plot("contacts", ui->plots.contacts, "%.0f");
  Plot("achieved RTF", ui->plots.achieved_rtf, "%.3gx");
  Plot("kinetic energy", ui->plots.kinetic_energy, "%.4g J");
  if (ImGui::SmallButton("clear")) ui->plots.Clear();
  ImGui::End();
}

void DrawInfoOverlay(const AppView& view) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10, vp->WorkPos.y + 10), ImGuiCond_Always,
                          ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.45f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Info", nullptr, flags)) {
    const Snapshot* s = view.snapshot;
    ImGui::Text("%s", view.paused ? "PAUSED" : "running");
    if (s != nullptr) ImGui::Text("sim time     %.4f s", s->time);
    if (view.unlimited) {
      ImGui::Text("RTF          %.3gx (as fast as possible)", view.achieved_rtf);
    } else {
      ImGui::Text("RTF          %.3gx (target %.3gx)", view.achieved_rtf, view.target_rtf);
    }
    ImGui::Text("FPS          %.1f (frame %.1f ms)", view.fps, view.frame_ms);
    ImGui::Text("physics      %.2f ms, %d steps", view.physics_ms, view.steps_last_frame);
    ImGui::Text("render       %.2f ms", view.render_ms);
    if (s != nullptr) {
      ImGui::Text("iterations   %d", s->last_stats.iterations);
      ImGui::Text("contacts     %d", s->last_stats.num_contacts);
      ImGui::Text("kinetic E    %.5g J", s->kinetic_energy);
    }
    if (view.selected_body > 0) ImGui::Text("selected     %s", view.selected_name.c_str());
    ImGui::TextDisabled("F1: bindings   Tab: hide panels");
  }
  ImGui::End();
}

void DrawHelp(UiState* ui) {
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (ImGui::Begin("Bindings (F1)", &ui->show_help, kPanelFlags)) {
    if (ImGui::BeginTable("bindings", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const Binding& b : KeyBindings()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(b.input);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(b.action);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace

SimulationEdits SimulationEditsFrom(const Simulation& sim) {
  SimulationEdits e;
  e.time_step = sim.time_step();
  const IntegratorDescription& integrator = sim.integrator();
  e.integrator = kNumIntegratorChoices - 1;
  for (int i = 0; i < kNumIntegratorChoices - 1; ++i) {
    if (integrator.name == kIntegratorChoices[i]) e.integrator = i;
  }
  e.theta = integrator.theta;
  e.theta_vq = integrator.theta_vq;
  return e;
}

bool ApplySimulationEdits(UiState* ui, AppCommands* commands) {
  const SimulationEdits& e = ui->sim_edits;
  if (!std::isfinite(e.time_step) || e.time_step < kMinTimeStep || e.time_step > kMaxTimeStep) {
    char text[160];
    std::snprintf(text, sizeof text, "time step %.6g s refused: must be in [%.0e, %.1f] s", e.time_step,
                  kMinTimeStep, kMaxTimeStep);
    ui->Error(text);
    return false;
  }
  IntegratorDescription integrator;
  try {
    if (e.integrator >= 0 && e.integrator < kNumIntegratorChoices - 1) {
      integrator = IntegratorPreset(kIntegratorChoices[e.integrator]);
    } else {
      integrator = IntegratorDescription{"custom", e.theta, e.theta_vq};
    }
    if (!(integrator.theta >= 0 && integrator.theta <= 1 && integrator.theta_vq >= 0 &&
          integrator.theta_vq <= 1)) {
      throw InputError("integrator: theta and theta_vq must be in [0, 1]");
    }
    commands->SetIntegrator(integrator);
    commands->SetTimeStep(e.time_step);
  } catch (const InputError& error) {
    ui->Error(std::string("refused: ") + error.what());
    return false;
  }
  char text[160];
  std::snprintf(text, sizeof text, "applied: dt = %.6g s, %s (theta = %.3g, theta_vq = %.3g)", e.time_step,
                integrator.name.c_str(), integrator.theta, integrator.theta_vq);
  ui->Info(text);
  return true;
}

void DrawPanels(const AppView& view, UiState* ui, AppCommands* commands) {
  if (ui->show_panels) {
    DrawSimulationPanel(view, ui, commands);
    DrawVisualizationPanel(ui);
    DrawPlotsPanel(ui);
    DrawInfoOverlay(view);
  }
  if (ui->show_help) DrawHelp(ui);
}

}  // namespace stiction::app
