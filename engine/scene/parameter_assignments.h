#pragma once
// The live parameters of a scene (SceneParameters: what the viewer's panels
// edit) as "key=value" assignments, with the keys a scene file gives them
// (docs/scene-format.md): `time_step`, `stepping`, `integrator.theta`,
// `integrator.theta_vq`, `contact_model`, `solver.type`,
// `solver.line_search`, `solver.KEY` (SAP's keys, the contact
// regularization's and the budget's), `solver.SOLVER.KEY` (CANAL, SubADMM,
// PGS), `nmdp.KEY`, `materials.NAME.KEY` and `materials.NAME.contact_model`.
// A command file's `set:` entries are such assignments (a saved timeline
// branch records its parameter edits so; docs/teleop.md), as `--set` gives
// them for a scene file at load.
#include <string>
#include <vector>

#include "engine/scene/scene_writer.h"

namespace stiction {

/// Every live parameter of `p` as "key=value", in the order above; numbers
/// in their shortest form that reads back bit-identical.
std::vector<std::string> FlattenSceneParameters(const SceneParameters& p);

/// The assignments that turn `before` into `after` (the keys whose values
/// differ), in the order above. Both must have the same materials.
std::vector<std::string> DiffSceneParameters(const SceneParameters& before, const SceneParameters& after);

/// Applies one "key=value" to `p`; `integrator=NAME` sets θ and θ_vq of a
/// preset (explicit_euler, symplectic_euler, implicit_euler, midpoint). Throws InputError "KEY: reason" for a
/// missing '=', an unknown key (naming the keys there are), a value that is
/// not of the key's kind (a number, an integer, true/false, a name from the
/// key's list) or out of its range. Changing θ or θ_vq names the integrator
/// after the preset they match, else "custom".
void ApplyParameterAssignment(const std::string& assignment, SceneParameters* p);

}  // namespace stiction
