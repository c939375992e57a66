#pragma once
// Turns a validated SceneDescription into a MultibodyModel and its initial
// state. The only place that knows both the file format's structs and the
// model's.
#include <memory>

#include "engine/multibody/multibody_model.h"
#include "engine/scene/scene_description.h"

namespace stiction {

struct BuiltModel {
  std::unique_ptr<MultibodyModel> model;
  VectorX q0;  ///< Initial positions (quaternions normalized).
  VectorX v0;  ///< Initial velocities.
};

/// Bodies are reordered tree by tree (depth first from the world) so that each
/// tree is contiguous; body names are kept. The first step of compiling a
/// scene (engine/scene_compiler.h).
///
/// Precondition (the loader's checks, with the file's lines; asserted in
/// debug builds): every joint names known bodies, every body is the child
/// of exactly one joint, and the joints form a forest rooted at the world.
/// Throws InputError naming the scene file and line for what only the
/// assembled description shows: a duplicate or reserved body name among a
/// robot file's own, a body or joint the model refuses (mass, inertia,
/// axis), initial states of the wrong size or not finite.
BuiltModel BuildModel(const SceneDescription& scene);

}  // namespace stiction
