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
/// tree is contiguous; body names are kept. Throws InputError naming the
/// scene file and line on inconsistent input (unknown parent, a body that is
/// the child of two joints, a cycle, wrong initial-state sizes).
BuiltModel BuildModel(const SceneDescription& scene);

}  // namespace stiction
