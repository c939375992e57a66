#pragma once
// The scenes of the side-by-side benchmark (issue 8), each a SceneDescription
// every engine is built from, plus what the benchmark measures on it.
// Built from the shipped YAML scenes (assets/scenes/) and modified in code
// where a scene is a variant (time step, tilt, object count).
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction::bench {

/// The accuracy metric of a scene (docs/benchmarks.md, "Side by side").
enum class Metric {
  kSettle,        ///< Clutter: largest body speed at the end [m/s].
  kCreep,         ///< Incline stick: speed down the slope over the 2nd half [mm/s].
  kAcceleration,  ///< Incline slide: acceleration down the slope over the 2nd half vs analytic.
  kGraspDrift,    ///< Grasp hold: the box's vertical speed over the 2nd half [mm/s].
  kStack,         ///< Stack: standing or not, top box horizontal speed over the 2nd half.
  kSink,          ///< Mass ratio: how far the heavy box sits below its start at the end [m].
  kStand,         ///< Robots standing: largest trunk height drop at the end [m]; all standing.
};

struct BenchScene {
  std::string name;          ///< Row label, e.g. "clutter40_walls".
  SceneDescription scene;    ///< What every engine builds.
  double duration = 1;       ///< Simulated time [s].
  Metric metric = Metric::kSettle;
  int objects = 0;           ///< Free bodies (scaling fit).
  bool scaling = false;      ///< Part of the object-count series (MakeScaledClutter).
  int tracked_body = -1;     ///< Scene body index the metric follows (box, top box).
  /// kGraspDrift: scene body the slip is measured against (the gripper that
  /// holds the box, which may sag with its arm); -1 = the world.
  int reference_body = -1;
  /// kStand: the scene bodies (trunks) that must stay up.
  std::vector<int> standing_bodies;
  int dofs = 0;              ///< Generalized velocities of the scene [count].
  Vector3 slope_direction = Vector3::Zero();  ///< Incline: unit vector down the slope.
  double expected_acceleration = 0;           ///< Incline slide: g(sin α − μ cos α) [m/s²].
  double creep_bound = 0;    ///< Incline stick: μσgδt, [SAP] Eq. (31) [m/s].
  /// Also run SAP with [SAP] Eq. (29) as published (engine sap_paper): the
  /// scenes whose near-rigid contacts carry more than their bodies weigh.
  bool compare_paper_estimate = false;
};

/// 40 objects dropped into the 80 cm box (assets/scenes/clutter.yaml) or the
/// same without walls (clutter_nowalls.yaml), at time step `dt`; the
/// dissipation time scale τd = δt as in [SAP] Sec. VI-C.
BenchScene MakeClutter(bool walls, double dt, double duration);

/// `objects` (a multiple of 40) objects without walls: tiles of the 40-object
/// clutter_nowalls layout on a square grid 1.2 m apart, every tile after the
/// first with its own ±5 mm horizontal jitter. Named "clutterN_grid".
BenchScene MakeScaledClutter(int objects, double dt, double duration);

/// assets/scenes/incline.yaml tilted to tan α = `tan_alpha` (μ = 0.5):
/// 0.40 sticks (metric kCreep), 0.60 slides (kAcceleration).
BenchScene MakeIncline(double tan_alpha, double dt, double duration);

/// assets/scenes/grasp_hold.yaml: a 1 kg box between two pads pressed with
/// 20 N each, μ = 1.
BenchScene MakeGraspHold(double dt, double duration);

/// assets/scenes/stack10.yaml: ten 10 cm boxes, μ = 0.5.
BenchScene MakeStack10(double dt, double duration);

/// assets/scenes/heavy_on_light.yaml: a 5 kg box resting on a 5 g box on the
/// ground (mass ratio 1000), named "mass_ratio".
BenchScene MakeMassRatio(double dt, double duration);

/// assets/scenes/bench_arm_hold.yaml (issue 15): the iiwa 14-like arm with
/// the parallel gripper (URDF, joint PD) holding a 1 kg box pressed with
/// 20 N per pad, μ = 1; metric kGraspDrift relative to the gripper base.
/// Named "arm_hold".
BenchScene MakeArmHold(double dt, double duration);

/// assets/scenes/quadrupeds8_standing.yaml (issue 15): eight A1-like
/// quadrupeds (URDF, floating base, 144 DOF) standing under joint PD;
/// metric kStand on their trunks. Named "quadrupeds8".
BenchScene MakeQuadrupeds8(double dt, double duration);
/// MuJoCo's humanoid (assets/robots/humanoid.xml, 27 DOF), one or 22 of them
/// (bench_humanoid.yaml, bench_humanoid22.yaml), collapsing onto the ground.
BenchScene MakeHumanoids(int count, double dt, double duration);

/// The benchmark's scene list. `short_run`: every scene kind once, short
/// durations and one scaled clutter, so the whole table takes well under a
/// minute (CI runs it).
std::vector<BenchScene> MakeBenchScenes(bool short_run);

}  // namespace stiction::bench
