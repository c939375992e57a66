#include "app/ui/panels.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "app/input/key_bindings.h"
#include "app/ui/demo_scenes.h"
#include "app/physics_clock.h"
#include "engine/common/constants.h"
#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/parameters/parameter_binding.h"

namespace stiction::app {
namespace {

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_AlwaysAutoResize;
constexpr double kMinSliderStiffness = 1e1, kMaxSliderStiffness = 1e14;  // [N/m]
constexpr double kTwoPi = 2.0 * kPi;

void DrawMessage(const UiState& ui) {
  if (ui.message.empty()) return;
  ImGui::Separator();
  ImGui::PushTextWrapPos(410);
  ImGui::TextColored(ui.message_is_error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f), "%s",
                     ui.message.c_str());
  ImGui::PopTextWrapPos();
}

double GravityNorm(const Simulation& sim) { return sim.model().gravity().norm(); }

// The Record button and the video frame rate (docs/viewer.md "Video").
void DrawRecordControls(const AppView& view, UiState* ui, AppCommands* commands) {
  if (view.recording) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.1f, 0.1f, 1.0f));
    if (ImGui::Button("Stop recording (V)")) commands->ToggleRecording();
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::Text("%lld frames, %.2f s at %.4g fps", view.video_frames, view.video_seconds, view.video_fps);
    ImGui::TextDisabled("%s %s", view.video_png_sequence ? "PNG frames in" : "to", view.video_path.c_str());
  } else {
    if (ImGui::Button("Record video (V)")) commands->ToggleRecording();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::InputDouble("frames per simulated s", &ui->video_fps, 0.0, 0.0, "%.4g");
    ui->video_fps = std::clamp(ui->video_fps, 1.0, 240.0);
  }
}

// Red dot, elapsed simulated time and frames written, over the view. Drawn
// by ImGui, so it is never in the recorded frames (they are the scene image).
void DrawRecordingIndicator(const AppView& view) {
  if (!view.recording) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  char text[96];
  std::snprintf(text, sizeof text, "REC  %.2f s  %lld frames", view.video_seconds, view.video_frames);
  const ImVec2 size = ImGui::CalcTextSize(text);
  const float radius = 7.0f;
  // Bottom centre: the top edge holds the collapsed panel headers.
  const ImVec2 origin(vp->WorkPos.x + 0.5f * (vp->WorkSize.x - size.x) - radius,
                      vp->WorkPos.y + vp->WorkSize.y - size.y - 16.0f);
  draw->AddRectFilled(ImVec2(origin.x - 8, origin.y - 4),
                      ImVec2(origin.x + 2 * radius + 8 + size.x + 8, origin.y + size.y + 4),
                      IM_COL32(0, 0, 0, 140), 6.0f);
  draw->AddCircleFilled(ImVec2(origin.x + radius, origin.y + 0.5f * size.y), radius, IM_COL32(230, 30, 30, 255));
  draw->AddText(ImVec2(origin.x + 2 * radius + 8, origin.y), IM_COL32(255, 255, 255, 255), text);
}

// Tooltip for the last item: the parameter's description and valid range.
void ParameterTooltip(const ParameterBinding& p) {
  if (!ImGui::IsItemHovered()) return;
  const std::string range = std::holds_alternative<bool*>(p.value) ? "" : "  (" + p.range.Describe() + ")";
  ImGui::SetTooltip("%.*s%s", static_cast<int>(p.description.size()), p.description.data(), range.c_str());
}

// One widget per parameter of a table (engine/parameters/): its key and
// unit as the label, its description and range as the tooltip. Values out
// of range are refused by the engine on Apply, with the range in the message.
void DrawParameterTable(const ParameterTable& table, const char* id) {
  for (const ParameterBinding& p : table) {
    std::string label(p.key);
    if (!p.unit.empty()) label += " [" + std::string(p.unit) + "]";
    label += "##" + std::string(id);
    ImGui::SetNextItemWidth(110);
    if (double* const* number = std::get_if<double*>(&p.value)) {
      ImGui::InputDouble(label.c_str(), *number, 0.0, 0.0, "%.4g");
    } else if (int* const* integer = std::get_if<int*>(&p.value)) {
      ImGui::InputInt(label.c_str(), *integer);
    } else {
      ImGui::Checkbox(label.c_str(), std::get<bool*>(p.value));
    }
    ParameterTooltip(p);
  }
}

// The items of a combo over a registry of named choices
// (engine/parameters/): each entry's name, its description as the tooltip.
// Returns the entry picked this frame, else null.
template <typename Entry>
const Entry* RegistryItems(std::span<const Entry> entries, std::string_view current) {
  const Entry* chosen = nullptr;
  for (const Entry& e : entries) {
    if (ImGui::Selectable(std::string(e.name).c_str(), e.name == current)) chosen = &e;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.*s", static_cast<int>(e.description.size()), e.description.data());
  }
  return chosen;
}

// A combo over a registry; returns the entry picked this frame, else null.
template <typename Entry>
const Entry* RegistryCombo(const char* label, std::span<const Entry> entries, std::string_view current) {
  const Entry* chosen = nullptr;
  if (ImGui::BeginCombo(label, std::string(current).c_str())) {
    chosen = RegistryItems(entries, current);
    ImGui::EndCombo();
  }
  return chosen;
}

// The scene's imported robots (scene key `robots:`, or a robot file opened
// directly) and, collapsed, the importer's notes: the elements of the files
// it skipped (MJCF tendons, URDF <mimic>, ...). The same notes go to stderr
// at load (App::LoadScene).
void DrawRobots(const SceneDescription& scene) {
  if (scene.robots.empty()) return;
  size_t notes = 0;
  for (const RobotSummary& robot : scene.robots) {
    ImGui::Text("robot %s", robot.name.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%s, %s)", robot.format.c_str(), std::filesystem::path(robot.file).filename().c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", robot.file.c_str());
    notes += robot.notes.size();
  }
  if (notes == 0) return;
  const std::string label = "Import notes (" + std::to_string(notes) + ")###import_notes";
  if (ImGui::TreeNode(label.c_str())) {
    ImGui::PushTextWrapPos(410);
    for (const RobotSummary& robot : scene.robots) {
      for (const std::string& note : robot.notes) ImGui::BulletText("%s", note.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::TreePop();
  }
}

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
  ImGui::SetNextItemWidth(230);
  if (ImGui::BeginCombo("demos", "open a demo scene...")) {
    const std::string dir = std::filesystem::path(STICTION_DEFAULT_SCENE).parent_path().string();
    for (const DemoScene& demo : DemoScenes()) {
      if (ImGui::Selectable(demo.title)) ui->pending_open = dir + "/" + demo.file;
    }
    ImGui::EndCombo();
  }
  if (view.sim != nullptr && !view.sim->scene().description.empty()) {
    ImGui::PushTextWrapPos(410);
    ImGui::TextDisabled("%s", view.sim->scene().description.c_str());
    ImGui::PopTextWrapPos();
  }
  if (view.sim != nullptr) DrawRobots(view.sim->scene());
  ImGui::Separator();

  // Run control.
  if (ImGui::Button(view.paused ? "Run  (Space)" : "Pause (Space)")) commands->TogglePause();
  ImGui::SameLine();
  if (ImGui::Button("Step (->)")) commands->StepOnce();
  ImGui::SameLine();
  if (ImGui::Button("Reset (Bksp)")) commands->ResetSimulation();
  DrawRecordControls(view, ui, commands);

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
  if (const IntegratorPresetInfo* preset = RegistryCombo("integrator", IntegratorPresets(), e.integrator.name)) {
    e.integrator = IntegratorPreset(preset->name);
  }
  ImGui::SetNextItemWidth(180);
  bool raw_changed = ImGui::InputDouble("theta  [0, 1]", &e.integrator.theta, 0.05, 0.1, "%.4g");
  ImGui::SetNextItemWidth(180);
  raw_changed |= ImGui::InputDouble("theta_vq  [0, 1]", &e.integrator.theta_vq, 0.05, 0.1, "%.4g");
  if (raw_changed) e.integrator.name = std::string(kCustomIntegrator);  // Raw values: custom.
  if (ImGui::Button("Apply")) ApplySimulationEdits(ui, commands);
  ImGui::SameLine();
  if (ImGui::Button("Revert") && view.sim != nullptr) ui->sim_edits = SimulationEditsFrom(*view.sim);
  if (view.sim != nullptr) {
    ImGui::TextDisabled("engine: dt = %.6g s, %s (theta = %.3g, theta_vq = %.3g), solver %s",
                        view.sim->time_step(), view.sim->integrator().name.c_str(),
                        view.sim->integrator().theta, view.sim->integrator().theta_vq,
                        std::string(SolverTypeName(view.sim->solver_type())).c_str());
  }
  DrawMessage(*ui);
  ImGui::End();
}

void DrawContactPanel(const AppView& view, UiState* ui, AppCommands* commands) {
  if (view.sim == nullptr) return;
  const Simulation& sim = *view.sim;
  ImGui::SetNextWindowPos(ImVec2(450, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Contact", nullptr, kPanelFlags)) {
    ImGui::End();
    return;
  }
  ContactEdits& e = ui->contact_edits;
  const double g = GravityNorm(sim), dt = sim.time_step();
  ImGui::SetNextItemWidth(180);
  if (const ContactModelInfo* model =
          RegistryCombo("contact model (scene)", ContactModels(), ContactModelName(e.params.model))) {
    e.params.model = model->model;
  }
  ImGui::TextDisabled("  sap: linear dissipation tau_d; lagged / similar: Hunt & Crossley d, stiction v_s");
  ImGui::SetNextItemWidth(120);
  ImGui::InputDouble("near-rigid threshold beta [-]", &e.params.near_rigid_threshold, 0.1, 1.0, "%.4g");
  ImGui::TextDisabled("  beta >= 0 (paper: 1); resting penetration beta^2 g dt^2/(4 pi^2) = %.3g m",
                      NearRigidPenetration(e.params.near_rigid_threshold, g, dt));
  ImGui::SetNextItemWidth(120);
  ImGui::InputDouble("stiction tolerance sigma [-]", &e.params.stiction_tolerance, 0.0, 0.0, "%.4g");
  ImGui::TextDisabled("  sigma > 0 (paper: 1e-3); with dt = %.4g s, |g| = %.3g m/s^2", dt, g);
  ImGui::Checkbox("stiffen near-rigid constraints to their load", &e.params.load_aware_regularization);
  ImGui::TextDisabled("  on: a contact, limit or weld that carries more than its bodies weigh holds it as\n"
                      "  if resting under its own weight; off: [SAP] Eq. (29) as published");
  ImGui::SetNextItemWidth(120);
  ImGui::InputDouble("max load factor lambda_max [-]", &e.params.max_load_factor, 0.0, 0.0, "%.4g");
  ImGui::TextDisabled("  lambda_max >= 1: at most this many times stiffer than Eq. (29)");
  for (size_t i = 0; i < e.materials.size(); ++i) {
    MaterialEdit& m = e.materials[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::Separator();
    ImGui::Text("material '%s'", m.name.c_str());
    ContactMaterial& c = m.material;
    ImGui::SetNextItemWidth(200);
    ImGui::SliderScalar("stiffness k [N/m]", ImGuiDataType_Double, &c.stiffness, &kMinSliderStiffness,
                        &kMaxSliderStiffness, "%.3g", ImGuiSliderFlags_Logarithmic);
    ImGui::SetNextItemWidth(120);
    ImGui::InputDouble("dissipation tau_d [s]", &c.dissipation, 0.0, 0.0, "%.4g");
    ImGui::SetNextItemWidth(120);
    ImGui::InputDouble("friction mu [-]", &c.friction, 0.05, 0.1, "%.3g");
    ImGui::SetNextItemWidth(120);
    ImGui::InputDouble("H&C dissipation d [s/m]", &c.hc_dissipation, 0.0, 0.0, "%.4g");
    ImGui::SetNextItemWidth(120);
    ImGui::InputDouble("stiction velocity v_s [m/s]", &c.stiction_velocity, 0.0, 0.0, "%.4g");
    ImGui::SetNextItemWidth(180);
    // The first item, "(scene)", clears the material's own model.
    const std::string current(c.model ? ContactModelName(*c.model) : std::string_view("(scene)"));
    if (ImGui::BeginCombo("contact model", current.c_str())) {
      if (ImGui::Selectable("(scene)", !c.model)) c.model.reset();
      if (const ContactModelInfo* info = RegistryItems(ContactModels(), current)) c.model = info->model;
      ImGui::EndCombo();
    }
    ImGui::TextDisabled("  k > 0 (Ctrl+click to type), tau_d >= 0, mu >= 0, d >= 0, v_s > 0; "
                        "SAP stiction slip mu sigma g dt = %.3g m/s",
                        StictionSlipBound(c.friction, e.params.stiction_tolerance, g, dt));
    ImGui::PopID();
  }
  ImGui::Separator();
  if (ImGui::Button("Apply##contact")) ApplyContactEdits(sim, ui, commands);
  ImGui::SameLine();
  if (ImGui::Button("Revert##contact")) ui->contact_edits = ContactEditsFrom(sim);
  const ContactModelParameters& live = sim.contact_model_parameters();
  ImGui::TextDisabled("engine: %s, beta = %.4g, sigma = %.4g, load-aware %s (lambda_max = %.4g)",
                      std::string(ContactModelName(live.model)).c_str(), live.near_rigid_threshold,
                      live.stiction_tolerance, live.load_aware_regularization ? "on" : "off",
                      live.max_load_factor);
  DrawMessage(*ui);
  ImGui::End();
}

void DrawSolverPanel(const AppView& view, UiState* ui, AppCommands* commands) {
  if (view.sim == nullptr) return;
  const Simulation& sim = *view.sim;
  ImGui::SetNextWindowPos(ImVec2(450, 40), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Solver", nullptr, kPanelFlags)) {
    ImGui::End();
    return;
  }
  SolverEdits& e = ui->solver_edits;
  ImGui::SetNextItemWidth(140);
  if (const SolverTypeInfo* type = RegistryCombo("solver", SolverTypes(), SolverTypeName(e.type))) {
    e.type = type->type;
  }
  ImGui::TextDisabled("SAP (convex, regularized) fields; the chosen solver's own fields below");
  SapSolverParameters& sap = e.sap;
  char preview[32];
  std::snprintf(preview, sizeof preview, "%.0e", sap.relative_tolerance);
  ImGui::SetNextItemWidth(90);
  if (ImGui::BeginCombo("##eps_r_choice", preview)) {
    for (double choice : kRelativeToleranceChoices) {
      char label[32];
      std::snprintf(label, sizeof label, "%.0e", choice);
      if (ImGui::Selectable(label, choice == sap.relative_tolerance)) sap.relative_tolerance = choice;
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::TextUnformatted("eps_r presets");
  DrawParameterTable(BindParameters(sap), "sap");
  ImGui::SetNextItemWidth(140);
  if (const LineSearchInfo* search =
          RegistryCombo("line search", LineSearches(), GetLineSearchInfo(sap.line_search).name)) {
    sap.line_search = search->kind;
  }
  if (sap.line_search == LineSearchKind::kBacktracking) {
    ImGui::SetNextItemWidth(110);
    ImGui::InputDouble("rho (0, 1)", &sap.backtracking_rho, 0.0, 0.0, "%.3g");
    ImGui::SetNextItemWidth(110);
    ImGui::InputDouble("Armijo c (0, 1)", &sap.armijo_c, 0.0, 0.0, "%.3g");
    ImGui::SetNextItemWidth(110);
    ImGui::InputDouble("alpha_max > 0", &sap.backtracking_alpha_max, 0.0, 0.0, "%.3g");
  }
  const SolverTypeInfo& chosen = GetSolverTypeInfo(e.type);
  if (chosen.own_map) {
    ImGui::Separator();
    ImGui::Text("%.*s", static_cast<int>(chosen.description.size()), chosen.description.data());
    DrawParameterTable(chosen.bind(e), std::string(chosen.name).c_str());
  }
  if (ImGui::Button("Apply##solver")) ApplySolverEdits(ui, commands);
  ImGui::SameLine();
  if (ImGui::Button("Revert##solver")) ui->solver_edits = SolverEditsFrom(sim);
  const SapSolverParameters& p = sim.solver_parameters();
  ImGui::TextDisabled("engine: %s, eps_r = %.3g, eps_a = %.3g, %d iterations, %s",
                      std::string(SolverTypeName(sim.solver_type())).c_str(), p.relative_tolerance,
                      p.absolute_tolerance, p.max_iterations,
                      std::string(GetLineSearchInfo(p.line_search).name).c_str());
  if (GetSolverTypeInfo(sim.solver_type()).augmented_lagrangian) {
    const SolverResult& r = sim.solver_result();
    ImGui::TextDisabled("last step: %d AL iterations, %d inner steps, residual %.2e, AL penalty %.3g kg",
                        r.outer_iterations, r.iterations, r.constraint_residual, r.penalty);
  }
  DrawMessage(*ui);
  ImGui::End();
}

void DrawContactInspector(const AppView& view, UiState* ui) {
  if (view.snapshot == nullptr) return;
  const std::vector<ContactSnapshot>& contacts = view.snapshot->contacts;
  ImGui::SetNextWindowPos(ImVec2(450, 70), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (ui->open_inspector) {
    ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
    ui->open_inspector = false;
  }
  if (!ImGui::Begin("Contacts", nullptr, kPanelFlags)) {
    ImGui::End();
    return;
  }
  ImGui::Text("%zu contacts in the last step (Alt+click a point to pick it)", contacts.size());
  const float rows = static_cast<float>(std::min<size_t>(contacts.size(), 10) + 1);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY;
  if (!contacts.empty() &&
      ImGui::BeginTable("contacts", 5, flags, ImVec2(470, rows * ImGui::GetTextLineHeightWithSpacing() + 6))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn("body A - body B");
    ImGui::TableSetupColumn("phi [mm]");
    ImGui::TableSetupColumn("|f_n| [N]");
    ImGui::TableSetupColumn("state");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(contacts.size()));
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const ContactSnapshot& c = contacts[i];
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        char label[16];
        std::snprintf(label, sizeof label, "%d", i);
        if (ImGui::Selectable(label, ui->selected_contact == i, ImGuiSelectableFlags_SpanAllColumns)) {
          ui->selected_contact = ui->selected_contact == i ? -1 : i;
        }
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%s - %s", c.name_a.c_str(), c.name_b.c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::Text("%.4f", c.phi * 1e3);
        ImGui::TableSetColumnIndex(3);
        ImGui::Text("%.4g", std::abs(c.normal_force()));
        ImGui::TableSetColumnIndex(4);
        ImGui::TextUnformatted(ContactStateName(c));
      }
    }
    ImGui::EndTable();
  }
  const int sel = ui->selected_contact;
  if (sel >= 0 && sel < static_cast<int>(contacts.size())) {
    const ContactSnapshot& c = contacts[sel];
    ImGui::Separator();
    ImGui::Text("contact %d: %s (A) - %s (B)", sel, c.name_a.c_str(), c.name_b.c_str());
    ImGui::Text("point        (%.4f, %.4f, %.4f) m", c.p_W.x(), c.p_W.y(), c.p_W.z());
    ImGui::Text("normal A->B  (%.3f, %.3f, %.3f)", c.R_WC(0, 2), c.R_WC(1, 2), c.R_WC(2, 2));
    ImGui::Text("phi          %.6g m", c.phi);
    ImGui::Text("gamma_n      %.6g N s  (f_n = %.6g N)", c.gamma_C.z(), c.normal_force());
    ImGui::Text("|gamma_t|    %.6g N s  (|f_t| = %.6g N)", c.gamma_C.head<2>().norm(),
                c.friction_force_W().norm());
    ImGui::Text("mu           %.3g", c.mu);
    ImGui::Text("|gamma_t|/(mu gamma_n)  %.4f", c.utilisation);
    ImGui::Text("slip speed   %.6g m/s", c.slip_speed);
    ImGui::Text("state        %s", ContactStateName(c));
    if (ImGui::SmallButton("deselect")) ui->selected_contact = -1;
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
  ImGui::Separator();
  ImGui::TextDisabled("contacts");
  ImGui::Checkbox("points", &ui->viz.contact_points);
  ImGui::SameLine();
  ImGui::Checkbox("friction cones", &ui->viz.friction_cones);
  ImGui::Checkbox("normal forces (blue)", &ui->viz.normal_forces);
  ImGui::SameLine();
  ImGui::Checkbox("friction (magenta)", &ui->viz.friction_forces);
  const double min_scale = 0.01, max_scale = 1e6, min_cone = 0.002, max_cone = 1.0;
  ImGui::SetNextItemWidth(160);
  ImGui::SliderScalar("force scale [N/m]", ImGuiDataType_Double, &ui->viz.force_scale, &min_scale, &max_scale,
                      "%.3g", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SetNextItemWidth(160);
  ImGui::SliderScalar("cone size [m]", ImGuiDataType_Double, &ui->viz.cone_size, &min_cone, &max_cone, "%.3g",
                      ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::TextDisabled("cones: stick green, slip orange, separating grey");
  ImGui::SetNextItemWidth(120);
  if (ImGui::BeginCombo("antialiasing", AntialiasingName(r.antialiasing))) {
    for (Antialiasing mode : kAntialiasingModes) {
      if (ImGui::Selectable(AntialiasingName(mode), mode == r.antialiasing)) r.antialiasing = mode;
    }
    ImGui::EndCombo();
  }
  ImGui::End();
}

void LogPlot(const char* label, const RollingPlot& plot, const char* format) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, format, std::pow(10.0, static_cast<double>(plot.last())));
  const auto& v = plot.values();
  ImGui::PlotLines(label, v.empty() ? nullptr : v.data(), static_cast<int>(v.size()), 0, overlay,
                   std::floor(plot.min()) - 0.5f, std::ceil(plot.max()) + 0.5f, ImVec2(260, 50));
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
  Plot("line-search iterations", ui->plots.line_search_iterations, "%.0f per step");
  LogPlot("log10 e_m", ui->plots.log_momentum_error, "e_m = %.2e");
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
      ImGui::Text("iterations   %d (line search %d)", s->last_stats.iterations,
                  s->last_stats.line_search_iterations);
      ImGui::Text("e_m          %.3g", s->last_stats.momentum_error);
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
  return SimulationEdits{sim.time_step(), sim.integrator()};
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
  IntegratorSettings integrator = e.integrator;
  try {
    // A preset's name with edited θ values is custom.
    if (FindChoice(IntegratorPresets(), integrator.name) != nullptr) {
      const IntegratorSettings preset = IntegratorPreset(integrator.name);
      if (preset.theta != integrator.theta || preset.theta_vq != integrator.theta_vq) {
        integrator.name = std::string(kCustomIntegrator);
      }
    }
    ValidateIntegratorSettings(integrator);  // Before δt changes: all or nothing.
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

ContactEdits ContactEditsFrom(const Simulation& sim) {
  ContactEdits e;
  e.params = sim.contact_model_parameters();
  for (const std::string& name : sim.material_names()) e.materials.push_back(MaterialEdit{name, sim.GetMaterial(name)});
  return e;
}

bool ApplyContactEdits(const Simulation& sim, UiState* ui, AppCommands* commands) {
  const ContactEdits& e = ui->contact_edits;
  // What the engine uses now, to restore on a refusal (all or nothing).
  const ContactModelParameters old_params = sim.contact_model_parameters();
  std::vector<std::pair<std::string, ContactMaterial>> old_materials;
  try {
    for (const MaterialEdit& m : e.materials) old_materials.emplace_back(m.name, sim.GetMaterial(m.name));
  } catch (const InputError& error) {  // A material of another scene: the edits are stale.
    ui->Error(std::string("refused: ") + error.what() + " (press Revert)");
    return false;
  }
  try {
    commands->SetContactModelParameters(e.params);
    // Two passes: models cleared first, so that moving two materials from
    // one model to another never passes through a conflicting pair.
    for (int pass = 0; pass < 2; ++pass) {
      for (const MaterialEdit& m : e.materials) {
        ContactMaterial material = m.material;
        if (pass == 0) material.model.reset();
        try {
          commands->SetMaterial(m.name, material);
        } catch (const InputError& error) {
          throw InputError("material '" + m.name + "': " + error.what());
        }
      }
    }
  } catch (const InputError& error) {
    commands->SetContactModelParameters(old_params);
    for (int pass = 0; pass < 2; ++pass) {
      for (auto [name, material] : old_materials) {
        if (pass == 0) material.model.reset();
        commands->SetMaterial(name, material);
      }
    }
    ui->Error(std::string("refused: ") + error.what());
    return false;
  }
  char text[160];
  std::snprintf(text, sizeof text, "applied: model %s, beta = %.4g, sigma = %.4g, %zu material(s)",
                std::string(ContactModelName(e.params.model)).c_str(), e.params.near_rigid_threshold,
                e.params.stiction_tolerance, e.materials.size());
  ui->Info(text);
  return true;
}

SolverEdits SolverEditsFrom(const Simulation& sim) { return sim.solver_settings(); }

bool ApplySolverEdits(UiState* ui, AppCommands* commands) {
  const SolverEdits& e = ui->solver_edits;
  try {
    commands->SetSolver(e);  // Validates everything before changing anything.
  } catch (const InputError& error) {
    ui->Error(std::string("refused: ") + error.what());
    return false;
  }
  // "applied: <solver>, key = value, ..." with the chosen solver's own table.
  std::string text = "applied: " + std::string(SolverTypeName(e.type));
  SolverSettings copy = e;
  const SolverTypeInfo& info = GetSolverTypeInfo(e.type);
  for (const ParameterBinding& p : info.bind(copy)) {
    if (std::holds_alternative<bool*>(p.value)) continue;
    text += ", " + std::string(p.key) + " = " + FormatParameterValue(p);
  }
  if (e.type == SolverType::kSap) text += ", " + std::string(GetLineSearchInfo(e.sap.line_search).name) + " line search";
  ui->Info(text);
  return true;
}

double NearRigidPenetration(double beta, double g, double dt) { return beta * beta * g * dt * dt / (kTwoPi * kTwoPi); }

double StictionSlipBound(double mu, double sigma, double g, double dt) { return mu * sigma * g * dt; }

void DrawPanels(const AppView& view, UiState* ui, AppCommands* commands) {
  if (ui->show_panels) {
    DrawSimulationPanel(view, ui, commands);
    DrawVisualizationPanel(ui);
    DrawContactPanel(view, ui, commands);
    DrawSolverPanel(view, ui, commands);
    DrawContactInspector(view, ui);
    DrawPlotsPanel(ui);
    DrawInfoOverlay(view);
  }
  DrawRecordingIndicator(view);  // Even with the panels hidden.
  if (ui->show_help) DrawHelp(ui);
}

}  // namespace stiction::app
