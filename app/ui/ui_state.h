#pragma once
// Everything the panels edit or show between frames, in one object owned by
// the App (no static locals, no globals).
#include <string>
#include <vector>

#include "app/render/renderer.h"
#include "app/ui/rolling_plot.h"
#include "engine/scene/scene_description.h"

namespace stiction::app {

/// The Simulation panel's fields before Apply. A change reaches the engine
/// only through ApplySimulationEdits, from the next step on.
struct SimulationEdits {
  double time_step = 0.01;    ///< δt [s].
  int integrator = 3;         ///< Index into kIntegratorChoices.
  double theta = 0.5;         ///< θ in [0, 1] (custom).
  double theta_vq = 0.5;      ///< θ_vq in [0, 1] (custom).
};

/// Presets of engine/scene/scene_loader.h IntegratorPreset, then "custom".
inline constexpr const char* kIntegratorChoices[] = {"explicit_euler", "symplectic_euler",
                                                     "implicit_euler", "midpoint", "custom"};
inline constexpr int kNumIntegratorChoices = 5;
/// δt accepted by the panel [s]. The engine accepts any positive value; the
/// viewer refuses steps that could not run interactively or say nothing.
inline constexpr double kMinTimeStep = 1e-5;
inline constexpr double kMaxTimeStep = 0.1;

/// One material row of the Contact panel.
struct MaterialEdit {
  std::string name;
  double stiffness = 1e6;    ///< k [N/m], > 0.
  double dissipation = 0.01; ///< τd [s], ≥ 0.
  double friction = 0.5;     ///< μ, ≥ 0.
};

/// The Contact panel's fields before Apply (ApplyContactEdits).
struct ContactEdits {
  double near_rigid_threshold = 1.0;  ///< β, ≥ 0.
  double stiction_tolerance = 1e-3;   ///< σ, > 0.
  std::vector<MaterialEdit> materials;
};

/// Contact solvers the engine offers (stiction::kSolverTypes), switchable live.
inline constexpr const char* kSolverChoices[] = {"sap", "canal", "subadmm"};
inline constexpr int kNumSolverChoices = 3;
/// ε_r presets of the Solver panel.
inline constexpr double kRelativeToleranceChoices[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
inline constexpr int kNumRelativeToleranceChoices = 8;

/// The Solver panel's fields before Apply (ApplySolverEdits).
struct SolverEdits {
  int solver = 0;                     ///< Index into kSolverChoices.
  double relative_tolerance = 1e-6;   ///< ε_r in [0, 1].
  double absolute_tolerance = 1e-14;  ///< ε_a [√J], ≥ 0.
  int max_iterations = 100;           ///< ≥ 1.
  bool backtracking = false;          ///< Line search: false exact, true backtracking.
  double backtracking_rho = 0.8;      ///< ρ in (0, 1).
  double armijo_c = 1e-4;             ///< c in (0, 1).
  double backtracking_alpha_max = 1.25;  ///< α_max > 0.
  CanalSolverParameters canal;      ///< CANAL's fields (docs/solvers.md).
  SubAdmmSolverParameters subadmm;  ///< SubADMM's fields.
};

struct VisualizationState {
  RenderOptions render;
  bool body_frames = false;
  bool centers_of_mass = false;
  bool perturbation_force = true;
  // Contacts (drawn on top of the scene).
  bool contact_points = true;
  bool normal_forces = false;
  bool friction_forces = false;
  bool friction_cones = false;
  double force_scale = 50.0;  ///< Force arrows: N per metre of arrow.
  double cone_size = 0.03;    ///< Height of a friction-cone glyph [m].
};

struct Plots {
  RollingPlot iterations, contacts, achieved_rtf, kinetic_energy;
  RollingPlot log_momentum_error;        ///< log10(e_m).
  RollingPlot line_search_iterations;
  void Clear() {
    iterations.Clear();
    contacts.Clear();
    achieved_rtf.Clear();
    kinetic_energy.Clear();
    log_momentum_error.Clear();
    line_search_iterations.Clear();
  }
};

struct UiState {
  bool show_panels = true;
  bool show_help = false;  ///< F1 bindings window.
  SimulationEdits sim_edits;
  ContactEdits contact_edits;
  SolverEdits solver_edits;
  /// Index into Snapshot::contacts of the contact shown by the inspector
  /// (−1: none). The App follows it from step to step (same body pair,
  /// nearest point) and clears it when the pair no longer touches.
  int selected_contact = -1;
  bool open_inspector = false;  ///< Expand the Contacts window next frame (a contact was picked).
  VisualizationState viz;
  std::string scene_path_field;  ///< The Open field.
  /// Scene loads asked for by the panels, done by the App at the start of
  /// the next frame (never while a panel still reads the old simulation).
  std::string pending_open;
  bool pending_reload = false;
  std::string message;           ///< Last status or error line.
  bool message_is_error = false;
  Plots plots;

  void Info(std::string text) {
    message = std::move(text);
    message_is_error = false;
  }
  void Error(std::string text) {
    message = std::move(text);
    message_is_error = true;
  }
};

}  // namespace stiction::app
