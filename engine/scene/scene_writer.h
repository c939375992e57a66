#pragma once
// "Save scene as": a scene file that loads to the scene as loaded, with the
// parameters the viewer edits live (δt, stepping scheme, integrator, contact
// model, materials, solver, NMDP parameters) set to their current values;
// and the flattening it starts from (the includes merged, the paths
// rebased).
// docs/scene-format.md ("Save scene as") documents what is written and what
// is not.
#include <string>
#include <utility>
#include <vector>

#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/solver_settings.h"

namespace stiction {

/// The live-editable parameters of a scene (Simulation::CalcSceneParameters
/// reads them from a running simulation).
struct SceneParameters {
  double time_step = 0.01;  ///< δt [s], in (0, 1] (the scene key's range).
  SteppingScheme scheme = SteppingScheme::kThetaMethod;  ///< `stepping`.
  IntegratorSettings integrator;
  /// β, σ, the carried-load estimate and the scene's contact model.
  ContactModelParameters contact;
  /// Every material of the scene by name, in scene order.
  std::vector<std::pair<std::string, ContactMaterial>> materials;
  /// The solver type and every solver's parameters.
  SolverSettings solver;
  /// The parameters of the NMDP schemes (`nmdp:`), whatever `scheme` is.
  NmdpParameters nmdp;
};

/// The scene file at `path` (a YAML scene, or a robot file opened as a
/// scene) as one YAML document that, saved in `dest_dir`, loads to the same
/// scene: its includes merged as the loader merges them (no `include` is
/// left), `overrides` applied, and every relative path (mesh files, robot
/// files, `package_path`, `commands`) rewritten to name the same file from
/// `dest_dir` — relative when the operating system agrees, else absolute.
/// Keys come in the order of docs/scene-format.md; comments are not kept.
/// Reads the files but does not validate the scene (LoadSceneFile does).
/// Throws InputError "FILE:LINE: reason" for a file that cannot be read or
/// parsed.
std::string FlattenSceneFile(const std::string& path, const std::string& dest_dir,
                             const std::vector<std::string>& overrides = {});

/// The text of a scene file that, saved at `dest_path`, loads to the scene
/// at `source_path` (a YAML scene or a robot file; with `overrides` applied
/// as LoadSceneFile applies them) with the parameters `p`:
/// FlattenSceneFile(source_path, directory of dest_path) with `time_step`,
/// `stepping`, `integrator`, `contact_model`, `solver:`, `nmdp:` and every
/// material written from `p` (only keys scene files have: SAP's line-search
/// constants without a key are not saved). A header comment names the
/// source. Throws InputError naming the source for a file that cannot be
/// read, or naming the parameter when `p` holds a value a scene file cannot
/// (δt outside (0, 1], a parameter out of its range).
std::string FormatSceneWithParameters(const std::string& source_path, const SceneParameters& p,
                                      const std::string& dest_path,
                                      const std::vector<std::string>& overrides = {});

/// Writes FormatSceneWithParameters to `dest_path`, through a temporary file
/// in the same directory renamed over it, so that `dest_path` is either the
/// old file or the whole new one. Throws InputError naming `dest_path` when
/// it cannot be written (the temporary file is removed).
void SaveSceneWithParameters(const std::string& source_path, const SceneParameters& p,
                             const std::string& dest_path,
                             const std::vector<std::string>& overrides = {});

}  // namespace stiction
