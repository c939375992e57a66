#include "app/ui/parameter_sections.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "app/ui/panels.h"
#include "app/ui/ui_metrics.h"
#include "engine/common/constants.h"
#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/common/text.h"

namespace stiction::app {
namespace {

constexpr double kMinSliderStiffness = 1e1, kMaxSliderStiffness = 1e14;  // [N/m]
const ImVec4 kRefusedText(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kUnusedText(0.95f, 0.75f, 0.35f, 1.0f);  // Settings the chosen scheme does not read.

// The label of a live field: its text, "  *" when the engine's value is not
// the scene's, and a stable ImGui id that the marker does not change.
std::string Label(std::string_view text, const std::string& id, bool edited) {
  return std::string(text) + (edited ? "  *" : "") + "###" + id;
}

// A typed number is committed on Enter or when the field loses focus; the
// +/- buttons and sliders commit as they change.
bool Committed(bool changed) { return ImGui::IsItemDeactivatedAfterEdit() || (changed && !ImGui::IsItemActive()); }

// Wraps one live widget: a red frame while the engine refuses its value,
// the apply on commit, and the reason under it.
class LiveField {
 public:
  LiveField(UiState* ui, std::string id) : ui_(ui), id_(std::move(id)) {
    refused_ = ui_->field_errors.count(id_) > 0;
    if (refused_) {
      ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.55f, 0.12f, 0.12f, 1.0f));
      ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, ImVec4(0.65f, 0.16f, 0.16f, 1.0f));
    }
  }
  const std::string& id() const { return id_; }
  /// After the widget. `apply` throws InputError when the engine refuses.
  /// `frame_width`: the widget's own width, without its label (0: unknown).
  void End(bool commit, const std::function<void()>& apply, float frame_width = 0) {
    if (refused_) ImGui::PopStyleColor(2);
    // Where the pointer can reach the field (its frame, not its label): only
    // when wholly inside the scrolling column's visible area (scrolled out
    // or under the status line, it has no place to click).
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    const Rect r{lo.x, lo.y, frame_width > 0 ? frame_width : hi.x - lo.x, hi.y - lo.y};
    if (ImGui::GetCurrentWindow()->ClipRect.Contains(ImRect(r.x, r.y, r.right(), r.bottom()))) ui_->field_rects[id_] = r;
    if (commit) {
      try {
        apply();
        ui_->field_errors.erase(id_);
      } catch (const InputError& e) {
        ui_->field_errors[id_] = e.what();
      }
    }
    const auto it = ui_->field_errors.find(id_);
    if (it != ui_->field_errors.end()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kRefusedText, "refused, not applied: %s", it->second.c_str());
      ImGui::PopTextWrapPos();
    }
  }

 private:
  UiState* ui_;
  std::string id_;
  bool refused_ = false;
};

// A live typed number.
void LiveInput(UiState* ui, const std::string& id, std::string_view text, double* value, bool edited,
               const std::function<void()>& apply, double step = 0.0, const char* format = "%.4g") {
  LiveField field(ui, id);
  ImGui::SetNextItemWidth(Scaled(120));
  const bool changed = ImGui::InputDouble(Label(text, id, edited).c_str(), value, step, step * 2, format);
  field.End(Committed(changed), apply, Scaled(120));
}

// Tooltip for the last item: the parameter's description and valid range.
void ParameterTooltip(const ParameterBinding& p) {
  if (!ImGui::IsItemHovered()) return;
  const std::string range = std::holds_alternative<bool*>(p.value) ? "" : "  (" + p.range.Describe() + ")";
  ImGui::SetTooltip("%.*s%s", static_cast<int>(p.description.size()), p.description.data(), range.c_str());
}

const ParameterBinding* FindBinding(const ParameterTable& table, std::string_view key) {
  for (const ParameterBinding& p : table) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

bool SameValue(const ParameterBinding& a, const ParameterBinding& b) {
  return std::visit([&](auto* pa) { return *pa == *std::get<decltype(pa)>(b.value); }, a.value);
}

// Whether a parameter of `a` is missing from `b` or has another value there.
bool TablesDiffer(const ParameterTable& a, const ParameterTable& b) {
  for (const ParameterBinding& p : a) {
    const ParameterBinding* q = FindBinding(b, p.key);
    if (q == nullptr || !SameValue(p, *q)) return true;
  }
  return false;
}

void CopyValue(const ParameterBinding& from, const ParameterBinding& to) {
  std::visit([&](auto* pf) { *std::get<decltype(pf)>(to.value) = *pf; }, from.value);
}

// One live widget per parameter of a table (engine/parameters/): its key
// and unit as the label, its description and range as the tooltip. On a
// commit, `apply(binding)` gets the edited binding.
void LiveParameterTable(UiState* ui, const ParameterTable& table, const ParameterTable& engine,
                        const ParameterTable& scene, const std::string& id_prefix,
                        const std::function<void(const ParameterBinding&)>& apply) {
  for (const ParameterBinding& p : table) {
    std::string text(p.key);
    if (!p.unit.empty()) text += " [" + std::string(p.unit) + "]";
    const ParameterBinding* e = FindBinding(engine, p.key);
    const ParameterBinding* s = FindBinding(scene, p.key);
    const bool edited = e != nullptr && s != nullptr && !SameValue(*e, *s);
    const std::string id = id_prefix + std::string(p.key);
    LiveField field(ui, id);
    const std::string label = Label(text, id, edited);
    ImGui::SetNextItemWidth(Scaled(110));
    bool commit = false;
    if (double* const* number = std::get_if<double*>(&p.value)) {
      commit = Committed(ImGui::InputDouble(label.c_str(), *number, 0.0, 0.0, "%.4g"));
    } else if (int* const* integer = std::get_if<int*>(&p.value)) {
      commit = Committed(ImGui::InputInt(label.c_str(), *integer));
    } else {
      commit = ImGui::Checkbox(label.c_str(), std::get<bool*>(p.value));
    }
    ParameterTooltip(p);
    field.End(commit, [&] { apply(p); });
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

// A live combo over a registry: `apply(entry)` on a pick.
template <typename Entry>
void LiveRegistryCombo(UiState* ui, const std::string& id, std::string_view text, std::span<const Entry> entries,
                       std::string_view current, bool edited, const std::function<void(const Entry&)>& apply) {
  LiveField field(ui, id);
  ImGui::SetNextItemWidth(Scaled(160));
  const Entry* chosen = nullptr;
  if (ImGui::BeginCombo(Label(text, id, edited).c_str(), std::string(current).c_str())) {
    chosen = RegistryItems(entries, current);
    ImGui::EndCombo();
  }
  field.End(chosen != nullptr, [&] { apply(*chosen); });
}

// Revert for a section: applies the scene's values and drops the section's
// refused fields. Disabled while nothing differs.
void RevertButton(UiState* ui, const char* id, bool edited, const std::string& error_prefix,
                  const std::function<void()>& revert) {
  bool refused = false;
  for (const auto& [key, reason] : ui->field_errors) refused |= key.rfind(error_prefix, 0) == 0;
  ImGui::BeginDisabled(!edited && !refused);
  if (ImGui::Button(id)) {
    for (auto it = ui->field_errors.begin(); it != ui->field_errors.end();) {
      it = it->first.rfind(error_prefix, 0) == 0 ? ui->field_errors.erase(it) : std::next(it);
    }
    revert();
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Return this section to the scene file's values (fields marked * differ from them)");
  }
}

double GravityNorm(const Simulation& sim) { return sim.model().gravity().norm(); }

void CheckTimeStep(double dt) {
  if (!std::isfinite(dt) || dt < kMinTimeStep || dt > kMaxTimeStep) {
    throw InputError(StringPrintf("time step %.6g s: must be in [%.0e, %.1f] s", dt, kMinTimeStep, kMaxTimeStep));
  }
}

bool SameMaterial(const ContactMaterial& a, const ContactMaterial& b) {
  return a.stiffness == b.stiffness && a.dissipation == b.dissipation && a.friction == b.friction &&
         a.hc_dissipation == b.hc_dissipation && a.stiction_velocity == b.stiction_velocity &&
         a.hydroelastic_modulus == b.hydroelastic_modulus && a.model == b.model;
}

bool SameContactParameters(const ContactModelParameters& a, const ContactModelParameters& b) {
  return a.model == b.model && a.near_rigid_threshold == b.near_rigid_threshold &&
         a.stiction_tolerance == b.stiction_tolerance &&
         a.load_aware_regularization == b.load_aware_regularization && a.max_load_factor == b.max_load_factor;
}

const ContactMaterial* SceneMaterial(const SceneValues& scene, const std::string& name) {
  for (const MaterialEdit& m : scene.contact.materials) {
    if (m.name == name) return &m.material;
  }
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------- Simulation

namespace {

// The NMDP schemes' parameters (docs/nmdp.md), one field per key of their
// table, under the chosen scheme's description.
void DrawNmdpFields(const Simulation& sim, const SteppingSchemeInfo& scheme, UiState* ui, AppCommands* commands) {
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(scheme.description.data(), scheme.description.data() + scheme.description.size());
  ImGui::PopTextWrapPos();
  NmdpParameters engine = sim.nmdp_parameters(), scene_copy = ui->scene_values.sim.nmdp;
  LiveParameterTable(ui, BindParameters(ui->sim_edits.nmdp), BindParameters(engine), BindParameters(scene_copy),
                     "sim.nmdp.", [&](const ParameterBinding& p) {
    NmdpParameters candidate = sim.nmdp_parameters();
    CopyValue(p, *FindBinding(BindParameters(candidate), p.key));
    commands->SetNmdpParameters(candidate);
  });
}

}  // namespace

void DrawSimulationParameters(const Simulation& sim, UiState* ui, AppCommands* commands) {
  SimulationEdits& e = ui->sim_edits;
  const SimulationEdits& scene = ui->scene_values.sim;
  LiveInput(ui, "sim.dt", "time step dt [s]", &e.time_step, sim.time_step() != scene.time_step, [&] {
    CheckTimeStep(e.time_step);
    commands->SetTimeStep(e.time_step);
  }, 0.0, "%.6g");
  LiveRegistryCombo<SteppingSchemeInfo>(ui, "sim.stepping", "stepping", SteppingSchemes(),
                                        SteppingSchemeName(e.scheme), sim.stepping_scheme() != scene.scheme,
                                        [&](const SteppingSchemeInfo& chosen) {
    commands->SetSteppingScheme(chosen.scheme);
    e.scheme = chosen.scheme;
  });
  const SteppingSchemeInfo& scheme = GetSteppingSchemeInfo(e.scheme);
  if (!scheme.uses_contact_solver) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("  %s: the integrator and the Solver section are unused", std::string(scheme.title).c_str());
    ImGui::PopTextWrapPos();
  }
  const IntegratorSettings& live = sim.integrator();
  const bool integrator_edited = live.theta != scene.integrator.theta || live.theta_vq != scene.integrator.theta_vq;
  LiveRegistryCombo<IntegratorPresetInfo>(ui, "sim.integrator", "integrator", IntegratorPresets(), e.integrator.name,
                                          integrator_edited, [&](const IntegratorPresetInfo& preset) {
    const IntegratorSettings chosen = IntegratorPreset(preset.name);
    commands->SetIntegrator(chosen);
    e.integrator = chosen;
    ui->field_errors.erase("sim.theta");
    ui->field_errors.erase("sim.theta_vq");
  });
  // Raw θ values: the integrator becomes "custom" unless they are a preset's.
  auto apply_theta = [&](bool vq) {
    IntegratorSettings candidate = sim.integrator();
    (vq ? candidate.theta_vq : candidate.theta) = vq ? e.integrator.theta_vq : e.integrator.theta;
    candidate.name = std::string(kCustomIntegrator);
    for (const IntegratorPresetInfo& p : IntegratorPresets()) {
      const IntegratorSettings preset = IntegratorPreset(p.name);
      if (preset.theta == candidate.theta && preset.theta_vq == candidate.theta_vq) candidate.name = preset.name;
    }
    commands->SetIntegrator(candidate);
    e.integrator.name = candidate.name;
  };
  LiveInput(ui, "sim.theta", "theta  [0, 1]", &e.integrator.theta, live.theta != scene.integrator.theta,
            [&] { apply_theta(false); }, 0.05);
  LiveInput(ui, "sim.theta_vq", "theta_vq  [0, 1]", &e.integrator.theta_vq,
            live.theta_vq != scene.integrator.theta_vq, [&] { apply_theta(true); }, 0.05);
  ImGui::TextDisabled("dt in [%.0e, %.1f] s; theta: velocity update, theta_vq: position update", kMinTimeStep,
                      kMaxTimeStep);
  if (!scheme.uses_contact_solver) DrawNmdpFields(sim, scheme, ui, commands);
  RevertButton(ui, "Revert##simulation", SimulationEdited(sim, ui->scene_values), "sim.", [&] {
    ui->sim_edits = ui->scene_values.sim;
    ApplySimulationEdits(ui, commands);
  });
}

// ---------------------------------------------------------------- Contact

namespace {

// The engine's contact parameters with the field `set` changes changed.
void ApplyContactParameters(const Simulation& sim, AppCommands* commands,
                            const std::function<void(ContactModelParameters&)>& set) {
  ContactModelParameters candidate = sim.contact_model_parameters();
  set(candidate);
  commands->SetContactModelParameters(candidate);
}

// The scene-wide fields: the contact model, β, σ and the load-aware
// regularization with its cap.
void DrawContactModelFields(const Simulation& sim, UiState* ui, AppCommands* commands) {
  ContactEdits& e = ui->contact_edits;
  const ContactEdits& scene = ui->scene_values.contact;
  const ContactModelParameters& live = sim.contact_model_parameters();
  const double g = GravityNorm(sim), dt = sim.time_step();
  auto apply_params = [&](const std::function<void(ContactModelParameters&)>& set) {
    ApplyContactParameters(sim, commands, set);
  };
  LiveRegistryCombo<ContactModelInfo>(ui, "contact.model", "contact model (scene)", ContactModels(),
                                      ContactModelName(e.params.model), live.model != scene.params.model,
                                      [&](const ContactModelInfo& m) {
    apply_params([&](ContactModelParameters& c) { c.model = m.model; });
    e.params.model = m.model;
  });
  ImGui::TextDisabled("  sap: linear dissipation tau_d; lagged / similar: Hunt & Crossley d, stiction v_s");
  LiveInput(ui, "contact.beta", "near-rigid threshold beta [-]", &e.params.near_rigid_threshold,
            live.near_rigid_threshold != scene.params.near_rigid_threshold,
            [&] { apply_params([&](ContactModelParameters& c) { c.near_rigid_threshold = e.params.near_rigid_threshold; }); },
            0.1);
  ImGui::TextDisabled("  beta >= 0 (paper: 1); resting penetration %.3g m",
                      NearRigidPenetration(live.near_rigid_threshold, g, dt));
  LiveInput(ui, "contact.sigma", "stiction tolerance sigma [-]", &e.params.stiction_tolerance,
            live.stiction_tolerance != scene.params.stiction_tolerance,
            [&] { apply_params([&](ContactModelParameters& c) { c.stiction_tolerance = e.params.stiction_tolerance; }); });
  ImGui::TextDisabled("  sigma > 0 (paper: 1e-3)");
  {
    LiveField field(ui, "contact.load_aware");
    const bool changed =
        ImGui::Checkbox(Label("stiffen near-rigid constraints to their load", field.id(),
                              live.load_aware_regularization != scene.params.load_aware_regularization)
                            .c_str(),
                        &e.params.load_aware_regularization);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("on: a contact, limit or weld that carries more than its bodies weigh holds it as if\n"
                        "resting under its own weight; off: [SAP] Eq. (29) as published");
    }
    field.End(changed, [&] {
      apply_params([&](ContactModelParameters& c) { c.load_aware_regularization = e.params.load_aware_regularization; });
    });
  }
  LiveInput(ui, "contact.lambda_max", "max load factor lambda_max [-]", &e.params.max_load_factor,
            live.max_load_factor != scene.params.max_load_factor,
            [&] { apply_params([&](ContactModelParameters& c) { c.max_load_factor = e.params.max_load_factor; }); });
}

// A material's own contact model: the first item, "(scene)", clears it.
// True when one was picked this frame.
bool MaterialModelCombo(const std::string& label, ContactMaterial* c) {
  const std::string current(c->model ? ContactModelName(*c->model) : std::string_view("(scene)"));
  ImGui::SetNextItemWidth(Scaled(160));
  bool picked = false;
  if (ImGui::BeginCombo(label.c_str(), current.c_str())) {
    if (ImGui::Selectable("(scene)", !c->model)) {
      c->model.reset();
      picked = true;
    }
    if (const ContactModelInfo* info = RegistryItems(ContactModels(), current)) {
      c->model = info->model;
      picked = true;
    }
    ImGui::EndCombo();
  }
  return picked;
}

// The fields of material `m`, whose engine copy is engine_material.
void DrawMaterialFields(const Simulation& sim, UiState* ui, AppCommands* commands, MaterialEdit& m,
                        const ContactMaterial& engine_material) {
  ContactMaterial& c = m.material;
  const ContactMaterial* scene_material = SceneMaterial(ui->scene_values, m.name);
  auto edited = [&](auto member) {
    return scene_material != nullptr && engine_material.*member != scene_material->*member;
  };
  ImGui::Text("material '%s'", m.name.c_str());
  const std::string prefix = "contact.mat." + m.name + ".";  // Under the section's prefix: Revert clears it.
  // One field of this material changed in the engine's copy.
  auto apply_material = [&](auto member) {
    ContactMaterial candidate = sim.GetMaterial(m.name);
    candidate.*member = c.*member;
    commands->SetMaterial(m.name, candidate);
  };
  {
    LiveField field(ui, prefix + "k");
    ImGui::SetNextItemWidth(Scaled(180));
    // A slider applies as it moves (Ctrl+click types a value).
    const bool changed = ImGui::SliderScalar(Label("stiffness k [N/m]", field.id(), edited(&ContactMaterial::stiffness)).c_str(),
                                             ImGuiDataType_Double, &c.stiffness, &kMinSliderStiffness,
                                             &kMaxSliderStiffness, "%.3g", ImGuiSliderFlags_Logarithmic);
    field.End(changed, [&] { apply_material(&ContactMaterial::stiffness); }, Scaled(180));
  }
  LiveInput(ui, prefix + "tau_d", "dissipation tau_d [s]", &c.dissipation, edited(&ContactMaterial::dissipation),
            [&] { apply_material(&ContactMaterial::dissipation); });
  LiveInput(ui, prefix + "mu", "friction mu [-]", &c.friction, edited(&ContactMaterial::friction),
            [&] { apply_material(&ContactMaterial::friction); }, 0.05);
  LiveInput(ui, prefix + "d", "H&C dissipation d [s/m]", &c.hc_dissipation, edited(&ContactMaterial::hc_dissipation),
            [&] { apply_material(&ContactMaterial::hc_dissipation); });
  LiveInput(ui, prefix + "v_s", "stiction velocity v_s [m/s]", &c.stiction_velocity,
            edited(&ContactMaterial::stiction_velocity), [&] { apply_material(&ContactMaterial::stiction_velocity); });
  // The pressure p = E e of this material's compliant geometries (rigid
  // ones ignore it); the next step's contact surfaces use the new E.
  LiveInput(ui, prefix + "E", "hydroelastic modulus E [Pa]", &c.hydroelastic_modulus,
            edited(&ContactMaterial::hydroelastic_modulus), [&] { apply_material(&ContactMaterial::hydroelastic_modulus); });
  {
    LiveField field(ui, prefix + "model");
    const bool picked = MaterialModelCombo(Label("contact model", field.id(), edited(&ContactMaterial::model)), &c);
    field.End(picked, [&] { apply_material(&ContactMaterial::model); });
  }
  ImGui::TextDisabled("  SAP stiction slip mu sigma g dt = %.3g m/s",
                      StictionSlipBound(engine_material.friction, sim.contact_model_parameters().stiction_tolerance,
                                        GravityNorm(sim), sim.time_step()));
}

}  // namespace

void DrawContactParameters(const Simulation& sim, UiState* ui, AppCommands* commands) {
  DrawContactModelFields(sim, ui, commands);
  ContactEdits& e = ui->contact_edits;
  for (size_t i = 0; i < e.materials.size(); ++i) {
    MaterialEdit& m = e.materials[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::Separator();
    ContactMaterial engine_material;
    try {
      engine_material = sim.GetMaterial(m.name);
    } catch (const InputError&) {  // Edits of another scene (cannot happen after a load; be safe).
      ImGui::PopID();
      continue;
    }
    DrawMaterialFields(sim, ui, commands, m, engine_material);
    ImGui::PopID();
  }
  ImGui::Separator();
  RevertButton(ui, "Revert##contact", ContactEdited(sim, ui->scene_values), "contact.", [&] {
    ui->contact_edits = ui->scene_values.contact;
    ApplyContactEdits(sim, ui, commands);
  });
}

// ---------------------------------------------------------------- Solver

namespace {

// The engine's solver settings with what `set` changes changed.
void ApplySolver(const Simulation& sim, AppCommands* commands, const std::function<void(SolverSettings&)>& set) {
  SolverSettings candidate = sim.solver_settings();
  set(candidate);
  commands->SetSolver(candidate);
}

// The ε_r presets, a combo beside the SAP table's own ε_r field.
void DrawRelativeTolerancePresets(const Simulation& sim, UiState* ui, AppCommands* commands) {
  SapSolverParameters& sap = ui->solver_edits.sap;
  LiveField field(ui, "solver.sap.relative_tolerance");
  char preview[32];
  std::snprintf(preview, sizeof preview, "%.0e", sap.relative_tolerance);
  ImGui::SetNextItemWidth(Scaled(90));
  bool picked = false;
  if (ImGui::BeginCombo("eps_r presets##eps_r_choice", preview)) {
    for (double choice : kRelativeToleranceChoices) {
      char label[32];
      std::snprintf(label, sizeof label, "%.0e", choice);
      if (ImGui::Selectable(label, choice == sap.relative_tolerance)) {
        sap.relative_tolerance = choice;
        picked = true;
      }
    }
    ImGui::EndCombo();
  }
  field.End(picked, [&] {
    ApplySolver(sim, commands, [&](SolverSettings& c) { c.sap.relative_tolerance = sap.relative_tolerance; });
  });
}

// The solver settings the section compares its fields with: the engine's
// and the scene's as the frame's drawing of the section began.
struct SolverSettingsPair {
  SolverSettings engine, scene;
};

// SAP's fields: the ε_r presets, its parameter table and the line search.
void DrawSapFields(const Simulation& sim, UiState* ui, AppCommands* commands, SolverSettingsPair& was) {
  SapSolverParameters& sap = ui->solver_edits.sap;
  SolverSettings& engine = was.engine;
  SolverSettings& scene_copy = was.scene;
  DrawRelativeTolerancePresets(sim, ui, commands);
  LiveParameterTable(ui, BindParameters(sap), BindParameters(engine.sap), BindParameters(scene_copy.sap), "solver.sap.",
                     [&](const ParameterBinding& p) {
    ApplySolver(sim, commands, [&](SolverSettings& c) { CopyValue(p, *FindBinding(BindParameters(c.sap), p.key)); });
  });
  LiveRegistryCombo<LineSearchInfo>(ui, "solver.sap.line_search", "line search", LineSearches(),
                                    GetLineSearchInfo(sap.line_search).name,
                                    engine.sap.line_search != scene_copy.sap.line_search, [&](const LineSearchInfo& s) {
    ApplySolver(sim, commands, [&](SolverSettings& c) { c.sap.line_search = s.kind; });
    sap.line_search = s.kind;
  });
}

// The chosen solver's own fields, when it has a parameter map of its own.
void DrawOwnSolverFields(const Simulation& sim, UiState* ui, AppCommands* commands, SolverSettingsPair& was) {
  SolverEdits& e = ui->solver_edits;
  const SolverTypeInfo& chosen = GetSolverTypeInfo(e.type);
  if (!chosen.own_map) return;
  SolverSettings& engine = was.engine;
  SolverSettings& scene_copy = was.scene;
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(chosen.description.data(), chosen.description.data() + chosen.description.size());
  ImGui::PopTextWrapPos();
  const std::string prefix = "solver." + std::string(chosen.name) + ".";
  LiveParameterTable(ui, chosen.bind(e), chosen.bind(engine), chosen.bind(scene_copy), prefix,
                     [&](const ParameterBinding& p) {
    ApplySolver(sim, commands, [&](SolverSettings& c) { CopyValue(p, *FindBinding(chosen.bind(c), p.key)); });
  });
}

// The time budget of whichever solver runs, and what it cost so far.
void DrawSolverBudget(const Simulation& sim, UiState* ui, AppCommands* commands, SolverSettingsPair& was,
                      bool uses_contact_solver) {
  SolverEdits& e = ui->solver_edits;
  SolverSettings& engine = was.engine;
  SolverSettings& scene_copy = was.scene;
  ImGui::Separator();
  LiveParameterTable(ui, BindStepParameters(e), BindStepParameters(engine), BindStepParameters(scene_copy),
                     "solver.", [&](const ParameterBinding& p) {
    ApplySolver(sim, commands, [&](SolverSettings& c) { CopyValue(p, *FindBinding(BindStepParameters(c), p.key)); });
  });
  const SolverStopCounts& stops = ui->solver_stops;
  ImGui::TextDisabled("%lld of %lld steps at the time budget, %lld short of the tolerance",
                      static_cast<long long>(stops.budget_hits), static_cast<long long>(stops.steps),
                      static_cast<long long>(stops.short_of_tolerance));
  if (stops.halved > 0) {
    ImGui::TextDisabled("%lld steps failed at dt and were taken in halves", static_cast<long long>(stops.halved));
  }
  if (stops.sap_fallbacks > 0) {
    ImGui::TextDisabled("%lld steps the solver could not take were taken by SAP",
                        static_cast<long long>(stops.sap_fallbacks));
  }
  if (stops.sleeping_bodies > 0) {
    ImGui::TextDisabled("%d bodies asleep (frozen until touched; drawn darker)", stops.sleeping_bodies);
  }
  if (uses_contact_solver && GetSolverTypeInfo(sim.solver_type()).augmented_lagrangian) {
    const SolverResult& r = sim.solver_result();
    ImGui::TextDisabled("last step: %d AL iterations, %d inner steps,\nresidual %.2e, AL penalty %.3g kg",
                        r.outer_iterations, r.iterations, r.constraint_residual, r.penalty);
  }
}

}  // namespace

void DrawSolverParameters(const Simulation& sim, UiState* ui, AppCommands* commands) {
  SolverEdits& e = ui->solver_edits;
  SolverSettingsPair was{sim.solver_settings(), ui->scene_values.solver};
  const SteppingSchemeInfo& scheme = GetSteppingSchemeInfo(sim.stepping_scheme());
  if (!scheme.uses_contact_solver) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kUnusedText, "unused: the stepping scheme %s carries its own contact forces (Simulation "
                       "section); these settings are kept for the theta-method",
                       std::string(scheme.title).c_str());
    ImGui::PopTextWrapPos();
  }
  LiveRegistryCombo<SolverTypeInfo>(ui, "solver.type", "solver", SolverTypes(), SolverTypeName(e.type),
                                    was.engine.type != was.scene.type,
                                    [&](const SolverTypeInfo& t) {
    ApplySolver(sim, commands, [&](SolverSettings& c) { c.type = t.type; });
    e.type = t.type;
  });
  ImGui::TextDisabled("SAP (convex, regularized) fields; the chosen solver's own fields below");
  DrawSapFields(sim, ui, commands, was);
  DrawOwnSolverFields(sim, ui, commands, was);
  DrawSolverBudget(sim, ui, commands, was, scheme.uses_contact_solver);
  RevertButton(ui, "Revert##solver", SolverEdited(sim, ui->scene_values), "solver.", [&] {
    ui->solver_edits = ui->scene_values.solver;
    ApplySolverEdits(ui, commands);
  });
}

// ---------------------------------------------------------------- whole sections

SimulationEdits SimulationEditsFrom(const Simulation& sim) {
  return SimulationEdits{sim.time_step(), sim.stepping_scheme(), sim.integrator(), sim.nmdp_parameters()};
}

bool ApplySimulationEdits(UiState* ui, AppCommands* commands) {
  const SimulationEdits& e = ui->sim_edits;
  IntegratorSettings integrator = e.integrator;
  try {
    CheckTimeStep(e.time_step);
    // A preset's name with edited θ values is custom.
    if (FindChoice(IntegratorPresets(), integrator.name) != nullptr) {
      const IntegratorSettings preset = IntegratorPreset(integrator.name);
      if (preset.theta != integrator.theta || preset.theta_vq != integrator.theta_vq) {
        integrator.name = std::string(kCustomIntegrator);
      }
    }
    ValidateIntegratorSettings(integrator);  // Before anything changes: all or nothing.
    ValidateNmdpParameters(e.nmdp);
    commands->SetIntegrator(integrator);
    commands->SetNmdpParameters(e.nmdp);
    commands->SetSteppingScheme(e.scheme);
    commands->SetTimeStep(e.time_step);
  } catch (const InputError& error) {
    ui->Error(std::string("refused: ") + error.what());
    return false;
  }
  ui->Info(StringPrintf("applied: dt = %.6g s, %s, %s (theta = %.3g, theta_vq = %.3g)", e.time_step,
                        std::string(SteppingSchemeName(e.scheme)).c_str(), integrator.name.c_str(),
                        integrator.theta, integrator.theta_vq));
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
  ui->Info(StringPrintf("applied: model %s, beta = %.4g, sigma = %.4g, %zu material(s)",
                        std::string(ContactModelName(e.params.model)).c_str(), e.params.near_rigid_threshold,
                        e.params.stiction_tolerance, e.materials.size()));
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

SceneValues SceneValuesFrom(const Simulation& sim) {
  return SceneValues{SimulationEditsFrom(sim), ContactEditsFrom(sim), SolverEditsFrom(sim)};
}

void LoadSceneFields(const Simulation& sim, const std::string& path, UiState* ui) {
  ui->scene_path_field = path;
  ui->sim_edits = SimulationEditsFrom(sim);
  ui->contact_edits = ContactEditsFrom(sim);
  ui->solver_edits = SolverEditsFrom(sim);
  ui->scene_values = SceneValuesFrom(sim);
  ui->field_errors.clear();
  ui->joint_controls = BuildJointControls(sim);
}

bool SimulationEdited(const Simulation& sim, const SceneValues& scene) {
  if (sim.time_step() != scene.sim.time_step || sim.stepping_scheme() != scene.sim.scheme ||
      sim.integrator().theta != scene.sim.integrator.theta || sim.integrator().theta_vq != scene.sim.integrator.theta_vq) {
    return true;
  }
  NmdpParameters engine = sim.nmdp_parameters(), original = scene.sim.nmdp;
  return TablesDiffer(BindParameters(engine), BindParameters(original));
}

bool ContactEdited(const Simulation& sim, const SceneValues& scene) {
  if (!SameContactParameters(sim.contact_model_parameters(), scene.contact.params)) return true;
  for (const MaterialEdit& m : scene.contact.materials) {
    try {
      if (!SameMaterial(sim.GetMaterial(m.name), m.material)) return true;
    } catch (const InputError&) {
      return true;
    }
  }
  return false;
}

bool SolverEdited(const Simulation& sim, const SceneValues& scene) {
  SolverSettings engine = sim.solver_settings(), original = scene.solver;
  if (engine.type != original.type || engine.sap.line_search != original.sap.line_search) return true;
  if (TablesDiffer(BindParameters(engine.sap), BindParameters(original.sap))) return true;
  if (TablesDiffer(BindStepParameters(engine), BindStepParameters(original))) return true;
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (info.own_map && TablesDiffer(info.bind(engine), info.bind(original))) return true;
  }
  return false;
}

double NearRigidPenetration(double beta, double g, double dt) {
  return beta * beta * g * dt * dt / (4.0 * kPi * kPi);
}

double StictionSlipBound(double mu, double sigma, double g, double dt) { return mu * sigma * g * dt; }

}  // namespace stiction::app
