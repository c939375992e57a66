#pragma once
// The ImGui panels: Simulation, Visualization, Plots, the info overlay and
// the F1 bindings list. They read an AppView, edit the UiState, and act only
// through AppCommands, so the same apply functions serve the buttons and the
// tests.
#include <string>

#include "app/snapshot.h"
#include "app/ui/ui_state.h"
#include "engine/simulation.h"

namespace stiction::app {

/// What the App can be asked to do. Methods that change engine parameters
/// throw InputError on a refused value; the caller shows the message.
class AppCommands {
 public:
  virtual ~AppCommands() = default;
  virtual void TogglePause() = 0;
  virtual void StepOnce() = 0;
  virtual void ResetSimulation() = 0;
  virtual void SetTimeStep(double dt) = 0;
  virtual void SetIntegrator(const IntegratorDescription& integrator) = 0;
  virtual void SetRealTimeFactor(double rtf) = 0;
  virtual void SetUnlimitedSpeed(bool unlimited) = 0;
  virtual void SetPhysicsBudget(double seconds) = 0;
  virtual bool OpenScene(const std::string& path, bool keep_camera) = 0;
  virtual bool ReloadScene() = 0;
  virtual void RequestScreenshot() = 0;
};

/// Read-only facts the panels show.
struct AppView {
  const Simulation* sim = nullptr;
  const Snapshot* snapshot = nullptr;
  std::string scene_file;
  bool paused = false;
  double target_rtf = 1;
  bool unlimited = false;
  double achieved_rtf = 0;
  double physics_budget_s = 0.01;
  double fps = 0;
  double frame_ms = 0, physics_ms = 0, render_ms = 0;
  int steps_last_frame = 0;
  int selected_body = -1;
  std::string selected_name;
};

/// The panel fields for the simulation's current settings.
SimulationEdits SimulationEditsFrom(const Simulation& sim);

/// Applies the Simulation panel's δt and integrator. On a refused value it
/// applies nothing, sets ui->message and returns false; the simulation keeps
/// its previous settings and keeps running.
bool ApplySimulationEdits(UiState* ui, AppCommands* commands);

/// Draws every panel for this frame (between ImGui::NewFrame and Render).
void DrawPanels(const AppView& view, UiState* ui, AppCommands* commands);

}  // namespace stiction::app
