#include "bench/side_by_side/bench_scenes.h"

#include <cmath>
#include <random>
#include <string>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/multibody/multibody_model.h"
#include "engine/scene/scene_loader.h"

namespace stiction::bench {
namespace {

std::string ScenePath(const std::string& file) {
  return std::string(STICTION_SOURCE_DIR) + "/assets/scenes/" + file;
}

int BodyIndex(const SceneDescription& scene, const std::string& name) {
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (scene.bodies[i].name == name) return static_cast<int>(i);
  }
  throw InputError(scene.file + ": the benchmark expects a body named '" + name + "'");
}

MaterialDescription& Material(SceneDescription* scene, const std::string& name) {
  for (MaterialDescription& m : scene->materials) {
    if (m.name == name) return m;
  }
  throw InputError(scene->file + ": the benchmark expects a material named '" + name + "'");
}

int CountFreeBodies(const SceneDescription& scene) {
  int n = 0;
  for (const JointDescription& j : scene.joints) n += j.type == JointType::kFree ? 1 : 0;
  return n;
}

// The common part of every benchmark scene: a shipped YAML scene (with
// overrides) at time step `dt`, measured by `metric` over `duration`.
BenchScene LoadBenchScene(const std::string& name, const std::string& file, double dt, double duration,
                          Metric metric, const std::vector<std::string>& overrides = {}) {
  BenchScene b;
  b.name = name;
  b.scene = LoadSceneFile(ScenePath(file), overrides);
  b.scene.time_step = dt;
  b.duration = duration;
  b.metric = metric;
  b.objects = CountFreeBodies(b.scene);
  for (const JointDescription& j : b.scene.joints) b.dofs += JointNumVelocities(j.type);
  return b;
}

// τd = δt/π for every material: the paper's critically damped choice
// (Eq. 28), which the near-rigid scene files write out for δt = 10 ms.
void SetCriticalDissipation(double dt, SceneDescription* scene) {
  for (MaterialDescription& m : scene->materials) m.material.dissipation = dt / M_PI;
}

}  // namespace

BenchScene MakeClutter(bool walls, double dt, double duration) {
  BenchScene b = LoadBenchScene(walls ? "clutter40_walls" : "clutter40_nowalls",
                                walls ? "clutter.yaml" : "clutter_nowalls.yaml", dt, duration, Metric::kSettle);
  Material(&b.scene, "clutter").material.dissipation = dt;  // τd = δt ([SAP] Sec. VI-C).
  return b;
}

BenchScene MakeScaledClutter(int objects, double dt, double duration) {
  const BenchScene tile = MakeClutter(/*walls=*/false, dt, duration);
  const int tiles = objects / tile.objects;
  if (tiles < 1 || tiles * tile.objects != objects) {
    throw InputError("scaled clutter: the object count must be a multiple of " +
                     std::to_string(tile.objects) + ", got " + std::to_string(objects));
  }
  BenchScene b = tile;
  b.name = "clutter" + std::to_string(objects) + "_grid";
  b.scene.bodies.clear();
  b.scene.joints.clear();
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(tiles))));
  const double spacing = 1.2;  // [m]: the 40-object piles spread to about ±0.5 m.
  // Identical tiles would fall identically (and converge together); each
  // tile's objects get their own deterministic ±5 mm horizontal jitter.
  std::mt19937 random(20261123);
  std::uniform_real_distribution<double> jitter(-0.005, 0.005);
  for (int t = 0; t < tiles; ++t) {
    const Vector3 offset(spacing * (t % side), spacing * (t / side), 0);
    const std::string suffix = "_t" + std::to_string(t);
    for (BodyDescription body : tile.scene.bodies) {
      body.name += suffix;
      b.scene.bodies.push_back(std::move(body));
    }
    for (JointDescription joint : tile.scene.joints) {
      joint.name += suffix;
      joint.child += suffix;
      if (joint.parent != "world") joint.parent += suffix;
      if (joint.type == JointType::kFree && joint.initial_q.size() == 7) {
        for (int k = 0; k < 3; ++k) joint.initial_q[4 + k] += offset[k];
        if (t > 0) {
          joint.initial_q[4] += jitter(random);
          joint.initial_q[5] += jitter(random);
        }
      }
      b.scene.joints.push_back(std::move(joint));
    }
  }
  b.objects = CountFreeBodies(b.scene);
  b.dofs = tiles * tile.dofs;
  b.scaling = true;
  return b;
}

BenchScene MakeIncline(double tan_alpha, double dt, double duration) {
  const double a = std::atan(tan_alpha);
  const std::string rpy = "[0," + FormatNumber(a, kRoundTripDigits) + ",0]";
  const std::string position = "[" + FormatNumber(0.05 * std::sin(a), kRoundTripDigits) + ",0," +
                               FormatNumber(0.05 * std::cos(a), kRoundTripDigits) + "]";
  // The overrides documented in incline.yaml tilt the ramp and the box.
  BenchScene b = LoadBenchScene("incline", "incline.yaml", dt, duration, Metric::kCreep,
                                {std::string("world_geometry.ramp.pose.rpy=") + rpy,
                                 std::string("bodies.box.pose.rpy=") + rpy,
                                 std::string("bodies.box.pose.position=") + position});
  const double mu = Material(&b.scene, "incline").material.friction;
  const double g = -b.scene.gravity.z();
  b.name = tan_alpha < mu ? "incline_stick" : "incline_slide";
  b.metric = tan_alpha < mu ? Metric::kCreep : Metric::kAcceleration;
  b.tracked_body = BodyIndex(b.scene, "box");
  b.slope_direction = Vector3(std::cos(a), 0, -std::sin(a));  // Descends towards +x.
  b.expected_acceleration = g * (std::sin(a) - mu * std::cos(a));
  b.creep_bound = mu * b.scene.contact.stiction_tolerance * g * dt;  // Eq. (31).
  return b;
}

BenchScene MakeGraspHold(double dt, double duration) {
  BenchScene b = LoadBenchScene("grasp_hold", "grasp_hold.yaml", dt, duration, Metric::kGraspDrift);
  b.tracked_body = BodyIndex(b.scene, "box");
  b.compare_paper_estimate = true;
  return b;
}

BenchScene MakeStack10(double dt, double duration) {
  BenchScene b = LoadBenchScene("stack10", "stack10.yaml", dt, duration, Metric::kStack);
  SetCriticalDissipation(dt, &b.scene);
  b.tracked_body = BodyIndex(b.scene, "box_9");
  b.compare_paper_estimate = true;
  return b;
}

BenchScene MakeMassRatio(double dt, double duration) {
  BenchScene b = LoadBenchScene("mass_ratio", "heavy_on_light.yaml", dt, duration, Metric::kSink);
  SetCriticalDissipation(dt, &b.scene);
  b.tracked_body = BodyIndex(b.scene, "heavy");
  b.compare_paper_estimate = true;
  return b;
}

BenchScene MakeArmHold(double dt, double duration) {
  BenchScene b = LoadBenchScene("arm_hold", "bench_arm_hold.yaml", dt, duration, Metric::kGraspDrift);
  SetCriticalDissipation(dt, &b.scene);
  b.tracked_body = BodyIndex(b.scene, "box");
  b.reference_body = BodyIndex(b.scene, "gripper/gripper_base");
  return b;
}

BenchScene MakeQuadrupeds8(double dt, double duration) {
  BenchScene b = LoadBenchScene("quadrupeds8", "quadrupeds8_standing.yaml", dt, duration, Metric::kStand);
  for (int k = 0; k < 8; ++k) b.standing_bodies.push_back(BodyIndex(b.scene, "dog" + std::to_string(k) + "/trunk"));
  return b;
}

BenchScene MakeHumanoids(int count, double dt, double duration) {
  BenchScene b = LoadBenchScene(count == 1 ? "humanoid" : "humanoid" + std::to_string(count),
                                count == 1 ? "bench_humanoid.yaml" : "bench_humanoid" + std::to_string(count) + ".yaml",
                                dt, duration, Metric::kSettle);
  return b;
}

std::vector<BenchScene> MakeBenchScenes(bool short_run) {
  std::vector<BenchScene> scenes;
  if (short_run) {
    scenes.push_back(MakeClutter(true, 0.01, 0.5));
    scenes.push_back(MakeScaledClutter(40, 0.01, 0.3));
    scenes.push_back(MakeScaledClutter(80, 0.01, 0.3));
    scenes.push_back(MakeIncline(0.40, 0.01, 0.5));
    scenes.push_back(MakeIncline(0.60, 0.01, 0.5));
    scenes.push_back(MakeGraspHold(0.01, 0.5));
    scenes.push_back(MakeStack10(0.01, 0.5));
    scenes.push_back(MakeMassRatio(0.01, 0.5));
    scenes.push_back(MakeArmHold(0.01, 0.5));
    scenes.push_back(MakeQuadrupeds8(0.01, 0.3));
    return scenes;
  }
  for (bool walls : {true, false}) {
    for (double dt : {0.01, 0.002}) scenes.push_back(MakeClutter(walls, dt, 10));
  }
  // The scaling series: the same 3 s (impacts and settling) for every size.
  for (int n : {40, 80, 160, 320, 640}) scenes.push_back(MakeScaledClutter(n, 0.01, 3));
  scenes.push_back(MakeIncline(0.40, 0.01, 5));
  scenes.push_back(MakeIncline(0.60, 0.01, 2));
  scenes.push_back(MakeGraspHold(0.01, 10));
  scenes.push_back(MakeStack10(0.01, 10));
  scenes.push_back(MakeMassRatio(0.01, 10));
  scenes.push_back(MakeArmHold(0.01, 10));
  scenes.push_back(MakeQuadrupeds8(0.01, 10));
  scenes.push_back(MakeHumanoids(1, 0.01, 10));
  scenes.push_back(MakeHumanoids(22, 0.01, 10));
  return scenes;
}

}  // namespace stiction::bench
