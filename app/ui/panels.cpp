#include "app/ui/panels.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/input/key_bindings.h"
#include "app/physics_clock.h"
#include "app/ui/demo_scenes.h"
#include "app/ui/joint_sections.h"
#include "app/ui/parameter_sections.h"
#include "app/ui/patch_inspector.h"
#include "app/ui/pressure_legend.h"
#include "app/ui/ui_metrics.h"

namespace stiction::app {
namespace {

const ImVec4 kErrorText(1.0f, 0.45f, 0.4f, 1.0f), kInfoText(0.6f, 0.9f, 0.6f, 1.0f);

// A collapsible section whose open state is remembered (viewer settings).
// `title` names it in the settings; `suffix` (e.g. " (edited)") does not.
bool Section(UiState* ui, const char* title, bool default_open, const std::string& suffix = "") {
  const auto it = ui->settings.sections.find(title);
  const bool open = it == ui->settings.sections.end() ? default_open : it->second;
  ImGui::SetNextItemOpen(open, ImGuiCond_Always);
  const std::string label = std::string(title) + suffix + "###" + title;
  const bool now = ImGui::CollapsingHeader(label.c_str());
  ui->settings.sections[title] = now;
  return now;
}

// One column: a fixed window at `r`, resizable at its inner edge, holding a
// scrolling region of sections and, below it, the status line. Returns the
// width the user dragged it to (or r.width).
template <typename Body>
float Column(const char* id, const Rect& r, bool left, const UiState& ui, Body body) {
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.width, r.height), ImGuiCond_Always);
  // The user may drag the inner edge within what ColumnWidth allows.
  const float max_width = kMaxColumnShare * ImGui::GetMainViewport()->Size.x;
  ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(kMinColumnWidth * ui.ui_scale, max_width), r.height),
                                      ImVec2(max_width, r.height));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 1.0f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::Begin(id, nullptr, flags);
  ImGui::PopStyleVar(2);
  const float width = ImGui::GetWindowWidth();
  // The status line (left column) stays visible below the scrolling sections.
  float footer = 0;
  if (left && !ui.message.empty()) {
    const float wrap = ImGui::GetContentRegionAvail().x;
    footer = ImGui::CalcTextSize(ui.message.c_str(), nullptr, false, wrap).y + ImGui::GetStyle().ItemSpacing.y * 3;
  }
  ImGui::BeginChild("##sections", ImVec2(0, -footer), false);
  body();
  ImGui::EndChild();
  if (footer > 0) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ui.message_is_error ? kErrorText : kInfoText, "%s", ui.message.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  return width;
}

// ---------------------------------------------------------------- Scene

// The scene's imported robots (scene key `robots:`, or a robot file opened
// directly) and, folded, the load notes (Simulation::load_notes): the
// elements of the files the importers skipped (MJCF tendons, URDF <mimic>,
// ...), the meshes used through their hull. The same notes go to stderr at
// load (App::LoadScene).
void DrawRobots(const Simulation& sim) {
  const SceneDescription& scene = sim.scene();
  for (const RobotSummary& robot : scene.robots) {
    ImGui::Text("robot %s", robot.name.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%s, %s)", robot.format.c_str(), std::filesystem::path(robot.file).filename().c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", robot.file.c_str());
  }
  const std::vector<std::string>& notes = sim.load_notes();
  if (notes.empty()) return;
  const std::string label = "Import notes (" + std::to_string(notes.size()) + ")###import_notes";
  if (ImGui::TreeNode(label.c_str())) {
    ImGui::PushTextWrapPos(0.0f);
    for (const std::string& note : notes) ImGui::BulletText("%s", note.c_str());
    ImGui::PopTextWrapPos();
    ImGui::TreePop();
  }
}

void DrawSceneSection(const AppView& view, UiState* ui, AppCommands* commands) {
  const float field = ImGui::GetContentRegionAvail().x - Scaled(110);
  ImGui::SetNextItemWidth(std::max(field, Scaled(80)));
  const bool enter = ImGui::InputText("##scene", &ui->scene_path_field, ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A scene (.yaml) or robot (.urdf, MJCF .xml) file; or drop one on the window");
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) ui->pending_open = ui->scene_path_field;
  ImGui::SameLine();
  if (ImGui::Button("Reload")) ui->pending_reload = true;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##demos", "open a demo scene...")) {
    const std::string dir = std::filesystem::path(STICTION_DEFAULT_SCENE).parent_path().string();
    for (const DemoScene& demo : DemoScenes()) {
      if (ImGui::Selectable(demo.title)) ui->pending_open = dir + "/" + demo.file;
    }
    ImGui::EndCombo();
  }
  if (view.sim != nullptr && !view.sim->scene().description.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", view.sim->scene().description.c_str());
    ImGui::PopTextWrapPos();
  }
  if (view.sim != nullptr) DrawRobots(*view.sim);
  // Save scene as: the scene file with the parameters in effect now.
  ImGui::SetNextItemWidth(std::max(field, Scaled(80)));
  ImGui::InputTextWithHint("##save_as", "tuned.yaml", &ui->save_scene_path);
  ImGui::SameLine();
  ImGui::BeginDisabled(ui->save_scene_path.empty());
  if (ImGui::Button("Save scene as")) commands->SaveSceneAs(ui->save_scene_path);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Writes this scene with the parameters in effect now (time step, stepping scheme,\n"
                      "integrator, contact model, materials, solver, NMDP parameters) to a YAML scene\n"
                      "file that loads to them");
  }
}

// ---------------------------------------------------------------- Simulation

// Ticks on the scrubber (the last item) at its marks; hovering lists the
// marks under the mouse.
void DrawTimelineMarks(const AppView& view) {
  if (view.timeline_marks.empty()) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const float pad = ImGui::GetStyle().GrabMinSize * 0.5f;  // The grab's centre never reaches the ends.
  const float x0 = lo.x + pad, x1 = hi.x - pad;
  auto x_of = [&](int index) { return x0 + (x1 - x0) * static_cast<float>(index) / static_cast<float>(view.history_size - 1); };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const auto& [index, text] : view.timeline_marks) {
    const float x = x_of(index);
    draw->AddLine(ImVec2(x, lo.y), ImVec2(x, lo.y + Scaled(5)), IM_COL32(255, 170, 60, 255), Scaled(2));
  }
  if (!ImGui::IsItemHovered()) return;
  const float mouse = ImGui::GetIO().MousePos.x;
  std::string lines;
  for (const auto& [index, text] : view.timeline_marks) {
    if (std::abs(x_of(index) - mouse) <= Scaled(4)) lines += (lines.empty() ? "" : "\n") + text;
  }
  if (!lines.empty()) ImGui::SetTooltip("%s", lines.c_str());
}

// A video of a stretch of the timeline (from, to, Record), or its progress
// and Cancel while it is being made.
void DrawTimelineVideoRow(const AppView& view, UiState* ui, AppCommands* commands) {
  if (view.timeline_video) {
    ImGui::Text("recording the timeline: t = %.3f s of %.3f to %.3f s", view.timeline_video_at,
                view.timeline_video_from, view.timeline_video_to);
    const double span = view.timeline_video_to - view.timeline_video_from;
    ImGui::ProgressBar(span > 0 ? static_cast<float>((view.timeline_video_at - view.timeline_video_from) / span) : 0.0f,
                       ImVec2(-Scaled(70), 0));
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) commands->CancelTimelineVideo();
    return;
  }
  if (view.history_size < 2) return;
  double from = std::isnan(ui->timeline_video_from) ? view.history_first_time : ui->timeline_video_from;
  double to = std::isnan(ui->timeline_video_to) ? view.history_last_time : ui->timeline_video_to;
  ImGui::TextUnformatted("video of t =");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(Scaled(70));
  if (ImGui::InputDouble("##video_from", &from, 0, 0, "%.3f")) ui->timeline_video_from = from;
  ImGui::SameLine();
  ImGui::TextUnformatted("to");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(Scaled(70));
  if (ImGui::InputDouble("##video_to", &to, 0, 0, "%.3f")) ui->timeline_video_to = to;
  ImGui::SameLine();
  if (ImGui::SmallButton("Record range")) commands->RecordTimelineVideo(from, to, "");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Writes a video of the kept states in this range at the Recording section's frame rate\n"
                      "and size, without stepping again (with the ghost on, both branches); the simulation\n"
                      "comes back to the state it is at now");
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("All")) ui->timeline_video_from = ui->timeline_video_to = std::nan("");
}

// The timeline: a scrubber over the states kept since the load or reset,
// the memory they take and its cap.
void DrawTimeline(const AppView& view, UiState* ui, AppCommands* commands) {
  bool on = view.history_enabled;
  if (ImGui::Checkbox("Timeline", &on)) commands->SetHistoryEnabled(on);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Keeps every step's state: Left/Right (paused) or the slider go back and forth;\n"
                      "running on from a past state starts a new branch (the old future is dropped)");
  }
  if (!on) return;
  ImGui::SameLine();
  ImGui::TextDisabled("%d states, %.1f of %.0f MiB", view.history_size, view.history_mib, view.history_cap_mib);
  if (view.history_size > 1) {
    int index = view.history_cursor;
    ImGui::SetNextItemWidth(-Scaled(60));
    char label[64];
    std::snprintf(label, sizeof(label), "t = %.3f s", view.history_cursor_time);
    if (ImGui::SliderInt("##timeline", &index, 0, view.history_size - 1, label)) commands->ScrubTo(index);
    DrawTimelineMarks(view);
  }
  if (view.previous_branch_steps > 0) {
    ImGui::Checkbox("ghost of the previous branch", &ui->show_branch_ghost);
    ImGui::SameLine();
    if (ImGui::SmallButton("Forget")) commands->ClearBranchGhost();
  }
  DrawTimelineVideoRow(view, ui, commands);
  float cap = static_cast<float>(view.history_cap_mib);
  ImGui::SetNextItemWidth(Scaled(150));
  if (ImGui::InputFloat("history cap [MiB]", &cap, 0, 0, "%.0f", ImGuiInputTextFlags_EnterReturnsTrue)) {
    commands->SetHistoryCap(cap);
  }
}

void DrawRunControls(const AppView& view, UiState* ui, AppCommands* commands) {
  if (ImGui::Button(view.paused ? "Run  (Space)" : "Pause (Space)")) commands->TogglePause();
  ImGui::SameLine();
  if (ImGui::Button("<- Back")) commands->StepBack();
  ImGui::SameLine();
  if (ImGui::Button("Step (->)")) commands->StepOnce();
  ImGui::SameLine();
  if (ImGui::Button("Reset (Bksp)")) commands->ResetSimulation();
  DrawTimeline(view, ui, commands);

  // Real-time factor: a log slider from 1% to 100x, or unlimited.
  bool unlimited = view.unlimited;
  if (ImGui::Checkbox("As fast as possible", &unlimited)) commands->SetUnlimitedSpeed(unlimited);
  if (!unlimited) {
    float rtf = static_cast<float>(view.target_rtf);
    ImGui::SetNextItemWidth(Scaled(150));
    if (ImGui::SliderFloat("real-time factor", &rtf, static_cast<float>(PhysicsClock::kMinRealTimeFactor),
                           static_cast<float>(PhysicsClock::kMaxRealTimeFactor), "%.3gx",
                           ImGuiSliderFlags_Logarithmic)) {
      commands->SetRealTimeFactor(rtf);
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("1x")) commands->SetRealTimeFactor(1.0);
  }
  float budget_ms = static_cast<float>(view.physics_budget_s * 1e3);
  ImGui::SetNextItemWidth(Scaled(150));
  if (ImGui::SliderFloat("budget [ms/frame]", &budget_ms, 1.0f, 50.0f, "%.0f")) {
    commands->SetPhysicsBudget(budget_ms * 1e-3);
  }
}

// ---------------------------------------------------------------- Recording

void DrawRecordingSection(const AppView& view, UiState* ui, AppCommands* commands) {
  if (view.recording) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.1f, 0.1f, 1.0f));
    if (ImGui::Button("Stop recording (V)")) commands->ToggleRecording();
    ImGui::PopStyleColor();
    ImGui::Text("%lld frames, %.2f s at %.4g fps, %dx%d", view.video_frames, view.video_seconds, view.video_fps,
                view.video_width, view.video_height);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s %s", view.video_png_sequence ? "PNG frames in" : "to", view.video_path.c_str());
    ImGui::PopTextWrapPos();
  } else {
    if (ImGui::Button("Record video (V)")) commands->ToggleRecording();
    ImGui::SetNextItemWidth(Scaled(70));
    ImGui::InputDouble("frames per simulated s", &ui->video_fps, 0.0, 0.0, "%.4g");
    ui->video_fps = std::clamp(ui->video_fps, 1.0, 240.0);
    struct SizeChoice {
      const char* name;
      int width, height;
    };
    static constexpr SizeChoice kSizes[] = {
        {"1280x720 (720p)", 1280, 720}, {"1920x1080 (1080p)", 1920, 1080}, {"854x480 (480p)", 854, 480},
        {"the view's size", 0, 0}};
    const char* current = "custom";
    for (const SizeChoice& c : kSizes) {
      if (c.width == ui->video_width && c.height == ui->video_height) current = c.name;
    }
    ImGui::SetNextItemWidth(Scaled(150));
    if (ImGui::BeginCombo("frame size", current)) {
      for (const SizeChoice& c : kSizes) {
        if (ImGui::Selectable(c.name, c.name == current)) {
          ui->video_width = c.width;
          ui->video_height = c.height;
        }
      }
      ImGui::EndCombo();
    }
  }
  ImGui::TextDisabled("burned into the video:");
  VideoOverlayOptions& o = ui->overlay;
  ImGui::Checkbox("simulated time", &o.time);
  ImGui::SameLine();
  ImGui::Checkbox("scene name", &o.scene_name);
  ImGui::Checkbox("##caption_on", &o.caption_on);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##caption", "caption (a line of text)", &o.caption);
  std::string shown = "no plot";
  for (const OverlayPlotInfo& p : kOverlayPlots) {
    if (o.plot == p.name) shown = "plot: " + std::string(p.legend);
  }
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##overlay_plot", shown.c_str())) {
    if (ImGui::Selectable("no plot", o.plot.empty())) o.plot.clear();
    for (const OverlayPlotInfo& p : kOverlayPlots) {
      if (ImGui::Selectable(("plot: " + std::string(p.legend)).c_str(), o.plot == p.name)) o.plot = p.name;
    }
    ImGui::EndCombo();
  }
}

// ---------------------------------------------------------------- Visualization

// Pressure-field patches (compliant geometry): shown or not, and the colour
// scale: the smoothed peak of the frame or a fixed top in kPa.
void DrawPressurePatchSettings(const AppView& view, UiState* ui) {
  PressureScaleSettings& p = ui->viz.pressure;
  ImGui::BeginDisabled(!view.has_compliant_geometry);
  ImGui::Checkbox("pressure patches", &p.show_patches);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Contact surfaces of compliant geometry, coloured by pressure (drawn on top: they lie\n"
                      "inside the compliant body), with one point and net-force arrow per patch");
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("auto", p.automatic)) p.automatic = true;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Scale from 0 to the peak pressure (smoothed over a few frames)");
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("fixed", !p.automatic)) p.automatic = false;
  ImGui::BeginDisabled(p.automatic);
  ImGui::SetNextItemWidth(Scaled(110));
  if (ImGui::InputDouble("fixed max [kPa]", &p.fixed_max_kpa, 0.0, 0.0, "%.4g")) {
    if (!(p.fixed_max_kpa > 0)) p.fixed_max_kpa = 1e-3;  // The scale needs a positive top.
  }
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  if (!view.has_compliant_geometry) ImGui::TextDisabled("(no compliant geometry in this scene)");
}

// What is drawn and how: shadows, grid, wireframe, see-through bodies,
// collision-only geometry, frames, centres of mass, the perturbation's force,
// antialiasing.
void DrawRenderOptions(const AppView& view, UiState* ui) {
  RenderOptions& r = ui->viz.render;
  ImGui::Checkbox("shadows", &r.shadows);
  ImGui::SameLine();
  ImGui::Checkbox("grid", &r.grid);
  ImGui::SameLine();
  ImGui::Checkbox("wireframe", &r.wireframe);
  ImGui::Checkbox("transparent", &r.transparent);
  ImGui::SameLine();
  ImGui::Checkbox("collision-only geometry", &r.show_collision_only);
  ImGui::Checkbox("body frames", &ui->viz.body_frames);
  ImGui::SameLine();
  ImGui::Checkbox("centres of mass", &ui->viz.centers_of_mass);
  ImGui::Checkbox("perturbation force", &ui->viz.perturbation_force);
  ImGui::SetNextItemWidth(Scaled(110));
  if (ImGui::BeginCombo("antialiasing", AntialiasingName(r.antialiasing))) {
    for (Antialiasing mode : kAntialiasingModes) {
      if (ImGui::Selectable(AntialiasingName(mode), mode == r.antialiasing)) r.antialiasing = mode;
    }
    ImGui::EndCombo();
  }
  if (r.antialiasing == Antialiasing::kAuto && !view.auto_antialiasing.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%s here)", view.auto_antialiasing.c_str());
  }
}

// The contact glyphs: points, cones, forces and their scales.
void DrawContactGlyphOptions(UiState* ui) {
  ImGui::TextDisabled("contacts");
  ImGui::Checkbox("points", &ui->viz.contact_points);
  ImGui::SameLine();
  ImGui::Checkbox("friction cones", &ui->viz.friction_cones);
  ImGui::Checkbox("normal forces (blue)", &ui->viz.normal_forces);
  ImGui::SameLine();
  ImGui::Checkbox("friction (magenta)", &ui->viz.friction_forces);
  const double min_scale = 0.01, max_scale = 1e6, min_cone = 0.002, max_cone = 1.0;
  ImGui::SetNextItemWidth(Scaled(150));
  ImGui::SliderScalar("force scale [N/m]", ImGuiDataType_Double, &ui->viz.force_scale, &min_scale, &max_scale,
                      "%.3g", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SetNextItemWidth(Scaled(150));
  ImGui::SliderScalar("cone size [m]", ImGuiDataType_Double, &ui->viz.cone_size, &min_cone, &max_cone, "%.3g",
                      ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::TextDisabled("cones: stick green, slip orange, separating grey");
}

// The body the camera tracks, and the UI scale.
void DrawCameraAndScale(const AppView& view, UiState* ui) {
  ImGui::TextDisabled("camera");
  ImGui::SetNextItemWidth(Scaled(150));
  const char* tracked = ui->track_body.empty() ? "free (no tracking)" : ui->track_body.c_str();
  if (ImGui::BeginCombo("track body", tracked)) {
    if (ImGui::Selectable("free (no tracking)", ui->track_body.empty())) ui->track_body.clear();
    if (view.sim != nullptr) {
      const MultibodyModel& model = view.sim->model();
      for (int b = 1; b < model.num_bodies(); ++b) {
        const std::string& name = model.body(b).name;
        if (ImGui::Selectable(name.c_str(), name == ui->track_body)) ui->track_body = name;
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The camera keeps its offset to this body as it moves (as MuJoCo's tracking camera)");
  ImGui::SetNextItemWidth(Scaled(150));
  float scale = ui->settings.ui_scale;
  if (ImGui::SliderFloat("UI scale", &scale, 0.0f, kMaxUiScale, scale == 0 ? "auto" : "%.2fx")) {
    ui->settings.ui_scale = scale < kMinUiScale ? 0.0f : scale;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Font and widget size; far left = the monitor's scale (high-DPI screens)");
}

void DrawVisualizationSection(const AppView& view, UiState* ui) {
  DrawRenderOptions(view, ui);
  ImGui::Separator();
  DrawContactGlyphOptions(ui);
  DrawPressurePatchSettings(view, ui);
  ImGui::Separator();
  DrawCameraAndScale(view, ui);
}

// ---------------------------------------------------------------- Plots

// Plots fill the column, leaving room for their labels.
ImVec2 PlotSize() { return ImVec2(std::max(ImGui::GetContentRegionAvail().x - Scaled(110), Scaled(60)), Scaled(44)); }

void LogPlot(const char* label, const RollingPlot& plot, const char* format) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, format, std::pow(10.0, static_cast<double>(plot.last())));
  const auto& v = plot.values();
  ImGui::PlotLines(label, v.empty() ? nullptr : v.data(), static_cast<int>(v.size()), 0, overlay,
                   std::floor(plot.min()) - 0.5f, std::ceil(plot.max()) + 0.5f, PlotSize());
}

void Plot(const char* label, const RollingPlot& plot, const char* format) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, format, static_cast<double>(plot.last()));
  const auto& v = plot.values();
  ImGui::PlotLines(label, v.empty() ? nullptr : v.data(), static_cast<int>(v.size()), 0, overlay,
                   std::min(0.0f, plot.min()), std::max(plot.max() * 1.1f, 1e-6f), PlotSize());
}

void DrawPlotsSection(UiState* ui) {
  Plot("iterations", ui->plots.iterations, "%.0f per step");
  Plot("line search", ui->plots.line_search_iterations, "%.0f per step");
  LogPlot("log10 e_m", ui->plots.log_momentum_error, "e_m = %.2e");
  LogPlot("log10 NCP res.", ui->plots.log_ncp_residual, "NCP residual = %.2e");
  Plot("contacts", ui->plots.contacts, "%.0f");
  Plot("achieved RTF", ui->plots.achieved_rtf, "%.3gx");
  Plot("kinetic energy", ui->plots.kinetic_energy, "%.4g J");
  if (ImGui::SmallButton("clear##plots")) ui->plots.Clear();
}

// ---------------------------------------------------------------- Contacts

// The last step's contacts, one row each (clicking a row selects it).
void DrawContactTable(const std::vector<ContactSnapshot>& contacts, UiState* ui) {
  const float rows = static_cast<float>(std::min<size_t>(contacts.size(), 8) + 1);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (!contacts.empty() &&
      ImGui::BeginTable("contacts", 5, flags, ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 6))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn("A - B");
    ImGui::TableSetupColumn("phi [mm]");
    ImGui::TableSetupColumn("f_n [N]");
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
}

// The selected contact `sel` in detail (for a pressure-field polygon, its
// patch first).
void DrawSelectedContact(const AppView& view, int sel, UiState* ui) {
  const ContactSnapshot& c = view.snapshot->contacts[sel];
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  if (c.surface >= 0 && c.surface < static_cast<int>(view.snapshot->contact_surfaces.size())) {
    for (const std::string& line : DescribePatch(view.snapshot->contact_surfaces[c.surface], c.surface, c.polygon)) {
      ImGui::TextUnformatted(line.c_str());
    }
    ImGui::Separator();
    ImGui::TextDisabled("its polygon, as a point contact:");
  }
  ImGui::Text("contact %d: %s (A) - %s (B)", sel, c.name_a.c_str(), c.name_b.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Text("point     (%.4f, %.4f, %.4f) m", c.p_W.x(), c.p_W.y(), c.p_W.z());
  ImGui::Text("normal    (%.3f, %.3f, %.3f)", c.R_WC(0, 2), c.R_WC(1, 2), c.R_WC(2, 2));
  ImGui::Text("phi       %.6g m", c.phi);
  ImGui::Text("gamma_n   %.6g N s (f_n %.6g N)", c.gamma_C.z(), c.normal_force());
  ImGui::Text("|gamma_t| %.6g N s (|f_t| %.6g N)", c.gamma_C.head<2>().norm(), c.friction_force_W().norm());
  ImGui::Text("mu        %.3g", c.mu);
  ImGui::Text("|gamma_t|/(mu gamma_n)  %.4f", c.utilisation);
  ImGui::Text("slip      %.6g m/s", c.slip_speed);
  ImGui::Text("state     %s", ContactStateName(c));
  if (ImGui::SmallButton("deselect")) ui->selected_contact = -1;
}

void DrawContactInspector(const AppView& view, UiState* ui) {
  const std::vector<ContactSnapshot>& contacts = view.snapshot->contacts;
  ImGui::Text("%zu contacts in the last step", contacts.size());
  ImGui::TextDisabled("Alt+click a contact point to pick it");
  DrawContactTable(contacts, ui);
  const int sel = ui->selected_contact;
  if (sel >= 0 && sel < static_cast<int>(contacts.size())) DrawSelectedContact(view, sel, ui);
}

// ---------------------------------------------------------------- in the 3D view

// Red dot, elapsed simulated time and frames written, at the bottom centre
// of the scene view. Drawn by ImGui, so it is never in the recorded frames.
void DrawRecordingIndicator(const AppView& view, const Rect& scene) {
  if (!view.recording) return;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  char text[96];
  std::snprintf(text, sizeof text, "REC  %.2f s  %lld frames", view.video_seconds, view.video_frames);
  const ImVec2 size = ImGui::CalcTextSize(text);
  const float radius = 0.55f * ImGui::GetFontSize();
  const float pad = 0.6f * ImGui::GetFontSize();
  const float total = 2 * radius + pad + size.x;
  const ImVec2 origin(scene.x + 0.5f * (scene.width - total), scene.bottom() - size.y - 1.5f * pad);
  draw->AddRectFilled(ImVec2(origin.x - pad, origin.y - 0.4f * pad),
                      ImVec2(origin.x + total + pad, origin.y + size.y + 0.4f * pad), IM_COL32(0, 0, 0, 140), pad);
  draw->AddCircleFilled(ImVec2(origin.x + radius, origin.y + 0.5f * size.y), radius, IM_COL32(230, 30, 30, 255));
  draw->AddText(ImVec2(origin.x + 2 * radius + pad, origin.y), IM_COL32(255, 255, 255, 255), text);
}

// The teleop hint (TeleopHint) at the bottom centre of the scene view, where
// the recording indicator goes while recording.
void DrawTeleopHint(const AppView& view, const GripperView& gripper, const KeyMap& keys, const Rect& scene) {
  const std::string hint = TeleopHint(view, gripper, keys);
  if (hint.empty()) return;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::CalcTextSize(hint.c_str());
  const float pad = 0.6f * ImGui::GetFontSize();
  if (size.x + 2 * pad > scene.width) return;  // A view too narrow for it.
  const ImVec2 origin(scene.x + 0.5f * (scene.width - size.x), scene.bottom() - size.y - 1.5f * pad);
  draw->AddRectFilled(ImVec2(origin.x - pad, origin.y - 0.4f * pad),
                      ImVec2(origin.x + size.x + pad, origin.y + size.y + 0.4f * pad), IM_COL32(0, 0, 0, 120), pad);
  draw->AddText(origin, IM_COL32(235, 235, 235, 255), hint.c_str());
}

void DrawInfoOverlay(const AppView& view, const Rect& scene) {
  ImGui::SetNextWindowPos(ImVec2(scene.right() - Scaled(8), scene.y + Scaled(8)), ImGuiCond_Always, ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.45f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(std::max(scene.width - Scaled(16), 1.0f),
                                                           std::max(scene.height - Scaled(16), 1.0f)));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
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
    if (s != nullptr && !GetSteppingSchemeInfo(s->last_stats.scheme).uses_contact_solver) {
      // An NMDP scheme ran (docs/nmdp.md): its own statistics.
      const StepStats& n = s->last_stats;
      ImGui::Text("stepping     %s", std::string(GetSteppingSchemeInfo(n.scheme).title).c_str());
      ImGui::Text("PGM          %d iterations, %d QP iterations", n.outer_iterations, n.qp_iterations);
      ImGui::Text("projection   %d Newton steps", n.iterations);
      ImGui::Text("substeps     %d extra, smallest dt %.3g s", n.subdivisions, n.smallest_dt_s);
    } else if (s != nullptr) {
      ImGui::Text("iterations   %d (line search %d)", s->last_stats.iterations, s->last_stats.line_search_iterations);
      ImGui::Text("e_m          %.3g", s->last_stats.momentum_error);
      if (s->last_stats.subdivisions > 0) {
        // The step failed at δt and was taken in halves (solver.max_step_halvings).
        ImGui::Text("substeps     %d (failed at dt; smallest %.3g s)", s->last_stats.subdivisions + 1,
                    s->last_stats.smallest_dt_s);
      }
      if (s->last_stats.solver_fallback) ImGui::Text("fallback     SAP took the step (the solver failed)");
    }
    if (s != nullptr) {
      ImGui::Text("NCP residual %.3g", s->last_stats.ncp_residual);
      ImGui::Text("contacts     %d", s->last_stats.num_contacts);
      ImGui::Text("kinetic E    %.5g J", s->kinetic_energy);
    }
    if (view.selected_body > 0) ImGui::Text("selected     %s", view.selected_name.c_str());
    ImGui::TextDisabled("F1 bindings  F2 this  Tab / Shift+Tab panels");
  }
  ImGui::End();
}

void DrawHelp(UiState* ui, const Rect& scene) {
  ImGui::SetNextWindowPos(ImVec2(scene.x + 0.5f * scene.width, scene.y + 0.5f * scene.height), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(scene.width, scene.height));
  if (ImGui::Begin("Bindings (F1)", &ui->show_help,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::BeginTable("bindings", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const Binding& b : KeyBindings(ui->keys, ui->devices)) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(b.input.c_str());
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(b.action.c_str());
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

// A column's width after Begin differs from the layout's when the user drags
// its edge (ImGui also floors sizes to whole pixels: not a resize).
bool UserResized(float width, float layout_width) {
  return ImGui::GetIO().MouseDown[0] && std::abs(width - layout_width) > 1.0f;
}

}  // namespace

void DrawPanels(const AppView& view, const GripperView& gripper, UiState* ui, AppCommands* commands,
                GripperCommands* gripper_commands) {
  const ImVec2 size = ImGui::GetMainViewport()->Size;
  ui->field_rects.clear();
  ui->layout = ComputeLayout(size.x, size.y, ui->settings.layout, ui->ui_scale);
  const Layout& layout = ui->layout;
  if (layout.left_visible) {
    const float width = Column("##left_column", layout.left, /*left=*/true, *ui, [&] {
      if (Section(ui, "Scene", true)) DrawSceneSection(view, ui, commands);
      if (Section(ui, "Simulation", true, view.sim != nullptr && SimulationEdited(*view.sim, ui->scene_values)
                                              ? "  (edited)" : "")) {
        DrawRunControls(view, ui, commands);
        if (view.sim != nullptr) {
          ImGui::Separator();
          DrawSimulationParameters(*view.sim, ui, commands);
        }
      }
      if (Section(ui, "Recording", false, view.recording ? "  (REC)" : "")) DrawRecordingSection(view, ui, commands);
      if (view.sim != nullptr) {
        if (Section(ui, "Contact", false, ContactEdited(*view.sim, ui->scene_values) ? "  (edited)" : "")) {
          DrawContactParameters(*view.sim, ui, commands);
        }
        if (Section(ui, "Solver", false, SolverEdited(*view.sim, ui->scene_values) ? "  (edited)" : "")) {
          DrawSolverParameters(*view.sim, ui, commands);
        }
      }
      if (Section(ui, "Visualization", false)) DrawVisualizationSection(view, ui);
    });
    if (UserResized(width, layout.left.width)) ui->settings.layout.left_width = width / ui->ui_scale;
  }
  if (layout.right_visible) {
    const float width = Column("##right_column", layout.right, /*left=*/false, *ui, [&] {
      // MuJoCo simulate's Joint and Control panels: any robot moves at once.
      if (view.sim != nullptr && !ui->joint_controls.joints.empty() && Section(ui, "Joints", true)) {
        DrawJointsSection(view, ui, commands);
      }
      if (view.sim != nullptr && (!ui->joint_controls.actuators.empty() || !ui->joint_controls.motors.empty()) && Section(ui, "Control", false)) {
        DrawControlSection(view, ui, commands);
      }
      if (Section(ui, "Plots", true)) DrawPlotsSection(ui);
      if (gripper.present && Section(ui, "Gripper", true)) DrawGripperSection(gripper, ui, gripper_commands);
      if (view.snapshot != nullptr) {
        if (ui->open_inspector) {  // A contact was picked: show it.
          ui->settings.sections["Contacts"] = true;
          ui->open_inspector = false;
        }
        if (Section(ui, "Contacts", false)) DrawContactInspector(view, ui);
      }
    });
    if (UserResized(width, layout.right.width)) ui->settings.layout.right_width = width / ui->ui_scale;
  }
  if (ui->show_info) DrawInfoOverlay(view, layout.scene);
  if (view.snapshot != nullptr && ui->viz.pressure.show_patches && !view.snapshot->contact_surfaces.empty()) {
    DrawPressureLegend(ImGui::GetBackgroundDrawList(), view.pressure_legend, layout.scene);
  }
  DrawRecordingIndicator(view, layout.scene);  // Even with the panels hidden.
  DrawTeleopHint(view, gripper, ui->keys, layout.scene);
  if (ui->show_help) DrawHelp(ui, layout.scene);
}

std::string TeleopHint(const AppView& view, const GripperView& gripper, const KeyMap& keys) {
  if (!gripper.present || gripper.teleop || view.recording || view.timeline_video) return "";
  const char* what = gripper.can_tilt ? "the arm" : "the gripper";
  return FirstKeyName(keys, KeyAction::kTeleop) + ": take " + what + "   drag or " + HintMoveKeys(keys) +
         ": move   " + FirstKeyName(keys, KeyAction::kTeleopGrasp) + ": grasp   " +
         FirstKeyName(keys, KeyAction::kRecordVideo) + ": record   " + FirstKeyName(keys, KeyAction::kHelp) +
         ": keys";
}

}  // namespace stiction::app
