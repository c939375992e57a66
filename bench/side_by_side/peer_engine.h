#pragma once
// One physics engine running one benchmark scene, behind the interface the
// side-by-side benchmark (stiction-bench, issue 8) drives: Stiction itself,
// MuJoCo and Bullet. Every engine is built from the same SceneDescription
// (the YAML scene, or one generated in code), so the scenes are the same by
// construction; what each adapter maps and what it refuses is documented in
// its header and in docs/benchmarks.md.
#include <memory>
#include <string>

#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction::bench {

class PeerEngine {
 public:
  virtual ~PeerEngine() = default;

  /// Engine and configuration, as printed in the table
  /// (e.g. "MuJoCo 2.2.2 pyramidal Newton").
  virtual std::string label() const = 0;

  /// Advances one time step of the scene's δt. Returns false (and fills
  /// `error`) when the engine failed or its state is no longer finite.
  virtual bool Step(std::string* error) = 0;

  /// World position of the origin of scene body `i` (index into
  /// SceneDescription::bodies) [m].
  virtual Vector3 BodyPosition(int i) const = 0;
  /// World linear velocity of the origin of scene body `i` [m/s].
  virtual Vector3 BodyVelocity(int i) const = 0;

  /// Solver iterations of the last step (the engine's own notion: SAP Newton
  /// iterations, MuJoCo's solver_iter, Bullet's SI sweeps).
  virtual double LastIterations() const = 0;
  /// Deepest penetration over the last step's contacts [m], ≥ 0.
  virtual double LastMaxPenetration() const = 0;
};

/// MuJoCo solver configurations the table compares (issue 8).
enum class MujocoConfig {
  kPyramidalNewton,  ///< MuJoCo's default: pyramidal cone, Newton solver.
  kEllipticNewton,   ///< Elliptic cone, Newton solver.
  kEllipticNoslip,   ///< Elliptic cone, Newton, plus the noslip post-solver.
};

/// Builds `scene` in MuJoCo (MJCF generated from the description). Returns
/// nullptr and sets `why_not` when MuJoCo is not built in or the scene holds
/// something the adapter cannot map.
std::unique_ptr<PeerEngine> MakeMujocoEngine(const SceneDescription& scene, MujocoConfig config,
                                             std::string* why_not);

/// Builds `scene` in Bullet (btDiscreteDynamicsWorld with its default
/// sequential-impulse solver). Returns nullptr and sets `why_not` when Bullet
/// is not built in or the scene holds something the adapter cannot map.
std::unique_ptr<PeerEngine> MakeBulletEngine(const SceneDescription& scene, std::string* why_not);

}  // namespace stiction::bench
