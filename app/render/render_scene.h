#pragma once
// The drawable view of a scene: one entry per geometry, attached to a model
// body, with its shape, colour and a bounding sphere. Built once per scene
// load; it holds no GL objects (the MeshCache does), so picking and tests use
// it without a context.
#include <string>
#include <vector>

#include "engine/geometry/mesh_loader.h"
#include "engine/simulation.h"

namespace stiction::app {

struct Drawable {
  int body = 0;          ///< Model body index; 0 = welded to the world.
  std::string name;      ///< Geometry name (may be empty).
  RigidTransform X_BG;   ///< Geometry pose in the body frame.
  ShapeDescription shape;
  Vector4 color = Vector4(0.7, 0.7, 0.7, 1.0);  ///< RGBA in [0, 1].
  /// False when the scene left the colour at its default and the body got
  /// one from kBodyPalette instead.
  bool color_given = true;
  float specular = 0.25f;   ///< Blinn-Phong highlight strength (0..1).
  float shininess = 48.0f;  ///< Blinn-Phong exponent.
  bool visual = true;      ///< Drawn by default.
  bool collision = true;   ///< Takes part in contact.
  double bounding_radius = 0;  ///< About G's origin [m]; infinite for half-spaces.
  std::string mesh_key;    ///< Key into the MeshCache.
};

struct RenderScene {
  std::vector<Drawable> drawables;
  /// CPU meshes by key (primitives generated, files loaded), uploaded by the
  /// MeshCache. Loading errors are collected, not thrown: the viewer shows
  /// the rest of the scene and the message.
  std::vector<std::pair<std::string, RenderMesh>> meshes;
  std::vector<std::string> warnings;
  /// Scene-body index → model body index (the model orders bodies depth first).
  std::vector<int> model_body_of_scene_body;
  /// Characteristic size of each model body (largest geometry bounding
  /// radius) [m], for the frame axes; index 0 unused.
  std::vector<double> body_size;
};

/// The colour a geometry has when the scene gives none
/// (GeometryDescription's default). The scene format cannot say whether the
/// colour was written, so exactly this value counts as "not given".
inline const Vector4 kDefaultGeometryColor(0.7, 0.7, 0.7, 1.0);
/// Colours for the bodies whose geometry has no colour of its own, by scene
/// body index (cycled): distinct, mid-saturated hues that read well under
/// the sky light and against the grey ground.
inline constexpr float kBodyPalette[][3] = {
    {0.89f, 0.45f, 0.32f},  // terracotta
    {0.30f, 0.58f, 0.82f},  // blue
    {0.95f, 0.75f, 0.30f},  // ochre
    {0.42f, 0.72f, 0.48f},  // green
    {0.68f, 0.50f, 0.82f},  // lilac
    {0.35f, 0.75f, 0.76f},  // teal
    {0.90f, 0.55f, 0.66f},  // rose
    {0.62f, 0.68f, 0.30f},  // olive
};

/// The key that identifies a shape's mesh (equal shapes share one mesh).
std::string MeshKey(const ShapeDescription& shape);
RenderScene BuildRenderScene(const Simulation& sim);

/// A sphere [m] holding every finite drawable at the given body poses
/// (index = model body). Returns radius 1 at the origin for an empty scene.
void CalcSceneBounds(const RenderScene& scene, const std::vector<RigidTransform>& X_WB,
                     Vector3* center, double* radius);

}  // namespace stiction::app
