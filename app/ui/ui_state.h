#pragma once
// Everything the panels edit or show between frames, in one object owned by
// the App (no static locals, no globals).
#include <string>

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

struct VisualizationState {
  RenderOptions render;
  bool body_frames = false;
  bool centers_of_mass = false;
  bool perturbation_force = true;
};

struct Plots {
  RollingPlot iterations, contacts, achieved_rtf, kinetic_energy;
  void Clear() {
    iterations.Clear();
    contacts.Clear();
    achieved_rtf.Clear();
    kinetic_energy.Clear();
  }
};

struct UiState {
  bool show_panels = true;
  bool show_help = false;  ///< F1 bindings window.
  SimulationEdits sim_edits;
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
