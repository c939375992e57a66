#pragma once
// The pieces of an OBJ file (docs/scene-format.md, "Mesh pieces"): how a user
// brings a convex decomposition made elsewhere (V-HACD, CoACD, Blender),
// one convex piece per object. Stiction reads these statements itself
// (v, f, o, g; the rest — normals, texture coordinates, materials, smoothing
// groups, lines — is skipped), as it needs the file's objects apart.
#include <string>
#include <vector>

#include "engine/scene/scene_description.h"

namespace stiction {

/// One MeshData per object (`o`) of the OBJ file at `path`, or per group
/// (`g`) in a file without objects, or the whole file if it has neither;
/// objects without faces are skipped. Each holds the vertices its faces use
/// and its faces fanned into triangles, in the file's order. Named
/// "<object name> of <file name>". Throws InputError("<path>:<line>: <reason>")
/// for a file that cannot be read, a malformed number, a face with fewer
/// than three vertices or an index out of range, and ("<path>: <reason>") for
/// a file with no faces.
std::vector<MeshData> ReadObjPieces(const std::string& path);

}  // namespace stiction
