#pragma once
// Everything the panels edit or show between frames, in one object owned by
// the App (no static locals, no globals).
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "app/input/devices/device_ui.h"
#include "app/input/key_map.h"
#include "app/record/video_overlay_options.h"
#include "app/render/pressure_scale.h"
#include "app/render/renderer.h"
#include "app/ui/joint_control.h"
#include "app/ui/layout.h"
#include "app/ui/rolling_plot.h"
#include "app/ui/timeline_plots.h"
#include "app/ui/viewer_settings.h"
#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/solver_settings.h"
#include "engine/stepping/step_result.h"

namespace stiction::app {

/// The Simulation section's δt, stepping scheme, integrator and NMDP
/// fields. Live: a field reaches
/// the engine, from the next step on, as soon as it is committed (a slider as
/// it moves, a typed number on Enter or when the field loses focus); a value
/// the engine refuses stays in the field, in red, with the reason
/// (docs/viewer.md "Live tuning").
struct SimulationEdits {
  double time_step = 0.01;        ///< δt [s].
  SteppingScheme scheme = SteppingScheme::kThetaMethod;
  IntegratorSettings integrator;  ///< A preset (name and θ values) or "custom" θ values (θ-method).
  NmdpParameters nmdp;            ///< The NMDP schemes' parameters (docs/nmdp.md).
};

/// δt accepted by the panel [s]. The engine accepts any positive value; the
/// viewer refuses steps that could not run interactively or say nothing.
inline constexpr double kMinTimeStep = 1e-5;
inline constexpr double kMaxTimeStep = 0.1;

/// One material row of the Contact panel.
struct MaterialEdit {
  std::string name;
  ContactMaterial material;  ///< k, τd, μ, d, v_s; model nullopt: the scene's.
};

/// The Contact section's fields (live, as above).
struct ContactEdits {
  ContactModelParameters params;  ///< β, σ and the scene's contact model.
  std::vector<MaterialEdit> materials;
};

/// The Solver section's fields (live, as above): the solver type and every
/// solver's parameters.
using SolverEdits = SolverSettings;
/// ε_r presets of the Solver panel.
inline constexpr double kRelativeToleranceChoices[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8};

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
  /// Pressure-field contact patches (compliant geometry): shown, and the
  /// colour scale's mode and fixed top.
  PressureScaleSettings pressure;
};

struct Plots {
  RollingPlot iterations, contacts, achieved_rtf, kinetic_energy;
  RollingPlot log_momentum_error;        ///< log10(e_m).
  RollingPlot log_ncp_residual;          ///< log10 of StepStats::ncp_residual.
  RollingPlot line_search_iterations;
  void Clear() {
    iterations.Clear();
    contacts.Clear();
    achieved_rtf.Clear();
    kinetic_energy.Clear();
    log_momentum_error.Clear();
    log_ncp_residual.Clear();
    line_search_iterations.Clear();
  }
};

/// The Gripper panel's plots (one sample per frame with steps) and fields.
struct GripperUi {
  // Per finger, in the gripper's finger order.
  std::vector<RollingPlot> normal_force;  ///< [N].
  std::vector<RollingPlot> utilisation;   ///< |γ_t| / (μ γ_n).
  std::vector<RollingPlot> slip_speed;    ///< Object relative to the finger [µm/s].
  /// While the timeline keeps states: the same plots from its states up to
  /// the cursor, with the previous branch's beside them (TimelineGraspPlots);
  /// drawn instead of the rolling ones.
  std::vector<BranchPlot> timeline;
  std::string record_path = "commands.yaml";  ///< Save field.
  std::string dataset_path = "demos.hdf5";    ///< Keep field: the dataset takes go to.
  int replay_demo = 0;                        ///< The demo index Replay demo plays.
  std::string replay_path;                   ///< Replay field.
  void Clear() {
    normal_force.clear();
    utilisation.clear();
    slip_speed.clear();
    timeline.clear();
  }
};

/// The scene's own parameter values, as loaded: what "edited" markers compare
/// with and what each section's Revert restores.
struct SceneValues {
  SimulationEdits sim;
  ContactEdits contact;
  SolverEdits solver;
};

/// How the contact solver ended its steps since the scene was loaded or
/// reset (the Solver panel shows it next to the budget).
struct SolverStopCounts {
  std::int64_t steps = 0;
  std::int64_t short_of_tolerance = 0;  ///< At the iteration cap or the budget (!solver_converged).
  std::int64_t budget_hits = 0;         ///< At the time budget (StepStats::budget_hit).
  /// Failed at δt and taken in halves (StepStats::subdivisions, θ-method).
  std::int64_t halved = 0;
  /// Taken by SAP after the chosen solver failed (StepStats::solver_fallback).
  std::int64_t sap_fallbacks = 0;
  /// Bodies asleep in the last step (StepStats::sleeping_bodies).
  int sleeping_bodies = 0;
  void Add(const StepStats& s) {
    ++steps;
    if (!s.solver_converged) ++short_of_tolerance;
    if (s.budget_hit) ++budget_hits;
    if (s.subdivisions > 0) ++halved;
    if (s.solver_fallback) ++sap_fallbacks;
    sleeping_bodies = s.sleeping_bodies;
  }
};

struct UiState {
  /// Remembered between runs: column visibility and widths, open sections,
  /// UI scale, window size (viewer_settings.h).
  ViewerSettings settings;
  /// This frame's layout (DrawPanels computes it; the App renders the scene
  /// into layout.scene and maps the mouse through it).
  Layout layout;
  float ui_scale = 1;      ///< The scale in effect (settings.ui_scale or the monitor's).
  bool show_help = false;  ///< F1 bindings window.
  bool show_info = true;   ///< F2: the info overlay in the view.
  /// The timeline's previous branch drawn as a ghost (when there is one).
  bool show_branch_ghost = true;
  /// The timeline video's range [s]; NaN: the start or the end of what the
  /// timeline holds.
  double timeline_video_from = std::numeric_limits<double>::quiet_NaN();
  double timeline_video_to = std::numeric_limits<double>::quiet_NaN();
  SimulationEdits sim_edits;
  ContactEdits contact_edits;
  SolverEdits solver_edits;
  SolverStopCounts solver_stops;
  SceneValues scene_values;
  /// Fields whose last committed value the engine refused: field id → the
  /// engine's reason. Shown in red until a valid value or Revert.
  std::map<std::string, std::string> field_errors;
  /// Where each live field wholly visible this frame was drawn (screen
  /// pixels; cleared each frame): the tests drive the widgets with the
  /// mouse through it.
  std::map<std::string, Rect> field_rects;
  std::string save_scene_path;  ///< The "Save scene as" field.
  /// The Joints and Control sections' rows and filter boxes, rebuilt (filters
  /// emptied) by every scene load.
  JointControls joint_controls;
  /// Index into Snapshot::contacts of the contact shown by the inspector
  /// (−1: none). The App follows it from step to step (same body pair,
  /// nearest point) and clears it when the pair no longer touches.
  int selected_contact = -1;
  bool open_inspector = false;  ///< Expand the Contacts window next frame (a contact was picked).
  VisualizationState viz;
  /// The automatic pressure scale's smoothed peak (the App updates it with
  /// each new snapshot; reset on load and reset).
  AutoPressureMax pressure_max;
  std::string scene_path_field;  ///< The Open field.
  /// Scene loads asked for by the panels, done by the App at the start of
  /// the next frame (never while a panel still reads the old simulation).
  std::string pending_open;
  bool pending_reload = false;
  double video_fps = 30.0;       ///< Frames per simulated second of the next recording.
  int video_width = 1280, video_height = 720;  ///< Size of V recordings [pixels] (0: the view's).
  VideoOverlayOptions overlay;
  /// Camera: the body the camera follows ("" = none; the Visualization section).
  std::string track_body;
  std::string message;           ///< Last status or error line.
  bool message_is_error = false;
  Plots plots;
  GripperUi gripper;
  /// The keys in effect: the defaults, or the user's input file's
  /// (app/input/input_config.h); InputController and the F1 list read them.
  KeyMap keys;
  /// The input devices' status and mappings (the Gripper panel's Device rows).
  DeviceUi devices;

  /// The pressure patches' colour scale this frame (the Visualization
  /// section's mode and fixed top, or the smoothed peak): what the patches
  /// are coloured with and the legend shows.
  PressureLegend pressure_legend() const { return MakePressureLegend(viz.pressure, pressure_max.max_pa()); }

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
