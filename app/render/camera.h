#pragma once
// The orbit camera of MuJoCo's simulate: it looks at `lookat` from `distance`
// along the direction given by azimuth and elevation, with world z up.
// Mouse deltas are in window pixels; the viewport height sets their scale so
// that a drag across the window is the same gesture at any size.
#include "app/render/gl_math.h"

namespace stiction::app {

/// A ray p(t) = origin + t·direction, t ≥ 0, direction unit, world frame [m].
struct Ray {
  Vec3f origin = Vec3f::Zero();
  Vec3f direction = Vec3f::UnitX();
};

class Camera {
 public:
  Vec3f lookat = Vec3f::Zero();  ///< Point looked at, world [m].
  float distance = 3.0f;         ///< Eye to lookat [m], > 0.
  float azimuth_deg = 120.0f;    ///< Heading of the view direction about z [deg].
  float elevation_deg = -25.0f;  ///< Pitch of the view direction; < 0 looks down [deg].
  float fovy_deg = 45.0f;        ///< Vertical field of view [deg].

  /// Unit view direction (eye towards lookat).
  Vec3f Forward() const;
  /// Unit screen-right and screen-up directions in the world.
  Vec3f Right() const;
  Vec3f Up() const;
  Vec3f Eye() const;
  float NearPlane() const;  ///< [m]
  float FarPlane() const;   ///< [m]

  Mat4f View() const;
  Mat4f Projection(float aspect) const;
  /// Projection · View for a viewport of `width` x `height` pixels.
  Mat4f ViewProjection(int width, int height) const;

  /// Left drag: turn about the lookat point. dx, dy in pixels.
  void Orbit(double dx, double dy, int viewport_height);
  /// Right drag: move the lookat point in the view plane, or (horizontal)
  /// in the horizontal plane: dy then moves it along the view's heading.
  void Pan(double dx, double dy, int viewport_height, bool horizontal);
  /// Scroll: zoom in (> 0) or out, exponentially.
  void Zoom(double scroll);
  /// Frames a sphere [m] from the current azimuth and elevation.
  void Fit(const Vec3f& center, float radius);
  /// Aims at the centre of the axis-aligned box [lo, hi] [m] and sets the
  /// distance at which its eight corners fill the view (aspect = width /
  /// height) with `margin` (1.15: 15 % of air), keeping azimuth and elevation.
  void FitBox(const Vec3f& lo, const Vec3f& hi, float aspect, float margin = 1.15f);

  /// The world ray through window pixel (x, y) (origin top left, y down).
  Ray PixelRay(double x, double y, int width, int height) const;
  /// Window pixel (x right, y down) of world point p; false when behind the eye.
  bool Project(const Vec3f& p, int width, int height, Vec3f* pixel) const;
  /// World length of one pixel at depth `depth` [m] along the view direction.
  float PixelSize(float depth, int viewport_height) const;
};

}  // namespace stiction::app
