// Harness: mesh files through the mesh loader (Assimp, then our welding,
// closedness check and qhull). The first byte picks the extension from the
// formats the scenes use (.obj, .stl; Assimp picks the reader by it), the
// rest is the file, written to the scratch directory and removed after.
// A mesh that loads for contact is then a body dropped onto the ground, once
// rigid and once compliant (its volume mesh is generated from the hull). An
// .obj is also read as a compound (`pieces: true`: Stiction's own OBJ
// reader, one convex piece per object) with its mass from the pieces'
// union, whether or not Assimp could load it.
#include <string>

#include "engine/common/error.h"
#include "engine/geometry/mesh_loader.h"
#include "engine/scene/scene_loader.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_support.h"

namespace stiction {
namespace {

constexpr const char* kExtensions[] = {"obj", "stl"};

/// The OBJ file's objects as the convex pieces of a body of computed mass.
std::string PiecesScene(const std::string& file) {
  return std::string("time_step: 0.01\n"
                     "world_geometry:\n  - {name: ground, shape: {type: half_space}}\n"
                     "bodies:\n  - name: m\n    density: 1000\n    pose: {position: [0, 0, 0.05]}\n"
                     "    geometry:\n      - shape: {type: mesh, file: ") +
         file + ", scale: 0.1, pieces: true}\n";
}

std::string DropScene(const std::string& file, bool compliant) {
  return std::string("time_step: 0.01\n"
                     "materials:\n  - {name: soft, hydroelastic_modulus: 1.0e5}\n"
                     "world_geometry:\n  - {name: ground, shape: {type: half_space}}\n"
                     "bodies:\n  - name: m\n    mass: 1\n    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
                     "    pose: {position: [0, 0, 0.05]}\n"
                     "    geometry:\n      - shape: {type: mesh, file: ") +
         file + ", scale: 0.1}\n" + (compliant ? "        material: soft\n        compliant: true\n" : "");
}

}  // namespace

int StictionFuzzMesh(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string name = std::string("mesh.") + kExtensions[data[0] & 1];
  const ScratchFile file(name, AsText(data + 1, size - 1));
  try {
    LoadRenderMesh(file.path());
  } catch (const InputError& e) {
    CheckCleanError(e);
  }
  if (name == "mesh.obj") {
    LoadAndStep([&] { return LoadSceneString(PiecesScene(name), FuzzScratchDir() + "/pieces.yaml", FuzzScratchDir()); });
  }
  try {
    LoadCollisionMesh(file.path(), Vector3(0.1, 0.2, 0.3));
  } catch (const InputError& e) {
    CheckCleanError(e);
    return 0;
  }
  for (const bool compliant : {false, true}) {
    LoadAndStep([&] { return LoadSceneString(DropScene(name, compliant), FuzzScratchDir() + "/drop.yaml", FuzzScratchDir()); });
  }
  return 0;
}

}  // namespace stiction
