#include "engine/scene/shape_inertia.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace stiction {

bool HasClosedFormMassProperties(ShapeType type) {
  return type == ShapeType::kSphere || type == ShapeType::kBox ||
         type == ShapeType::kCapsule || type == ShapeType::kCylinder;
}

double CalcShapeVolume(const ShapeDescription& shape) {
  constexpr double kPi = std::numbers::pi;
  const double r = shape.radius;
  switch (shape.type) {
    case ShapeType::kSphere:
      return 4.0 / 3.0 * kPi * r * r * r;
    case ShapeType::kBox:
      return shape.size.x() * shape.size.y() * shape.size.z();
    case ShapeType::kCylinder:
      return kPi * r * r * shape.length;
    case ShapeType::kCapsule:
      return kPi * r * r * shape.length + 4.0 / 3.0 * kPi * r * r * r;
    case ShapeType::kHalfSpace:
    case ShapeType::kMesh:
      break;
  }
  throw std::invalid_argument("CalcShapeVolume: shape has no closed-form volume");
}

Matrix3 CalcShapeInertia(const ShapeDescription& shape, double mass) {
  const double r = shape.radius;
  const double L = shape.length;
  Vector3 moments = Vector3::Zero();
  switch (shape.type) {
    case ShapeType::kSphere:
      moments.setConstant(0.4 * mass * r * r);
      break;
    case ShapeType::kBox: {
      const Vector3 s2 = shape.size.cwiseProduct(shape.size);
      moments = mass / 12.0 * Vector3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
      break;
    }
    case ShapeType::kCylinder: {
      const double transverse = mass / 12.0 * (3.0 * r * r + L * L);
      moments = Vector3(transverse, transverse, 0.5 * mass * r * r);
      break;
    }
    case ShapeType::kCapsule: {
      // Split the mass between the cylinder (length L) and the two hemispheres
      // in proportion to volume. Each hemisphere's transverse moment about the
      // capsule centre follows from the parallel-axis theorem with its
      // centroid 3r/8 from its flat face, which lies L/2 from the centre:
      // I = m_h (2r²/5 + L²/4 + 3Lr/8).
      const double v_cyl = r * r * L;
      const double v_sph = 4.0 / 3.0 * r * r * r;
      const double m_cyl = mass * v_cyl / (v_cyl + v_sph);
      const double m_sph = mass - m_cyl;
      const double axial = 0.5 * m_cyl * r * r + 0.4 * m_sph * r * r;
      const double transverse = m_cyl * (L * L / 12.0 + r * r / 4.0) +
                                m_sph * (0.4 * r * r + L * L / 4.0 + 3.0 * L * r / 8.0);
      moments = Vector3(transverse, transverse, axial);
      break;
    }
    case ShapeType::kHalfSpace:
    case ShapeType::kMesh:
      throw std::invalid_argument("CalcShapeInertia: shape has no closed-form inertia");
  }
  return moments.asDiagonal();
}

double CalcShapeBoundingRadius(const ShapeDescription& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return shape.radius;
    case ShapeType::kBox:
      return 0.5 * shape.size.norm();
    case ShapeType::kCapsule:
      return shape.radius + 0.5 * shape.length;
    case ShapeType::kCylinder:
      return std::hypot(shape.radius, 0.5 * shape.length);
    case ShapeType::kHalfSpace:
    case ShapeType::kMesh:
      break;
  }
  throw std::invalid_argument("CalcShapeBoundingRadius: shape is not a primitive");
}

}  // namespace stiction
