#pragma once
// The scene the viewer shows: the simulation, the file it came from, its
// drawables and the snapshot the frame renders. A load replaces all of it at
// once (App::LoadScene); the App owns it and every part that reads or steps
// it holds a reference (the App outlives its parts).
#include <memory>
#include <string>

#include "app/render/render_scene.h"
#include "app/snapshot.h"
#include "engine/scene/scene_writer.h"
#include "engine/simulation.h"

namespace stiction::app {

struct ViewerScene {
  std::unique_ptr<Simulation> sim;  ///< Never null once the App is constructed.
  std::string path;                 ///< The scene file (Reload, Save scene as, the overlay).
  RenderScene render;
  Snapshot snapshot;                ///< The state this frame renders and the panels show.
  bool has_compliant_geometry = false;  ///< A geometry is compliant (pressure-field contact).
  /// The live parameters as the scene file gives them (at load): what a
  /// saved timeline branch writes its `set:` edits against, and what a
  /// command file with `set:` entries is replayed from.
  SceneParameters loaded_parameters;
};

}  // namespace stiction::app
