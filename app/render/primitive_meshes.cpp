#include "app/render/primitive_meshes.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace stiction::app {
namespace {

using Eigen::Vector3f;
constexpr double kPi = std::numbers::pi;

void AddQuad(RenderMesh* mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  mesh->indices.insert(mesh->indices.end(), {a, b, c, a, c, d});
}

// A surface of revolution about z: a sphere of `radius` whose lower half is
// shifted by -half_length and upper half by +half_length (a capsule; a sphere
// when half_length = 0). Rings go from the south pole (φ = 0) to the north.
RenderMesh MakeLathe(double radius, double half_length, int slices, int stacks) {
  slices = std::max(slices, 3);
  stacks = std::max(stacks, 2) & ~1;  // Even, so that the equator is a ring.
  RenderMesh mesh;
  std::vector<std::pair<double, double>> rings;  // (polar angle φ, z offset)
  for (int i = 0; i <= stacks; ++i) {
    const double phi = kPi * i / stacks;
    if (i == stacks / 2 && half_length > 0) {
      rings.emplace_back(phi, -half_length);
      rings.emplace_back(phi, half_length);
    } else {
      rings.emplace_back(phi, i < stacks / 2 ? -half_length : half_length);
    }
  }
  for (const auto& [phi, dz] : rings) {
    for (int j = 0; j <= slices; ++j) {
      const double az = 2 * kPi * j / slices;
      const Vector3f n(static_cast<float>(std::sin(phi) * std::cos(az)),
                       static_cast<float>(std::sin(phi) * std::sin(az)),
                       static_cast<float>(-std::cos(phi)));
      mesh.normals_G.push_back(n);
      mesh.positions_G.push_back(static_cast<float>(radius) * n + Vector3f(0, 0, static_cast<float>(dz)));
    }
  }
  const auto row = static_cast<std::uint32_t>(slices + 1);
  for (std::uint32_t r = 0; r + 1 < rings.size(); ++r) {
    for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(slices); ++j) {
      const std::uint32_t a = r * row + j, b = a + 1, c = a + row + 1, d = a + row;
      // Ring r is below ring r+1 and azimuth grows counter-clockwise seen
      // from outside, so a, b, c, d is counter-clockwise from outside.
      AddQuad(&mesh, a, b, c, d);
    }
  }
  return mesh;
}

}  // namespace

RenderMesh MakeSphereMesh(double radius, int slices, int stacks) {
  return MakeLathe(radius, 0, slices, stacks);
}

RenderMesh MakeCapsuleMesh(double radius, double length, int slices, int stacks) {
  return MakeLathe(radius, 0.5 * length, slices, stacks);
}

RenderMesh MakeBoxMesh(const Vector3& size) {
  RenderMesh mesh;
  const Vector3f h = (0.5 * size).cast<float>();
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      Vector3f n = Vector3f::Zero();
      n[axis] = static_cast<float>(sign);
      // u, v span the face so that u × v = n.
      Vector3f u = Vector3f::Zero(), v = Vector3f::Zero();
      u[(axis + 1) % 3] = 1;
      v[(axis + 2) % 3] = 1;
      if (sign < 0) std::swap(u, v);
      const auto base = static_cast<std::uint32_t>(mesh.positions_G.size());
      for (const auto& [su, sv] : {std::pair{-1.f, -1.f}, {1.f, -1.f}, {1.f, 1.f}, {-1.f, 1.f}}) {
        const Vector3f p = n + su * u + sv * v;
        mesh.positions_G.push_back(p.cwiseProduct(h));
        mesh.normals_G.push_back(n);
      }
      AddQuad(&mesh, base, base + 1, base + 2, base + 3);
    }
  }
  return mesh;
}

RenderMesh MakeCylinderMesh(double radius, double length, int slices) {
  slices = std::max(slices, 3);
  RenderMesh mesh;
  const float r = static_cast<float>(radius), hz = static_cast<float>(0.5 * length);
  // Side: two rings with radial normals.
  for (float z : {-hz, hz}) {
    for (int j = 0; j <= slices; ++j) {
      const double az = 2 * kPi * j / slices;
      const Vector3f n(static_cast<float>(std::cos(az)), static_cast<float>(std::sin(az)), 0);
      mesh.positions_G.push_back(Vector3f(r * n.x(), r * n.y(), z));
      mesh.normals_G.push_back(n);
    }
  }
  const auto row = static_cast<std::uint32_t>(slices + 1);
  for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(slices); ++j) {
    AddQuad(&mesh, j, j + 1, j + 1 + row, j + row);
  }
  // Caps: a centre and a ring each, axial normals.
  for (float sign : {-1.f, 1.f}) {
    const auto centre = static_cast<std::uint32_t>(mesh.positions_G.size());
    mesh.positions_G.push_back(Vector3f(0, 0, sign * hz));
    mesh.normals_G.push_back(Vector3f(0, 0, sign));
    for (int j = 0; j <= slices; ++j) {
      const double az = 2 * kPi * j / slices;
      mesh.positions_G.push_back(Vector3f(r * static_cast<float>(std::cos(az)),
                                          r * static_cast<float>(std::sin(az)), sign * hz));
      mesh.normals_G.push_back(Vector3f(0, 0, sign));
    }
    for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(slices); ++j) {
      const std::uint32_t a = centre + 1 + j, b = a + 1;
      if (sign > 0) {
        mesh.indices.insert(mesh.indices.end(), {centre, a, b});
      } else {
        mesh.indices.insert(mesh.indices.end(), {centre, b, a});
      }
    }
  }
  return mesh;
}

RenderMesh MakePlaneMesh(double half_extent) {
  RenderMesh mesh;
  const float h = static_cast<float>(half_extent);
  for (const auto& [x, y] : {std::pair{-h, -h}, {h, -h}, {h, h}, {-h, h}}) {
    mesh.positions_G.push_back(Vector3f(x, y, 0));
    mesh.normals_G.push_back(Vector3f::UnitZ());
  }
  AddQuad(&mesh, 0, 1, 2, 3);
  return mesh;
}

RenderMesh MakePrimitiveMesh(const ShapeDescription& shape) {
  switch (shape.type) {
    case ShapeType::kSphere: return MakeSphereMesh(shape.radius);
    case ShapeType::kBox: return MakeBoxMesh(shape.size);
    case ShapeType::kCapsule: return MakeCapsuleMesh(shape.radius, shape.length);
    case ShapeType::kCylinder: return MakeCylinderMesh(shape.radius, shape.length);
    case ShapeType::kHalfSpace: return MakePlaneMesh(50.0);
    case ShapeType::kMesh: break;
  }
  throw std::logic_error("MakePrimitiveMesh: mesh shapes are loaded from files");
}

bool HasLevelsOfDetail(const ShapeDescription& shape) {
  return shape.type == ShapeType::kSphere || shape.type == ShapeType::kCapsule ||
         shape.type == ShapeType::kCylinder;
}

RenderMesh MakePrimitiveMesh(const ShapeDescription& shape, int lod) {
  const int slices = kLodSlices[std::clamp(lod, 0, kNumLods - 1)];
  switch (shape.type) {
    case ShapeType::kSphere: return MakeSphereMesh(shape.radius, slices, slices / 2);
    case ShapeType::kCapsule: return MakeCapsuleMesh(shape.radius, shape.length, slices, slices / 2);
    case ShapeType::kCylinder: return MakeCylinderMesh(shape.radius, shape.length, slices);
    default: return MakePrimitiveMesh(shape);
  }
}

int ChooseLod(float radius_px) {
  int lod = 0;
  while (lod + 1 < kNumLods && radius_px <= kLodMaxRadiusPx[lod + 1]) ++lod;
  return lod;
}

}  // namespace stiction::app
