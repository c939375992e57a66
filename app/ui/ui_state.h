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

/// Contact models of the Contact panel, in the order of the engine's
/// ContactModel enum (ContactModelName gives the same strings).
inline constexpr const char* kContactModelChoices[] = {"sap", "lagged", "similar", "regularized_lagged"};
inline constexpr int kNumContactModelChoices = 4;

/// One material row of the Contact panel.
struct MaterialEdit {
  std::string name;
  double stiffness = 1e6;    ///< k [N/m], > 0.
  double dissipation = 0.01; ///< τd [s], ≥ 0 (SAP).
  double friction = 0.5;     ///< μ, ≥ 0.
  double hc_dissipation = 10.0;     ///< Hunt & Crossley d [s/m], ≥ 0.
  double stiction_velocity = 1e-4;  ///< v_s [m/s], > 0.
  int model = 0;  ///< 0: the scene's model; i > 0: kContactModelChoices[i − 1].
};

/// The Contact panel's fields before Apply (ApplyContactEdits).
struct ContactEdits {
  int model = 0;                      ///< Scene default, index into kContactModelChoices.
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
  int max_iterations = 300;           ///< ≥ 1.
  bool backtracking = false;          ///< Line search: false exact, true backtracking.
  double backtracking_rho = 0.8;      ///< ρ in (0, 1).
  double armijo_c = 1e-4;             ///< c in (0, 1).
  double backtracking_alpha_max = 1.25;  ///< α_max > 0.
  double line_search_tolerance = 1e-6;   ///< Exact search: |dℓ/dα| ratio, in (0, 1).
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

/// The Gripper panel's plots (one sample per frame with steps) and fields.
struct GripperUi {
  RollingPlot normal_force[2];   ///< Per finger (left, right) [N].
  RollingPlot utilisation[2];    ///< |γ_t| / (μ γ_n), per finger.
  RollingPlot slip_speed[2];     ///< Object relative to the finger [µm/s].
  std::string record_path = "commands.yaml";  ///< Save field.
  std::string replay_path;                   ///< Replay field.
  void Clear() {
    for (int f = 0; f < 2; ++f) {
      normal_force[f].Clear();
      utilisation[f].Clear();
      slip_speed[f].Clear();
    }
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
  double video_fps = 30.0;       ///< Frames per simulated second of the next recording.
  std::string message;           ///< Last status or error line.
  bool message_is_error = false;
  Plots plots;
  GripperUi gripper;

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
